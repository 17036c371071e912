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
	"sync"
	"sync/atomic"
	"time"

	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/prompt"
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

// Snippet is one piece of retrieved repository code, or of the context a
// prompt shows.
type Snippet struct {
	// Source says where a block of the prompt came from (retrieval, or
	// what the client sent); "" for a retrieved snippet.
	Source    prompt.Source `json:"source,omitempty"`
	Path      string        `json:"path"` // slash-separated, relative to the repository root
	StartLine int           `json:"start_line"`
	EndLine   int           `json:"end_line"`
	Score     float64       `json:"score"`
	Text      string        `json:"text"`
}

// Definition is one repository definition a completer offered the
// prompt: where it is, what it is, why it was chosen and whether the
// prompt shows it.
type Definition struct {
	Path     string `json:"path"` // slash-separated, relative to the repository root
	Line     int    `json:"line"` // 1-based row of its name
	Name     string `json:"name"` // qualified: Class.method
	Kind     string `json:"kind"`
	Origin   string `json:"origin"`
	Reason   string `json:"reason"`
	InPrompt bool   `json:"in_prompt"`
}

// Request is what the service asks of a [Completer]: complete line Line
// (1-based) of the file at Path from the lines before it, with the rest of
// Source as the suffix.
type Request struct {
	// Path is slash-separated, relative to the repository root; "" for
	// code of no known file, whose language Language names.
	Path     string
	Language string // an editor's language identifier (lang.ForID); "" to go by Path
	Line     int    // 1-based
	Source   []byte // the editor's buffer, unsaved changes included
	// Fragment says Source is a part of the file at Path that could not
	// be placed in it: Line counts in Source.
	Fragment bool
	// Context holds the candidates the client sent, for the assembler.
	Context []prompt.Candidate
	// NoRetrieval asks for no search: the client's context only.
	NoRetrieval bool
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
	Stats    Stats
	// Prompt and Blocks are the assembled context: the prompt text of the
	// lines before the cursor's line, and the blocks it shows in prompt
	// order (the best last), which formats carrying other files send.
	Prompt     string
	Blocks     []Snippet
	Prediction string // the model-free prediction of the line
	// Definitions are the repository definitions the completer chose for
	// the prompt, best first, with why (graphcoder's definition context).
	Definitions []Definition
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

// Stats time the stages of one completion; the request log shows them.
type Stats struct {
	Parse  time.Duration `json:"parse_ns"`  // parse, graph and slice of the code before the cursor
	Coarse time.Duration `json:"coarse_ns"` // the coarse search
	Fine   time.Duration `json:"fine_ns"`   // the re-rank
	Prompt time.Duration `json:"prompt_ns"` // the context assembler
	// Retrieve is the completer's whole time, Model the model backend's.
	Retrieve time.Duration `json:"retrieve_ns"`
	Model    time.Duration `json:"model_ns"`
	// Partial says the retrieval budget ran out.
	Partial bool `json:"partial"`
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
	// Raw says Prompt is the client's own prompt, to be sent as it is,
	// without a template.
	Raw bool
	// Temperature is the client's sampling temperature (0: greedy).
	Temperature float64
}

// Generator is an optional model backend. It returns the text to insert at
// the cursor.
type Generator interface {
	Generate(ctx context.Context, req GenerateRequest) (string, error)
}

// Query is a front end's completion request.
type Query struct {
	// Path is absolute, or relative to the repository root; "" for code of
	// no known file (Source is then required and Language names its
	// language).
	Path string
	// Language is the editor's identifier of the language (LSP languageId,
	// Tabby's "language"), used when Path is "" or has no known extension.
	Language string
	Source   []byte // the whole buffer, or with Partial the lines around the cursor
	Line     int    // 1-based line of the cursor in Source
	Column   int    // byte offset of the cursor in that line; clamped to the line's length
	// Partial says Source may be only the lines around the cursor (Tabby's
	// clients send the last 20 lines before it and the first 20 after).
	// When the buffer open in the editor, or else the file at Path on disk,
	// holds those lines, the query is completed in it, with the whole file
	// above them; otherwise (unsaved edits, no such file) in Source alone.
	Partial bool
	// Context holds the candidates the client sent (Tabby's declarations,
	// snippets of changed and recently opened files, the clipboard).
	Context []prompt.Candidate
	// NoRetrieval asks for no search: the context is the client's.
	NoRetrieval bool
	// RawPrompt, with a model backend, is sent to it as it is, with no
	// retrieval (Tabby's debug_options.raw_prompt); without one the query
	// is answered from Source as usual (front ends set it to the prompt).
	RawPrompt string
	// Temperature is passed to the model backend.
	Temperature float64
	// WantPrompt asks for Completion.Prompt (a debug option). Without it,
	// and with no model backend, the prompt is not built at all.
	WantPrompt bool
}

// Placement says what a query was completed in.
type Placement string

const (
	// Whole: the query's Source, taken as the whole buffer.
	Whole Placement = "whole"
	// InBuffer and OnDisk: a partial Source placed in the buffer open in
	// the editor, or in the file on disk.
	InBuffer Placement = "buffer"
	OnDisk   Placement = "disk"
	// Alone: a partial Source that no buffer or file holds, completed
	// alone.
	Alone Placement = "fragment"
)

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
	// Definitions are the definitions the completer chose (see
	// Result.Definitions).
	Definitions []Definition
	// Blocks are the prompt's blocks in prompt order, with their sources.
	Blocks []Snippet
	Prompt string
	Cached bool // the retrieval result came from the cache
	// Path and Line are where the cursor was found: the repository path
	// ("" for none) and the 1-based line in what was completed.
	Path     string
	Line     int
	Language string
	Placed   Placement
	Stats    Stats
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
	// RequestLog receives one record per request (default: none).
	RequestLog *RequestLog
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
	buffers   buffers
	events    Events
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
		slots: make(chan struct{}, opts.Parallel), log: lg, buffers: buffers{m: map[string]string{}}}, nil
}

// LogRequest writes r to the request log, if there is one.
func (s *Service) LogRequest(r Record) { s.opts.RequestLog.Log(r) }

// Events returns the counts of the clients' completion events.
func (s *Service) Events() *Events { return &s.events }

// HasModel reports whether a model backend is configured.
func (s *Service) HasModel() bool { return s.opts.Generator != nil }

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
	var rel string
	var err error
	if q.Path != "" {
		if rel, err = s.Resolve(q.Path); err != nil {
			return nil, err
		}
	}
	if q.Language != "" {
		// An editor's identifier becomes the front end's name; one naming
		// no front end is dropped where the path can decide.
		if l := lang.ForID(q.Language); l != nil {
			q.Language = l.Name
		} else if rel != "" {
			q.Language = ""
		}
	}
	if q.RawPrompt != "" && s.opts.Generator != nil {
		return s.completeRaw(ctx, q, rel)
	}
	src, line, placed := q.Source, q.Line, Whole
	switch {
	case src == nil && rel == "":
		return nil, fmt.Errorf("%w: a query needs a path or source text", ErrInvalid)
	case src == nil:
		if src, err = s.ReadFile(rel); err != nil {
			return nil, err
		}
	case q.Partial && rel != "":
		src, line, placed = s.place(rel, src, line)
	case q.Partial:
		placed = Alone
	}
	name := rel
	if name == "" {
		name = "the query's code"
	}
	start, end, ok := lang.LineRange(src, line-1)
	if !ok {
		return nil, fmt.Errorf("line %d of %s: %w", q.Line, name, ErrPosition)
	}
	col := min(max(q.Column, 0), end-start)
	typedLine := string(src[start : start+col])
	code := strings.TrimLeft(typedLine, " \t")
	c := &Completion{Indent: typedLine[:len(typedLine)-len(code)], Typed: code, Path: rel, Line: line, Placed: placed}

	noPrompt := !q.WantPrompt && s.opts.Generator == nil
	req := Request{Path: rel, Language: q.Language, Line: line, Source: src, NoPrompt: noPrompt,
		Fragment: placed == Alone && rel != "", Context: q.Context, NoRetrieval: q.NoRetrieval}
	res, cached, err := s.retrieve(ctx, req, start, end)
	if err != nil {
		return nil, err
	}
	c.Cached, c.Language, c.Stats = cached, res.Language, res.Stats
	if c.Language == "" {
		c.Language = q.Language
	}
	if cached {
		c.Stats = Stats{}
	}
	c.Snippets, c.Blocks, c.Prompt, c.Prediction = res.Snippets, res.Blocks, res.Prompt, res.Prediction
	c.Definitions = res.Definitions
	if s.opts.Generator != nil {
		t0 := time.Now()
		text, ok := s.generate(ctx, q, rel, src, start, start+col, end, res)
		c.Stats.Model = time.Since(t0)
		if ok {
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

// completeRaw sends a client's own prompt to the model backend as it is.
func (s *Service) completeRaw(ctx context.Context, q Query, rel string) (*Completion, error) {
	gctx, cancel := context.WithTimeout(ctx, s.opts.GenerateTimeout)
	defer cancel()
	t0 := time.Now()
	language := q.Language
	if l := lang.ForID(language); l != nil {
		language = l.Name
	}
	text, err := s.opts.Generator.Generate(gctx, GenerateRequest{Path: rel, Language: language,
		Prefix: q.RawPrompt, Prompt: q.RawPrompt, Raw: true, Temperature: q.Temperature})
	c := &Completion{Path: rel, Language: language, Placed: Whole, Stats: Stats{Model: time.Since(t0)}}
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		return nil, fmt.Errorf("model backend: %w", err)
	}
	c.Text, c.FromModel = text, true
	return c, nil
}

// place finds the partial source of a query (the lines around the cursor,
// line being the cursor's) in the buffer open in the editor or else in the
// file on disk, and returns the text to complete in: the file's lines
// above the fragment, then the fragment. When neither holds the fragment
// it returns the fragment itself, to be completed alone.
func (s *Service) place(rel string, frag []byte, line int) ([]byte, int, Placement) {
	placement := InBuffer
	text, ok := s.buffers.get(rel)
	var file []string
	if ok {
		file = lang.SplitLines(text)
	}
	k := -1
	if ok {
		k = Place(file, lang.SplitLines(frag), line)
	}
	if k < 0 {
		placement = OnDisk
		b, err := s.ReadFile(rel)
		if err != nil {
			return frag, line, Alone
		}
		file = lang.SplitLines(b)
		if k = Place(file, lang.SplitLines(frag), line); k < 0 {
			return frag, line, Alone
		}
	}
	if k == 0 {
		return frag, line, placement
	}
	var b strings.Builder
	for _, l := range file[:k] {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	b.Write(frag)
	return []byte(b.String()), line + k, placement
}

// Place returns the 0-based line of file at which the fragment frag (the
// lines around a cursor on its 1-based line cur) starts, or -1 when the
// file does not hold it. The fragment's lines before the cursor's must
// match the file's exactly (the cursor's line itself may differ: it is
// being typed); its lines after the cursor's choose between several
// matches, and a tie between matches that agree equally is no match. A
// fragment with no whole line before the cursor cannot be placed.
func Place(file, frag []string, cur int) int {
	if cur < 2 || cur > len(frag) {
		return -1
	}
	before, after := frag[:cur-1], frag[cur:]
	if n := len(after); n > 0 && after[n-1] == "" {
		after = after[:n-1] // the end of a final newline
	}
	best, bestScore, tie := -1, -1, false
	for k := 0; k+len(before) <= len(file); k++ {
		if !equalLines(file[k:k+len(before)], before) {
			continue
		}
		score := 0
		for i, l := range after {
			j := k + cur + i
			if j >= len(file) || file[j] != l {
				break
			}
			score++
		}
		switch {
		case score > bestScore:
			best, bestScore, tie = k, score, false
		case score == bestScore:
			tie = true
		}
	}
	if tie {
		return -1
	}
	return best
}

func equalLines(a, b []string) bool {
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// SetBuffer records the text of a file open in an editor, for queries
// whose source is partial; paths outside the repository are ignored.
func (s *Service) SetBuffer(path, text string) {
	if rel, err := s.Resolve(path); err == nil {
		s.buffers.set(rel, text)
	}
}

// CloseBuffer forgets the text of a file the editor closed.
func (s *Service) CloseBuffer(path string) {
	if rel, err := s.Resolve(path); err == nil {
		s.buffers.remove(rel)
	}
}

// buffers holds the text of the files open in an editor, by
// repository-relative path.
type buffers struct {
	mu sync.RWMutex
	m  map[string]string
}

func (b *buffers) get(rel string) (string, bool) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	t, ok := b.m[rel]
	return t, ok
}

func (b *buffers) set(rel, text string) {
	b.mu.Lock()
	b.m[rel] = text
	b.mu.Unlock()
}

func (b *buffers) remove(rel string) {
	b.mu.Lock()
	delete(b.m, rel)
	b.mu.Unlock()
}

// retrieve asks the completer, through the cache; start and end bound the
// cursor's line in req.Source, which the key leaves out.
func (s *Service) retrieve(ctx context.Context, req Request, start, end int) (*Result, bool, error) {
	key := cacheKey{gen: s.gen.Load(), path: req.Path, language: req.Language, line: req.Line, noPrompt: req.NoPrompt}
	if s.cache != nil {
		key.sum = requestSum(req, start, end)
		if r, ok := s.cache.get(key); ok {
			return r, true, nil
		}
	}
	if s.opts.Budget > 0 {
		req.Budget = s.opts.Budget
	}
	select {
	case s.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, false, ctx.Err()
	}
	t0 := time.Now()
	res, err := func() (*Result, error) {
		defer func() { <-s.slots }() // released even if the completer panics
		return s.completer.Complete(ctx, req)
	}()
	if err != nil {
		name := req.Path
		if name == "" {
			name = "code"
		}
		return nil, false, fmt.Errorf("complete %s:%d: %w", name, req.Line, err)
	}
	if res == nil {
		res = &Result{}
	}
	if res.Stats.Retrieve == 0 {
		res.Stats.Retrieve = time.Since(t0)
	}
	if s.cache != nil && ctx.Err() == nil {
		s.cache.put(key, res)
	}
	return res, false, nil
}

// requestSum hashes what a completer's answer depends on besides the
// path, the line and the index generation: the buffer without the
// cursor's line (between start and end), the language named, and the
// client's context.
func requestSum(req Request, start, end int) (sum [32]byte) {
	h := sha256.New()
	h.Write(req.Source[:start])
	h.Write([]byte{0})
	h.Write(req.Source[end:])
	fmt.Fprintf(h, "\x00%q %t %t %d", req.Language, req.Fragment, req.NoRetrieval, len(req.Context))
	for _, c := range req.Context {
		fmt.Fprintf(h, "\x00%q %q %d %g %d %d", c.Source, c.Path, c.StartLine, c.Score, c.Focus, len(c.Lines))
		for _, l := range c.Lines {
			h.Write([]byte(l))
			h.Write([]byte{'\n'})
		}
	}
	h.Sum(sum[:0])
	return sum
}

// generate asks the model backend, reporting false (and logging why) when
// the model-free prediction should be used instead.
func (s *Service) generate(ctx context.Context, q Query, rel string, src []byte, start, cursor, end int, res *Result) (string, bool) {
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
	greq := GenerateRequest{
		Path:        rel,
		Language:    res.Language,
		Prefix:      prefix,
		Suffix:      suffix,
		Snippets:    res.Blocks,
		Prompt:      withTyped(res.Prompt, src[start:cursor]),
		Temperature: q.Temperature,
	}
	text, err := s.opts.Generator.Generate(gctx, greq)
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
