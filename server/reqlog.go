package server

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Record is one line of the request log: what a client asked, what it
// got and what the answer cost.
type Record struct {
	Time     time.Time `json:"time"`
	Protocol string    `json:"protocol"` // "http" or "lsp"
	Method   string    `json:"method"`   // "POST /v1/completions", "textDocument/completion", ...
	// Status is the HTTP status code, or for LSP "ok" or the name of the
	// JSON-RPC error answered.
	Status string `json:"status"`
	// Error is why the request failed: the reason a client got a 4xx.
	Error string `json:"error,omitempty"`
	// Client names the client or its user when it says (Tabby's user).
	Client string `json:"client,omitempty"`

	Path     string    `json:"path,omitempty"`
	Line     int       `json:"line,omitempty"`
	Language string    `json:"language,omitempty"`
	Placed   Placement `json:"placed,omitempty"`
	Cached   bool      `json:"cached,omitempty"`
	// Snippets counts the retrieved snippets; Blocks counts the prompt's
	// blocks by source (retrieved, declaration, changed_file, ...).
	Snippets int            `json:"snippets"`
	Blocks   map[string]int `json:"blocks,omitempty"`
	// Predictor is what wrote the answer: "model", "model-free", or ""
	// when there was nothing to offer.
	Predictor string `json:"predictor,omitempty"`
	Chars     int    `json:"chars"` // bytes of text offered

	// Milliseconds per stage.
	TotalMS  float64 `json:"total_ms"`
	ParseMS  float64 `json:"parse_ms,omitempty"`
	CoarseMS float64 `json:"coarse_ms,omitempty"`
	FineMS   float64 `json:"fine_ms,omitempty"`
	PromptMS float64 `json:"prompt_ms,omitempty"`
	ModelMS  float64 `json:"model_ms,omitempty"`
	Partial  bool    `json:"partial,omitempty"` // the retrieval budget ran out

	// Event is the kind of a completion event a client reported, and
	// AcceptRate the share of shown completions accepted so far.
	Event      string   `json:"event,omitempty"`
	AcceptRate *float64 `json:"accept_rate,omitempty"`
}

// Fill copies what a completion tells into the record.
func (r *Record) Fill(c *Completion) {
	r.Path, r.Line, r.Language, r.Placed, r.Cached = c.Path, c.Line, c.Language, c.Placed, c.Cached
	r.Snippets = len(c.Snippets)
	for _, b := range c.Blocks {
		if r.Blocks == nil {
			r.Blocks = map[string]int{}
		}
		src := string(b.Source)
		if src == "" {
			src = "retrieved"
		}
		r.Blocks[src]++
	}
	switch {
	case c.Text == "":
	case c.FromModel:
		r.Predictor = "model"
	default:
		r.Predictor = "model-free"
	}
	r.Chars = len(c.Text)
	st := c.Stats
	r.ParseMS, r.CoarseMS, r.FineMS, r.PromptMS, r.ModelMS = ms(st.Parse), ms(st.Coarse), ms(st.Fine), ms(st.Prompt), ms(st.Model)
	r.Partial = st.Partial
}

// ms returns d in milliseconds, rounded to microseconds.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// MS returns d in milliseconds as the request log shows it.
func MS(d time.Duration) float64 { return ms(d) }

// Log formats of [NewRequestLog].
const (
	LogText = "text"
	LogJSON = "json"
)

// RequestLog writes one line per request, as text (key=value pairs) or
// JSON. It is safe for concurrent use; a nil *RequestLog logs nothing.
type RequestLog struct {
	mu   sync.Mutex
	w    io.Writer
	json bool
}

// NewRequestLog returns a log writing to w in format LogText or LogJSON.
func NewRequestLog(w io.Writer, format string) (*RequestLog, error) {
	switch format {
	case LogText, "":
		return &RequestLog{w: w}, nil
	case LogJSON:
		return &RequestLog{w: w, json: true}, nil
	}
	return nil, fmt.Errorf("unknown log format %q (want text or json)", format)
}

// Log writes r, stamped now when it has no time.
func (l *RequestLog) Log(r Record) {
	if l == nil {
		return
	}
	if r.Time.IsZero() {
		r.Time = time.Now()
	}
	var line []byte
	if l.json {
		b, err := json.Marshal(r)
		if err != nil {
			return
		}
		line = append(b, '\n')
	} else {
		line = []byte(r.text())
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.w.Write(line)
}

// text renders the record as one line of key=value pairs, the empty ones
// left out.
func (r *Record) text() string {
	var b strings.Builder
	b.WriteString(r.Time.Format("2006-01-02T15:04:05.000Z07:00"))
	b.WriteByte(' ')
	b.WriteString(r.Protocol)
	b.WriteByte(' ')
	b.WriteString(quote(r.Method))
	kv := func(k, v string) {
		if v == "" {
			return
		}
		b.WriteByte(' ')
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(quote(v))
	}
	num := func(k string, v float64) {
		if v != 0 {
			kv(k, strconv.FormatFloat(v, 'f', -1, 64))
		}
	}
	kv("status", r.Status)
	kv("client", r.Client)
	kv("event", r.Event)
	if r.AcceptRate != nil {
		kv("accept_rate", strconv.FormatFloat(*r.AcceptRate, 'f', 3, 64))
	}
	kv("path", r.Path)
	if r.Line > 0 {
		kv("line", strconv.Itoa(r.Line))
	}
	kv("language", r.Language)
	kv("placed", string(r.Placed))
	if r.Line > 0 { // a completion that got as far as its cursor
		kv("snippets", strconv.Itoa(r.Snippets))
	}
	if len(r.Blocks) > 0 {
		keys := make([]string, 0, len(r.Blocks))
		for k := range r.Blocks {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + ":" + strconv.Itoa(r.Blocks[k])
		}
		kv("blocks", strings.Join(parts, ","))
	}
	kv("predictor", r.Predictor)
	if r.Predictor != "" {
		kv("chars", strconv.Itoa(r.Chars))
	}
	if r.Cached {
		kv("cached", "true")
	}
	kv("total_ms", strconv.FormatFloat(r.TotalMS, 'f', -1, 64))
	num("parse_ms", r.ParseMS)
	num("coarse_ms", r.CoarseMS)
	num("fine_ms", r.FineMS)
	num("prompt_ms", r.PromptMS)
	num("model_ms", r.ModelMS)
	if r.Partial {
		kv("partial", "true")
	}
	kv("error", r.Error)
	b.WriteByte('\n')
	return b.String()
}

// quote quotes v when it holds a space, a quote, '=' or a control
// character.
func quote(v string) string {
	if v == "" || strings.ContainsFunc(v, func(c rune) bool { return c <= ' ' || c == '"' || c == '=' || c == 0x7f }) {
		return strconv.Quote(v)
	}
	return v
}

// Kinds of completion events (Tabby's /v1/events types).
const (
	EventView    = "view"    // a completion was shown
	EventSelect  = "select"  // it was accepted
	EventDismiss = "dismiss" // it was rejected
)

// Events counts the completion events clients report. It is safe for
// concurrent use.
type Events struct {
	view, sel, dismiss atomic.Int64
}

// EventCounts is a snapshot of [Events].
type EventCounts struct {
	Views     int64 `json:"views"`
	Selects   int64 `json:"selects"`
	Dismisses int64 `json:"dismisses"`
	// AcceptRate is Selects / Views (0 before any view).
	AcceptRate float64 `json:"accept_rate"`
}

// Add counts one event of the given kind; an unknown kind is [ErrInvalid].
func (e *Events) Add(kind string) error {
	switch kind {
	case EventView:
		e.view.Add(1)
	case EventSelect:
		e.sel.Add(1)
	case EventDismiss:
		e.dismiss.Add(1)
	default:
		return fmt.Errorf("%w: event type %q (want view, select or dismiss)", ErrInvalid, kind)
	}
	return nil
}

// Counts returns the counts so far.
func (e *Events) Counts() EventCounts {
	c := EventCounts{Views: e.view.Load(), Selects: e.sel.Load(), Dismisses: e.dismiss.Load()}
	if c.Views > 0 {
		c.AcceptRate = float64(c.Selects) / float64(c.Views)
	}
	return c
}
