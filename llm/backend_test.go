package llm

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden request bodies in testdata/")

// fixture is a cursor inside a Python function with two retrieved snippets,
// best last, and graphcoder's prompt carrying them as comments.
var fixture = Request{
	Prefix: "import json\n\ndef load(path):\n    with open(path) as f:\n        ",
	Suffix: "\n    return data\n",
	Snippets: []Snippet{
		{Path: "util/io.py", Text: "def read_all(p):\n    with open(p) as f:\n        return f.read()\n"},
		{Path: "config.py", Text: "with open(CONFIG) as f:\n    data = json.load(f)"},
	},
	Prompt: "# Here are some relevant code fragments from other files of the repo:\n" +
		"# the below code fragment can be found in:\n# config.py\n# with open(CONFIG) as f:\n#     data = json.load(f)\n" +
		"def load(path):\n    with open(path) as f:\n        ",
	Language:    "python",
	Path:        "app/loader.py",
	RepoName:    "acme/loader",
	Stop:        []string{"\n\n\n"},
	Temperature: 0.2,
}

// rawAnswer is what the fake model "generates": the right line, the rest of
// the function, then an end token and junk.
const rawAnswer = "data = json.load(f)\n    return data\n<|endoftext|>def other():"

// wantText is rawAnswer after block-mode post-processing at fixture's cursor.
const wantText = "data = json.load(f)"

// recorded is one request a fake server saw.
type recorded struct {
	method, path, contentType, auth string
	body                            []byte
}

// fakeServer answers every request with status and answer, after delay
// (or when the client gives up), and records what it was sent.
func fakeServer(t *testing.T, status int, answer string, delay time.Duration) (*httptest.Server, <-chan recorded) {
	t.Helper()
	seen := make(chan recorded, 8)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		seen <- recorded{r.Method, r.URL.Path, r.Header.Get("Content-Type"), r.Header.Get("Authorization"), body}
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, answer)
	}))
	t.Cleanup(srv.Close)
	return srv, seen
}

// answers in each server's wire format, each carrying rawAnswer.
var wireAnswers = map[string]string{
	"/v1/completions": `{"id":"cmpl-1","object":"text_completion","created":1,"model":"served-model",` +
		`"choices":[{"index":0,"text":"data = json.load(f)\n    return data\n<|endoftext|>def other():","logprobs":null,"finish_reason":"length"}]}`,
	"/infill":     `{"content":"data = json.load(f)\n    return data\n<|endoftext|>def other():","model":"served-model","stop":true,"tokens_predicted":12}`,
	"/completion": `{"content":"data = json.load(f)\n    return data\n<|endoftext|>def other():","model":"served-model","stop":true}`,
	"/api/generate": `{"model":"served-model","created_at":"2024-01-01T00:00:00Z",` +
		`"response":"data = json.load(f)\n    return data\n<|endoftext|>def other():","done":true,"done_reason":"stop"}`,
}

func TestBackendsRequestBodies(t *testing.T) {
	noSuffix := fixture
	noSuffix.Suffix = ""
	// A raw prompt's block is cut at the indentation of its own prefix.
	raw := Request{Prefix: "def load(path):\n    ", Prompt: "def load(path):\n    ", Raw: true, Language: "python"}
	const rawText = "data = json.load(f)\n    return data"
	tests := []struct {
		golden   string
		cfg      Config
		req      Request
		wantPath string
		wantAuth string
		wantText string
	}{
		{"openai_suffix", Config{Kind: KindOpenAI, Model: "codegen", APIKeyEnv: "TEST_LLM_KEY"}, fixture,
			"/v1/completions", "Bearer sekret", wantText},
		{"openai_template_starcoder", Config{Kind: KindOpenAI, Model: "starcoder2", Template: "starcoder", MaxTokens: 48}, fixture,
			"/v1/completions", "", wantText},
		{"openai_line_mode", Config{Kind: KindOpenAI, StopAtLineEnd: true}, fixture,
			"/v1/completions", "", wantText},
		{"llamacpp_infill", Config{Kind: KindLlamaCpp}, fixture,
			"/infill", "", wantText},
		{"llamacpp_template_qwen_repo", Config{Kind: KindLlamaCpp, Template: "qwen-repo"}, fixture,
			"/completion", "", wantText},
		{"ollama_suffix", Config{Kind: KindOllama, Model: "qwen2.5-coder:1.5b-base"}, fixture,
			"/api/generate", "", wantText},
		{"ollama_no_suffix", Config{Kind: KindOllama, Model: "qwen2.5-coder:1.5b-base"}, noSuffix,
			"/api/generate", "", wantText},
		{"ollama_template_deepseek", Config{Kind: KindOllama, Model: "deepseek-coder:1.3b-base", Template: "deepseek", StopAtLineEnd: true}, fixture,
			"/api/generate", "", wantText},
		{"ollama_template_codellama", Config{Kind: KindOllama, Model: "codellama:7b-code", Template: "codellama"}, fixture,
			"/api/generate", "", wantText},
		// A raw prompt goes out as it is, whatever the template.
		{"openai_raw", Config{Kind: KindOpenAI, Model: "starcoder2", Template: "starcoder"}, raw,
			"/v1/completions", "", rawText},
		{"llamacpp_raw", Config{Kind: KindLlamaCpp}, raw,
			"/completion", "", rawText},
		{"ollama_raw", Config{Kind: KindOllama, Model: "codellama:7b-code", Template: "codellama"}, raw,
			"/api/generate", "", rawText},
	}
	lookupEnv = func(k string) string {
		if k == "TEST_LLM_KEY" {
			return "sekret"
		}
		return ""
	}
	t.Cleanup(func() { lookupEnv = os.Getenv })

	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			srv, seen := fakeServer(t, http.StatusOK, wireAnswers[tt.wantPath], 0)
			tt.cfg.URL = srv.URL + "/" // a trailing slash must not double up
			b, err := New(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := b.Complete(context.Background(), tt.req)
			if err != nil {
				t.Fatal(err)
			}
			got := <-seen
			if got.method != http.MethodPost || got.path != tt.wantPath {
				t.Errorf("sent %s %s, want POST %s", got.method, got.path, tt.wantPath)
			}
			if got.contentType != "application/json" {
				t.Errorf("Content-Type = %q", got.contentType)
			}
			if got.auth != tt.wantAuth {
				t.Errorf("Authorization = %q, want %q", got.auth, tt.wantAuth)
			}
			checkGolden(t, filepath.Join("testdata", "requests", tt.golden+".json"), got.body)
			if resp.Text != tt.wantText {
				t.Errorf("Text = %q, want %q", resp.Text, tt.wantText)
			}
			if resp.Model != "served-model" {
				t.Errorf("Model = %q, want the server's", resp.Model)
			}
			if resp.Latency <= 0 {
				t.Errorf("Latency = %v", resp.Latency)
			}
		})
	}
}

// checkGolden compares got with the golden file byte for byte.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./llm -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("request body differs from %s\n got: %s\nwant: %s", path, got, want)
	}
}

// kinds lists each backend with its endpoint, for the failure tests.
var kinds = []struct {
	cfg  Config
	path string
}{
	{Config{Kind: KindOpenAI, Model: "m"}, "/v1/completions"},
	{Config{Kind: KindLlamaCpp}, "/infill"},
	{Config{Kind: KindOllama, Model: "m"}, "/api/generate"},
}

func TestBackendsHTTPErrors(t *testing.T) {
	long := strings.Repeat("x", 4000)
	tests := []struct {
		name        string
		status      int
		body        string
		wantBody    string
		wantMessage string
	}{
		{"openai-style error", http.StatusInternalServerError, `{"error":{"message":"model not loaded","type":"server_error"}}`,
			`{"error":{"message":"model not loaded","type":"server_error"}}`, "model not loaded"},
		{"ollama-style error", http.StatusNotFound, `{"error":"model 'm' not found"}`,
			`{"error":"model 'm' not found"}`, "model 'm' not found"},
		{"unavailable with long body", http.StatusServiceUnavailable, long, strings.Repeat("x", excerptBytes) + "…", ""},
		{"plain text", http.StatusBadGateway, "upstream\n  down\n", "upstream down", ""},
	}
	for _, k := range kinds {
		for _, tt := range tests {
			t.Run(k.cfg.Kind+"/"+tt.name, func(t *testing.T) {
				srv, _ := fakeServer(t, tt.status, tt.body, 0)
				cfg := k.cfg
				cfg.URL = srv.URL
				b, err := New(cfg)
				if err != nil {
					t.Fatal(err)
				}
				_, err = b.Complete(context.Background(), fixture)
				var he *HTTPError
				if !errors.As(err, &he) {
					t.Fatalf("error = %v, want *HTTPError", err)
				}
				if he.Status != tt.status || he.Body != tt.wantBody || he.Message != tt.wantMessage {
					t.Errorf("HTTPError{%d, %q, %q}, want {%d, %q, %q}", he.Status, he.Body, he.Message, tt.status, tt.wantBody, tt.wantMessage)
				}
				msg := err.Error()
				if !strings.Contains(msg, b.Name()) || !strings.Contains(msg, fmt.Sprint(tt.status)) {
					t.Errorf("error %q does not name the backend and status", msg)
				}
			})
		}
	}
}

func TestBackendsMalformedAnswers(t *testing.T) {
	tests := []struct {
		name, body, wantErr string
	}{
		{"not json", `<html>bad gateway</html>`, "decode answer"},
		{"truncated", `{"choices":[{"text":"abc"`, "decode answer"},
		{"wrong type", `{"choices":"x","content":7,"response":true}`, "decode answer"},
	}
	for _, k := range kinds {
		for _, tt := range tests {
			t.Run(k.cfg.Kind+"/"+tt.name, func(t *testing.T) {
				srv, _ := fakeServer(t, http.StatusOK, tt.body, 0)
				cfg := k.cfg
				cfg.URL = srv.URL
				b, _ := New(cfg)
				_, err := b.Complete(context.Background(), fixture)
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want %q", err, tt.wantErr)
				}
				if !strings.Contains(err.Error(), "body: ") {
					t.Errorf("error %q does not quote the body", err)
				}
			})
		}
	}
}

func TestBackendsEmptyAnswers(t *testing.T) {
	tests := []struct {
		cfg              Config
		body, wantErr    string
		wantText, reason string
	}{
		{Config{Kind: KindOpenAI}, `{"choices":[]}`, "no choices", "", "no choices"},
		{Config{Kind: KindOllama, Model: "m"}, `{"error":"out of memory"}`, "out of memory", "", "error field"},
		{Config{Kind: KindLlamaCpp}, `{"content":""}`, "", "", "empty content is a valid empty completion"},
		{Config{Kind: KindOllama, Model: "m"}, `{"response":"<|endoftext|>","done":true}`, "", "", "only an end token"},
	}
	for _, tt := range tests {
		srv, _ := fakeServer(t, http.StatusOK, tt.body, 0)
		tt.cfg.URL = srv.URL
		b, _ := New(tt.cfg)
		resp, err := b.Complete(context.Background(), fixture)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error = %v, want %q", tt.reason, err, tt.wantErr)
			}
			continue
		}
		if err != nil || resp.Text != tt.wantText {
			t.Errorf("%s: got %q, %v", tt.reason, resp.Text, err)
		}
	}
}

func TestBackendsTimeouts(t *testing.T) {
	for _, k := range kinds {
		t.Run(k.cfg.Kind+"/configured timeout", func(t *testing.T) {
			srv, _ := fakeServer(t, http.StatusOK, wireAnswers[k.path], 5*time.Second)
			cfg := k.cfg
			cfg.URL, cfg.Timeout = srv.URL, 50*time.Millisecond
			b, _ := New(cfg)
			start := time.Now()
			_, err := b.Complete(context.Background(), fixture)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("error = %v, want deadline exceeded", err)
			}
			if !strings.Contains(err.Error(), "timeout of 50ms") {
				t.Errorf("error %q does not give the timeout", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("gave up after %v, want about 50ms", d)
			}
		})
		t.Run(k.cfg.Kind+"/caller deadline", func(t *testing.T) {
			srv, _ := fakeServer(t, http.StatusOK, wireAnswers[k.path], 5*time.Second)
			cfg := k.cfg
			cfg.URL = srv.URL
			b, _ := New(cfg)
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			start := time.Now()
			_, err := b.Complete(ctx, fixture)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("error = %v, want deadline exceeded", err)
			}
			if !strings.Contains(err.Error(), "caller's deadline") {
				t.Errorf("error %q does not blame the caller's deadline", err)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("gave up after %v, want about 50ms", d)
			}
		})
		t.Run(k.cfg.Kind+"/cancelled", func(t *testing.T) {
			srv, _ := fakeServer(t, http.StatusOK, wireAnswers[k.path], 5*time.Second)
			cfg := k.cfg
			cfg.URL = srv.URL
			b, _ := New(cfg)
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(30*time.Millisecond, cancel)
			_, err := b.Complete(ctx, fixture)
			if !errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("error = %v, want cancelled", err)
			}
		})
		t.Run(k.cfg.Kind+"/slow but in time", func(t *testing.T) {
			const delay = 80 * time.Millisecond
			srv, _ := fakeServer(t, http.StatusOK, wireAnswers[k.path], delay)
			cfg := k.cfg
			cfg.URL, cfg.Timeout = srv.URL, 3*time.Second
			b, _ := New(cfg)
			resp, err := b.Complete(context.Background(), fixture)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Text != wantText || resp.Latency < delay {
				t.Errorf("got %q after %v, want %q after at least %v", resp.Text, resp.Latency, wantText, delay)
			}
		})
	}
}

func TestBackendsUnreachable(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close() // nothing listens there now
	for _, k := range kinds {
		cfg := k.cfg
		cfg.URL = url
		b, _ := New(cfg)
		_, err := b.Complete(context.Background(), fixture)
		if err == nil || !strings.Contains(err.Error(), k.path) {
			t.Errorf("%s: error = %v, want one naming %s", k.cfg.Kind, err, k.path)
		}
	}
}

func TestNoneBackend(t *testing.T) {
	for _, kind := range []string{"", KindNone} {
		b, err := New(Config{Kind: kind})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.Complete(context.Background(), fixture); !errors.Is(err, ErrNoBackend) {
			t.Errorf("kind %q: error = %v, want ErrNoBackend", kind, err)
		}
		if b.Name() != "none" {
			t.Errorf("Name() = %q", b.Name())
		}
	}
}

// TestBackendsStalledBody covers a server that answers the headers at once
// and then stalls in the middle of the body.
func TestBackendsStalledBody(t *testing.T) {
	for _, k := range kinds {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusOK)
			io.WriteString(w, `{"content":"data = `)
			w.(http.Flusher).Flush()
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		}))
		cfg := k.cfg
		cfg.URL, cfg.Timeout = srv.URL, 80*time.Millisecond
		b, _ := New(cfg)
		start := time.Now()
		_, err := b.Complete(context.Background(), fixture)
		srv.Close()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: error = %v, want deadline exceeded", k.cfg.Kind, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: gave up after %v", k.cfg.Kind, d)
		}
	}
}

func TestBackendsOversizedAnswer(t *testing.T) {
	huge := `{"content":"` + strings.Repeat("a", maxAnswerBytes) + `"}`
	srv, _ := fakeServer(t, http.StatusOK, huge, 0)
	b, _ := New(Config{Kind: KindLlamaCpp, URL: srv.URL})
	if _, err := b.Complete(context.Background(), fixture); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("error = %v, want the answer refused as too large", err)
	}
}
