package prompt

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Tokenizer counts tokens; any token.Tokenizer fits.
type Tokenizer interface {
	Split(dst []string, text string) []string
}

// tokenCounter is a Tokenizer that also counts the tokens of a text
// without making them (token.Code): CountTokens(text) must be
// len(Split(nil, text)).
type tokenCounter interface {
	CountTokens(text string) int
}

// Source says where a piece of context came from.
type Source string

// Sources of context, in the order a caller usually offers them.
const (
	// Declaration is a definition the editor sent (Tabby's declarations).
	Declaration Source = "declaration"
	// Definition is a definition graphcoder resolved from its own index.
	Definition Source = "definition"
	// Retrieved is a code window found by retrieval.
	Retrieved Source = "retrieved"
	// ChangedFile, RecentFile and Clipboard are snippets an editor sent
	// from files changed or opened recently, and from the clipboard.
	ChangedFile Source = "changed_file"
	RecentFile  Source = "recent_file"
	Clipboard   Source = "clipboard"
)

// Layout names the shape a model backend receives.
type Layout string

const (
	// Paper is the GraphCoder paper's template: every retrieved block as
	// commented lines, then the code before the cursor. No suffix.
	Paper Layout = "paper"
	// FIM is the paper's text as the prefix of a fill-in-the-middle
	// request, plus the code after the cursor as its suffix (the one-file
	// FIM templates, OpenAI-compatible and Ollama servers with a suffix).
	FIM Layout = "fim"
	// Files sends the blocks as separate files and the file's own code
	// around the cursor as prefix and suffix (llama.cpp input_extra, the
	// Qwen2.5-Coder repository layout).
	Files Layout = "files"
)

// ParseLayout checks a layout name; "" means Paper.
func ParseLayout(s string) (Layout, error) {
	switch Layout(s) {
	case "":
		return Paper, nil
	case Paper, FIM, Files:
		return Layout(s), nil
	}
	return "", fmt.Errorf("unknown prompt layout %q (want paper, fim or files)", s)
}

// Order is how blocks compete for the retrieved part of the budget.
type Order string

const (
	// ByRank offers blocks by the best rank of their candidates.
	ByRank Order = "rank"
	// ByDensity offers blocks by relevance per token (score / tokens).
	ByDensity Order = "density"
)

// Position is where the chosen blocks stand in the prompt.
type Position string

const (
	// BestLast writes blocks in ascending relevance, the best one next to
	// the code (the paper's order).
	BestLast Position = "best-last"
	// Edges puts the best blocks at both ends of the retrieved part and
	// the weakest in the middle: the best next to the code, the second
	// best first, and so on inwards.
	Edges Position = "edges"
)

// NoCap as Options.PerFile lets any number of blocks of one file in.
const NoCap = -1

// Options set the budget, the layout and the packing policy. Zero values
// select the defaults; Validate says which values are refused.
type Options struct {
	ContextWindow int    // tokens the model accepts; default 2048
	MaxNewTokens  int    // tokens kept free for the answer; default 100
	CommentPrefix string // the language's line comment; default "#"
	Tokenizer     Tokenizer
	Layout        Layout // default Paper

	// MaxBlocks bounds the blocks of the retrieved part (default 10),
	// but for blocks with explicit rows (definitions), whose number their
	// maker bounds, unless CapAllBlocks.
	MaxBlocks    int
	CapAllBlocks bool
	// Share is the part of the budget the blocks may take, in (0, 1]
	// (default 0.5, the paper's half); the in-file context takes the rest
	// and whatever the blocks leave. When the whole in-file context takes
	// less than its part (a short file, a cursor near its top), the blocks
	// may take what it leaves, unless FixedShare.
	Share float64
	// FixedShare keeps the blocks to Share of the budget even when the
	// in-file context cannot use the rest (the layout before the
	// assembler).
	FixedShare bool
	// PerFile bounds the blocks taken from one file (default 2; NoCap
	// for no bound).
	PerFile int
	// NoMerge keeps overlapping or touching windows of one file apart.
	NoMerge bool
	// MaxLines bounds a block's lines (0 for DefaultMaxLines, which is
	// NoCap: no bound): a longer one, such as the union of several
	// windows, keeps the lines around its focus.
	MaxLines int
	// MaxRepeat drops a block when more than this share of its code lines
	// repeats lines the prompt already shows, in [0, 1] (default 0.75; 1
	// keeps every block).
	MaxRepeat float64
	Order     Order    // default ByRank
	Position  Position // default BestLast
	// NoCut skips a block that does not fit instead of cutting it, and
	// KeepInFileRows lets blocks repeat rows the in-file part shows. Both
	// exist to measure what the rules bring (with NoMerge, MaxRepeat 1
	// and PerFile NoCap they give the layout before the assembler).
	NoCut, KeepInFileRows bool
	// NoElide shows blocks whole instead of replacing runs of lines the
	// prompt shows already by a marker; KeepClosers keeps repeated lines
	// of closing brackets, which elision otherwise drops.
	NoElide, KeepClosers bool
	// Keywords are the language's reserved words: a line holding no other
	// word is trivial (see the package comment on elision).
	Keywords []string
	// Priority lists sources whose blocks compete for the budget, and
	// stand in the prompt, as better than every block of a source not
	// listed (and of a source listed later), whatever their rank. Nil
	// means DefaultPriority; an empty list gives no source priority.
	Priority []Source
	// Lead is the number of best-ranked retrieved blocks that compete
	// before the sources of Priority (and stand next to the code): the
	// best structural matches, then the definitions, then the rest.
	// Negative for none; 0 means DefaultLead.
	Lead int
	// LeadShare caps the tokens of the Lead blocks, as a share of the
	// blocks' budget, in (0, 1] (0 means DefaultLeadShare): a longer
	// one is cut around its focus.
	LeadShare float64
	// Shares caps the tokens the blocks of a source may take, as a share
	// of the blocks' budget (Share x B), in (0, 1]. Nil means
	// DefaultShares; a source not listed is capped by the blocks' budget
	// alone.
	Shares map[Source]float64
}

// DefaultPriority and DefaultShares are the defaults of Options.Priority
// and Options.Shares, chosen by measurement (docs/EVAL.md).
var (
	DefaultPriority = []Source{Definition}
	DefaultShares   = map[Source]float64{Definition: 0.75}
)

// Legacy returns o with every rule of the assembler off: no merging, no
// repeat or per-file rule, in-file rows kept, blocks that do not fit
// skipped, the blocks' share fixed. That is the layout graphcoder wrote before it had an
// assembler; evaluations compare against it.
func Legacy(o Options) Options {
	o.NoMerge, o.MaxRepeat, o.PerFile, o.NoCut, o.KeepInFileRows, o.NoElide, o.MaxLines = true, 1, NoCap, true, true, true, NoCap
	o.FixedShare, o.Lead, o.CapAllBlocks = true, -1, true
	return o
}

// Defaults of Options.
const (
	DefaultContextWindow = 2048
	DefaultMaxNewTokens  = 100
	DefaultMaxBlocks     = 10
	DefaultShare         = 0.5
	DefaultPerFile       = 2
	DefaultMaxLines      = NoCap
	DefaultMaxRepeat     = 0.75
	DefaultLead          = 1
	DefaultLeadShare     = 0.35
)

// ErrBudget reports options that leave no room for a prompt.
var ErrBudget = errors.New("no token budget for a prompt")

// Validate reports options no prompt can be built with.
func (o Options) Validate() error {
	switch {
	case o.ContextWindow < 0, o.MaxNewTokens < 0:
		return fmt.Errorf("prompt: negative context window %d or max new tokens %d", o.ContextWindow, o.MaxNewTokens)
	case o.MaxBlocks < 0:
		return fmt.Errorf("prompt: negative block count %d", o.MaxBlocks)
	case o.Share < 0 || o.Share > 1:
		return fmt.Errorf("prompt: retrieved share %g outside [0, 1]", o.Share)
	case o.LeadShare < 0 || o.LeadShare > 1:
		return fmt.Errorf("prompt: lead share %g outside [0, 1]", o.LeadShare)
	case o.MaxLines < NoCap:
		return fmt.Errorf("prompt: block line cap %d (want a positive number, or %d for none)", o.MaxLines, NoCap)
	case o.PerFile < NoCap:
		return fmt.Errorf("prompt: per-file cap %d (want a positive number, or %d for none)", o.PerFile, NoCap)
	case o.MaxRepeat < 0 || o.MaxRepeat > 1:
		return fmt.Errorf("prompt: repeat threshold %g outside [0, 1]", o.MaxRepeat)
	}
	for src, sh := range o.Shares {
		if !(sh > 0 && sh <= 1) {
			return fmt.Errorf("prompt: share %g of source %s outside (0, 1]", sh, src)
		}
	}
	if _, err := ParseLayout(string(o.Layout)); err != nil {
		return err
	}
	switch o.Order {
	case "", ByRank, ByDensity:
	default:
		return fmt.Errorf("prompt: unknown order %q (want rank or density)", o.Order)
	}
	switch o.Position {
	case "", BestLast, Edges:
	default:
		return fmt.Errorf("prompt: unknown position %q (want best-last or edges)", o.Position)
	}
	if b := o.withDefaults(); b.ContextWindow <= b.MaxNewTokens {
		return fmt.Errorf("prompt: context window %d leaves nothing after %d new tokens: %w", b.ContextWindow, b.MaxNewTokens, ErrBudget)
	}
	return nil
}

func (o Options) withDefaults() Options {
	if o.ContextWindow == 0 {
		o.ContextWindow = DefaultContextWindow
	}
	if o.MaxNewTokens == 0 {
		o.MaxNewTokens = DefaultMaxNewTokens
	}
	if o.CommentPrefix == "" {
		o.CommentPrefix = "#"
	}
	if o.Tokenizer == nil {
		o.Tokenizer = whitespace{}
	}
	if o.Layout == "" {
		o.Layout = Paper
	}
	if o.MaxBlocks == 0 {
		o.MaxBlocks = DefaultMaxBlocks
	}
	if o.Share == 0 {
		o.Share = DefaultShare
	}
	if o.PerFile == 0 {
		o.PerFile = DefaultPerFile
	}
	if o.MaxLines == 0 {
		o.MaxLines = DefaultMaxLines
	}
	if o.MaxRepeat == 0 {
		o.MaxRepeat = DefaultMaxRepeat
	}
	if o.Order == "" {
		o.Order = ByRank
	}
	if o.Position == "" {
		o.Position = BestLast
	}
	if o.Priority == nil {
		o.Priority = DefaultPriority
	}
	if o.Lead == 0 {
		o.Lead = DefaultLead
	}
	if o.LeadShare == 0 {
		o.LeadShare = DefaultLeadShare
	}
	if o.Shares == nil {
		o.Shares = DefaultShares
	}
	return o
}

// Budget returns B = ContextWindow - MaxNewTokens (at least 0).
func (o Options) Budget() int {
	o = o.withDefaults()
	return max(o.ContextWindow-o.MaxNewTokens, 0)
}

type whitespace struct{}

func (whitespace) Split(dst []string, text string) []string {
	return append(dst, strings.Fields(text)...)
}

type counter struct {
	tok Tokenizer
	cnt tokenCounter // tok, when it counts without splitting
	buf []string
	// memo holds the count of each line counted so far (with its
	// newline, when it had one): an assembly counts the same lines again
	// and again (the in-file lines each round, every block's lines when
	// measured and when counted whole, the frames' separators), and a
	// line's count depends on the line alone.
	memo map[string]int
}

// count returns the tokens of s, line by line: each line (with its
// newline) is counted alone, so a text costs the sum of its lines. A
// prompt's blocks are commented lines a model reads one by one, and a
// tokenizer that reads string literals (the code tokenizer) would read a
// quote one line leaves open, such as a docstring's first line in a
// definition block, as a literal running over every line after it, and
// count the text by what precedes it.
func (c *counter) count(s string) int {
	n := 0
	for s != "" {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line = s[:i+1]
		}
		s = s[len(line):]
		n += c.line(line)
	}
	return n
}

// countBytes is count of the text in b, which it does not keep: a line
// already counted is looked up without making a string of it.
func (c *counter) countBytes(b []byte) int {
	n := 0
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line = b[:i+1]
		}
		b = b[len(line):]
		if k, ok := c.memo[string(line)]; ok {
			n += k
			continue
		}
		n += c.line(string(line))
	}
	return n
}

// line returns the tokens of one line.
func (c *counter) line(line string) int {
	if k, ok := c.memo[line]; ok {
		return k
	}
	var n int
	if c.cnt != nil {
		n = c.cnt.CountTokens(line)
	} else {
		c.buf = c.tok.Split(c.buf[:0], line)
		n = len(c.buf)
	}
	if c.memo == nil {
		c.memo = make(map[string]int, 256)
	}
	c.memo[line] = n
	return n
}

// newCounter returns a counter of tok's tokens.
func newCounter(tok Tokenizer) *counter {
	c := &counter{tok: tok}
	c.cnt, _ = tok.(tokenCounter)
	return c
}

func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}
