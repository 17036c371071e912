package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/prompt"
	"github.com/graphcoder/graphcoder/server"
)

// DefaultAddr is the default listening address: loopback only.
const DefaultAddr = "127.0.0.1:8420"

// Options configure [New].
type Options struct {
	// MaxBody is the largest accepted request body (default 4 MiB).
	MaxBody int64
	// Timeout bounds one request (default 10 s).
	Timeout time.Duration
	// Health adds fields to the health answer (index size, reindexing, ...).
	Health func() map[string]any
	// Model names the model that writes completions, for Tabby's health
	// fields (default: graphcoder's model-free prediction).
	Model string
	// Logger receives request errors and recovered panics.
	Logger *log.Logger
}

// CompletionRequest is the body of POST /v1/completions: Tabby's
// CompletionRequest, every field of it.
type CompletionRequest struct {
	// Language is the editor's language identifier (VS Code's list); it
	// names the language when Segments.Filepath does not.
	Language string    `json:"language,omitempty"`
	Segments *Segments `json:"segments"`
	// User identifies the client's user; it goes to the request log.
	User string `json:"user,omitempty"`
	// Temperature goes to the model backend; Seed is accepted and not
	// used (no backend takes one).
	Temperature *float64 `json:"temperature,omitempty"`
	Seed        *int64   `json:"seed,omitempty"`
	// Mode is "standard" (or empty): completion at the cursor. Tabby's
	// "next_edit_suggestion" is refused.
	Mode         string        `json:"mode,omitempty"`
	DebugOptions *DebugOptions `json:"debug_options,omitempty"`
}

// Segments is the code around the cursor and the context the client
// gathered.
type Segments struct {
	// Prefix is the text before the cursor and Suffix the text after it:
	// the whole buffer, or (as Tabby's clients send) its last and first
	// lines, which are placed in the file Filepath names when it holds
	// them.
	Prefix *string `json:"prefix"`
	Suffix string  `json:"suffix,omitempty"`
	// Filepath is the file, relative to the repository root (or absolute
	// inside it, or a file URI); optional.
	Filepath string `json:"filepath,omitempty"`
	// GitURL is the repository's remote; it is accepted and not used (one
	// server serves one repository).
	GitURL       string        `json:"git_url,omitempty"`
	Declarations []Declaration `json:"declarations,omitempty"`
	// ChangedFiles and RecentFiles are snippets of recently edited and
	// recently opened files.
	ChangedFiles []Snippet `json:"relevant_snippets_from_changed_files,omitempty"`
	RecentFiles  []Snippet `json:"relevant_snippets_from_recently_opened_files,omitempty"`
	Clipboard    string    `json:"clipboard,omitempty"`
	// EditHistory belongs to Tabby's next-edit mode; accepted, not used.
	EditHistory json.RawMessage `json:"edit_history,omitempty"`
}

// Declaration is a definition the editor found for a symbol of the prefix.
type Declaration struct {
	Filepath string `json:"filepath"`
	Body     string `json:"body"`
}

// DebugOptions are Tabby's debug options.
type DebugOptions struct {
	// RawPrompt is sent to the model backend as it is, segments ignored;
	// without a model backend it is completed as code in Language.
	RawPrompt      string `json:"raw_prompt,omitempty"`
	ReturnSnippets bool   `json:"return_snippets,omitempty"`
	ReturnPrompt   bool   `json:"return_prompt,omitempty"`
	// DisableRetrieval leaves graphcoder's retrieval out: the context is
	// what the client sent and the file's own.
	DisableRetrieval bool `json:"disable_retrieval_augmented_code_completion,omitempty"`
}

// Choice is one completion: the text to insert at the cursor.
type Choice struct {
	Index int    `json:"index"`
	Text  string `json:"text"`
}

// Snippet is a piece of code: a client-sent snippet (Tabby's Snippet,
// filepath, body and score) or, in the debug data, a retrieved one, with
// its lines and source.
type Snippet struct {
	Filepath  string  `json:"filepath"`
	Body      string  `json:"body"`
	Score     float64 `json:"score"`
	StartLine int     `json:"start_line,omitempty"`
	EndLine   int     `json:"end_line,omitempty"`
	Source    string  `json:"source,omitempty"`
}

// DebugData carries what debug_options asked for: with return_snippets,
// the retrieved snippets and the repository definitions the prompt was
// offered (each with why it was chosen and whether the prompt shows it).
type DebugData struct {
	Snippets    []Snippet           `json:"snippets,omitempty"`
	Definitions []server.Definition `json:"definitions,omitempty"`
	Prompt      string              `json:"prompt,omitempty"`
}

// CompletionResponse is the answer to POST /v1/completions.
type CompletionResponse struct {
	ID        string     `json:"id"`
	Choices   []Choice   `json:"choices"`
	DebugData *DebugData `json:"debug_data,omitempty"`
}

// LogEventRequest is the body of POST /v1/events: a client's report that
// a completion was shown, accepted or dismissed.
type LogEventRequest struct {
	Type         string `json:"type"`
	CompletionID string `json:"completion_id"`
	ChoiceIndex  int    `json:"choice_index"`
	ViewID       string `json:"view_id,omitempty"`
	Elapsed      *int   `json:"elapsed,omitempty"`
	SelectKind   string `json:"select_kind,omitempty"`
}

type handler struct {
	svc   *server.Service
	opts  Options
	log   *log.Logger
	start time.Time
}

// New returns the HTTP handler for svc.
func New(svc *server.Service, opts Options) http.Handler {
	if opts.MaxBody <= 0 {
		opts.MaxBody = 4 << 20
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 10 * time.Second
	}
	if opts.Model == "" {
		opts.Model = "graphcoder model-free prediction"
	}
	lg := opts.Logger
	if lg == nil {
		lg = svc.Logger()
	}
	h := &handler{svc: svc, opts: opts, log: lg, start: time.Now()}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/completions", h.completions)
	mux.HandleFunc("POST /v1/events", h.events)
	mux.HandleFunc("GET /v1/health", h.health)
	mux.HandleFunc("POST /v1/health", h.health) // Tabby's clients use either
	mux.HandleFunc("GET /v1beta/server_setting", h.serverSetting)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path)
	})
	return h.logged(h.recoverer(mux))
}

// NewServer returns an http.Server for handler with timeouts suited to a
// completion API.
func NewServer(handler http.Handler, logger *log.Logger) *http.Server {
	return &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          logger,
	}
}

// IsLoopback reports whether addr (host:port) listens on loopback only.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// recorder remembers the status and the record of one request for the
// request log.
type recorder struct {
	http.ResponseWriter
	status int
	rec    server.Record
}

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
	r.ResponseWriter.WriteHeader(status)
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// record returns the request log record of the request w answers (a
// throwaway one outside [handler.logged]).
func record(w http.ResponseWriter) *server.Record {
	if r, ok := w.(*recorder); ok {
		return &r.rec
	}
	return &server.Record{}
}

// logged writes one request log line per request, after it is answered.
func (h *handler) logged(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t0 := time.Now()
		rw := &recorder{ResponseWriter: w, rec: server.Record{Time: t0, Protocol: "http", Method: r.Method + " " + r.URL.Path}}
		defer func() {
			if rw.status == 0 {
				// Nothing was written: the client went away first.
				rw.status = 499
				if rw.rec.Error == "" {
					rw.rec.Error = "client closed the request"
				}
			}
			rw.rec.Status = strconv.Itoa(rw.status)
			rw.rec.TotalMS = server.MS(time.Since(t0))
			h.svc.LogRequest(rw.rec)
		}()
		next.ServeHTTP(rw, r)
	})
}

func (h *handler) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				h.log.Printf("http: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, p, debug.Stack())
				writeError(w, http.StatusInternalServerError, fmt.Sprintf("internal error: %v", p))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers with status and the reason, which also goes to the
// request log.
func writeError(w http.ResponseWriter, status int, msg string) {
	record(w).Error = msg
	writeJSON(w, status, map[string]string{"error": msg})
}

// decodeBody decodes the JSON body of r into v, answering the client and
// reporting false when it cannot.
func (h *handler) decodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	r.Body = http.MaxBytesReader(w, r.Body, h.opts.MaxBody)
	dec := json.NewDecoder(r.Body)
	err := dec.Decode(v)
	if err == nil {
		// The body is one JSON value: anything after it is an error, not
		// something to ignore.
		if extra := dec.Decode(&json.RawMessage{}); extra != io.EOF {
			err = extra
			if err == nil {
				err = errors.New("trailing data after the JSON body")
			}
		}
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", tooBig.Limit))
			return false
		}
		writeError(w, http.StatusBadRequest, "malformed JSON: "+err.Error())
		return false
	}
	return true
}

func (h *handler) completions(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.Timeout)
	defer cancel()
	var req CompletionRequest
	if !h.decodeBody(w, r, &req) {
		return
	}
	rec := record(w)
	rec.Client = req.User
	q, crlf, err := h.query(&req)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	rec.Path, rec.Language = q.Path, q.Language
	c, err := h.svc.Complete(ctx, q)
	switch {
	case server.IsBadRequest(err):
		writeError(w, http.StatusBadRequest, err.Error())
		return
	case errors.Is(err, server.ErrNotReady):
		writeError(w, http.StatusServiceUnavailable, err.Error())
		return
	case errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusGatewayTimeout, "completion timed out")
		return
	case r.Context().Err() != nil:
		rec.Error = "client closed the request"
		return
	case err != nil:
		h.log.Printf("http: completion of %s: %v", q.Path, err)
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	rec.Fill(c)
	resp := CompletionResponse{ID: newID(), Choices: []Choice{}}
	if c.Text != "" {
		text := c.Text
		if crlf {
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		resp.Choices = append(resp.Choices, Choice{Index: 0, Text: text})
	}
	if d := req.DebugOptions; d != nil && (d.ReturnSnippets || d.ReturnPrompt) {
		resp.DebugData = &DebugData{}
		if d.ReturnSnippets {
			resp.DebugData.Snippets = make([]Snippet, 0, len(c.Snippets))
			for _, s := range c.Snippets {
				resp.DebugData.Snippets = append(resp.DebugData.Snippets, Snippet{
					Filepath: s.Path, StartLine: s.StartLine, EndLine: s.EndLine, Score: s.Score, Body: s.Text,
					Source: string(prompt.Retrieved),
				})
			}
			resp.DebugData.Definitions = c.Definitions
		}
		if d.ReturnPrompt {
			resp.DebugData.Prompt = c.Prompt
		}
	}
	writeJSON(w, http.StatusOK, resp)
}

// query turns a Tabby request into the service's query, and reports
// whether the client writes CRLF line endings (the answer then does too).
func (h *handler) query(req *CompletionRequest) (server.Query, bool, error) {
	q := server.Query{Language: req.Language}
	if req.Temperature != nil {
		if t := *req.Temperature; t < 0 || t != t {
			return q, false, fmt.Errorf("temperature %g is negative", t)
		}
		q.Temperature = *req.Temperature
	}
	switch req.Mode {
	case "", "standard":
	default:
		return q, false, fmt.Errorf("mode %q is not supported (graphcoder completes at the cursor: standard)", req.Mode)
	}
	d := req.DebugOptions
	if d == nil {
		d = &DebugOptions{}
	}
	q.WantPrompt = d.ReturnPrompt
	if d.RawPrompt != "" {
		// Segments are ignored. Without a model backend the prompt is
		// completed as code of the language named.
		if !h.svc.HasModel() && req.Language == "" {
			return q, false, errors.New("debug_options.raw_prompt without a model backend needs language")
		}
		raw := strings.ReplaceAll(d.RawPrompt, "\r\n", "\n")
		row, start := lang.LineOf(raw, len(raw))
		q.RawPrompt, q.Source, q.Line, q.Column = raw, []byte(raw), row+1, len(raw)-start
		return q, strings.Contains(d.RawPrompt, "\r\n"), nil
	}
	seg := req.Segments
	switch {
	case seg == nil:
		return q, false, errors.New("segments (or debug_options.raw_prompt) is required")
	case seg.Prefix == nil:
		return q, false, errors.New("segments.prefix is required")
	case seg.Filepath == "" && req.Language == "":
		return q, false, errors.New("segments.filepath or language is required")
	}
	path, err := localPath(seg.Filepath)
	if err != nil {
		return q, false, fmt.Errorf("segments.filepath: %w", err)
	}
	prefix, suffix := *seg.Prefix, seg.Suffix
	crlf := strings.Contains(prefix, "\r\n") || strings.Contains(suffix, "\r\n")
	prefix, suffix = strings.ReplaceAll(prefix, "\r\n", "\n"), strings.ReplaceAll(suffix, "\r\n", "\n")
	src := prefix + suffix
	row, start := lang.LineOf(src, len(prefix))
	q.Path, q.Source, q.Line, q.Column = path, []byte(src), row+1, len(prefix)-start
	// Tabby's clients send the last lines before the cursor and the first
	// after it: place them in the file when it holds them.
	q.Partial = true
	q.NoRetrieval = d.DisableRetrieval
	for _, decl := range seg.Declarations {
		q.Context = append(q.Context, h.candidate(prompt.Declaration, decl.Filepath, decl.Body, 0))
	}
	for _, s := range seg.ChangedFiles {
		q.Context = append(q.Context, h.candidate(prompt.ChangedFile, s.Filepath, s.Body, s.Score))
	}
	for _, s := range seg.RecentFiles {
		q.Context = append(q.Context, h.candidate(prompt.RecentFile, s.Filepath, s.Body, s.Score))
	}
	if strings.TrimSpace(seg.Clipboard) != "" {
		q.Context = append(q.Context, h.candidate(prompt.Clipboard, "", seg.Clipboard, 0))
	}
	return q, crlf, nil
}

// candidate turns a client-sent snippet into an assembler candidate, its
// path relative to the repository when it lies inside it.
func (h *handler) candidate(src prompt.Source, path, body string, score float64) prompt.Candidate {
	if p, err := localPath(path); err == nil && p != "" {
		path = p
		if rel, err := h.svc.Resolve(p); err == nil {
			path = rel
		}
	}
	// Lines end as in a source file (lang.SplitLines); terminators at the
	// end of the snippet start no empty lines.
	body = strings.TrimRight(body, "\r\n")
	return prompt.Candidate{Source: src, Path: path, Lines: lang.SplitLines(body), Score: score}
}

// localPath returns the local path of a file path or file URI.
func localPath(p string) (string, error) {
	if !strings.HasPrefix(p, "file:") {
		return p, nil
	}
	u, err := url.Parse(p)
	if err != nil || u.Path == "" || (u.Host != "" && u.Host != "localhost") {
		return "", fmt.Errorf("not a local file URI: %q", p)
	}
	return filepath.FromSlash(u.Path), nil
}

func (h *handler) events(w http.ResponseWriter, r *http.Request) {
	var ev LogEventRequest
	if !h.decodeBody(w, r, &ev) {
		return
	}
	if ev.SelectKind == "" {
		ev.SelectKind = r.URL.Query().Get("select_kind")
	}
	rec := record(w)
	rec.Event = ev.Type
	switch {
	case ev.CompletionID == "":
		writeError(w, http.StatusBadRequest, "completion_id is required")
		return
	case ev.ChoiceIndex < 0:
		writeError(w, http.StatusBadRequest, fmt.Sprintf("choice_index %d is negative", ev.ChoiceIndex))
		return
	}
	if err := h.svc.Events().Add(ev.Type); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	rate := h.svc.Events().Counts().AcceptRate
	rec.AcceptRate = &rate
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

func (h *handler) health(w http.ResponseWriter, r *http.Request) {
	v := map[string]any{
		"status":     "ok",
		"root":       h.svc.Root(),
		"generation": h.svc.Generation(),
		"uptime_s":   int(time.Since(h.start).Seconds()),
		"events":     h.svc.Events().Counts(),
	}
	for k, x := range tabbyHealth(h.opts.Model) {
		v[k] = x
	}
	if h.opts.Health != nil {
		for k, x := range h.opts.Health() {
			v[k] = x
		}
	}
	writeJSON(w, http.StatusOK, v)
}

// serverSetting answers Tabby's /v1beta/server_setting: clients are asked
// to send no usage data to anyone.
func (h *handler) serverSetting(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]bool{"disable_client_side_telemetry": true})
}

// newID returns a completion id, "cmpl-" and a random (version 4) UUID.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("cmpl-%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
