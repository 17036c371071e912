package backend

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/server"
	"github.com/graphcoder/graphcoder/server/httpapi"
	"github.com/graphcoder/graphcoder/server/internal/jsonrpctest"
)

// TabbyAgentVersion is the release of Tabby's editor agent (the npm
// package tabby-agent that Tabby's Vim, Emacs and other integrations run)
// the test drives; `make deps` installs it where the test looks
// ($GRAPHCODER_NPM_DIR/tabby-agent-VERSION), else the test does.
const TabbyAgentVersion = "1.5.0"

// tabbyAgent returns the agent's entry point, installing the package with
// npm into a cache folder the first time (bounded in time). It skips the
// test without node and npm, or when the registry cannot be reached.
func tabbyAgent(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed")
	}
	dir := os.Getenv("GRAPHCODER_NPM_DIR") // set by the Makefile
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Skipf("no cache folder for npm packages: %v", err)
		}
		dir = filepath.Join(cache, "graphcoder", "npm")
	}
	dir = filepath.Join(dir, "tabby-agent-"+TabbyAgentVersion)
	cli := filepath.Join(dir, "node_modules", "tabby-agent", "dist", "cli.js")
	if _, err := os.Stat(cli); err == nil {
		return cli
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("npm not installed")
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Skipf("npm cache folder: %v", err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".tabby-agent-")
	if err != nil {
		t.Skipf("npm cache folder: %v", err)
	}
	defer os.RemoveAll(tmp)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", tmp, "--no-audit", "--no-fund", "--ignore-scripts",
		"--loglevel=error", "tabby-agent@"+TabbyAgentVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("npm install tabby-agent@%s failed (no registry?): %v\n%s", TabbyAgentVersion, err, out)
	}
	// Publish the finished install in one step, over a broken one; a
	// concurrent run may have published it first.
	if _, err := os.Stat(cli); err != nil {
		os.RemoveAll(dir)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(cli); serr != nil {
			t.Fatalf("publish the tabby-agent install: %v", err)
		}
	}
	return cli
}

// syncWriter is a buffer the child processes' output goes to.
type syncWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// startServe runs the real `graphcoder serve --http` on a free loopback
// port with a JSON request log and returns its address once the index is
// ready.
func startServe(t *testing.T, repo string) (string, *syncWriter) {
	t.Helper()
	exe, err := graphcoderBinary()
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncWriter{}
	cmd := exec.Command(exe, "serve", "--repo", repo, "--http", "127.0.0.1:0", "--no-watch", "--log-format", "json")
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	addr := regexp.MustCompile(`HTTP on (http://127\.0\.0\.1:\d+)`)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if m := addr.FindStringSubmatch(logs.String()); m != nil {
			resp, err := http.Get(m[1] + "/v1/health")
			if err == nil {
				var h map[string]any
				_ = json.NewDecoder(resp.Body).Decode(&h)
				resp.Body.Close()
				if h["status"] == "ok" {
					return m[1], logs
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("graphcoder serve did not get ready:\n%s", logs)
	return "", nil
}

// agentHome is a home folder whose Tabby agent configuration points at
// endpoint with anonymous usage reporting off.
func agentHome(t *testing.T, endpoint string) string {
	t.Helper()
	home := t.TempDir()
	dir := filepath.Join(home, ".tabby-client", "agent")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	conf := fmt.Sprintf("[server]\nendpoint = %q\n\n[anonymousUsageTracking]\ndisable = true\n\n[logs]\nlevel = \"debug\"\n", endpoint)
	if err := os.WriteFile(filepath.Join(dir, "config.toml"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return home
}

// agentLogs returns what the agent logged under home, for a failure.
func agentLogs(home string) string {
	var b strings.Builder
	files, _ := filepath.Glob(filepath.Join(home, ".tabby-client", "agent", "logs", "*.log"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		b.Write(data)
	}
	return b.String()
}

// startAgent runs the agent (node cli.js args...) with home as its home.
func startAgent(t *testing.T, cli, home string, args ...string) (stdin io.WriteCloser, stdout io.Reader) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, "node", append([]string{cli}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+home)
	cmd.Dir = home // the agent's log rotation writes audit.json into its working folder
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		in.Close()
		cancel()
		_ = cmd.Wait()
	})
	return in, out
}

// serveLog returns the JSON request log records of graphcoder serve.
func serveLog(t *testing.T, logs *syncWriter) []server.Record {
	t.Helper()
	var recs []server.Record
	for _, line := range strings.Split(logs.String(), "\n") {
		var r server.Record
		if strings.HasPrefix(line, "{") && json.Unmarshal([]byte(line), &r) == nil {
			recs = append(recs, r)
		}
	}
	return recs
}

// askGraphcoder posts a completion request to graphcoder itself.
func askGraphcoder(t *testing.T, base string, req map[string]any) httpapi.CompletionResponse {
	t.Helper()
	body, _ := json.Marshal(req)
	resp, err := http.Post(base+"/v1/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v httpapi.CompletionResponse
	if err := json.NewDecoder(resp.Body).Decode(&v); err != nil || resp.StatusCode != 200 {
		t.Fatalf("status %d, %v", resp.StatusCode, err)
	}
	return v
}

// agentRepo writes the repository the agent completes in.
func agentRepo(t *testing.T) string {
	repo := t.TempDir()
	for name, text := range map[string]string{
		"billing/invoice.py": invoiceFile("invoice_total"),
		"billing/quote.py":   invoiceFile("quote_total"),
	} {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return repo
}

// TestTabbyAgent drives Tabby's own editor agent, installed from npm,
// against the real `graphcoder serve --http`: over LSP (its mode for
// editors speaking LSP, which sends 20 lines around the cursor and no file
// path) its completion item carries graphcoder's completion unchanged;
// over its JSON-lines protocol (Vim's) a completion with a file path is
// placed in the file on disk, and its event posts get 2xx and are counted.
func TestTabbyAgent(t *testing.T) {
	cli := tabbyAgent(t)
	repo := agentRepo(t)
	base, logs := startServe(t, repo)
	home := agentHome(t, base)
	defer func() {
		if t.Failed() {
			t.Logf("graphcoder log:\n%s\nagent log:\n%s", logs, agentLogs(home))
		}
	}()

	// The buffer: the invoice file, typed up to "    tax = " on its
	// second to last line but one.
	text := invoiceFile("invoice_total")
	lines := strings.SplitAfter(text, "\n")
	cur := len(lines) - 3
	typed := "    tax = "
	lines[cur] = typed + "\n"
	buffer := strings.Join(lines, "")
	offset := len(strings.Join(lines[:cur], "")) + len(typed)

	// What graphcoder answers the request the agent makes in LSP mode:
	// the last 20 lines before the cursor (the cursor's included), the
	// first 20 after, the language and nothing else.
	prefix20 := strings.Join(lines[cur-19:cur], "") + typed
	suffix20 := strings.Join(append([]string{"\n"}, lines[cur+1:]...), "")
	want := askGraphcoder(t, base, map[string]any{"language": "python", "segments": map[string]string{"prefix": prefix20, "suffix": suffix20}})
	if len(want.Choices) != 1 || want.Choices[0].Text == "" {
		t.Fatalf("graphcoder offers nothing for the agent's request: %+v", want)
	}

	t.Run("lsp", func(t *testing.T) {
		in, out := startAgent(t, cli, home, "--lsp", "--stdio")
		c := jsonrpctest.NewClient(out, in)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		if err := c.Call(ctx, "initialize", map[string]any{"processId": nil, "rootUri": "file://" + repo,
			"capabilities": map[string]any{}, "clientInfo": map[string]string{"name": "graphcoder-test", "version": "1"}}, nil); err != nil {
			t.Fatalf("initialize: %v", err)
		}
		_ = c.Notify("initialized", map[string]any{})
		uri := "file://" + filepath.ToSlash(filepath.Join(repo, "billing", "invoice.py"))
		_ = c.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": uri, "languageId": "python", "version": 1, "text": buffer}})
		params := map[string]any{"textDocument": map[string]string{"uri": uri},
			"position": map[string]int{"line": cur, "character": len(typed)}}
		type item struct {
			TextEdit struct {
				NewText string `json:"newText"`
			} `json:"textEdit"`
			Data struct {
				CompletionID string `json:"completionId"`
			} `json:"data"`
		}
		// The agent answers nothing until it has connected to the server;
		// ask until it does.
		var items []item
		for ctx.Err() == nil && len(items) == 0 {
			var list struct {
				Items []item `json:"items"`
			}
			if err := c.Call(ctx, "textDocument/completion", params, &list); err != nil {
				t.Fatalf("completion: %v", err)
			}
			if items = list.Items; len(items) == 0 {
				time.Sleep(200 * time.Millisecond)
			}
		}
		if len(items) != 1 {
			t.Fatalf("the agent's items: %+v", items)
		}
		// The item replaces the word before the cursor (none after "= ")
		// with that word and graphcoder's text.
		if got := items[0].TextEdit.NewText; got != want.Choices[0].Text {
			t.Fatalf("the agent shows %q, graphcoder answered %q", got, want.Choices[0].Text)
		}
		if !strings.HasPrefix(items[0].Data.CompletionID, "cmpl-") {
			t.Fatalf("completion id %q", items[0].Data.CompletionID)
		}
		_ = c.Call(ctx, "shutdown", nil, nil)
		t.Logf("tabby-agent (LSP) completed %q", items[0].TextEdit.NewText)
	})

	t.Run("events", func(t *testing.T) {
		in, out := startAgent(t, cli, home)
		answers := make(chan []json.RawMessage, 16)
		go func() {
			sc := bufio.NewScanner(out)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				var msg []json.RawMessage
				if json.Unmarshal(sc.Bytes(), &msg) == nil && len(msg) == 2 && string(msg[0]) != "0" {
					answers <- msg
				}
			}
		}()
		call := func(id int, fn string, args ...any) json.RawMessage {
			t.Helper()
			b, _ := json.Marshal([]any{id, map[string]any{"func": fn, "args": args}})
			if _, err := in.Write(append(b, '\n')); err != nil {
				t.Fatal(err)
			}
			select {
			case msg := <-answers:
				if string(msg[0]) != fmt.Sprint(id) {
					t.Fatalf("answer %s to request %d", msg, id)
				}
				return msg[1]
			case <-time.After(60 * time.Second):
				t.Fatalf("no answer to %s", fn)
			}
			return nil
		}
		if got := string(call(1, "initialize", map[string]any{"clientProperties": map[string]any{"session": map[string]string{"client": "graphcoder-test"}}})); got != "true" {
			t.Fatalf("initialize: %s", got)
		}
		req := map[string]any{"filepath": filepath.Join(repo, "billing", "invoice.py"), "language": "python",
			"text": buffer, "position": offset, "workspace": repo, "manually": true}
		var resp struct {
			ID      string
			Choices []struct{ Text string }
		}
		deadline := time.Now().Add(60 * time.Second)
		for id := 2; time.Now().Before(deadline); id++ {
			if err := json.Unmarshal(call(id, "provideCompletions", req), &resp); err != nil {
				t.Fatal(err)
			}
			if len(resp.Choices) > 0 {
				break
			}
			time.Sleep(200 * time.Millisecond)
		}
		// With a file path the 20 lines are placed in the file on disk:
		// the answer is the full prefix's.
		full := askGraphcoder(t, base, map[string]any{"language": "python",
			"segments": map[string]string{"prefix": buffer[:offset], "suffix": buffer[offset:], "filepath": "billing/invoice.py"}})
		if len(resp.Choices) != 1 || len(full.Choices) != 1 || resp.Choices[0].Text != full.Choices[0].Text {
			t.Fatalf("the agent got %+v, graphcoder answers the full prefix %+v", resp, full)
		}
		for i, typ := range []string{"view", "select"} {
			if got := string(call(100+i, "postEvent", map[string]any{"type": typ, "completion_id": resp.ID, "choice_index": 0})); got != "true" {
				t.Fatalf("postEvent %s: %s", typ, got)
			}
		}
		// A request's record is written after its answer is sent: wait
		// for the second event's.
		var placed, events int
		for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			placed, events = 0, 0
			for _, r := range serveLog(t, logs) {
				switch {
				case r.Method == "POST /v1/completions" && r.Path == "billing/invoice.py" && r.Status == "200" && r.Placed == server.OnDisk:
					placed++
				case r.Method == "POST /v1/events" && r.Status == "200":
					events++
				}
			}
			if placed > 0 && events >= 2 || time.Now().After(end) {
				break
			}
		}
		if placed == 0 || events != 2 {
			t.Fatalf("log: %d completions placed on disk, %d events answered 200", placed, events)
		}
		hr, err := http.Get(base + "/v1/health")
		if err != nil {
			t.Fatal(err)
		}
		defer hr.Body.Close()
		var h struct{ Events server.EventCounts }
		if err := json.NewDecoder(hr.Body).Decode(&h); err != nil || h.Events.Views != 1 || h.Events.Selects != 1 || h.Events.AcceptRate != 1 {
			t.Fatalf("health events %+v, %v", h.Events, err)
		}
	})
}
