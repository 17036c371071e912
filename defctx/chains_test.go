package defctx

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/internal/realcode"
	"github.com/graphcoder/graphcoder/token"
)

// appendChains, reusing its chains and arena from text to text as
// Collect does, reads the chains the reference (chainsRef, each path's
// parts a slice of its own, as the paths were read before the arena) reads:
// on random texts of names, dots, calls, literals and comments and on
// the lines of some standard-library modules; every chain's parts are
// still right once the whole text is read (a later path, or the
// arguments of a call read on, must not overwrite them); and a text read
// with warm buffers allocates nothing.
func TestAppendChains(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 11))
	atoms := []string{"a", "b", "self", "new", "x1", "é", ".", ".", "(", ")", "(", ")", " ", "\t", ",", "\"s.t(\"", "'q'", "# c.d()", "// e.f()", "12", "3.5", "[0]", "\n", "=", "_z"}
	var texts []string
	for range 3000 {
		var b strings.Builder
		for n := r.IntN(24); n > 0; n-- {
			b.WriteString(atoms[r.IntN(len(atoms))])
		}
		texts = append(texts, b.String())
	}
	texts = append(texts, strings.Repeat("a.b(c.d(e.f(g).h).i).j ", 40), strings.Repeat("f(x).", 20)+"y")
	if std := realcode.PythonStdlib(); std != "" {
		for _, name := range []string{"argparse.py", "json/decoder.py", "email/message.py"} {
			src, err := os.ReadFile(filepath.Join(std, name))
			if err != nil {
				continue
			}
			texts = append(texts, strings.Split(string(src), "\n")...)
		}
	}
	var out []chain
	var arena []string
	for _, comment := range []string{"#", "//", ""} {
		for _, text := range texts {
			want := chainsRef(text, comment, nil)
			out, arena = appendChains(text, comment, out[:0], arena[:0])
			if !sameChains(out, want) {
				t.Fatalf("appendChains(%q, %q) = %v, want %v", text, comment, out, want)
			}
		}
	}
	text := "x = self.parser.feed(a.b(c), d.e).close(); new Foo(g.h).bar(i)"
	out, arena = appendChains(text, "#", out[:0], arena[:0])
	if allocs := testing.AllocsPerRun(50, func() { out, arena = appendChains(text, "#", out[:0], arena[:0]) }); allocs != 0 {
		t.Errorf("appendChains with warm buffers: %v allocations, want 0", allocs)
	}
}

func sameChains(a, b []chain) bool {
	return slices.EqualFunc(a, b, func(x, y chain) bool { return x.call == y.call && slices.Equal(x.parts, y.parts) })
}

// chainsRef reads the paths as appendChains did before the arena, each
// path's parts a slice of its own: the reference of TestAppendChains.
func chainsRef(text, comment string, out []chain) []chain {
	start := len(out)
	prevNew := false
	for i := 0; i < len(text) && len(out)-start < maxChains; {
		c := text[i]
		switch {
		case token.IsQuote(c):
			i = token.StringEnd(text, i, nil)
			prevNew = false
			continue
		case comment != "" && strings.HasPrefix(text[i:], comment):
			nl := strings.IndexByte(text[i:], '\n')
			if nl < 0 {
				return out
			}
			i += nl + 1
			continue
		case c >= '0' && c <= '9':
			i = token.NumberEnd(text, i)
			continue
		}
		r, n := token.RuneAt(text, i)
		if !token.IsIdentStart(r) {
			if c != ' ' && c != '\t' {
				prevNew = false
			}
			i += n
			continue
		}
		if i > 0 && text[i-1] == '.' {
			// An attribute of a computed value: f().x, "s".join.
			i = token.IdentEnd(text, i)
			prevNew = false
			continue
		}
		var parts []string
		j := i
		for {
			e := token.IdentEnd(text, j)
			parts = append(parts, text[j:e])
			j = e
			k := skipSpace(text, j)
			if k+1 < len(text) && text[k] == '.' {
				if r, _ := token.RuneAt(text, k+1); token.IsIdentStart(r) {
					j = k + 1
					continue
				}
			}
			// A call whose result is read on: a.b(x).c goes on as a.b.c
			// (the resolver reads b's return type), and its arguments
			// are read on their own.
			if k < len(text) && text[k] == '(' && len(parts) < maxParts {
				if m := closeParen(text, k); m > 0 {
					if d := skipSpace(text, m+1); d+1 < len(text) && text[d] == '.' {
						if r, _ := token.RuneAt(text, d+1); token.IsIdentStart(r) {
							out = addChainRef(out, start, chain{parts: slices.Clone(parts), call: true})
							out = chainsRef(text[k+1:m], comment, out)
							j = d + 1
							continue
						}
					}
				}
			}
			break
		}
		k := skipSpace(text, j)
		call := prevNew || (k < len(text) && text[k] == '(')
		prevNew = len(parts) == 1 && parts[0] == "new"
		if !prevNew {
			out = addChainRef(out, start, chain{parts: parts, call: call})
		}
		i = j
	}
	return out
}

// addChainRef is addChain as chainsRef used it.
func addChainRef(out []chain, start int, ch chain) []chain {
	for i := start; i < len(out); i++ {
		if slices.Equal(out[i].parts, ch.parts) {
			out[i].call = out[i].call || ch.call
			return out
		}
	}
	return append(out, ch)
}
