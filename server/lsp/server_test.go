package lsp

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/server"
	"github.com/graphcoder/graphcoder/server/internal/jsonrpctest"
	"github.com/graphcoder/graphcoder/server/jsonrpc"
)

// fakeCompleter predicts "return total"; slow.py blocks until cancelled
// and panic.py panics. It records the last source it saw.
type fakeCompleter struct {
	mu   sync.Mutex
	last server.Request
}

func (f *fakeCompleter) Complete(ctx context.Context, req server.Request) (*server.Result, error) {
	f.mu.Lock()
	f.last = req
	f.mu.Unlock()
	switch filepath.Base(req.Path) {
	case "slow.py":
		<-ctx.Done()
		return nil, ctx.Err()
	case "panic.py":
		panic("completer bug")
	}
	return &server.Result{
		Prediction: "    return total",
		Snippets:   []server.Snippet{{Path: "lib/sum.py", StartLine: 3, EndLine: 9, Score: 0.8, Text: "def s(xs):\n    return total"}},
		Definitions: []server.Definition{
			{Path: "lib/sum.py", Line: 1, Name: "total", Kind: "function", Origin: "predicted", Reason: "snippet 1 calls total", InPrompt: true},
			{Path: "lib/other.py", Line: 4, Name: "unused", Kind: "function", Origin: "by-name", Reason: "x.unused on line 2"},
		},
	}, nil
}

type harness struct {
	t      *testing.T
	root   string
	svc    *server.Service
	client *jsonrpctest.Client
	fake   *fakeCompleter
	saved  chan string
	done   chan error
	in     *io.PipeWriter
}

func start(t *testing.T) *harness {
	t.Helper()
	root := t.TempDir()
	fake := &fakeCompleter{}
	svc, err := server.New(fake, server.Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, root: svc.Root(), svc: svc, fake: fake, saved: make(chan string, 10), done: make(chan error, 1)}
	srv := New(svc, Options{OnSave: func(p string) { h.saved <- p }, MaxMessage: 1 << 16})
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	h.in = cw
	go func() {
		err := srv.Serve(context.Background(), sr, sw)
		sw.Close()
		h.done <- err
	}()
	t.Cleanup(func() { cw.Close() })
	h.client = jsonrpctest.NewClient(cr, cw)
	return h
}

func (h *harness) uri(rel string) string {
	return "file://" + filepath.ToSlash(filepath.Join(h.root, rel))
}

func (h *harness) call(method string, params, result any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return h.client.Call(ctx, method, params, result)
}

func (h *harness) notify(method string, params any) {
	h.t.Helper()
	if err := h.client.Notify(method, params); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) initialize() {
	h.t.Helper()
	var res struct {
		Capabilities map[string]any `json:"capabilities"`
	}
	if err := h.call("initialize", map[string]any{"capabilities": map[string]any{}}, &res); err != nil {
		h.t.Fatal(err)
	}
	for _, k := range []string{"completionProvider", "inlineCompletionProvider", "textDocumentSync"} {
		if res.Capabilities[k] == nil {
			h.t.Fatalf("capability %s not advertised: %v", k, res.Capabilities)
		}
	}
	if res.Capabilities["positionEncoding"] != "utf-16" {
		h.t.Fatalf("position encoding %v", res.Capabilities["positionEncoding"])
	}
	h.notify("initialized", map[string]any{})
}

func at(uri string, line, char int) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": Position{line, char}}
}

func wantCode(t *testing.T, err error, code int64) {
	t.Helper()
	var e *jsonrpc.Error
	if !errors.As(err, &e) || e.Code != code {
		t.Fatalf("got %v, want error code %d", err, code)
	}
}

func TestCompletionUsesUnsavedBuffer(t *testing.T) {
	h := start(t)
	wantCode(t, h.call("textDocument/completion", at(h.uri("m.py"), 0, 0), nil), jsonrpc.CodeServerNotInitialized)
	h.initialize()
	uri := h.uri("m.py")
	// "é" before the cursor checks UTF-16 columns end to end.
	h.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "python", "version": 1, "text": "def f(xs):\n    total = 0\n",
	}})
	// An incremental edit and a full-text change, then one more incremental edit.
	h.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{
			map[string]any{"range": Range{Position{1, 12}, Position{1, 13}}, "text": "sum(xs)  # é"},
		},
	})
	h.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 3},
		"contentChanges": []any{map[string]any{"text": "def f(xs):\n    total = sum(xs)  # é\n    \n"}},
	})
	h.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": uri, "version": 4},
		"contentChanges": []any{
			map[string]any{"range": Range{Position{2, 4}, Position{2, 4}}, "text": "ret"},
		},
	})
	var list CompletionList
	if err := h.call("textDocument/completion", at(uri, 2, 7), &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 {
		t.Fatalf("items %+v", list.Items)
	}
	it := list.Items[0]
	wantEdit := TextEdit{Range: Range{Position{2, 4}, Position{2, 7}}, NewText: "return total"}
	if it.Label != "return total" || it.TextEdit == nil || *it.TextEdit != wantEdit || !strings.Contains(it.Detail, "lib/sum.py:3-9") {
		t.Fatalf("item %+v edit %+v", it, it.TextEdit)
	}
	// The documentation lists the definitions the prompt shows, with why.
	if !strings.Contains(it.Documentation, "function total (lib/sum.py:1): predicted, snippet 1 calls total") ||
		strings.Contains(it.Documentation, "unused") {
		t.Fatalf("item documentation %q", it.Documentation)
	}
	h.fake.mu.Lock()
	src := string(h.fake.last.Source)
	h.fake.mu.Unlock()
	if src != "def f(xs):\n    total = sum(xs)  # é\n    ret\n" {
		t.Fatalf("completer saw %q", src)
	}

	var inline InlineCompletionList
	if err := h.call("textDocument/inlineCompletion", at(uri, 2, 7), &inline); err != nil {
		t.Fatal(err)
	}
	if len(inline.Items) != 1 || inline.Items[0].InsertText != "return total" || *inline.Items[0].Range != wantEdit.Range {
		t.Fatalf("inline %+v", inline.Items)
	}
	// Typing something the prediction does not extend: no items.
	h.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 5},
		"contentChanges": []any{map[string]any{"range": Range{Position{2, 4}, Position{2, 7}}, "text": "yield"}},
	})
	if err := h.call("textDocument/completion", at(uri, 2, 9), &list); err != nil || len(list.Items) != 0 {
		t.Fatalf("non-matching prefix: %+v, %v", list.Items, err)
	}
}

func TestBadRequestsKeepServing(t *testing.T) {
	h := start(t)
	h.initialize()
	uri := h.uri("m.py")
	h.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": "x = 1\n"}})
	ok := func() {
		t.Helper()
		var list CompletionList
		if err := h.call("textDocument/completion", at(uri, 1, 0), &list); err != nil || len(list.Items) != 1 {
			t.Fatalf("healthy completion: %+v, %v", list, err)
		}
	}
	ok()
	outside := filepath.Join(t.TempDir(), "o.py")
	if err := os.WriteFile(outside, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Files no build would read: a FIFO (reading it would block for ever),
	// a link to a device (reading it would never end), a link leading out
	// of the repository.
	if err := syscall.Mkfifo(filepath.Join(h.root, "fifo.py"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"zero.py": "/dev/zero", "leak.py": outside} {
		if err := os.Symlink(target, filepath.Join(h.root, name)); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		method string
		params any
		code   int64
	}{
		{"unknown method", "textDocument/hover", at(uri, 0, 0), jsonrpc.CodeMethodNotFound},
		{"line out of range", "textDocument/completion", at(uri, 40, 0), jsonrpc.CodeInvalidParams},
		{"negative position", "textDocument/completion", at(uri, -1, 0), jsonrpc.CodeInvalidParams},
		{"file outside the repository", "textDocument/completion", at("file://"+filepath.ToSlash(outside), 0, 0), jsonrpc.CodeInvalidParams},
		{"not a file URI", "textDocument/completion", at("untitled:1", 0, 0), jsonrpc.CodeInvalidParams},
		{"unopened missing file", "textDocument/completion", at(h.uri("missing.py"), 0, 0), jsonrpc.CodeInvalidParams},
		{"unopened FIFO", "textDocument/completion", at(h.uri("fifo.py"), 0, 0), jsonrpc.CodeInvalidParams},
		{"unopened link to a device", "textDocument/completion", at(h.uri("zero.py"), 0, 0), jsonrpc.CodeInvalidParams},
		{"unopened link out of the repository", "textDocument/completion", at(h.uri("leak.py"), 0, 0), jsonrpc.CodeInvalidParams},
		{"params of the wrong shape", "textDocument/completion", []int{1}, jsonrpc.CodeInvalidParams},
		{"completer panics", "textDocument/completion", at(h.uri("panic.py"), 0, 0), jsonrpc.CodeInternalError},
	}
	h.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": h.uri("panic.py"), "version": 1, "text": "x\n"}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantCode(t, h.call(tt.method, tt.params, nil), tt.code)
			ok()
		})
	}
	// Many at once neither hang nor hold the request slots.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := h.call("textDocument/completion", at(h.uri("fifo.py"), 0, 0), nil); err == nil {
				t.Error("completion in a FIFO succeeded")
			}
		}()
	}
	wg.Wait()
	ok()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	wantCode(t, h.client.CallRaw(ctx, "null", []byte(`{"jsonrpc":"2.0","id":99,"method":"textDocument/completion","params":`), nil), jsonrpc.CodeParseError)
	ok()
	wantCode(t, h.client.CallRaw(ctx, "null", []byte(`{"jsonrpc":"2.0","id":98,"method":"x","params":"`+strings.Repeat("a", 1<<17)+`"}`), nil), jsonrpc.CodeInvalidRequest)
	ok()
	// An edit with a bad range is dropped, and the document stays usable.
	h.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": Range{Position{9, 0}, Position{9, 1}}, "text": "z"}},
	})
	ok()
	h.notify("no/such/notification", nil)
	ok()
}

func TestCancelMidFlight(t *testing.T) {
	h := start(t)
	h.initialize()
	uri := h.uri("slow.py")
	h.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": "x = 1\n"}})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	wantCode(t, h.client.Call(ctx, "textDocument/completion", at(uri, 1, 0), nil), jsonrpc.CodeRequestCancelled)
	h.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": h.uri("m.py"), "version": 1, "text": "x = 1\n"}})
	var list CompletionList
	if err := h.call("textDocument/completion", at(h.uri("m.py"), 1, 0), &list); err != nil || len(list.Items) != 1 {
		t.Fatalf("after cancel: %+v, %v", list, err)
	}
}

func TestSaveShutdownExit(t *testing.T) {
	h := start(t)
	h.initialize()
	h.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": h.uri("pkg/a.py")}})
	h.notify("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": "file:///elsewhere/b.py"}})
	select {
	case p := <-h.saved:
		if p != filepath.Join(h.root, "pkg", "a.py") {
			t.Fatalf("saved %s", p)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("didSave not reported")
	}
	if err := h.call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	wantCode(t, h.call("textDocument/completion", at(h.uri("m.py"), 0, 0), nil), jsonrpc.CodeInvalidRequest)
	h.notify("exit", nil)
	select {
	case err := <-h.done:
		if err != nil {
			t.Fatalf("Serve after shutdown and exit: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("server did not exit")
	}
	select {
	case p := <-h.saved:
		t.Fatalf("save outside the repository reported: %s", p)
	default:
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	h := start(t)
	h.initialize()
	h.notify("exit", nil)
	if err := <-h.done; !errors.Is(err, ErrNoShutdown) {
		t.Fatalf("got %v", err)
	}
}

// The editor's languageId reaches the completer as a front end's name:
// the React dialects map to their base languages, unknown ids to nothing
// (the file name decides).
func TestLanguageIDs(t *testing.T) {
	h := start(t)
	h.initialize()
	for _, tc := range []struct{ file, id, want string }{
		{"a.go", "go", "go"},
		{"b", "typescript", "typescript"},
		{"c.tsx", "typescriptreact", "typescript"},
		{"d", "javascript", "javascript"},
		{"e.jsx", "javascriptreact", "javascript"},
		{"f.py", "python", "python"},
		{"g.java", "java", "java"},
		{"h.rs", "rust", ""},
	} {
		uri := h.uri(tc.file)
		h.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": uri, "languageId": tc.id, "version": 1, "text": "x\n",
		}})
		if err := h.call("textDocument/completion", at(uri, 1, 0), nil); err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		h.fake.mu.Lock()
		got := h.fake.last.Language
		h.fake.mu.Unlock()
		if got != tc.want {
			t.Errorf("%s (%s): completer got language %q, want %q", tc.file, tc.id, got, tc.want)
		}
	}
}
