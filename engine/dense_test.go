package engine

import (
	"context"
	"encoding/json"
	"errors"
	"hash/fnv"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/llm"
	"github.com/graphcoder/graphcoder/retrieve"
)

// embedServer is a loopback Ollama /api/embed: a text's vector counts its
// words hashed into 64 buckets, so that texts sharing words are close. It
// fails every request past okRequests (when >= 0) and sleeps delay first.
type embedServer struct {
	mu         sync.Mutex
	requests   int
	okRequests int
	delay      time.Duration
	texts      int
}

func (s *embedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string   `json:"model"`
		Input []string `json:"input"`
	}
	if r.URL.Path != "/api/embed" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "bow" {
		http.Error(w, `{"error":"bad request"}`, http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.requests++
	fail := s.okRequests >= 0 && s.requests > s.okRequests
	delay := s.delay
	s.texts += len(req.Input)
	s.mu.Unlock()
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}
	if fail {
		http.Error(w, `{"error":"model unloaded"}`, http.StatusServiceUnavailable)
		return
	}
	out := struct {
		Embeddings [][]float32 `json:"embeddings"`
	}{}
	for _, t := range req.Input {
		v := make([]float32, 64)
		for _, w := range strings.Fields(t) {
			h := fnv.New32a()
			h.Write([]byte(w))
			v[h.Sum32()%64]++
		}
		out.Embeddings = append(out.Embeddings, v)
	}
	json.NewEncoder(w).Encode(out)
}

func (s *embedServer) set(ok int, delay time.Duration) {
	s.mu.Lock()
	s.requests, s.okRequests, s.delay = 0, ok, delay
	s.mu.Unlock()
}

// TestDenseThroughLoopbackServer builds an index with an embeddings server
// that fails midway, then completes the vectors and queries in mode
// hybrid, and finally queries with the server slow and gone.
func TestDenseThroughLoopbackServer(t *testing.T) {
	srv := &embedServer{okRequests: 1}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	embedder, err := llm.NewEmbedder(llm.EmbedConfig{Kind: llm.KindOllama, URL: ts.URL, Model: "bow", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	for i, body := range []string{
		"def load(path):\n    fh = open(path)\n    data = fh.read()\n    fh.close()\n    return data\n",
		"def save(path, data):\n    fh = open(path, 'w')\n    fh.write(data)\n    fh.close()\n",
		"def count(items):\n    total = 0\n    for x in items:\n        total += x\n    return total\n",
		"import os\n\ndef size(path):\n    st = os.stat(path)\n    return st.st_size\n",
	} {
		if err := os.WriteFile(filepath.Join(repo, []string{"a.py", "b.py", "c.py", "d.py"}[i]), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "index")
	ctx := context.Background()

	// One request succeeds (one file: each file is one batch), then the
	// server fails: a clear error, the graph index published.
	sum, err := indexer.Build(ctx, indexer.Options{Repo: repo, IndexDir: dir, Embedder: embedder, Workers: 1})
	if !errors.Is(err, indexer.ErrDense) || !strings.Contains(err.Error(), "model unloaded") || !strings.Contains(err.Error(), "run again") {
		t.Fatalf("build error: %v", err)
	}
	if !sum.Published || sum.Files != 4 || sum.Dense == nil || sum.Dense.Embedded != 1 {
		t.Fatalf("summary %+v, dense %+v", sum, sum.Dense)
	}
	e, err := Open(dir, Options{Embedder: embedder})
	if err != nil {
		t.Fatal(err)
	}
	info := e.Info()
	if info.Entries == 0 || info.Dense == nil || info.Dense.Files != 1 || info.Dense.Dim != 64 || info.Dense.Model != "ollama:bow" {
		t.Fatalf("info %+v, dense %+v", info, info.Dense)
	}
	e.Close()

	// The server is back: the next build embeds the other three only.
	srv.set(-1, 0)
	sum, err = indexer.Build(ctx, indexer.Options{Repo: repo, IndexDir: dir, Embedder: embedder})
	if err != nil || sum.Dense.Embedded != 3 || sum.Dense.Reused != 1 {
		t.Fatalf("second build: %v, %+v", err, sum.Dense)
	}
	e, err = Open(dir, Options{Embedder: embedder})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if d := e.Info().Dense; d.Files != 4 || d.Entries == 0 {
		t.Fatalf("dense %+v", d)
	}
	path := filepath.Join(repo, "b.py")
	src, _ := os.ReadFile(path)
	req := Request{Path: path, Line: 4, Source: src, Mode: retrieve.Hybrid, NoPrompt: true}
	res, err := e.Complete(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range res.Stats.Rankers {
		names = append(names, r.Name)
	}
	if !slices.Equal(names, []string{"jaccard", "bm25", "dense"}) || res.Stats.DenseError != "" || len(res.Snippets) == 0 {
		t.Fatalf("rankers %v, dense error %q, %d snippets", names, res.Stats.DenseError, len(res.Snippets))
	}
	if res.Prediction != "    fh.close()" {
		t.Errorf("prediction %q", res.Prediction)
	}

	// A slow server: the budget ends the embedding, the query goes on
	// without dense retrieval.
	srv.set(-1, 2*time.Second)
	req.Budget = 50 * time.Millisecond
	res, err = e.Complete(ctx, req)
	if err != nil || !strings.Contains(res.Stats.DenseError, "deadline") || len(res.Snippets) == 0 {
		t.Fatalf("slow server: %v, %q", err, res.Stats.DenseError)
	}
	// The server gone: the same.
	srv.set(-1, 0)
	ts.Close()
	req.Budget = 0
	res, err = e.Complete(ctx, req)
	if err != nil || res.Stats.DenseError == "" || len(res.Stats.Rankers) != 2 || len(res.Snippets) == 0 {
		t.Fatalf("server gone: %v, %+v", err, res.Stats)
	}
}

// TestDefaultMode: a request that names no mode runs in its language's
// (hybrid for Java, coarse2fine for Python).
func TestDefaultMode(t *testing.T) {
	repo := filepath.Join("..", "testdata", "demo")
	e := openRepo(t, repo)
	for _, tc := range []struct {
		ext  string
		want retrieve.Mode
	}{{".java", retrieve.Hybrid}, {".py", retrieve.CoarseToFine}} {
		var path string
		filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
			if err == nil && path == "" && strings.HasSuffix(p, tc.ext) {
				path, _ = filepath.Abs(p)
			}
			return nil
		})
		res, err := e.Complete(context.Background(), Request{Path: path, Line: 3, NoPrompt: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Mode != tc.want || DefaultMode(res.Language) != tc.want {
			t.Errorf("%s: mode %s, want %s", path, res.Stats.Mode, tc.want)
		}
		if got := len(res.Stats.Rankers); (tc.want == retrieve.Hybrid) != (got == 2) {
			t.Errorf("%s: %d rankers", path, got)
		}
	}
}
