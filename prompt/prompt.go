package prompt

import (
	"slices"
	"strings"
)

// Tokenizer counts tokens; any token.Tokenizer fits.
type Tokenizer interface {
	Split(dst []string, text string) []string
}

// Snippet is one retrieved code window.
type Snippet struct {
	Path  string  // as shown in the prompt, relative to the repository root
	Text  string  // the code window
	Score float64 // similarity; higher is better
}

// Options set the budget and the language of a prompt.
type Options struct {
	ContextWindow int    // tokens the model accepts; default 2048
	MaxNewTokens  int    // tokens kept free for the answer; default 100
	CommentPrefix string // the language's line comment; default "#"
	MaxSnippets   int    // default 10
	Tokenizer     Tokenizer
}

func (o Options) withDefaults() Options {
	if o.ContextWindow <= 0 {
		o.ContextWindow = 2048
	}
	if o.MaxNewTokens <= 0 {
		o.MaxNewTokens = 100
	}
	if o.CommentPrefix == "" {
		o.CommentPrefix = "#"
	}
	if o.MaxSnippets <= 0 {
		o.MaxSnippets = 10
	}
	if o.Tokenizer == nil {
		o.Tokenizer = whitespace{}
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

// Prompt is an assembled prompt.
type Prompt struct {
	Text         string `json:"text"`
	Tokens       int    `json:"tokens"`        // as counted by the tokenizer
	Snippets     int    `json:"snippets"`      // blocks included
	ContextLines int    `json:"context_lines"` // in-file lines included
}

const separator = "--------------------------------------------------"

type counter struct {
	tok Tokenizer
	buf []string
}

func (c *counter) count(s string) int {
	c.buf = c.tok.Split(c.buf[:0], s)
	return len(c.buf)
}

// block renders one snippet as commented lines, each ending in '\n'.
func block(p string, s Snippet) string {
	var b strings.Builder
	b.WriteString(p + " " + separator + "\n")
	b.WriteString(p + " the below code fragment can be found in:\n")
	b.WriteString(p + " " + s.Path + "\n")
	b.WriteString(p + " " + separator + "\n")
	for _, l := range strings.Split(strings.TrimRight(s.Text, "\n"), "\n") {
		b.WriteString(commented(p, l) + "\n")
	}
	b.WriteString(p + " " + separator + "\n")
	return b.String()
}

func commented(p, line string) string {
	if line == "" {
		return p
	}
	return p + " " + line
}

// chooseBlocks picks, best first, the snippets whose blocks fit in limit,
// and returns the blocks in ascending similarity with their token total.
func chooseBlocks(c *counter, snippets []Snippet, o Options, limit int) ([]string, int) {
	order := make([]int, len(snippets))
	for i := range order {
		order[i] = i
	}
	// Best first; the sort is stable so equal scores keep the caller's order.
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case snippets[a].Score > snippets[b].Score:
			return -1
		case snippets[a].Score < snippets[b].Score:
			return 1
		}
		return 0
	})
	var chosen []string
	used := 0
	for _, i := range order {
		if len(chosen) == o.MaxSnippets {
			break
		}
		blk := block(o.CommentPrefix, snippets[i])
		if n := c.count(blk); used+n <= limit {
			chosen = append(chosen, blk)
			used += n
		}
	}
	slices.Reverse(chosen) // ascending similarity: best block last
	return chosen, used
}

// tailLines returns the longest suffix of lines whose token total fits in
// limit, and that total.
func tailLines(c *counter, lines []string, limit int) ([]string, int) {
	used, i := 0, len(lines)
	for i > 0 {
		n := c.count(lines[i-1])
		if used+n > limit {
			break
		}
		used += n
		i--
	}
	return lines[i:], used
}

// headLines returns the longest prefix of lines that fits in limit.
func headLines(c *counter, lines []string, limit int) ([]string, int) {
	used, i := 0, 0
	for i < len(lines) {
		n := c.count(lines[i])
		if used+n > limit {
			break
		}
		used += n
		i++
	}
	return lines[:i], used
}

// Build assembles the prompt for completing the line after context (the
// file's lines before the cursor) of the file path. Snippets may come in
// any order; Score decides.
func Build(snippets []Snippet, context []string, path string, o Options) Prompt {
	o = o.withDefaults()
	c := &counter{tok: o.Tokenizer}
	budget := o.Budget()
	p := o.CommentPrefix

	header := p + " Here are some relevant code fragments from other files of the repo:\n"
	instruction := p + " Complete the next line of the code below, from " + path + ":\n"
	if path == "" {
		instruction = p + " Complete the next line of the code below:\n"
	}
	fixed := c.count(instruction)
	blocks, used := chooseBlocks(c, snippets, o, max(budget/2-c.count(header), 0))
	if len(blocks) > 0 {
		used += c.count(header)
	}
	lines, _ := tailLines(c, context, max(budget-used-fixed, 0))

	for {
		text := render(header, blocks, instruction, lines, budget >= fixed)
		n := c.count(text)
		if n <= budget {
			return Prompt{Text: text, Tokens: n, Snippets: len(blocks), ContextLines: len(lines)}
		}
		// Tokenizing the whole differs from the sum of the pieces: drop
		// the oldest context line, then the weakest block.
		switch {
		case len(lines) > 0:
			lines = lines[1:]
		case len(blocks) > 0:
			blocks = blocks[1:]
		default:
			return Prompt{}
		}
	}
}

func render(header string, blocks []string, instruction string, lines []string, withInstruction bool) string {
	var b strings.Builder
	if len(blocks) > 0 {
		b.WriteString(header)
		for _, blk := range blocks {
			b.WriteString(blk)
		}
	}
	if withInstruction {
		b.WriteString(instruction)
	}
	for _, l := range lines {
		b.WriteString(l + "\n")
	}
	return b.String()
}

// FIM is the material of a fill-in-the-middle prompt. Backends wrap it in
// their own sentinel tokens.
type FIM struct {
	Snippets []Snippet `json:"snippets"` // best first
	Prefix   string    `json:"prefix"`   // the end of the code before the cursor
	Suffix   string    `json:"suffix"`   // the start of the code after the cursor line
	Tokens   int       `json:"tokens"`
}

// BuildFIM fits snippets (up to half the budget, best first), then a
// quarter of what is left for the suffix lines, then the prefix lines.
func BuildFIM(snippets []Snippet, prefix, suffix []string, o Options) FIM {
	o = o.withDefaults()
	c := &counter{tok: o.Tokenizer}
	budget := o.Budget()
	order := slices.Clone(snippets)
	slices.SortStableFunc(order, func(a, b Snippet) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	var out FIM
	used := 0
	for _, s := range order {
		if len(out.Snippets) == o.MaxSnippets {
			break
		}
		if n := c.count(s.Path) + c.count(s.Text); used+n <= budget/2 {
			out.Snippets = append(out.Snippets, s)
			used += n
		}
	}
	suf, ns := headLines(c, suffix, (budget-used)/4)
	pre, np := tailLines(c, prefix, budget-used-ns)
	out.Prefix = joinLines(pre)
	out.Suffix = joinLines(suf)
	out.Tokens = used + ns + np
	return out
}

func joinLines(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}
