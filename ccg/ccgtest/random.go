// Package ccgtest generates random statement trees for property tests of
// the graph builder and the slicer: every control-flow kind, random
// nesting, and defs/uses drawn from a small pool of names so that data
// dependences are dense.
package ccgtest

import (
	"fmt"
	"math/rand/v2"

	"github.com/graphcoder/graphcoder/lang"
)

var names = []string{"a", "b", "c", "d", "e", "self", "self.x"}

type gen struct {
	r     *rand.Rand
	lines []string
	left  int
}

// RandomFile returns a random file of about n statements in the given language
// ("python" or "java"; it only changes how break in a switch behaves).
func RandomFile(r *rand.Rand, n int, language string) *lang.File {
	g := &gen{r: r, left: n}
	var stmts []*lang.Stmt
	for g.left > 0 {
		stmts = append(stmts, g.stmt(0, false))
	}
	return &lang.File{Path: "random", Language: language, Lines: g.lines, Stmts: stmts}
}

func (g *gen) pick(k int) []string {
	var out []string
	seen := map[string]bool{}
	for i := g.r.IntN(k + 1); i > 0; i-- {
		n := names[g.r.IntN(len(names))]
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sortStrings(out)
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func (g *gen) new(k lang.Kind) *lang.Stmt {
	g.left--
	row := len(g.lines)
	g.lines = append(g.lines, fmt.Sprintf("%s_%d", k, row))
	s := lang.NewStmt(k, k.String(), row, row)
	s.SetNames(g.pick(2), nil, g.pick(3))
	return s
}

func (g *gen) block(depth int, inLoop bool) []*lang.Stmt {
	var out []*lang.Stmt
	for i := g.r.IntN(4); i >= 0 && g.left > 0; i-- {
		out = append(out, g.stmt(depth+1, inLoop))
	}
	return out
}

func (g *gen) stmt(depth int, inLoop bool) *lang.Stmt {
	kinds := []lang.Kind{lang.Simple, lang.Simple, lang.Simple, lang.Return, lang.Raise}
	if inLoop {
		kinds = append(kinds, lang.Break, lang.Continue)
	}
	if depth < 6 {
		kinds = append(kinds, lang.If, lang.If, lang.Loop, lang.Do, lang.Try, lang.With, lang.Switch, lang.Func, lang.Class)
	}
	k := kinds[g.r.IntN(len(kinds))]
	s := g.new(k)
	switch k {
	case lang.If:
		s.Body = g.block(depth, inLoop)
		if g.r.IntN(2) == 0 {
			if g.r.IntN(2) == 0 {
				s.Clause().Else = g.stmt(depth, inLoop) // elif-like chain
				if s.Else().Kind != lang.If {
					e := g.new(lang.Else)
					e.Body = []*lang.Stmt{s.Else()}
					s.Clause().Else = e
				}
			} else {
				s.Clause().Else = g.new(lang.Else)
				s.Else().Body = g.block(depth, inLoop)
			}
		}
	case lang.Loop:
		if g.r.IntN(5) == 0 {
			g.lines[s.StartRow] = "while True:"
		}
		s.Body = g.block(depth, true)
		if g.r.IntN(3) == 0 {
			s.Clause().Else = g.new(lang.Else)
			s.Else().Body = g.block(depth, inLoop)
		}
	case lang.Do:
		s.Body = g.block(depth, true)
		s.Clause().Cond = g.new(lang.DoCond)
	case lang.Try:
		s.Body = g.block(depth, inLoop)
		for i := g.r.IntN(3); i > 0; i-- {
			h := g.new(lang.Catch)
			h.Body = g.block(depth, inLoop)
			s.Clause().Handlers = append(s.Handlers(), h)
		}
		if g.r.IntN(3) == 0 {
			s.Clause().Else = g.new(lang.Else)
			s.Else().Body = g.block(depth, inLoop)
		}
		if len(s.Handlers()) == 0 || g.r.IntN(2) == 0 {
			s.Clause().Finally = g.new(lang.Finally)
			s.Finally().Body = g.block(depth, inLoop)
		}
	case lang.With:
		if g.r.IntN(3) == 0 {
			s.Clause().Label = "L"
			if inLoop && g.r.IntN(2) == 0 {
				// labeled break out of a nested statement
				b := g.new(lang.Break)
				b.Clause().Label = "L"
				s.Body = append(g.block(depth, inLoop), b)
				return s
			}
		}
		s.Body = g.block(depth, inLoop)
	case lang.Switch:
		s.Clause().FallThrough = g.r.IntN(2) == 0
		s.Clause().Exhaustive = g.r.IntN(2) == 0
		for i := g.r.IntN(4); i > 0; i-- {
			c := g.new(lang.Case)
			c.Body = g.block(depth, inLoop)
			s.Clause().Cases = append(s.Cases(), c)
		}
	case lang.Func, lang.Class:
		s.Body = g.block(depth, false)
		if g.r.IntN(4) == 0 {
			s.Clause().Inner = [][]*lang.Stmt{g.block(depth, false)}
		}
	}
	return s
}
