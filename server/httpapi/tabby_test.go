package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/prompt"
	"github.com/graphcoder/graphcoder/server"
)

// recordingCompleter answers like fakeCompleter and keeps the last request.
type recordingCompleter struct {
	mu   sync.Mutex
	last server.Request
}

func (r *recordingCompleter) Complete(ctx context.Context, req server.Request) (*server.Result, error) {
	r.mu.Lock()
	r.last = req
	r.mu.Unlock()
	return fakeCompleter{}.Complete(ctx, req)
}

func (r *recordingCompleter) request() server.Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serveWith starts a server over c with a JSON request log.
func serveWith(t *testing.T, c server.Completer, gen server.Generator) (string, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	rl, _ := server.NewRequestLog(logs, server.LogJSON)
	svc, err := server.New(c, server.Options{Root: t.TempDir(), RequestLog: rl, Generator: gen})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(New(svc, Options{MaxBody: 1 << 16, Timeout: time.Second}), nil)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String(), logs
}

func postJSON(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("answer is not JSON: %q", b)
	}
	return resp.StatusCode, v
}

var idPattern = regexp.MustCompile(`^cmpl-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// Every field of Tabby's request is taken: the client's context reaches
// the completer as candidates (declarations first), CRLF comes back as
// CRLF, a request without a file path completes in the language named.
func TestTabbySchema(t *testing.T) {
	rc := &recordingCompleter{}
	url, _ := serveWith(t, rc, nil)
	body := `{
		"language": "python", "user": "dev@example.com", "temperature": 0.2, "seed": 7, "mode": "standard",
		"segments": {
			"prefix": "def f(xs):\r\n    total = sum(xs)\r\n    ret", "suffix": "\r\n",
			"filepath": "m.py", "git_url": "https://example.com/acme/shop.git",
			"declarations": [{"filepath": "lib/sum.py", "body": "def sum(xs):\r\n    ...\r\n"}],
			"relevant_snippets_from_changed_files": [{"filepath": "a.py", "body": "total = 0\rtotal += 1\r\r", "score": 0.9}],
			"relevant_snippets_from_recently_opened_files": [{"filepath": "b.py", "body": "return total", "score": 1}],
			"clipboard": "print(total)",
			"edit_history": {"original_code": "", "edits_diff": "", "current_version": ""}
		},
		"debug_options": {"return_snippets": true, "return_prompt": true}
	}`
	code, v := postJSON(t, url+"/v1/completions", body)
	if code != 200 {
		t.Fatalf("status %d: %v", code, v)
	}
	if id, _ := v["id"].(string); !idPattern.MatchString(id) {
		t.Fatalf("id %q is not cmpl-<uuid>", id)
	}
	choices := v["choices"].([]any)
	if len(choices) != 1 || choices[0].(map[string]any)["text"] != "urn total" {
		t.Fatalf("choices %v", choices)
	}
	req := rc.request()
	if req.Path != "m.py" || req.Line != 3 || req.Language != "python" || string(req.Source) != "def f(xs):\n    total = sum(xs)\n    ret\n" {
		t.Fatalf("completer saw %+v", req)
	}
	want := []prompt.Candidate{
		{Source: prompt.Declaration, Path: "lib/sum.py", Lines: []string{"def sum(xs):", "    ..."}},
		{Source: prompt.ChangedFile, Path: "a.py", Lines: []string{"total = 0", "total += 1"}, Score: 0.9}, // lone CRs end lines
		{Source: prompt.RecentFile, Path: "b.py", Lines: []string{"return total"}, Score: 1},
		{Source: prompt.Clipboard, Lines: []string{"print(total)"}},
	}
	if got, _ := json.Marshal(req.Context); string(got) != mustJSON(want) {
		t.Fatalf("context %s\nwant    %s", got, mustJSON(want))
	}
	debug := v["debug_data"].(map[string]any)
	if snips := debug["snippets"].([]any); len(snips) != 1 || snips[0].(map[string]any)["filepath"] != "lib/sum.py" || snips[0].(map[string]any)["body"] != "return total" {
		t.Fatalf("debug snippets %v", snips)
	}

	// A multi-line completion comes back with the client's line endings.
	twoLines := &twoLineCompleter{}
	url2, _ := serveWith(t, twoLines, nil)
	_, v = postJSON(t, url2+"/v1/completions", `{"language": "python", "segments": {"prefix": "x = 1\r\nif x:\r\n    ", "suffix": ""}}`)
	if text := v["choices"].([]any)[0].(map[string]any)["text"]; text != "y = 2\r\n    z = 3" {
		t.Fatalf("CRLF answer %q", text)
	}

	// No file path: the language named, the code alone.
	code, v = postJSON(t, url+"/v1/completions", `{"language": "python", "segments": {"prefix": "def f(xs):\n    total = sum(xs)\n    ret", "suffix": "\n"}}`)
	if req := rc.request(); code != 200 || req.Path != "" || req.Language != "python" || len(v["choices"].([]any)) != 1 {
		t.Fatalf("no filepath: %d %v, completer saw %+v", code, v, req)
	}
	// Retrieval off: the completer is told so.
	postJSON(t, url+"/v1/completions", `{"language": "python", "segments": {"prefix": "ret"}, "debug_options": {"disable_retrieval_augmented_code_completion": true}}`)
	if !rc.request().NoRetrieval {
		t.Fatal("disable_retrieval_augmented_code_completion did not reach the completer")
	}
	// A raw prompt without a model is completed as code of the language.
	code, v = postJSON(t, url+"/v1/completions", `{"language": "python", "segments": {"prefix": "ignored"}, "debug_options": {"raw_prompt": "total = 1\nret"}}`)
	if req := rc.request(); code != 200 || string(req.Source) != "total = 1\nret" || req.Line != 2 || req.Path != "" {
		t.Fatalf("raw prompt: %d %v, completer saw %+v", code, v, req)
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

type twoLineCompleter struct{}

func (twoLineCompleter) Complete(context.Context, server.Request) (*server.Result, error) {
	return &server.Result{Prediction: "    y = 2\n    z = 3"}, nil
}

// modelFunc is a Generator from a function.
type modelFunc func(server.GenerateRequest) (string, error)

func (f modelFunc) Generate(_ context.Context, req server.GenerateRequest) (string, error) {
	return f(req)
}

// With a model backend, a raw prompt goes to it as it is, without retrieval.
func TestRawPromptToModel(t *testing.T) {
	rc := &recordingCompleter{}
	var got server.GenerateRequest
	url, _ := serveWith(t, rc, modelFunc(func(req server.GenerateRequest) (string, error) {
		got = req
		return "42", nil
	}))
	code, v := postJSON(t, url+"/v1/completions", `{"temperature": 0.5, "debug_options": {"raw_prompt": "<PRE> x = <SUF> <MID>"}}`)
	if code != 200 || v["choices"].([]any)[0].(map[string]any)["text"] != "42" {
		t.Fatalf("status %d: %v", code, v)
	}
	if !got.Raw || got.Prompt != "<PRE> x = <SUF> <MID>" || got.Temperature != 0.5 || rc.request().Source != nil {
		t.Fatalf("model saw %+v; completer saw %+v", got, rc.request())
	}
}

// Tabby's other endpoints: events are counted and their acceptance rate
// shown in the health answer, which has Tabby's fields; server_setting
// turns client telemetry off.
func TestTabbyEndpoints(t *testing.T) {
	url, logs := serveWith(t, &recordingCompleter{}, nil)
	for _, typ := range []string{"view", "view", "select", "dismiss"} {
		code, v := postJSON(t, url+"/v1/events?select_kind=line", `{"type": "`+typ+`", "completion_id": "cmpl-1", "choice_index": 0, "view_id": "v1", "elapsed": 30}`)
		if code != 200 {
			t.Fatalf("event %s: %d %v", typ, code, v)
		}
	}
	for _, bad := range []string{`{"type": "click", "completion_id": "cmpl-1", "choice_index": 0}`, `{"type": "view", "choice_index": 0}`, `{"type": "view", "completion_id": "c", "choice_index": -1}`, `[`} {
		if code, v := postJSON(t, url+"/v1/events", bad); code != 400 || v["error"] == nil {
			t.Fatalf("bad event %s: %d %v", bad, code, v)
		}
	}
	resp, err := http.Get(url + "/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Model    *string `json:"model"`
		Device   string  `json:"device"`
		Arch     string  `json:"arch"`
		CPUInfo  string  `json:"cpu_info"`
		CPUCount int     `json:"cpu_count"`
		CUDA     []any   `json:"cuda_devices"`
		Version  Version `json:"version"`
		Events   server.EventCounts
		Root     string `json:"root"`
	}
	err = json.NewDecoder(resp.Body).Decode(&h)
	resp.Body.Close()
	if err != nil || h.Model == nil || h.Device != "cpu" || h.Arch == "" || h.CPUInfo == "" || h.CPUCount < 1 || h.CUDA == nil || h.Root == "" {
		t.Fatalf("health %+v, %v", h, err)
	}
	if !regexp.MustCompile(`^v0\.9\.0-graphcoder`).MatchString(h.Version.GitDescribe) {
		t.Fatalf("git_describe %q", h.Version.GitDescribe)
	}
	if h.Events.Views != 2 || h.Events.Selects != 1 || h.Events.AcceptRate != 0.5 {
		t.Fatalf("events %+v", h.Events)
	}
	resp, err = http.Get(url + "/v1beta/server_setting")
	if err != nil {
		t.Fatal(err)
	}
	var setting map[string]bool
	_ = json.NewDecoder(resp.Body).Decode(&setting)
	resp.Body.Close()
	if !setting["disable_client_side_telemetry"] {
		t.Fatalf("server setting %v", setting)
	}
	if !strings.Contains(logs.String(), `"event":"select","accept_rate":0.5`) {
		t.Fatalf("the log does not show the acceptance rate:\n%s", logs)
	}
}

// Every request is logged once, a bad one with the reason its client got.
func TestRequestLogLines(t *testing.T) {
	url, logs := serveWith(t, &recordingCompleter{}, nil)
	postJSON(t, url+"/v1/completions", request("m.py", "def f(xs):\n    total = sum(xs)\n    ret", "\n", false))
	postJSON(t, url+"/v1/completions", `{"segments": {"prefix": "x"}}`)
	postJSON(t, url+"/v1/completions", request("../../etc/passwd", "x", "", false))
	postJSON(t, url+"/v1/nothing", `{}`)
	var recs []server.Record
	dec := json.NewDecoder(strings.NewReader(logs.String()))
	for dec.More() {
		var r server.Record
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if len(recs) != 4 {
		t.Fatalf("%d log lines:\n%s", len(recs), logs)
	}
	ok := recs[0]
	if ok.Status != "200" || ok.Path != "m.py" || ok.Line != 3 || ok.Placed != server.Alone || ok.Snippets != 1 || ok.Predictor != "model-free" || ok.Chars != 9 || ok.Protocol != "http" {
		t.Fatalf("completion record %+v", ok)
	}
	for i, want := range []struct{ status, reason string }{{"400", "segments.filepath or language is required"}, {"400", "outside the repository"}, {"404", "no such endpoint"}} {
		r := recs[i+1]
		if r.Status != want.status || !strings.Contains(r.Error, want.reason) {
			t.Fatalf("record %d: %+v, want %s %q", i+1, r, want.status, want.reason)
		}
	}
}

// While the index is being built, completions are answered 503 with the
// reason, and answered once it is ready.
func TestNotReady(t *testing.T) {
	later := &server.Later{}
	url, logs := serveWith(t, later, nil)
	code, v := postJSON(t, url+"/v1/completions", request("m.py", "ret", "", false))
	if msg, _ := v["error"].(string); code != http.StatusServiceUnavailable || !strings.Contains(msg, server.ErrNotReady.Error()) {
		t.Fatalf("status %d: %v", code, v)
	}
	later.Set(fakeCompleter{})
	if code, _ := postJSON(t, url+"/v1/completions", request("m.py", "ret", "", false)); code != 200 {
		t.Fatalf("once ready: %d", code)
	}
	if !strings.Contains(logs.String(), `"status":"503","error":"complete m.py:1: the index is being built"`) {
		t.Fatalf("log:\n%s", logs)
	}
}
