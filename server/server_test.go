package server

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/indexer"
	_ "github.com/graphcoder/graphcoder/lang/python"
)

// fakeCompleter predicts a fixed line and records what it was asked.
type fakeCompleter struct {
	prediction string
	calls      atomic.Int64
	reloads    atomic.Int64
	mu         sync.Mutex
	last       Request
}

func (f *fakeCompleter) Complete(ctx context.Context, req Request) (*Result, error) {
	f.calls.Add(1)
	f.mu.Lock()
	f.last = req
	f.mu.Unlock()
	return &Result{Prediction: f.prediction, Prompt: "# prompt\n", Snippets: []Snippet{{Path: "a.py", StartLine: 1, EndLine: 2, Score: 0.5, Text: "x = 1"}},
		Blocks: []Snippet{{Path: "a.py", StartLine: 1, EndLine: 2, Text: "x = 1\n"}}}, nil
}

func (f *fakeCompleter) Reload() error { f.reloads.Add(1); return nil }

func newTestService(t *testing.T, c Completer, opts Options) *Service {
	t.Helper()
	if opts.Root == "" {
		opts.Root = t.TempDir()
	}
	s, err := New(c, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestExtend(t *testing.T) {
	tests := []struct{ typed, pred, want string }{
		{"", "    return x", "return x"},
		{"ret", "return x", "urn x"},
		{"return x", "return x", ""},
		{"foo", "return x", ""},
		{"", "", ""},
		{"x = ", "\tx = f(1)", "f(1)"},
	}
	for _, tt := range tests {
		if got := Extend(tt.typed, tt.pred); got != tt.want {
			t.Errorf("Extend(%q, %q) = %q, want %q", tt.typed, tt.pred, got, tt.want)
		}
	}
}

func TestResolve(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	s := newTestService(t, &fakeCompleter{}, Options{Root: root})
	tests := []struct {
		path, want string
		err        error
	}{
		{"pkg/mod.py", "pkg/mod.py", nil},
		{filepath.Join(root, "pkg", "mod.py"), "pkg/mod.py", nil},
		{"./a/../b.py", "b.py", nil},
		{"../x.py", "", ErrOutsideRepo},
		{"/etc/passwd", "", ErrOutsideRepo},
		{"", "", ErrOutsideRepo},
		{".", "", ErrOutsideRepo},
		{"escape/secret.py", "", ErrOutsideRepo},
	}
	for _, tt := range tests {
		got, err := s.Resolve(tt.path)
		if !errors.Is(err, tt.err) || got != tt.want {
			t.Errorf("Resolve(%q) = %q, %v; want %q, %v", tt.path, got, err, tt.want, tt.err)
		}
	}
}

func TestCompleteCacheAndBudget(t *testing.T) {
	fc := &fakeCompleter{prediction: "    return total"}
	s := newTestService(t, fc, Options{})
	ctx := context.Background()
	src := []byte("def f(xs):\n    total = sum(xs)\n    re\n")
	c, err := s.Complete(ctx, Query{Path: "m.py", Source: src, Line: 3, Column: 6})
	if err != nil {
		t.Fatal(err)
	}
	if c.Text != "turn total" || c.Typed != "re" || c.Indent != "    " || c.Cached {
		t.Fatalf("got %+v", c)
	}
	if fc.last.Budget != DefaultBudget || fc.last.Line != 3 || fc.last.Path != "m.py" {
		t.Fatalf("completer saw %+v", fc.last)
	}
	// Typing more on the same line hits the cache.
	src2 := []byte("def f(xs):\n    total = sum(xs)\n    retu\n")
	c, err = s.Complete(ctx, Query{Path: "m.py", Source: src2, Line: 3, Column: 8})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Cached || c.Text != "rn total" || fc.calls.Load() != 1 {
		t.Fatalf("second query: %+v, calls %d", c, fc.calls.Load())
	}
	// A change before the line misses.
	src3 := []byte("def g(xs):\n    total = sum(xs)\n    retu\n")
	if c, _ = s.Complete(ctx, Query{Path: "m.py", Source: src3, Line: 3, Column: 8}); c.Cached {
		t.Fatal("edit before the line must miss the cache")
	}
	// A reload invalidates.
	if err := s.Reload(); err != nil || fc.reloads.Load() != 1 {
		t.Fatalf("reload: %v", err)
	}
	if c, _ = s.Complete(ctx, Query{Path: "m.py", Source: src2, Line: 3, Column: 8}); c.Cached {
		t.Fatal("reload must invalidate the cache")
	}
	if _, err := s.Complete(ctx, Query{Path: "m.py", Source: src, Line: 9}); !errors.Is(err, ErrPosition) {
		t.Fatalf("line past the end: %v", err)
	}
	if _, err := s.Complete(ctx, Query{Path: "../m.py", Source: src, Line: 1}); !errors.Is(err, ErrOutsideRepo) {
		t.Fatalf("outside: %v", err)
	}
}

func TestLRUEvicts(t *testing.T) {
	c := newLRU(2)
	r := &Result{}
	c.put(cacheKey{line: 1}, r)
	c.put(cacheKey{line: 2}, r)
	c.get(cacheKey{line: 1})
	c.put(cacheKey{line: 3}, r)
	if _, ok := c.get(cacheKey{line: 2}); ok {
		t.Fatal("least recently used entry survived")
	}
	if _, ok := c.get(cacheKey{line: 1}); !ok || c.len() != 2 {
		t.Fatal("recent entry evicted")
	}
}

type fakeGenerator struct {
	text  string
	err   error
	delay time.Duration
	got   GenerateRequest
}

func (g *fakeGenerator) Generate(ctx context.Context, req GenerateRequest) (string, error) {
	g.got = req
	select {
	case <-time.After(g.delay):
	case <-ctx.Done():
		return "", ctx.Err()
	}
	return g.text, g.err
}

func TestGeneratorFallback(t *testing.T) {
	src := []byte("x = 1\nre\ny = 2\n")
	tests := []struct {
		name      string
		gen       *fakeGenerator
		want      string
		fromModel bool
	}{
		{"model answers", &fakeGenerator{text: "turn x"}, "turn x", true},
		{"model fails", &fakeGenerator{err: errors.New("boom")}, "turn y", false},
		{"model slow", &fakeGenerator{text: "late", delay: time.Second}, "turn y", false},
		{"model empty", &fakeGenerator{text: "  \n"}, "turn y", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestService(t, &fakeCompleter{prediction: "return y"}, Options{Generator: tt.gen, GenerateTimeout: 50 * time.Millisecond})
			c, err := s.Complete(context.Background(), Query{Path: "m.py", Source: src, Line: 2, Column: 2})
			if err != nil {
				t.Fatal(err)
			}
			if c.Text != tt.want || c.FromModel != tt.fromModel {
				t.Fatalf("got %q fromModel=%v", c.Text, c.FromModel)
			}
			if tt.gen.got.Prefix != "x = 1\nre" || tt.gen.got.Suffix != "\ny = 2\n" || tt.gen.got.Prompt != "# prompt\nre" || len(tt.gen.got.Snippets) != 1 {
				t.Fatalf("generator saw %+v", tt.gen.got)
			}
		})
	}
}

// windowCompleter trims the buffer to one line either side, as an engine
// with a small prompt budget would.
type windowCompleter struct{ fakeCompleter }

func (w *windowCompleter) Complete(ctx context.Context, req Request) (*Result, error) {
	r, _ := w.fakeCompleter.Complete(ctx, req)
	r.Window = &Window{Before: "b = 2", After: "c = 3\n"}
	return r, nil
}

func TestGeneratorWindow(t *testing.T) {
	g := &fakeGenerator{text: "x"}
	s := newTestService(t, &windowCompleter{fakeCompleter{prediction: "return y"}}, Options{Generator: g})
	src := []byte("a = 1\nb = 2\n    ret(1)\nc = 3\n")
	if _, err := s.Complete(context.Background(), Query{Path: "m.py", Source: src, Line: 3, Column: 7}); err != nil {
		t.Fatal(err)
	}
	if g.got.Prefix != "b = 2\n    ret" || g.got.Suffix != "(1)\nc = 3\n" {
		t.Fatalf("prefix %q suffix %q", g.got.Prefix, g.got.Suffix)
	}
}

func TestLiveDebounces(t *testing.T) {
	var mu sync.Mutex
	var batches [][]string
	reloaded := make(chan struct{}, 10)
	l := NewLive(LiveOptions{
		Debounce: 20 * time.Millisecond,
		Reindex: func(ctx context.Context, paths []string) ([]string, error) {
			mu.Lock()
			batches = append(batches, paths)
			mu.Unlock()
			return paths, nil
		},
		Reload: func([]string) error { reloaded <- struct{}{}; return nil },
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go l.Run(ctx)
	l.Notify("/r/a.py")
	l.Notify("/r/b.py", "/r/a.py")
	select {
	case <-reloaded:
	case <-time.After(2 * time.Second):
		t.Fatal("no reload")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(batches) != 1 || len(batches[0]) != 2 || batches[0][0] != "/r/a.py" || batches[0][1] != "/r/b.py" {
		t.Fatalf("batches %v", batches)
	}
}

func TestWatch(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{".git", ".graphcoder", "pkg"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got := make(chan string, 100)
	ctx, cancel := context.WithCancel(context.Background())
	wait, err := Watch(ctx, WatchOptions{
		Rules:  indexer.NewRules(root, "", 0),
		Notify: func(p string) { got <- p },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); wait() }()
	write := func(rel string) {
		if err := os.WriteFile(filepath.Join(root, rel), []byte("x = 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/a.py")
	write(".graphcoder/b.py")
	write("pkg/notes.txt")
	write("pkg/m.py")
	if err := os.MkdirAll(filepath.Join(root, "new", "deep"), 0o755); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond) // let the new folders be watched
	write("new/deep/n.py")
	want := map[string]bool{filepath.Join(root, "pkg", "m.py"): true, filepath.Join(root, "new", "deep", "n.py"): true}
	deadline := time.After(3 * time.Second)
	for len(want) > 0 {
		select {
		case p := <-got:
			if filepath.Ext(p) != ".py" || filepath.Base(filepath.Dir(p)) == ".git" || filepath.Base(filepath.Dir(p)) == ".graphcoder" {
				t.Fatalf("unexpected notification %s", p)
			}
			delete(want, p)
		case <-deadline:
			t.Fatalf("missing notifications %v", want)
		}
	}
}

type panicCompleter struct{}

func (panicCompleter) Complete(context.Context, Request) (*Result, error) { panic("bug") }

func TestPanicReleasesSlot(t *testing.T) {
	s := newTestService(t, panicCompleter{}, Options{Parallel: 1})
	for range 3 {
		func() {
			defer func() { _ = recover() }()
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			_, err := s.Complete(ctx, Query{Path: "m.py", Source: []byte("x\n"), Line: 1})
			t.Fatalf("no panic, err %v", err) // a leaked slot would time out here instead
		}()
	}
}

// Without a model and without a debug request for it, the completer is
// told to skip the prompt; a request that wants the prompt is not served
// that prompt-less result from the cache.
func TestNoPrompt(t *testing.T) {
	fc := &fakeCompleter{prediction: "return x"}
	s := newTestService(t, fc, Options{})
	q := Query{Path: "m.py", Source: []byte("a = 1\n\n"), Line: 2}
	if _, err := s.Complete(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if !fc.last.NoPrompt {
		t.Error("a request nobody reads the prompt of did not set NoPrompt")
	}
	q.WantPrompt = true
	c, err := s.Complete(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if c.Cached || fc.last.NoPrompt || fc.calls.Load() != 2 {
		t.Errorf("a request for the prompt: cached %v, NoPrompt %v, %d calls", c.Cached, fc.last.NoPrompt, fc.calls.Load())
	}
	if c, _ := s.Complete(context.Background(), q); !c.Cached || c.Prompt != "# prompt\n" {
		t.Errorf("repeated request for the prompt: %+v", c)
	}
}
