package server

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/lang"
)

// Errors a front end maps onto its protocol's "bad request" answers.
var (
	// ErrOutsideRepo reports a path that does not lie inside the repository.
	ErrOutsideRepo = errors.New("path is outside the repository")
	// ErrPosition reports a cursor that does not lie inside the buffer.
	ErrPosition = errors.New("position out of range")
	// ErrInvalid marks any other request that can never succeed as asked
	// (an unsupported language, a binary file); completers wrap it.
	ErrInvalid = errors.New("invalid request")
)

// IsBadRequest reports whether err is the caller's fault rather than the
// server's: front ends answer it with 4xx or InvalidParams.
func IsBadRequest(err error) bool {
	return errors.Is(err, ErrOutsideRepo) || errors.Is(err, ErrPosition) || errors.Is(err, ErrInvalid)
}

// Snippet is one piece of retrieved repository code.
type Snippet struct {
	Path      string  `json:"path"` // slash-separated, relative to the repository root
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Score     float64 `json:"score"`
	Text      string  `json:"text"`
}

// Request is what the service asks of a [Completer]: complete line Line
// (1-based) of the file at Path from the lines before it, with the rest of
// Source as the suffix.
type Request struct {
	Path   string // slash-separated, relative to the repository root
	Line   int    // 1-based
	Source []byte // the editor's buffer, unsaved changes included
	// Language, when set, names the buffer's language (a registered front
	// end, as the editor reports it); otherwise the path's extension says.
	Language string
	// Budget bounds retrieval: when it runs out the completer answers with
	// the best result found so far rather than failing. Zero means no budget.
	Budget time.Duration
	// NoPrompt tells the completer that nobody will read Result.Prompt
	// or Result.Window (no model backend, no debug output), so it may
	// skip building them.
	NoPrompt bool
}

// Result is a completer's answer. The service treats it as immutable and
// may share it between requests through its cache.
type Result struct {
	Language string
	Snippets []Snippet // best first
	// Prompt and Blocks are the assembled context: the prompt text of the
	// lines before the cursor's line, and the blocks it shows in prompt
	// order (the best last), which formats carrying other files send.
	Prompt     string
	Blocks     []Snippet
	Prediction string // the model-free prediction of the line
	// Window optionally trims the buffer for a model backend: the lines
	// before and after the cursor's line that fit the prompt budget. Nil
	// sends the whole buffer.
	Window *Window
}

// Window is the in-file context kept for a model: whole lines before and
// after the cursor's line, without the terminator next to that line.
type Window struct {
	Before, After string
}

// Completer retrieves and predicts. It must be safe for concurrent use.
type Completer interface {
	Complete(ctx context.Context, req Request) (*Result, error)
}

// Reloader is implemented by completers that can swap in a new index
// snapshot after a re-index.
type Reloader interface {
	Reload() error
}

// Updater is implemented by completers that can make a few changed files
// visible without reloading the whole index.
type Updater interface {
	Update(paths []string) error
}

// GenerateRequest is what a model backend receives: the buffer split at the
// cursor (trimmed to the context's in-file lines), the context's blocks in
// prompt order (the best last) and the assembled prompt, which ends with
// the code typed on the cursor's line.
type GenerateRequest struct {
	Path     string // relative to the repository root
	Language string
	Prefix   string
	Suffix   string
	Snippets []Snippet
	Prompt   string
}

// Generator is an optional model backend. It returns the text to insert at
// the cursor.
type Generator interface {
	Generate(ctx context.Context, req GenerateRequest) (string, error)
}

// Query is a front end's completion request.
type Query struct {
	Path   string // absolute, or relative to the repository root
	Source []byte // the whole buffer
	// Language optionally names the buffer's language (a registered front
	// end), for a buffer whose file name does not say it.
	Language string
	Line     int // 1-based line of the cursor
	Column   int // byte offset of the cursor in that line; clamped to the line's length
	// WantPrompt asks for Completion.Prompt (a debug option). Without it,
	// and with no model backend, the prompt is not built at all.
	WantPrompt bool
}

// Completion is the service's answer to a [Query].
type Completion struct {
	// Text is what to insert at the cursor; empty when there is nothing to
	// offer (the prediction does not extend what has been typed).
	Text string
	// Indent is the line's leading whitespace before the cursor and Typed
	// the code typed after it, so that Typed+Text is the completed line.
	Indent, Typed string
	// Prediction is the model-free prediction of the whole line.
	Prediction string
	// FromModel reports whether Text came from the model backend.
	FromModel bool
	Snippets  []Snippet
	Prompt    string
	Cached    bool // the retrieval result came from the cache
}

// Options configure a [Service]. Zero values select the defaults.
type Options struct {
	// Root is the repository root; paths outside it are refused.
	Root string
	// Budget is the retrieval budget per request (default 100 ms; negative
	// disables it).
	Budget time.Duration
	// CacheSize is the number of retrieval results kept (default 512;
	// negative disables the cache).
	CacheSize int
	// Generator is the optional model backend.
	Generator Generator
	// GenerateTimeout bounds one call to Generator (default 2 s); past it the
	// model-free prediction is used.
	GenerateTimeout time.Duration
	// Parallel bounds retrievals running at once across all front ends
	// (default 2 per CPU); others wait their turn or their cancellation.
	Parallel int
	// Logger receives diagnostics (default: discarded).
	Logger *log.Logger
	// MaxFileSize bounds the files read from disk for a query (default
	// indexer.DefaultMaxFileSize, the build's limit).
	MaxFileSize int64
}

// DefaultBudget is the retrieval budget used when Options.Budget is zero.
const DefaultBudget = 100 * time.Millisecond

// Service answers completion queries for one repository. It is safe for
// concurrent use.
type Service struct {
	root      string
	completer Completer
	opts      Options
	cache     *lru
	slots     chan struct{}
	gen       atomic.Uint64
	log       *log.Logger
}

// New returns a service answering from c for the repository at opts.Root.
func New(c Completer, opts Options) (*Service, error) {
	if c == nil {
		return nil, errors.New("server: nil completer")
	}
	root, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("repository root: %w", err)
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if opts.Budget == 0 {
		opts.Budget = DefaultBudget
	}
	if opts.CacheSize == 0 {
		opts.CacheSize = 512
	}
	if opts.GenerateTimeout <= 0 {
		opts.GenerateTimeout = 2 * time.Second
	}
	if opts.Parallel <= 0 {
		opts.Parallel = 2 * runtime.GOMAXPROCS(0)
	}
	lg := opts.Logger
	if lg == nil {
		lg = log.New(io.Discard, "", 0)
	}
	return &Service{root: root, completer: c, opts: opts, cache: newLRU(opts.CacheSize),
		slots: make(chan struct{}, opts.Parallel), log: lg}, nil
}

// Root returns the absolute repository root.
func (s *Service) Root() string { return s.root }

// Logger returns the service's logger.
func (s *Service) Logger() *log.Logger { return s.log }

// Generation counts index reloads; it starts at zero.
func (s *Service) Generation() uint64 { return s.gen.Load() }

// Reload asks the completer to swap in the newest index snapshot and
// invalidates the cache.
func (s *Service) Reload() error {
	var err error
	if r, ok := s.completer.(Reloader); ok {
		err = r.Reload()
	}
	// Bump even on error: a partial reload must not serve stale cache hits.
	s.gen.Add(1)
	if err != nil {
		return fmt.Errorf("reload index: %w", err)
	}
	return nil
}

// Update makes the changed paths (relative to the root) visible to
// queries, through the completer's [Updater] when it has one and a full
// [Reloader] reload otherwise, and invalidates the cache.
func (s *Service) Update(paths []string) error {
	u, ok := s.completer.(Updater)
	if !ok {
		return s.Reload()
	}
	err := u.Update(paths)
	s.gen.Add(1)
	if err != nil {
		return fmt.Errorf("update index: %w", err)
	}
	return nil
}

// Resolve maps an absolute or repository-relative path to its
// slash-separated path relative to the repository root
// (indexer.RelPath), refusing paths outside it with [ErrOutsideRepo].
func (s *Service) Resolve(path string) (string, error) {
	rel, err := indexer.RelPath(s.root, path)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrOutsideRepo, err)
	}
	return rel, nil
}

// ReadFile reads the file at path (absolute, or relative to the root) as
// the build would: a regular text file inside the repository within the
// size limit (indexer.ReadRepoFile). A file that can never be completed in
// is [ErrInvalid]; a link leading out of the repository is
// [ErrOutsideRepo].
func (s *Service) ReadFile(path string) ([]byte, error) {
	rel, err := s.Resolve(path)
	if err != nil {
		return nil, err
	}
	src, err := indexer.ReadRepoFile(s.root, rel, s.opts.MaxFileSize)
	switch {
	case errors.Is(err, indexer.ErrOutsideRepo):
		return nil, fmt.Errorf("read %s: %w: %w", rel, ErrOutsideRepo, err)
	case err != nil:
		return nil, fmt.Errorf("read %s: %w: %w", rel, ErrInvalid, err)
	}
	return src, nil
}

// Complete answers a query: retrieval (cached) and the model-free
// prediction, then the model backend when one is configured.
func (s *Service) Complete(ctx context.Context, q Query) (*Completion, error) {
	rel, err := s.Resolve(q.Path)
	if err != nil {
		return nil, err
	}
	src := q.Source
	if src == nil {
		if src, err = s.ReadFile(rel); err != nil {
			return nil, err
		}
	}
	start, end, ok := lang.LineRange(src, q.Line-1)
	if !ok {
		return nil, fmt.Errorf("line %d of %s: %w", q.Line, rel, ErrPosition)
	}
	col := min(max(q.Column, 0), end-start)
	typedLine := string(src[start : start+col])
	code := strings.TrimLeft(typedLine, " \t")
	c := &Completion{Indent: typedLine[:len(typedLine)-len(code)], Typed: code}

	noPrompt := !q.WantPrompt && s.opts.Generator == nil
	res, cached, err := s.retrieve(ctx, rel, q.Language, q.Line, src, start, end, noPrompt)
	if err != nil {
		return nil, err
	}
	c.Cached = cached
	c.Snippets, c.Prompt, c.Prediction = res.Snippets, res.Prompt, res.Prediction
	if s.opts.Generator != nil {
		if text, ok := s.generate(ctx, rel, src, start, start+col, end, res); ok {
			c.Text, c.FromModel = text, true
			return c, nil
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c.Text = Extend(code, res.Prediction)
	return c, nil
}

func (s *Service) retrieve(ctx context.Context, rel, language string, line int, src []byte, start, end int, noPrompt bool) (*Result, bool, error) {
	key := cacheKey{gen: s.gen.Load(), path: rel, language: language, line: line, noPrompt: noPrompt}
	if s.cache != nil {
		h := sha256.New()
		h.Write(src[:start])
		h.Write([]byte{0})
		h.Write(src[end:])
		h.Sum(key.sum[:0])
		if r, ok := s.cache.get(key); ok {
			return r, true, nil
		}
	}
	req := Request{Path: rel, Line: line, Source: src, Language: language, NoPrompt: noPrompt}
	if s.opts.Budget > 0 {
		req.Budget = s.opts.Budget
	}
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	res, err := func() (*Result, error) {
		defer func() { <-s.slots }() // released even if the completer panics
		return s.completer.Complete(ctx, req)
	}()
	if err != nil {
		return nil, false, fmt.Errorf("complete %s:%d: %w", rel, line, err)
	}
	if res == nil {
		res = &Result{}
	}
	if s.cache != nil && ctx.Err() == nil {
		s.cache.put(key, res)
	}
	return res, false, nil
}

// generate asks the model backend, reporting false (and logging why) when
// the model-free prediction should be used instead.
func (s *Service) generate(ctx context.Context, rel string, src []byte, start, cursor, end int, res *Result) (string, bool) {
	gctx, cancel := context.WithTimeout(ctx, s.opts.GenerateTimeout)
	defer cancel()
	prefix, suffix := string(src[:cursor]), string(src[cursor:])
	if w := res.Window; w != nil {
		prefix, suffix = string(src[start:cursor]), string(src[cursor:end])
		if w.Before != "" {
			prefix = w.Before + "\n" + prefix
		}
		if w.After != "" {
			suffix += "\n" + w.After
		} else if end < len(src) {
			suffix += "\n"
		}
	}
	text, err := s.opts.Generator.Generate(gctx, GenerateRequest{
		Path:     rel,
		Language: res.Language,
		Prefix:   prefix,
		Suffix:   suffix,
		Snippets: res.Blocks,
		Prompt:   withTyped(res.Prompt, src[start:cursor]),
	})
	switch {
	case ctx.Err() != nil:
		return "", false // abandoned by the caller; nothing to log
	case err != nil:
		s.log.Printf("model backend failed, using the model-free prediction: %v", err)
		return "", false
	case strings.TrimSpace(text) == "":
		s.log.Printf("model backend returned nothing for %s, using the model-free prediction", rel)
		return "", false
	}
	return text, true
}

// withTyped appends the code typed on the cursor's line to a prompt of the
// lines before it, so that the model continues the line.
func withTyped(prompt string, typed []byte) string {
	if prompt == "" {
		return ""
	}
	return prompt + string(typed)
}

// Extend returns what to append to typed (the code typed on a line, without
// its indentation) to reach prediction, or "" when prediction does not
// extend it.
func Extend(typed, prediction string) string {
	p := strings.TrimLeft(prediction, " \t")
	if !strings.HasPrefix(p, typed) {
		return ""
	}
	return p[len(typed):]
}
