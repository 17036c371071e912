package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/server"
)

// fakeCompleter predicts "return total"; slow.py blocks until the request
// ends, panic.py panics.
type fakeCompleter struct{}

func (fakeCompleter) Complete(ctx context.Context, req server.Request) (*server.Result, error) {
	switch req.Path {
	case "slow.py":
		<-ctx.Done()
		return nil, ctx.Err()
	case "panic.py":
		panic("completer bug")
	case "img.png":
		return nil, errors.Join(server.ErrInvalid, errors.New("binary file"))
	}
	return &server.Result{
		Prediction: "    return total",
		Prompt:     "# lib/sum.py\n# return total\n",
		Snippets:   []server.Snippet{{Path: "lib/sum.py", StartLine: 3, EndLine: 9, Score: 0.8, Text: "return total"}},
		Definitions: []server.Definition{{Path: "lib/sum.py", Line: 1, Name: "total", Kind: "function", Origin: "predicted",
			Reason: "snippet 1 calls total", InPrompt: true}},
	}, nil
}

// serve starts a real server on a loopback port and returns its base URL.
func serve(t *testing.T) string {
	t.Helper()
	svc, err := server.New(fakeCompleter{}, server.Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewServer(New(svc, Options{MaxBody: 1 << 16, Timeout: 200 * time.Millisecond}), nil)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

func post(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := http.Post(url+"/v1/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var v map[string]any
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("answer is not JSON: %q", b)
	}
	return resp.StatusCode, v
}

func request(path, prefix, suffix string, debug bool) string {
	b, _ := json.Marshal(map[string]any{
		"language":      "python",
		"segments":      map[string]string{"prefix": prefix, "suffix": suffix, "filepath": path},
		"debug_options": map[string]bool{"return_snippets": debug, "return_prompt": debug},
	})
	return string(b)
}

func TestCompletion(t *testing.T) {
	url := serve(t)
	code, v := post(t, url, request("m.py", "def f(xs):\n    total = sum(xs)\n    ret", "\n", true))
	if code != 200 {
		t.Fatalf("status %d: %v", code, v)
	}
	var resp CompletionResponse
	b, _ := json.Marshal(v)
	if err := json.Unmarshal(b, &resp); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(resp.ID, "cmpl-") || len(resp.Choices) != 1 || resp.Choices[0].Text != "urn total" {
		t.Fatalf("answer %+v", resp)
	}
	if resp.DebugData == nil || len(resp.DebugData.Snippets) != 1 || resp.DebugData.Snippets[0].Filepath != "lib/sum.py" || resp.DebugData.Prompt == "" {
		t.Fatalf("debug data %+v", resp.DebugData)
	}
	if d := resp.DebugData.Definitions; len(d) != 1 || d[0].Name != "total" || d[0].Origin != "predicted" || !d[0].InPrompt || d[0].Reason == "" {
		t.Fatalf("debug data definitions %+v", d)
	}
	// Without debug options there is no debug_data; a prefix the
	// prediction does not extend gets no choices.
	code, v = post(t, url, request("m.py", "x = 1\nyield", "", false))
	if code != 200 || v["debug_data"] != nil || len(v["choices"].([]any)) != 0 {
		t.Fatalf("status %d: %v", code, v)
	}
	resp2, err := http.Get(url + "/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	defer resp2.Body.Close()
	var health map[string]any
	if err := json.NewDecoder(resp2.Body).Decode(&health); err != nil || resp2.StatusCode != 200 || health["status"] != "ok" {
		t.Fatalf("health %d %v %v", resp2.StatusCode, health, err)
	}
}

func TestBadRequestsKeepServing(t *testing.T) {
	url := serve(t)
	tests := []struct {
		name string
		body string
		code int
	}{
		{"malformed JSON", `{"segments": {"prefix": "x`, http.StatusBadRequest},
		{"wrong type", `{"segments": "x"}`, http.StatusBadRequest},
		{"no segments", `{}`, http.StatusBadRequest},
		{"no filepath, no language", `{"segments": {"prefix": "x = "}}`, http.StatusBadRequest},
		{"no prefix", `{"language": "python", "segments": {"suffix": "x"}}`, http.StatusBadRequest},
		{"unknown mode", `{"language": "python", "mode": "next_edit_suggestion", "segments": {"prefix": "x"}}`, http.StatusBadRequest},
		{"negative temperature", `{"language": "python", "temperature": -1, "segments": {"prefix": "x"}}`, http.StatusBadRequest},
		{"raw prompt without a model or a language", `{"debug_options": {"raw_prompt": "def f("}}`, http.StatusBadRequest},
		{"remote file URI", request("file://host/m.py", "x", "", false), http.StatusBadRequest},
		{"outside the repository", request("../../etc/passwd", "x", "", false), http.StatusBadRequest},
		{"absolute outside", request("/etc/passwd", "x", "", false), http.StatusBadRequest},
		{"unsupported file", request("img.png", "x", "", false), http.StatusBadRequest},
		{"huge payload", request("m.py", strings.Repeat("x = 1\n", 20000), "", false), http.StatusRequestEntityTooLarge},
		{"trailing bytes", request("m.py", "ret", "", false) + "garbage", http.StatusBadRequest},
		{"two JSON values", request("m.py", "ret", "", false) + "{}", http.StatusBadRequest},
		{"timeout", request("slow.py", "x", "", false), http.StatusGatewayTimeout},
		{"panic", request("panic.py", "x", "", false), http.StatusInternalServerError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, v := post(t, url, tt.body)
			if code != tt.code || v["error"] == nil {
				t.Fatalf("status %d, want %d: %v", code, tt.code, v)
			}
			if code, _ := post(t, url, request("m.py", "ret", "", false)); code != 200 {
				t.Fatalf("server unhealthy after %s: %d", tt.name, code)
			}
		})
	}
	// Trailing white space is not data.
	if code, v := post(t, url, request("m.py", "ret", "", false)+"\n \n"); code != 200 {
		t.Fatalf("trailing white space: %d %v", code, v)
	}
	for _, c := range []struct{ method, path string }{{"GET", "/v1/completions"}, {"POST", "/v1/nothing"}} {
		req, _ := http.NewRequest(c.method, url+c.path, bytes.NewReader(nil))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode < 400 || resp.StatusCode >= 500 {
			t.Fatalf("%s %s: %d", c.method, c.path, resp.StatusCode)
		}
	}
}

func TestClientCancelsMidFlight(t *testing.T) {
	url := serve(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "POST", url+"/v1/completions", strings.NewReader(request("slow.py", "x", "", false)))
	if _, err := http.DefaultClient.Do(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if code, _ := post(t, url, request("m.py", "ret", "", false)); code != 200 {
		t.Fatalf("server unhealthy after a cancelled request: %d", code)
	}
}

func TestIsLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:8420": true, "localhost:1": true, "[::1]:80": true,
		"0.0.0.0:8420": false, ":8420": false, "10.0.0.1:1": false, "nonsense": false,
	} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v", addr, got)
		}
	}
}
