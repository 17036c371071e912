package lsp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/graphcoder/graphcoder/server"
	"github.com/graphcoder/graphcoder/server/jsonrpc"
)

// ErrNoShutdown is returned by [Server.Serve] when the client sent exit
// without shutdown first; LSP asks for exit status 1 then.
var ErrNoShutdown = errors.New("exit without shutdown")

// Options configure a [Server].
type Options struct {
	// OnSave is called with the absolute path of each file saved in the
	// editor inside the repository, typically [server.Live.Notify].
	OnSave func(path string)
	// Parallel bounds concurrently answered requests (0: the jsonrpc default).
	Parallel int
	// MaxMessage is the largest accepted message in bytes (0: the jsonrpc default).
	MaxMessage int
	// Version is reported in serverInfo.
	Version string
	// Progress, when set, is the initial index build and load; clients
	// that take work-done progress are shown it with $/progress.
	Progress *server.Progress
	// Logger receives diagnostics; it must not write to the protocol stream.
	Logger *log.Logger
}

// Server is a language server answering completions from a
// [server.Service]. One Server serves one connection.
type Server struct {
	svc  *server.Service
	opts Options
	log  *log.Logger

	mu          sync.Mutex
	docs        map[string]*document // by URI
	enc         Encoding
	initialized bool
	shutdown    bool
	// workDone says the client takes server-initiated work-done progress.
	workDone bool

	conn *jsonrpc.Conn
	ctx  context.Context // the connection's, done when Serve returns
}

type document struct {
	text    string
	version int
	// language is the editor's languageId (lang.ForID maps it).
	language string
}

// New returns a server for svc.
func New(svc *server.Service, opts Options) *Server {
	lg := opts.Logger
	if lg == nil {
		lg = log.New(io.Discard, "", 0)
	}
	return &Server{svc: svc, opts: opts, log: lg, docs: map[string]*document{}, enc: UTF16}
}

// Serve speaks LSP on r and w until exit or the end of the stream. It
// returns nil after shutdown and exit, [ErrNoShutdown] after exit alone.
func (s *Server) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	conn := jsonrpc.NewConn(r, w, jsonrpc.Options{Parallel: s.opts.Parallel, MaxMessage: s.opts.MaxMessage, Logger: s.log})
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	s.mu.Lock()
	s.conn, s.ctx = conn, ctx
	s.mu.Unlock()
	if err := conn.Serve(ctx, s.handle); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.shutdown {
		return ErrNoShutdown
	}
	return nil
}

func decode(params json.RawMessage, v any) error {
	if len(params) == 0 {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "missing params")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "invalid params: %v", err)
	}
	return nil
}

// handle runs on the reading goroutine, in message order.
func (s *Server) handle(ctx context.Context, req *jsonrpc.Request) (jsonrpc.Work, error) {
	s.mu.Lock()
	initialized, shutdown := s.initialized, s.shutdown
	s.mu.Unlock()
	switch {
	case req.Method == "exit":
		return nil, jsonrpc.ErrClose
	case shutdown && !req.IsNotify():
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "server is shut down")
	case !initialized && req.Method != "initialize":
		if req.IsNotify() {
			return nil, nil
		}
		return nil, jsonrpc.Errorf(jsonrpc.CodeServerNotInitialized, "server not initialized")
	}
	switch req.Method {
	case "initialize":
		return s.initialize(req.Params)
	case "initialized":
		s.mu.Lock()
		workDone := s.workDone
		s.mu.Unlock()
		if _, changed := s.opts.Progress.State(); workDone && changed != nil {
			go s.reportProgress()
		}
		return nil, nil
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		return nil, nil
	case "textDocument/didOpen":
		return nil, s.didOpen(req.Params)
	case "textDocument/didChange":
		return nil, s.didChange(req.Params)
	case "textDocument/didSave":
		return nil, s.didSave(req.Params)
	case "textDocument/didClose":
		return nil, s.didClose(req.Params)
	case "textDocument/completion":
		return s.complete(req.Params, false)
	case "textDocument/inlineCompletion":
		return s.complete(req.Params, true)
	}
	if req.IsNotify() {
		return nil, nil // unknown notifications are ignored, as LSP asks
	}
	return nil, jsonrpc.Errorf(jsonrpc.CodeMethodNotFound, "method not found: %s", req.Method)
}

func (s *Server) initialize(params json.RawMessage) (jsonrpc.Work, error) {
	var p struct {
		Capabilities struct {
			General struct {
				PositionEncodings []Encoding `json:"positionEncodings"`
			} `json:"general"`
			Window struct {
				WorkDoneProgress bool `json:"workDoneProgress"`
			} `json:"window"`
		} `json:"capabilities"`
	}
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.initialized {
		return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "initialize sent twice")
	}
	// UTF-8 saves every conversion; take it when the client offers it.
	s.enc = UTF16
	for _, e := range p.Capabilities.General.PositionEncodings {
		if e == UTF8 {
			s.enc = UTF8
		}
	}
	s.initialized = true
	s.workDone = p.Capabilities.Window.WorkDoneProgress
	type syncOptions struct {
		OpenClose bool `json:"openClose"`
		Change    int  `json:"change"`
		Save      struct {
			IncludeText bool `json:"includeText"`
		} `json:"save"`
	}
	result := map[string]any{
		"capabilities": map[string]any{
			"positionEncoding": s.enc,
			// Incremental (2); full-text changes are accepted too.
			"textDocumentSync": syncOptions{OpenClose: true, Change: 2},
			"completionProvider": map[string]any{
				"triggerCharacters": []string{".", "("},
				"resolveProvider":   false,
			},
			"inlineCompletionProvider": true,
		},
		"serverInfo": map[string]string{"name": "graphcoder", "version": s.opts.Version},
	}
	return jsonrpc.Value(result), nil
}

type textDocumentID struct {
	URI string `json:"uri"`
}

func (s *Server) didOpen(params json.RawMessage) error {
	var p struct {
		TextDocument struct {
			URI        string `json:"uri"`
			LanguageID string `json:"languageId"`
			Version    int    `json:"version"`
			Text       string `json:"text"`
		} `json:"textDocument"`
	}
	if err := decode(params, &p); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs[p.TextDocument.URI] = &document{text: p.TextDocument.Text, version: p.TextDocument.Version,
		language: p.TextDocument.LanguageID}
	s.shareBuffer(p.TextDocument.URI, p.TextDocument.Text)
	return nil
}

// shareBuffer tells the service the text of an open document, so that
// HTTP clients sending a part of it are answered from the whole.
func (s *Server) shareBuffer(uri, text string) {
	if path, err := uriPath(uri); err == nil {
		s.svc.SetBuffer(path, text)
	}
}

func (s *Server) didChange(params json.RawMessage) error {
	var p struct {
		TextDocument struct {
			URI     string `json:"uri"`
			Version int    `json:"version"`
		} `json:"textDocument"`
		ContentChanges []ContentChange `json:"contentChanges"`
	}
	if err := decode(params, &p); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		// A client that never sent didOpen: its edits apply to the file
		// as it is on disk (a full-text change needs nothing of it).
		base, err := s.unopened(p.TextDocument.URI, p.ContentChanges)
		if err != nil {
			return fmt.Errorf("change to a document that is not open: %w", err)
		}
		d = &document{text: base}
		s.docs[p.TextDocument.URI] = d
	}
	text, err := Apply(d.text, p.ContentChanges, s.enc)
	if err != nil {
		return fmt.Errorf("%s version %d: %w", p.TextDocument.URI, p.TextDocument.Version, err)
	}
	d.text, d.version = text, p.TextDocument.Version
	s.shareBuffer(p.TextDocument.URI, text)
	return nil
}

// unopened returns the text edits to a document never opened apply to:
// nothing when the first change replaces the whole text, else the file
// on disk, read as the build reads it.
func (s *Server) unopened(uri string, changes []ContentChange) (string, error) {
	if len(changes) > 0 && changes[0].Range == nil {
		return "", nil
	}
	path, err := uriPath(uri)
	if err != nil {
		return "", err
	}
	b, err := s.svc.ReadFile(path)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

func (s *Server) didSave(params json.RawMessage) error {
	var p struct {
		TextDocument textDocumentID `json:"textDocument"`
	}
	if err := decode(params, &p); err != nil {
		return err
	}
	if s.opts.OnSave == nil {
		return nil
	}
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return err
	}
	if _, err := s.svc.Resolve(path); err != nil {
		return nil // saves outside the repository do not concern the index
	}
	s.opts.OnSave(path)
	return nil
}

func (s *Server) didClose(params json.RawMessage) error {
	var p struct {
		TextDocument textDocumentID `json:"textDocument"`
	}
	if err := decode(params, &p); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.docs, p.TextDocument.URI)
	if path, err := uriPath(p.TextDocument.URI); err == nil {
		s.svc.CloseBuffer(path)
	}
	return nil
}

// progressToken names the work-done progress of the initial index build.
const progressToken = "graphcoder/index"

// reportProgress shows the initial index build to the client as
// work-done progress: it creates the token, then sends begin, a report at
// each change (at most ten a second) and end.
func (s *Server) reportProgress() {
	s.mu.Lock()
	conn, ctx := s.conn, s.ctx
	s.mu.Unlock()
	if err := conn.Call(ctx, "window/workDoneProgress/create", map[string]string{"token": progressToken}, nil); err != nil {
		s.log.Printf("lsp: the client refused progress reports: %v", err)
		return
	}
	type value struct {
		Kind        string `json:"kind"`
		Title       string `json:"title,omitempty"`
		Message     string `json:"message,omitempty"`
		Percentage  *int   `json:"percentage,omitempty"`
		Cancellable *bool  `json:"cancellable,omitempty"`
	}
	send := func(v value) bool {
		err := conn.Notify("$/progress", map[string]any{"token": progressToken, "value": v})
		return err == nil
	}
	pct := func(t server.Task) *int {
		if t.Percent < 0 {
			return nil
		}
		p := t.Percent
		return &p
	}
	t, changed := s.opts.Progress.State()
	no := false
	if !send(value{Kind: "begin", Title: t.Title, Message: t.Message, Percentage: pct(t), Cancellable: &no}) {
		return
	}
	for changed != nil {
		select {
		case <-ctx.Done():
			return
		case <-changed:
		}
		select { // coalesce a burst of changes
		case <-ctx.Done():
			return
		case <-time.After(100 * time.Millisecond):
		}
		if t, changed = s.opts.Progress.State(); changed != nil && !send(value{Kind: "report", Message: t.Message, Percentage: pct(t)}) {
			return
		}
	}
	msg := t.Message
	if t.Err != nil {
		msg = fmt.Sprintf("failed: %v", t.Err)
	}
	send(value{Kind: "end", Message: msg})
}

// uriPath returns the local path of a file URI.
func uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return "", jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "not a file URI: %q", uri)
	}
	return filepath.FromSlash(u.Path), nil
}

// CompletionItem is the subset of LSP's completion item the server fills.
type CompletionItem struct {
	Label            string    `json:"label"`
	Kind             int       `json:"kind"`
	Detail           string    `json:"detail,omitempty"`
	Documentation    string    `json:"documentation,omitempty"`
	FilterText       string    `json:"filterText"`
	InsertTextFormat int       `json:"insertTextFormat"`
	TextEdit         *TextEdit `json:"textEdit,omitempty"`
}

// TextEdit replaces Range by NewText.
type TextEdit struct {
	Range   Range  `json:"range"`
	NewText string `json:"newText"`
}

// CompletionList answers textDocument/completion.
type CompletionList struct {
	IsIncomplete bool             `json:"isIncomplete"`
	Items        []CompletionItem `json:"items"`
}

// InlineCompletionItem is one ghost-text proposal (LSP 3.18).
type InlineCompletionItem struct {
	InsertText string `json:"insertText"`
	FilterText string `json:"filterText,omitempty"`
	Range      *Range `json:"range,omitempty"`
}

// InlineCompletionList answers textDocument/inlineCompletion.
type InlineCompletionList struct {
	Items []InlineCompletionItem `json:"items"`
}

// complete captures the buffer now, in message order, and returns the
// work that answers from it.
func (s *Server) complete(params json.RawMessage, inline bool) (jsonrpc.Work, error) {
	t0 := time.Now()
	rec := server.Record{Time: t0, Protocol: "lsp", Method: "textDocument/completion"}
	if inline {
		rec.Method = "textDocument/inlineCompletion"
	}
	var p struct {
		TextDocument textDocumentID `json:"textDocument"`
		Position     Position       `json:"position"`
	}
	if err := decode(params, &p); err != nil {
		s.logRequest(&rec, t0, err)
		return nil, err
	}
	path, err := uriPath(p.TextDocument.URI)
	if err != nil {
		s.logRequest(&rec, t0, err)
		return nil, err
	}
	rec.Path = path
	if rel, err := s.svc.Resolve(path); err == nil {
		rec.Path = rel
	}
	s.mu.Lock()
	enc := s.enc
	var text, language string
	d := s.docs[p.TextDocument.URI]
	if d != nil {
		text, language = d.text, d.language
	}
	s.mu.Unlock()
	return func(ctx context.Context) (ans any, err error) {
		defer func() {
			if p := recover(); p != nil {
				s.logRequest(&rec, t0, jsonrpc.Errorf(jsonrpc.CodeInternalError, "panic: %v", p))
				panic(p) // for the connection to answer
			}
			s.logRequest(&rec, t0, err)
		}()
		if d == nil {
			// Not open in the editor: complete from the file on disk, read
			// as the build reads it (no FIFO, device or link out of the
			// repository).
			b, err := s.svc.ReadFile(path)
			if err != nil {
				return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "document not open and not readable: %v", err)
			}
			text = string(b)
		}
		off, err := Offset(text, p.Position, enc)
		if err != nil {
			return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "%v", err)
		}
		start, _ := lineStart(text, p.Position.Line)
		c, err := s.svc.Complete(ctx, server.Query{
			Path:     path,
			Language: language,
			Source:   []byte(text),
			Line:     p.Position.Line + 1,
			Column:   off - start,
		})
		switch {
		case errors.Is(err, server.ErrNotReady):
			// Nothing to offer yet; the editor asks again as it types.
			rec.Error = err.Error()
			return s.answer(&server.Completion{}, p.Position, enc, inline), nil
		case server.IsBadRequest(err):
			return nil, jsonrpc.Errorf(jsonrpc.CodeInvalidParams, "%v", err)
		case err != nil:
			return nil, err
		}
		rec.Fill(c)
		return s.answer(c, p.Position, enc, inline), nil
	}, nil
}

// logRequest writes the request log line of a completion answered with
// err (nil for an answer).
func (s *Server) logRequest(rec *server.Record, t0 time.Time, err error) {
	rec.TotalMS = server.MS(time.Since(t0))
	rec.Status = "ok"
	if err != nil {
		var e *jsonrpc.Error
		switch {
		case errors.As(err, &e):
			rec.Status, rec.Error = codeName(e.Code), e.Message
		case errors.Is(err, context.Canceled):
			rec.Status, rec.Error = "RequestCancelled", err.Error()
		default:
			rec.Status, rec.Error = "RequestFailed", err.Error()
		}
	}
	s.svc.LogRequest(*rec)
}

// codeName names a JSON-RPC error code for the request log.
func codeName(code int64) string {
	switch code {
	case jsonrpc.CodeInvalidParams:
		return "InvalidParams"
	case jsonrpc.CodeInvalidRequest:
		return "InvalidRequest"
	case jsonrpc.CodeRequestCancelled:
		return "RequestCancelled"
	case jsonrpc.CodeInternalError:
		return "InternalError"
	case jsonrpc.CodeRequestFailed:
		return "RequestFailed"
	}
	return fmt.Sprintf("error %d", code)
}

func (s *Server) answer(c *server.Completion, cursor Position, enc Encoding, inline bool) any {
	if c.Text == "" {
		if inline {
			return InlineCompletionList{Items: []InlineCompletionItem{}}
		}
		return CompletionList{IsIncomplete: true, Items: []CompletionItem{}}
	}
	line := c.Typed + c.Text
	rng := Range{
		Start: Position{Line: cursor.Line, Character: Units(c.Indent, enc)},
		End:   cursor,
	}
	if inline {
		return InlineCompletionList{Items: []InlineCompletionItem{{InsertText: line, FilterText: line, Range: &rng}}}
	}
	item := CompletionItem{
		Label:            firstLine(line),
		Kind:             1, // Text
		Detail:           "graphcoder",
		FilterText:       line,
		InsertTextFormat: 1, // plain text
		TextEdit:         &TextEdit{Range: rng, NewText: line},
	}
	if c.FromModel {
		item.Detail = "graphcoder (model)"
	}
	if len(c.Snippets) > 0 {
		b := c.Snippets[0]
		item.Detail += fmt.Sprintf(" from %s:%d-%d", b.Path, b.StartLine, b.EndLine)
		item.Documentation = b.Text
	}
	item.Documentation += definitionsDoc(c.Definitions)
	// Typing on the line keeps the retrieval cached; ask again each key.
	return CompletionList{IsIncomplete: true, Items: []CompletionItem{item}}
}

// definitionsDoc lists the repository definitions the prompt shows, with
// where they are and why they were chosen, for an item's documentation.
func definitionsDoc(defs []server.Definition) string {
	var b strings.Builder
	for _, d := range defs {
		if !d.InPrompt {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("\n\ndefinitions in the prompt:")
		}
		fmt.Fprintf(&b, "\n  %s %s (%s:%d): %s, %s", d.Kind, d.Name, d.Path, d.Line, d.Origin, d.Reason)
	}
	return b.String()
}

func firstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
