package prompt

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/token"
)

// renderedBlock is a block as the assembler shows it, written out by
// string concatenation: the reference appendBlock must give.
func renderedBlock(layout Layout, p string, b *Block) string {
	var s strings.Builder
	line := func(l string) string { return commentedRef(p, l) + "\n" }
	switch {
	case layout == Files:
		s.WriteString(b.Path + "\n")
		for _, l := range b.Lines {
			s.WriteString(l + "\n")
		}
	case b.Source == Definition:
		s.WriteString(p + " definitions in " + b.Path + ":\n")
		for _, l := range b.Lines {
			s.WriteString(line(l))
		}
	default:
		s.WriteString(p + " " + separator + "\n")
		s.WriteString(p + " the below code fragment can be found in:\n")
		s.WriteString(p + " " + b.Path + "\n")
		s.WriteString(p + " " + separator + "\n")
		for _, l := range b.Lines {
			s.WriteString(line(l))
		}
		s.WriteString(p + " " + separator + "\n")
	}
	return s.String()
}

// commentedRef is a line behind the comment prefix p (p alone for an
// empty line), without its newline.
func commentedRef(p, l string) string {
	if l == "" {
		return p
	}
	return p + " " + l
}

// The counts the assembler takes without making strings (countLine,
// countBlock, counter.countBytes) are those of the rendered text counted
// line by line (counter.count), on a fresh counter and on one that has
// counted the lines before, for every layout, comment prefix and kind of
// block; appendBlock writes the reference rendering.
func TestCountRendered(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 5))
	words := []string{"x", "=", "self.value", "(", ")", "return", "'s t", "\"\"\"doc", "fooBar_baz", "  ", "#", "{", "}", "é", "\t"}
	line := func() string {
		var b strings.Builder
		for n := r.IntN(7); n > 0; n-- {
			b.WriteString(words[r.IntN(len(words))])
			if r.IntN(3) > 0 {
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	toks := []Tokenizer{whitespace{}, token.Code{}}
	if cl, err := token.ByName("cl100k"); err == nil {
		toks = append(toks, cl)
	}
	for _, tok := range toks {
		for _, layout := range []Layout{Paper, FIM, Files} {
			for _, p := range []string{"#", "//", ""} {
				warm := &assembler{o: Options{Layout: layout, CommentPrefix: p}, c: newCounter(tok)}
				for range 60 {
					b := &Block{Path: "pkg/" + line(), Source: []Source{Retrieved, Definition, Declaration}[r.IntN(3)]}
					for n := r.IntN(6); n > 0; n-- {
						b.Lines = append(b.Lines, line())
					}
					want := renderedBlock(layout, p, b)
					if got := string(warm.appendBlock([]byte("kept"), b)); got != "kept"+want {
						t.Fatalf("%v %q: appendBlock = %q, want %q", layout, p, got, "kept"+want)
					}
					ref := newCounter(tok)
					for _, a := range []*assembler{{o: warm.o, c: newCounter(tok)}, warm} {
						if got, w := a.countBlock(b), ref.count(want); got != w {
							t.Fatalf("%v %q: countBlock(%q) = %d, want %d", layout, p, want, got, w)
						}
						for _, l := range b.Lines {
							rl := l
							if layout != Files {
								rl = commentedRef(p, l)
							}
							if got, w := a.countLine(l), ref.count(rl); got != w {
								t.Fatalf("%v %q: countLine(%q) = %d, want %d (of %q)", layout, p, l, got, w, rl)
							}
						}
					}
				}
			}
		}
	}
}

// countBytes counts as count does: line by line, each with its newline,
// whether the lines were counted before or not.
func TestCountBytes(t *testing.T) {
	texts := []string{"", "\n", "a", "a\n", "a\nb", "x = 1\n\n  y = f(x)\n", "\"\"\"open\nclosed\"\"\"\n", "é\r\nz"}
	for _, tok := range []Tokenizer{whitespace{}, token.Code{}} {
		c := newCounter(tok)
		for range 2 {
			for _, s := range texts {
				if got, want := c.countBytes([]byte(s)), newCounter(tok).count(s); got != want {
					t.Errorf("countBytes(%q) = %d, want %d", s, got, want)
				}
			}
		}
	}
}
