package prompt

import (
	"strings"
)

const separator = "--------------------------------------------------"

// renderLine returns one line of a block as the layout shows it.
func (a *assembler) renderLine(l string) string {
	if a.o.Layout == Files {
		return l
	}
	return commented(a.o.CommentPrefix, l)
}

// renderBlock returns a block as the layout shows it. Paper and FIM write
// the paper's frame: a separator, a line naming the file, a separator, the
// lines behind the comment prefix, a separator; a definition block has one
// line naming its file instead. Files sends the path and the text, which
// is what the file-carrying formats hold per file.
func (a *assembler) renderBlock(b *Block) string {
	var s strings.Builder
	if a.o.Layout == Files {
		s.WriteString(b.Path + "\n")
		for _, l := range b.Lines {
			s.WriteString(l + "\n")
		}
		return s.String()
	}
	p := a.o.CommentPrefix
	if b.Source == Definition {
		// Definitions are short and many: one header line, no frame.
		s.WriteString(p + " definitions in " + b.Path + ":\n")
		for _, l := range b.Lines {
			s.WriteString(commented(p, l) + "\n")
		}
		return s.String()
	}
	s.WriteString(p + " " + separator + "\n")
	s.WriteString(p + " the below code fragment can be found in:\n")
	s.WriteString(p + " " + b.Path + "\n")
	s.WriteString(p + " " + separator + "\n")
	for _, l := range b.Lines {
		s.WriteString(commented(p, l) + "\n")
	}
	s.WriteString(p + " " + separator + "\n")
	return s.String()
}

func commented(p, line string) string {
	if line == "" {
		return p
	}
	return p + " " + line
}

// render writes the prompt text of a Paper or FIM layout.
func (a *assembler) render(c *Context, withInstruction bool) string {
	var b strings.Builder
	if len(c.Blocks) > 0 {
		b.WriteString(a.header)
		for i := range c.Blocks {
			b.WriteString(a.renderBlock(&c.Blocks[i]))
		}
	}
	if withInstruction {
		b.WriteString(a.instruction)
	}
	for _, l := range c.Prefix {
		b.WriteString(l + "\n")
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
		c.Blocks[i].Tokens = a.c.count(a.renderBlock(&c.Blocks[i]))
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
				n += a.c.count(a.renderBlock(&c.Blocks[i]))
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
