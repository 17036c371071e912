package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/graphcoder/graphcoder/lang"
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
	// Logger receives request errors and recovered panics.
	Logger *log.Logger
}

// CompletionRequest is the body of POST /v1/completions.
type CompletionRequest struct {
	Language string `json:"language,omitempty"`
	Segments *struct {
		Prefix   string `json:"prefix"`
		Suffix   string `json:"suffix"`
		Filepath string `json:"filepath"`
	} `json:"segments"`
	DebugOptions struct {
		ReturnSnippets bool `json:"return_snippets"`
		ReturnPrompt   bool `json:"return_prompt"`
	} `json:"debug_options"`
}

// Choice is one completion: the text to insert at the cursor.
type Choice struct {
	Index int    `json:"index"`
	Text  string `json:"text"`
}

// Snippet is a retrieved snippet in the debug data.
type Snippet struct {
	Filepath  string  `json:"filepath"`
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Score     float64 `json:"score"`
	Body      string  `json:"body"`
}

// DebugData carries what debug_options asked for.
type DebugData struct {
	Snippets []Snippet `json:"snippets,omitempty"`
	Prompt   string    `json:"prompt,omitempty"`
}

// CompletionResponse is the answer to POST /v1/completions.
type CompletionResponse struct {
	ID        string     `json:"id"`
	Choices   []Choice   `json:"choices"`
	DebugData *DebugData `json:"debug_data,omitempty"`
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
	lg := opts.Logger
	if lg == nil {
		lg = svc.Logger()
	}
	h := &handler{svc: svc, opts: opts, log: lg, start: time.Now()}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/completions", h.completions)
	mux.HandleFunc("GET /v1/health", h.health)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "no such endpoint: "+r.Method+" "+r.URL.Path)
	})
	return h.recoverer(mux)
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

func (h *handler) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				h.log.Printf("http: panic serving %s %s: %v\n%s", r.Method, r.URL.Path, p, debug.Stack())
				writeError(w, http.StatusInternalServerError, "internal error")
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

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func (h *handler) completions(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), h.opts.Timeout)
	defer cancel()
	r.Body = http.MaxBytesReader(w, r.Body, h.opts.MaxBody)
	var req CompletionRequest
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(&req); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("request body over %d bytes", tooBig.Limit))
			return
		}
		writeError(w, http.StatusBadRequest, "malformed JSON: "+err.Error())
		return
	}
	if req.Segments == nil || req.Segments.Filepath == "" {
		writeError(w, http.StatusBadRequest, "segments.filepath is required")
		return
	}
	seg := req.Segments
	src := seg.Prefix + seg.Suffix
	row, start := lang.LineOf(src, len(seg.Prefix))
	line, col := row+1, len(seg.Prefix)-start
	c, err := h.svc.Complete(ctx, server.Query{Path: seg.Filepath, Source: []byte(src), Line: line, Column: col,
		WantPrompt: req.DebugOptions.ReturnPrompt})
	switch {
	case server.IsBadRequest(err):
		writeError(w, http.StatusBadRequest, err.Error())
		return
	case errors.Is(err, context.DeadlineExceeded):
		writeError(w, http.StatusGatewayTimeout, "completion timed out")
		return
	case r.Context().Err() != nil:
		return // the client went away
	case err != nil:
		h.log.Printf("http: completion of %s:%d: %v", seg.Filepath, line, err)
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	resp := CompletionResponse{ID: newID(), Choices: []Choice{}}
	if c.Text != "" {
		resp.Choices = append(resp.Choices, Choice{Index: 0, Text: c.Text})
	}
	if req.DebugOptions.ReturnSnippets || req.DebugOptions.ReturnPrompt {
		resp.DebugData = &DebugData{}
		if req.DebugOptions.ReturnSnippets {
			resp.DebugData.Snippets = make([]Snippet, 0, len(c.Snippets))
			for _, s := range c.Snippets {
				resp.DebugData.Snippets = append(resp.DebugData.Snippets, Snippet{
					Filepath: s.Path, StartLine: s.StartLine, EndLine: s.EndLine, Score: s.Score, Body: s.Text,
				})
			}
		}
		if req.DebugOptions.ReturnPrompt {
			resp.DebugData.Prompt = c.Prompt
		}
	}
	writeJSON(w, http.StatusOK, resp)
}

func (h *handler) health(w http.ResponseWriter, r *http.Request) {
	v := map[string]any{
		"status":     "ok",
		"root":       h.svc.Root(),
		"generation": h.svc.Generation(),
		"uptime_s":   int(time.Since(h.start).Seconds()),
	}
	if h.opts.Health != nil {
		for k, x := range h.opts.Health() {
			v[k] = x
		}
	}
	writeJSON(w, http.StatusOK, v)
}

func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "cmpl-" + hex.EncodeToString(b[:])
}
