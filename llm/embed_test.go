package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func newTestEmbedder(t *testing.T, kind, url string, timeout time.Duration) interface {
	Name() string
	Embed(context.Context, []string) ([][]float32, error)
} {
	t.Helper()
	e, err := NewEmbedder(EmbedConfig{Kind: kind, URL: url, Model: "nomic-embed-text", Timeout: timeout, APIKeyEnv: "GC_TEST_EMBED_KEY"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestEmbedWire: each backend sends exactly its wire format and reads the
// vectors back in input order.
func TestEmbedWire(t *testing.T) {
	defer func(f func(string) string) { lookupEnv = f }(lookupEnv)
	lookupEnv = func(k string) string {
		if k == "GC_TEST_EMBED_KEY" {
			return "sekret"
		}
		return ""
	}
	texts := []string{"x = load(path)", "if x:\n    <b> & 'q'"}
	for _, tc := range []struct {
		kind, path, body, answer string
	}{
		{KindOpenAI, "/v1/embeddings",
			`{"model":"nomic-embed-text","input":["x = load(path)","if x:\n    <b> & 'q'"],"encoding_format":"float"}`,
			`{"object":"list","data":[{"object":"embedding","index":1,"embedding":[0,1.5,-2]},{"object":"embedding","index":0,"embedding":[1,2,3]}],"model":"nomic-embed-text"}`},
		{KindOllama, "/api/embed",
			`{"model":"nomic-embed-text","input":["x = load(path)","if x:\n    <b> & 'q'"],"truncate":true}`,
			`{"model":"nomic-embed-text","embeddings":[[1,2,3],[0,1.5,-2]]}`},
		{KindLlamaCpp, "/embedding",
			`{"content":["x = load(path)","if x:\n    <b> & 'q'"]}`,
			`[{"index":0,"embedding":[[1,2,3]]},{"index":1,"embedding":[0,1.5,-2]}]`},
	} {
		srv, seen := fakeServer(t, http.StatusOK, tc.answer, 0)
		e := newTestEmbedder(t, tc.kind, srv.URL, 0)
		got, err := e.Embed(context.Background(), texts)
		if err != nil {
			t.Fatalf("%s: %v", tc.kind, err)
		}
		r := <-seen
		if r.method != http.MethodPost || r.path != tc.path || r.contentType != "application/json" || r.auth != "Bearer sekret" {
			t.Errorf("%s: %s %s, content type %q, auth %q", tc.kind, r.method, r.path, r.contentType, r.auth)
		}
		if body := strings.TrimSpace(string(r.body)); body != tc.body {
			t.Errorf("%s: body\n %s\nwant\n %s", tc.kind, body, tc.body)
		}
		want := [][]float32{{1, 2, 3}, {0, 1.5, -2}}
		if len(got) != 2 || len(got[0]) != 3 || got[0][2] != 3 || got[1][1] != 1.5 || got[1][2] != -2 {
			t.Errorf("%s: vectors %v, want %v", tc.kind, got, want)
		}
		if !strings.Contains(e.Name(), tc.kind) {
			t.Errorf("name %q", e.Name())
		}
	}
	// Old llama.cpp servers answer one text with a bare object.
	srv, _ := fakeServer(t, http.StatusOK, `{"embedding":[0.5,0.25]}`, 0)
	got, err := newTestEmbedder(t, KindLlamaCpp, srv.URL, 0).Embed(context.Background(), []string{"a"})
	if err != nil || len(got) != 1 || got[0][1] != 0.25 {
		t.Errorf("old llama.cpp answer: %v, %v", got, err)
	}
}

// TestEmbedErrors: every malformed or failed answer is an error that says
// what went wrong; nothing partial comes back.
func TestEmbedErrors(t *testing.T) {
	two := []string{"a", "b"}
	for _, tc := range []struct {
		kind, answer string
		status       int
		want         string
	}{
		{KindOpenAI, `{"error":{"message":"model not found"}}`, 404, "model not found"},
		{KindOllama, `{"error":"out of memory"}`, 500, "out of memory"},
		{KindOpenAI, `{"data":[{"index":0,"embedding":[1,2]}]}`, 200, "1 embeddings for 2 texts"},
		{KindOpenAI, `{"data":[{"index":0,"embedding":[1,2]},{"index":0,"embedding":[1,2]}]}`, 200, "repeated index"},
		{KindOpenAI, `{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[1,2,3]}]}`, 200, "dimensions in one answer"},
		{KindOllama, `{"embeddings":[[1,2],[]]}`, 200, "empty embedding"},
		{KindOllama, `not json`, 200, "decode answer"},
		{KindLlamaCpp, `[{"index":0,"embedding":[[1,2],[3,4]]},{"index":1,"embedding":[[1,2]]}]`, 200, "--pooling"},
		{KindLlamaCpp, `[{"index":5,"embedding":[1,2]}]`, 200, "bad or repeated index"},
		{KindLlamaCpp, `{"nothing":1}`, 200, "decode answer"},
	} {
		srv, _ := fakeServer(t, tc.status, tc.answer, 0)
		got, err := newTestEmbedder(t, tc.kind, srv.URL, 0).Embed(context.Background(), two)
		if err == nil || !strings.Contains(err.Error(), tc.want) || got != nil {
			t.Errorf("%s %s: %v, %v; want an error with %q", tc.kind, tc.answer, got, err, tc.want)
		}
	}
}

func TestEmbedTimeoutAndCancel(t *testing.T) {
	srv, _ := fakeServer(t, http.StatusOK, `{"embeddings":[[1]]}`, 2*time.Second)
	start := time.Now()
	_, err := newTestEmbedder(t, KindOllama, srv.URL, 50*time.Millisecond).Embed(context.Background(), []string{"a"})
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "timeout") || time.Since(start) > time.Second {
		t.Errorf("timeout: %v after %v", err, time.Since(start))
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	_, err = newTestEmbedder(t, KindOllama, srv.URL, 0).Embed(ctx, []string{"a"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: %v", err)
	}
}

func TestEmbedConfig(t *testing.T) {
	for _, bad := range []EmbedConfig{{Kind: "bert"}, {Kind: KindOllama}, {Kind: KindOpenAI, URL: "ftp://x"}, {Kind: KindOpenAI, Timeout: -1}} {
		if _, err := NewEmbedder(bad); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
	if e, err := NewEmbedder(EmbedConfig{}); e != nil || err != nil {
		t.Errorf("no kind: %v, %v", e, err)
	}
	if e, err := NewEmbedder(EmbedConfig{Kind: KindNone}); e != nil || err != nil {
		t.Errorf("none: %v, %v", e, err)
	}
}
