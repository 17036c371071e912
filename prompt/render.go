package prompt

import (
	"strings"
)

const separator = "--------------------------------------------------"

// countLine returns the tokens of one line of a block as the layout
// shows it (behind the comment prefix, but in Files), making no string
// of a line counted before.
func (a *assembler) countLine(l string) int {
	if a.o.Layout == Files {
		return a.c.count(l)
	}
	a.scratch = appendCommented(a.scratch[:0], a.o.CommentPrefix, l)
	return a.c.countBytes(a.scratch)
}

// countBlock returns the tokens of a block as the layout shows it
// (appendBlock), rendered into a buffer the assembler reuses.
func (a *assembler) countBlock(b *Block) int {
	a.scratch = a.appendBlock(a.scratch[:0], b)
	return a.c.countBytes(a.scratch)
}

// appendBlock appends a block as the layout shows it to dst. Paper and
// FIM write the paper's frame: a separator, a line naming the file, a
// separator, the lines behind the comment prefix, a separator; a
// definition block has one line naming its file instead. Files sends the
// path and the text, which is what the file-carrying formats hold per
// file.
func (a *assembler) appendBlock(dst []byte, b *Block) []byte {
	if a.o.Layout == Files {
		dst = append(append(dst, b.Path...), '\n')
		for _, l := range b.Lines {
			dst = append(append(dst, l...), '\n')
		}
		return dst
	}
	p := a.o.CommentPrefix
	if b.Source == Definition {
		// Definitions are short and many: one header line, no frame.
		dst = append(append(append(append(dst, p...), " definitions in "...), b.Path...), ":\n"...)
		for _, l := range b.Lines {
			dst = append(appendCommented(dst, p, l), '\n')
		}
		return dst
	}
	sep := func(dst []byte) []byte { return append(append(append(dst, p...), ' '), separator+"\n"...) }
	dst = sep(dst)
	dst = append(append(dst, p...), " the below code fragment can be found in:\n"...)
	dst = append(append(append(append(dst, p...), ' '), b.Path...), '\n')
	dst = sep(dst)
	for _, l := range b.Lines {
		dst = append(appendCommented(dst, p, l), '\n')
	}
	return sep(dst)
}

// appendCommented appends line behind the comment prefix p to dst (p
// alone for an empty line).
func appendCommented(dst []byte, p, line string) []byte {
	dst = append(dst, p...)
	if line == "" {
		return dst
	}
	return append(append(dst, ' '), line...)
}

// render writes the prompt text of a Paper or FIM layout.
func (a *assembler) render(c *Context, withInstruction bool) string {
	var b strings.Builder
	if len(c.Blocks) > 0 {
		b.WriteString(a.header)
		for i := range c.Blocks {
			a.scratch = a.appendBlock(a.scratch[:0], &c.Blocks[i])
			b.Write(a.scratch)
		}
	}
	if withInstruction {
		b.WriteString(a.instruction)
	}
	for _, l := range c.Prefix {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// finish renders the context and counts it whole. The whole can cost
// more than the pieces counted while packing (the newlines and the frames
// of a byte-pair encoding): while it is over the budget, the oldest
// prefix line goes, then the last suffix line, then the weakest block.
func (a *assembler) finish(c *Context) {
	// While choosing, a block's tokens were the sum of its lines' and its
	// frame's; count the final blocks whole.
	for i := range c.Blocks {
		c.Blocks[i].Tokens = a.countBlock(&c.Blocks[i])
	}
	var dropped int
	c.Blocks, dropped = overShare(c.Blocks, func(b Block) *Block { return &b }, a.o.Shares, a.limit)
	c.Stats.NoRoom += dropped
	withInstruction := a.o.Layout != Files && a.budget >= a.fixed
	for {
		n := 0
		if a.o.Layout == Files {
			c.text = c.PrefixText()
			n = a.c.count(c.text)
			for i := range c.Blocks {
				n += a.countBlock(&c.Blocks[i])
			}
		} else {
			c.text = a.render(c, withInstruction)
			n = a.c.count(c.text)
		}
		n += a.c.count(c.SuffixText())
		if n <= a.budget {
			c.Tokens = n
			return
		}
		switch {
		case len(c.Prefix) > 0:
			c.Prefix = c.Prefix[1:]
			c.PrefixStart++
		case len(c.Suffix) > 0:
			c.Suffix = c.Suffix[:len(c.Suffix)-1]
		case len(c.Blocks) > 0:
			worst := 0
			for i := range c.Blocks {
				if c.Blocks[worst].before(&c.Blocks[i]) {
					worst = i
				}
			}
			c.Blocks = append(c.Blocks[:worst:worst], c.Blocks[worst+1:]...)
			c.Stats.NoRoom++
		case withInstruction:
			withInstruction = false
		default:
			c.text, c.Tokens = "", 0
			return
		}
	}
}
