package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Backend asks a language model to complete code at a cursor.
type Backend interface {
	// Complete returns the model's completion, post-processed (end tokens
	// and stop strings removed, cut at the end of the line or block). The
	// call is bounded by ctx and by the backend's configured timeout.
	Complete(ctx context.Context, req Request) (Response, error)
	// Name identifies the backend and model in logs, e.g. "ollama:qwen2.5-coder".
	Name() string
}

// Snippet is one piece of retrieved code and the repository file it came from.
type Snippet struct {
	Path string `json:"path"`
	Text string `json:"text"`
}

// Request is everything a backend may need; each uses the fields its wire
// format or template has room for.
type Request struct {
	// Prefix is the file's text before the cursor, Suffix the text after it.
	Prefix string
	Suffix string
	// Snippets is the retrieved code, best last, for formats that carry
	// other files (llama.cpp input_extra, the Qwen2.5-Coder repository layout).
	Snippets []Snippet
	// Prompt is graphcoder's prompt: retrieved code as comments followed by
	// the tail of Prefix. Formats without room for snippets send it in place
	// of Prefix; when empty, Prefix is sent.
	Prompt string
	// Language ("python", "java"), Path (relative to the repository) and
	// RepoName describe where the cursor is.
	Language string
	Path     string
	RepoName string
	// MaxTokens bounds the generated tokens; 0 takes the configured value.
	MaxTokens int
	// Stop lists extra strings at which generation ends.
	Stop []string
	// Temperature 0 asks for greedy decoding.
	Temperature float64
	// Raw sends Prompt to the model as it is: no template, no suffix, no
	// snippets (a client's own prompt, such as Tabby's raw_prompt).
	Raw bool
}

// Response is a post-processed completion.
type Response struct {
	Text    string
	Model   string
	Latency time.Duration
}

// ErrNoBackend is returned by the backend of kind "none".
var ErrNoBackend = errors.New("no model backend configured")

// HTTPError is a non-2xx answer from a model server.
type HTTPError struct {
	Backend string
	Status  int
	// Body is the start of the answer's body, enough to see the server's reason.
	Body string
	// Message is the server's error message when the body has the usual
	// {"error": "..."} or {"error": {"message": "..."}} shape.
	Message string
}

func (e *HTTPError) Error() string {
	reason := e.Body
	if e.Message != "" {
		reason = e.Message
	}
	return fmt.Sprintf("%s: HTTP %d %s: %s", e.Backend, e.Status, http.StatusText(e.Status), reason)
}

// errorMessage digs the message out of the error bodies the servers send.
func errorMessage(body []byte) string {
	var shape struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &shape) != nil || len(shape.Error) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(shape.Error, &s) == nil {
		return s
	}
	var obj struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(shape.Error, &obj) == nil {
		return obj.Message
	}
	return ""
}

// New returns the backend cfg describes.
func New(cfg Config) (Backend, error) {
	cfg = cfg.withDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	var tmpl *Template
	if cfg.Template != "" {
		t, err := TemplateByName(cfg.Template)
		if err != nil {
			return nil, err
		}
		tmpl = &t
	}
	c := newClient(cfg.Kind, cfg.Model, cfg.URL, cfg.APIKeyEnv, cfg.Timeout)
	post := postProcess{tmpl: tmpl, lineMode: cfg.StopAtLineEnd, maxTokens: cfg.MaxTokens}
	switch cfg.Kind {
	case KindNone:
		return none{}, nil
	case KindOpenAI:
		return &openAI{c: c, post: post}, nil
	case KindLlamaCpp:
		return &llamaCpp{c: c, post: post}, nil
	case KindOllama:
		return &ollama{c: c, post: post}, nil
	}
	return nil, fmt.Errorf("llm: unknown backend kind %q", cfg.Kind)
}

// transport keeps connections to the model server open between requests,
// enough of them for an editor server's concurrent completions.
var transport = func() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 16
	return t
}()

// none is the backend of kind "none".
type none struct{}

func (none) Complete(context.Context, Request) (Response, error) { return Response{}, ErrNoBackend }
func (none) Name() string                                        { return KindNone }

// newClient returns the client of a server at url (the kind's default
// when empty), the API key read from the environment variable apiKeyEnv.
func newClient(kind, model, url, apiKeyEnv string, timeout time.Duration) *client {
	if url == "" {
		url = defaultURLs[kind]
	}
	c := &client{kind: kind, model: model, baseURL: strings.TrimRight(url, "/"), timeout: timeout,
		http: &http.Client{Transport: transport}}
	if apiKeyEnv != "" {
		c.apiKey = lookupEnv(apiKeyEnv)
	}
	return c
}

// client is the HTTP plumbing the backends share.
type client struct {
	kind, model string
	baseURL     string
	apiKey      string
	timeout     time.Duration
	http        *http.Client
}

func (c *client) name() string {
	if c.model == "" {
		return c.kind
	}
	return c.kind + ":" + c.model
}

// Limits on what is read back from a server.
const (
	maxAnswerBytes = 8 << 20
	excerptBytes   = 512
)

// post sends body as JSON to path and decodes the JSON answer into out.
func (c *client) post(parent context.Context, path string, body, out any) error {
	ctx := parent
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep <fim_prefix> and friends readable on the wire
	if err := enc.Encode(body); err != nil {
		return fmt.Errorf("%s: encode request: %w", c.name(), err)
	}
	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, c.baseURL+path, &buf)
	if err != nil {
		return fmt.Errorf("%s: %w", c.name(), err)
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "application/json")
	if c.apiKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.apiKey)
	}
	resp, err := c.http.Do(hreq)
	if err != nil {
		return c.wrapTransport(parent, ctx, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
	if err != nil {
		return c.wrapTransport(parent, ctx, path, fmt.Errorf("read answer: %w", err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &HTTPError{Backend: c.name(), Status: resp.StatusCode, Body: excerpt(data), Message: errorMessage(data)}
	}
	if len(data) > maxAnswerBytes {
		return fmt.Errorf("%s: answer larger than %d bytes", c.name(), maxAnswerBytes)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("%s: decode answer from %s: %w (body: %s)", c.name(), path, err, excerpt(data))
	}
	return nil
}

// wrapTransport says whether a failed exchange ran out of time (the
// caller's deadline or the configured timeout), was cancelled, or failed on
// the network; the context error stays in the chain.
func (c *client) wrapTransport(parent, ctx context.Context, path string, err error) error {
	switch {
	case errors.Is(parent.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%s: no answer from %s before the caller's deadline: %w", c.name(), path, context.DeadlineExceeded)
	case errors.Is(parent.Err(), context.Canceled):
		return fmt.Errorf("%s: request to %s cancelled: %w", c.name(), path, context.Canceled)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("%s: no answer from %s within the timeout of %v: %w", c.name(), path, c.timeout, context.DeadlineExceeded)
	}
	return fmt.Errorf("%s: %s: %w", c.name(), path, err)
}

// excerpt returns the start of a body as one printable line.
func excerpt(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > excerptBytes {
		s = strings.ToValidUTF8(s[:excerptBytes], "") + "…"
	}
	return strings.Join(strings.Fields(s), " ")
}
