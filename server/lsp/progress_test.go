package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/server"
	"github.com/graphcoder/graphcoder/server/jsonrpc"
)

// editor is a client that, unlike jsonrpctest.Client, answers the server's
// requests: it takes work-done progress and records what it is sent.
type editor struct {
	conn *jsonrpc.Conn
	mu   sync.Mutex
	got  []json.RawMessage // $/progress values, in order
	made []string          // tokens the server created
	more chan struct{}
}

func newEditor(t *testing.T, srv *Server) *editor {
	t.Helper()
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	e := &editor{conn: jsonrpc.NewConn(cr, cw, jsonrpc.Options{}), more: make(chan struct{}, 100)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		_ = srv.Serve(ctx, sr, sw)
		sw.Close()
	}()
	go e.conn.Serve(ctx, func(ctx context.Context, req *jsonrpc.Request) (jsonrpc.Work, error) {
		e.mu.Lock()
		defer e.mu.Unlock()
		switch req.Method {
		case "window/workDoneProgress/create":
			var p struct{ Token string }
			_ = json.Unmarshal(req.Params, &p)
			e.made = append(e.made, p.Token)
			return jsonrpc.Value(nil), nil
		case "$/progress":
			var p struct {
				Token string
				Value json.RawMessage
			}
			_ = json.Unmarshal(req.Params, &p)
			if p.Token == progressToken {
				e.got = append(e.got, p.Value)
				e.more <- struct{}{}
			}
		}
		return nil, nil
	})
	t.Cleanup(func() { cancel(); cw.Close() })
	return e
}

func (e *editor) call(t *testing.T, method string, params, result any) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return e.conn.Call(ctx, method, params, result)
}

// progress waits until the editor has n progress values, and returns them.
func (e *editor) progress(t *testing.T, n int) []map[string]any {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		e.mu.Lock()
		if len(e.got) >= n {
			out := make([]map[string]any, len(e.got))
			for i, v := range e.got {
				_ = json.Unmarshal(v, &out[i])
			}
			e.mu.Unlock()
			return out
		}
		e.mu.Unlock()
		select {
		case <-e.more:
		case <-deadline:
			t.Fatalf("fewer than %d progress values: %s", n, e.got)
		}
	}
}

// The initial index build is shown to the editor as work-done progress;
// completions asked meanwhile get an empty answer, then real ones.
func TestWorkDoneProgress(t *testing.T) {
	later := &server.Later{}
	logs := &bytes.Buffer{}
	var logMu sync.Mutex
	rl, _ := server.NewRequestLog(lockedWriter{&logMu, logs}, server.LogText)
	svc, err := server.New(later, server.Options{Root: t.TempDir(), RequestLog: rl})
	if err != nil {
		t.Fatal(err)
	}
	prog := server.NewProgress("graphcoder: indexing")
	prog.Update(0, "walking the repository")
	e := newEditor(t, New(svc, Options{Progress: prog}))
	init := map[string]any{"capabilities": map[string]any{"window": map[string]any{"workDoneProgress": true}}}
	if err := e.call(t, "initialize", init, nil); err != nil {
		t.Fatal(err)
	}
	if err := e.conn.Notify("initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	begin := e.progress(t, 1)[0]
	if begin["kind"] != "begin" || begin["title"] != "graphcoder: indexing" || begin["message"] != "walking the repository" || begin["percentage"] != 0.0 {
		t.Fatalf("begin %v", begin)
	}
	uri := "file://" + filepath.ToSlash(filepath.Join(svc.Root(), "m.py"))
	_ = e.conn.Notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "python", "version": 1, "text": "x = 1\nret"}})
	var list CompletionList
	if err := e.call(t, "textDocument/completion", at(uri, 1, 3), &list); err != nil || len(list.Items) != 0 || !list.IsIncomplete {
		t.Fatalf("while building: %+v, %v", list, err)
	}
	prog.Update(50, "10/20 files")
	if v := e.progress(t, 2)[1]; v["kind"] != "report" || v["message"] != "10/20 files" || v["percentage"] != 50.0 {
		t.Fatalf("report %v", v)
	}
	later.Set(&fakeCompleter{})
	prog.Finish(nil, "20 files indexed")
	var end map[string]any
	for n := 3; ; n++ {
		vs := e.progress(t, n)
		if end = vs[n-1]; end["kind"] == "end" {
			break
		}
	}
	if end["message"] != "20 files indexed" {
		t.Fatalf("end %v", end)
	}
	if err := e.call(t, "textDocument/completion", at(uri, 1, 3), &list); err != nil || len(list.Items) != 1 {
		t.Fatalf("once ready: %+v, %v", list, err)
	}
	e.mu.Lock()
	made := e.made
	e.mu.Unlock()
	if len(made) != 1 || made[0] != progressToken {
		t.Fatalf("tokens created: %v", made)
	}
	logMu.Lock()
	log := logs.String()
	logMu.Unlock()
	lines := strings.Split(strings.TrimSpace(log), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `the index is being built"`) || !strings.Contains(lines[1], "status=ok path=m.py line=2 language=python") {
		t.Fatalf("request log:\n%s", log)
	}
}

type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// A client that never sends didOpen still gets completions: from the
// file on disk, and after edits from the file with its edits applied.
func TestWithoutDidOpen(t *testing.T) {
	h := start(t)
	h.initialize()
	if err := os.WriteFile(filepath.Join(h.root, "m.py"), []byte("x = 1\ny = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := h.uri("m.py")
	var list CompletionList
	if err := h.call("textDocument/completion", at(uri, 1, 0), &list); err != nil || len(list.Items) != 1 {
		t.Fatalf("unopened file: %+v, %v", list, err)
	}
	h.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": 7},
		"contentChanges": []any{map[string]any{"range": Range{Position{0, 0}, Position{0, 5}}, "text": "w = 0"}},
	})
	if err := h.call("textDocument/completion", at(uri, 1, 5), &list); err != nil {
		t.Fatal(err)
	}
	h.fake.mu.Lock()
	src := string(h.fake.last.Source)
	h.fake.mu.Unlock()
	if src != "w = 0\ny = 2\n" {
		t.Fatalf("completer saw %q", src)
	}
	// A full-text change to another unopened document needs no file.
	other := h.uri("new.py")
	h.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": other, "version": 1},
		"contentChanges": []any{map[string]any{"text": "a = 1\n"}},
	})
	if err := h.call("textDocument/completion", at(other, 1, 0), &list); err != nil || len(list.Items) != 1 {
		t.Fatalf("full change without didOpen: %+v, %v", list, err)
	}
	// An incremental change to an unopened file that does not exist is
	// dropped; completions there are refused, as before.
	gone := h.uri("gone.py")
	h.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": gone, "version": 1},
		"contentChanges": []any{map[string]any{"range": Range{Position{0, 0}, Position{0, 0}}, "text": "b"}},
	})
	wantCode(t, h.call("textDocument/completion", at(gone, 0, 0), nil), jsonrpc.CodeInvalidParams)
}

// The buffers open in the editor are the service's: a partial source
// sent over HTTP is placed in them.
func TestBuffersShared(t *testing.T) {
	h := start(t)
	h.initialize()
	uri := h.uri("m.py")
	text := "import os\nx = 1\ny = 2\nz = 3\n"
	h.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "python", "version": 1, "text": text}})
	var list CompletionList
	if err := h.call("textDocument/completion", at(uri, 3, 0), &list); err != nil { // the didOpen is handled before
		t.Fatal(err)
	}
	q := server.Query{Path: "m.py", Source: []byte("y = 2\nz = 3\n"), Line: 3, Partial: true}
	c, err := h.svc.Complete(context.Background(), q)
	if err != nil || c.Placed != server.InBuffer || c.Line != 5 {
		t.Fatalf("placed %+v, %v", c, err)
	}
	h.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if err := h.call("textDocument/completion", at(h.uri("other.py"), 0, 0), nil); err == nil {
		t.Fatal("completion in a missing file")
	}
	if c, err = h.svc.Complete(context.Background(), q); err != nil || c.Placed != server.Alone {
		t.Fatalf("after didClose: %+v, %v", c, err)
	}
}
