package ccg

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/ccg/ccgtest"
	"github.com/graphcoder/graphcoder/lang"
)

// row hands out consecutive rows so hand-built statements sit one per line.
type tree struct {
	lines []string
}

func (t *tree) st(kind lang.Kind, text string, body ...*lang.Stmt) *lang.Stmt {
	r := len(t.lines)
	t.lines = append(t.lines, text)
	s := lang.NewStmt(kind, kind.String(), r, r)
	s.Body = body
	return s
}

// def and use set Defs/Uses on s.
func du(s *lang.Stmt, defs, uses string) *lang.Stmt {
	var d, u []string
	if defs != "" {
		d = strings.Split(defs, ",")
	}
	if uses != "" {
		u = strings.Split(uses, ",")
	}
	s.SetNames(d, s.Params(), u)
	return s
}

func (t *tree) file(language string, stmts ...*lang.Stmt) *lang.File {
	return &lang.File{Path: "t", Language: language, Lines: t.lines, Stmts: stmts}
}

// edgeSet renders g's edges of type typ as "a>b" strings keyed by text of
// the source line so tests read like the code.
func has(g *Graph, typ EdgeType, from, to string) bool {
	for _, e := range g.Edges {
		if e.Type == typ && g.Text(e.From) == from && g.Text(e.To) == to {
			return true
		}
	}
	return false
}

func expect(t *testing.T, g *Graph, want []string, deny []string) {
	t.Helper()
	check := func(spec string, present bool) {
		// spec: "from -CF-> to"
		for _, typ := range []EdgeType{CF, CD, DD} {
			sep := " -" + typ.String() + "-> "
			if i := strings.Index(spec, sep); i >= 0 {
				if got := has(g, typ, spec[:i], spec[i+len(sep):]); got != present {
					var b strings.Builder
					Write(&b, g, "text", nil)
					t.Errorf("edge %q present=%v, want %v\n%s", spec, got, present, b.String())
				}
				return
			}
		}
		t.Fatalf("bad spec %q", spec)
	}
	for _, s := range want {
		check(s, true)
	}
	for _, s := range deny {
		check(s, false)
	}
}

func TestControlFlow(t *testing.T) {
	tests := []struct {
		name       string
		build      func(t *tree) *lang.File
		want, deny []string
	}{{
		name: "return has no fall-through",
		build: func(t *tree) *lang.File {
			return t.file("python", t.st(lang.Func, "def f():",
				t.st(lang.If, "if a:", t.st(lang.Return, "return 1")),
				t.st(lang.Simple, "x = 2"),
				t.st(lang.Raise, "raise E"),
				t.st(lang.Simple, "dead")),
				t.st(lang.Simple, "after"))
		},
		want: []string{"def f(): -CF-> if a:", "if a: -CF-> return 1", "if a: -CF-> x = 2", "x = 2 -CF-> raise E", "def f(): -CF-> after"},
		deny: []string{"return 1 -CF-> x = 2", "raise E -CF-> dead", "raise E -CF-> after", "return 1 -CF-> after"},
	}, {
		name: "break leaves its loop, continue returns to header",
		build: func(t *tree) *lang.File {
			return t.file("python",
				t.st(lang.Loop, "for x in y:",
					t.st(lang.If, "if a:", t.st(lang.Break, "break")),
					t.st(lang.If, "if b:", t.st(lang.Continue, "continue")),
					t.st(lang.Simple, "body")),
				t.st(lang.Simple, "after"))
		},
		want: []string{"break -CF-> after", "continue -CF-> for x in y:", "body -CF-> for x in y:", "for x in y: -CF-> after", "for x in y: -CF-> if a:"},
		deny: []string{"break -CF-> if b:", "continue -CF-> body", "break -CF-> for x in y:"},
	}, {
		name: "labeled break and continue",
		build: func(t *tree) *lang.File {
			outer := &lang.Stmt{Kind: lang.With}
			outer.Clause().Label = "outer"
			t2 := t.st(lang.With, "outer:")
			outer.StartRow, outer.EndRow = t2.StartRow, t2.EndRow
			outer.SetType("labeled")
			brk := t.st(lang.Break, "break outer;")
			brk.Clause().Label = "outer"
			cont := t.st(lang.Continue, "continue outer;")
			cont.Clause().Label = "outer"
			outer.Body = []*lang.Stmt{t.st(lang.Loop, "for (i...)",
				t.st(lang.Loop, "for (j...)",
					t.st(lang.If, "if (a)", brk),
					t.st(lang.If, "if (b)", cont),
					t.st(lang.Simple, "body;")))}
			return t.file("java", outer, t.st(lang.Simple, "after;"))
		},
		want: []string{"break outer; -CF-> after;", "continue outer; -CF-> for (i...)", "body; -CF-> for (j...)", "for (j...) -CF-> for (i...)", "for (i...) -CF-> after;"},
		deny: []string{"break outer; -CF-> for (i...)", "continue outer; -CF-> for (j...)"},
	}, {
		name: "loop else",
		build: func(t *tree) *lang.File {
			l := t.st(lang.Loop, "while c:", t.st(lang.If, "if a:", t.st(lang.Break, "break")))
			l.Clause().Else = t.st(lang.Else, "else:", t.st(lang.Simple, "no_break()"))
			return t.file("python", l, t.st(lang.Simple, "after"))
		},
		want: []string{"while c: -CF-> else:", "else: -CF-> no_break()", "no_break() -CF-> after", "break -CF-> after", "if a: -CF-> while c:"},
		deny: []string{"while c: -CF-> after", "break -CF-> else:"},
	}, {
		name: "try except else finally",
		build: func(t *tree) *lang.File {
			tr := t.st(lang.Try, "try:", t.st(lang.Simple, "a()"), t.st(lang.Simple, "b()"))
			tr.Clause().Handlers = []*lang.Stmt{t.st(lang.Catch, "except E:", t.st(lang.Simple, "h()"))}
			tr.Clause().Else = t.st(lang.Else, "else:", t.st(lang.Simple, "e()"))
			tr.Clause().Finally = t.st(lang.Finally, "finally:", t.st(lang.Simple, "f()"))
			return t.file("python", tr, t.st(lang.Simple, "after"))
		},
		want: []string{"try: -CF-> a()", "a() -CF-> except E:", "b() -CF-> except E:", "b() -CF-> else:", "e() -CF-> finally:", "h() -CF-> finally:", "finally: -CF-> f()", "f() -CF-> after"},
		deny: []string{"try: -CF-> except E:", "b() -CF-> finally:", "h() -CF-> else:"},
	}, {
		name: "raise in try goes to handler, return through finally",
		build: func(t *tree) *lang.File {
			tr := t.st(lang.Try, "try:", t.st(lang.Raise, "raise X"))
			tr.Clause().Handlers = []*lang.Stmt{t.st(lang.Catch, "except X:", t.st(lang.Return, "return 1"))}
			tr.Clause().Finally = t.st(lang.Finally, "finally:", t.st(lang.Simple, "cleanup()"))
			return t.file("python", t.st(lang.Func, "def f():", tr, t.st(lang.Simple, "after")))
		},
		want: []string{"raise X -CF-> except X:", "return 1 -CF-> finally:", "cleanup() -CF-> after"},
		deny: []string{"raise X -CF-> after", "return 1 -CF-> after"},
	}, {
		name: "raise in try with handlers also reaches finally",
		build: func(t *tree) *lang.File {
			tr := t.st(lang.Try, "try:", t.st(lang.Raise, "raise X"))
			tr.Clause().Handlers = []*lang.Stmt{t.st(lang.Catch, "except X:", t.st(lang.Simple, "h()"))}
			tr.Clause().Finally = t.st(lang.Finally, "finally:", t.st(lang.Simple, "cleanup()"))
			return t.file("python", t.st(lang.Func, "def f():", tr, t.st(lang.Simple, "after")))
		},
		want: []string{"raise X -CF-> except X:", "raise X -CF-> finally:", "h() -CF-> finally:", "cleanup() -CF-> after"},
		deny: []string{"raise X -CF-> after", "raise X -CF-> h()"},
	}, {
		name: "unmatched raise goes on to an outer finally",
		build: func(t *tree) *lang.File {
			inner := t.st(lang.Try, "try:", t.st(lang.Raise, "raise X"))
			inner.Clause().Handlers = []*lang.Stmt{t.st(lang.Catch, "except E:", t.st(lang.Simple, "h()"))}
			outer := t.st(lang.Try, "try: # outer", inner)
			outer.Clause().Handlers = []*lang.Stmt{t.st(lang.Catch, "except Y:", t.st(lang.Simple, "y()"))}
			outer.Clause().Finally = t.st(lang.Finally, "finally:", t.st(lang.Simple, "cleanup()"))
			return t.file("python", t.st(lang.Func, "def f():", outer))
		},
		want: []string{"raise X -CF-> except E:", "raise X -CF-> except Y:", "raise X -CF-> finally:"},
	}, {
		name: "a catch-all handler stops a raise",
		build: func(t *tree) *lang.File {
			inner := t.st(lang.Try, "try:", t.st(lang.Raise, "raise X"))
			inner.Clause().Handlers = []*lang.Stmt{t.st(lang.Catch, "except:", t.st(lang.Simple, "h()"))}
			outer := t.st(lang.Try, "try: # outer", inner)
			outer.Clause().Handlers = []*lang.Stmt{t.st(lang.Catch, "except Y:", t.st(lang.Simple, "y()"))}
			outer.Clause().Finally = t.st(lang.Finally, "finally:", t.st(lang.Simple, "cleanup()"))
			return t.file("python", t.st(lang.Func, "def f():", outer))
		},
		want: []string{"raise X -CF-> except:", "h() -CF-> finally:"},
		deny: []string{"raise X -CF-> finally:"},
	}, {
		name: "stray statements before the first case run first",
		build: func(t *tree) *lang.File {
			f := t.st(lang.Func, "def f():")
			sw := t.st(lang.Switch, "match x:")
			sw.Body = []*lang.Stmt{t.st(lang.Simple, "stray()"), t.st(lang.Simple, "stray2()")}
			c1 := t.st(lang.Case, "case 1:")
			c1.Body = []*lang.Stmt{t.st(lang.Simple, "one()")}
			c2 := t.st(lang.Case, "case 2:")
			c2.Body = []*lang.Stmt{t.st(lang.Simple, "two()")}
			sw.Clause().Cases = []*lang.Stmt{c1, c2}
			f.Body = []*lang.Stmt{sw, t.st(lang.Simple, "after")}
			return t.file("python", f)
		},
		want: []string{"match x: -CF-> stray()", "stray() -CF-> stray2()", "stray2() -CF-> case 1:", "stray2() -CF-> case 2:",
			"stray2() -CF-> after", "one() -CF-> after", "def f(): -CD-> stray()", "stray2() -CD-> one()"},
		deny: []string{"match x: -CF-> case 1:", "match x: -CF-> after", "stray() -CF-> case 1:"},
	}, {
		name: "java switch fall-through",
		build: func(t *tree) *lang.File {
			sw := t.st(lang.Switch, "switch (x)")
			sw.Clause().FallThrough = true
			sw.Clause().Cases = []*lang.Stmt{
				t.st(lang.Case, "case 1:", t.st(lang.Simple, "one();")),
				t.st(lang.Case, "case 2:", t.st(lang.Simple, "two();"), t.st(lang.Break, "break;")),
				t.st(lang.Case, "default:", t.st(lang.Simple, "other();")),
			}
			sw.Clause().Exhaustive = true
			return t.file("java", sw, t.st(lang.Simple, "after;"))
		},
		want: []string{"switch (x) -CF-> case 1:", "switch (x) -CF-> case 2:", "switch (x) -CF-> default:", "one(); -CF-> two();", "break; -CF-> after;", "other(); -CF-> after;"},
		deny: []string{"switch (x) -CF-> after;", "one(); -CF-> after;", "break; -CF-> other();", "one(); -CF-> case 2:"},
	}, {
		name: "python match does not catch break",
		build: func(t *tree) *lang.File {
			sw := t.st(lang.Switch, "match x:")
			sw.Clause().Cases = []*lang.Stmt{t.st(lang.Case, "case 1:", t.st(lang.Break, "break"))}
			l := t.st(lang.Loop, "while c:", sw, t.st(lang.Simple, "in_loop()"))
			return t.file("python", l, t.st(lang.Simple, "after"))
		},
		want: []string{"break -CF-> after", "match x: -CF-> in_loop()"},
		deny: []string{"break -CF-> in_loop()"},
	}, {
		name: "do while",
		build: func(t *tree) *lang.File {
			d := t.st(lang.Do, "do {", t.st(lang.If, "if (a)", t.st(lang.Continue, "continue;")), t.st(lang.Simple, "x++;"))
			d.Clause().Cond = t.st(lang.DoCond, "} while (c);")
			return t.file("java", d, t.st(lang.Simple, "after;"))
		},
		want: []string{"do { -CF-> if (a)", "continue; -CF-> } while (c);", "x++; -CF-> } while (c);", "} while (c); -CF-> if (a)", "} while (c); -CF-> after;"},
		deny: []string{"do { -CF-> after;"},
	}, {
		name: "empty bodies",
		build: func(t *tree) *lang.File {
			return t.file("python", t.st(lang.Func, "def f():"), t.st(lang.Loop, "while c:"), t.st(lang.If, "if a:"), t.st(lang.Simple, "after"))
		},
		want: []string{"def f(): -CF-> while c:", "while c: -CF-> if a:", "if a: -CF-> after"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := Build(tc.build(&tree{}))
			expect(t, g, tc.want, tc.deny)
		})
	}
}

func TestDependence(t *testing.T) {
	tests := []struct {
		name       string
		build      func(t *tree) *lang.File
		want, deny []string
	}{{
		name: "redefinition kills",
		build: func(t *tree) *lang.File {
			return t.file("python", du(t.st(lang.Simple, "x = 1"), "x", ""), du(t.st(lang.Simple, "x = 2"), "x", ""), du(t.st(lang.Simple, "print(x)"), "", "print,x"))
		},
		want: []string{"x = 2 -DD-> print(x)"},
		deny: []string{"x = 1 -DD-> print(x)"},
	}, {
		name: "both branches reach",
		build: func(t *tree) *lang.File {
			i := du(t.st(lang.If, "if c:", du(t.st(lang.Simple, "x = 2"), "x", "")), "", "c")
			return t.file("python", du(t.st(lang.Simple, "x = 1"), "x", ""), i, du(t.st(lang.Simple, "y = x"), "y", "x"))
		},
		want: []string{"x = 1 -DD-> y = x", "x = 2 -DD-> y = x"},
	}, {
		name: "loop carried, no self loop",
		build: func(t *tree) *lang.File {
			return t.file("python", du(t.st(lang.Simple, "i = 0"), "i", ""),
				du(t.st(lang.Loop, "while i < n:", du(t.st(lang.Simple, "i += 1"), "i", "i")), "", "i,n"))
		},
		want: []string{"i = 0 -DD-> while i < n:", "i += 1 -DD-> while i < n:", "i = 0 -DD-> i += 1"},
		deny: []string{"i += 1 -DD-> i += 1"},
	}, {
		name: "outer defs reach a body, body defs stay inside",
		build: func(t *tree) *lang.File {
			return t.file("python", du(t.st(lang.Simple, "x = 1"), "x", ""),
				du(t.st(lang.Func, "def f():", du(t.st(lang.Simple, "y = x"), "y", "x")), "f", ""),
				du(t.st(lang.Simple, "print(y)"), "", "print,y"))
		},
		want: []string{"x = 1 -DD-> y = x"},
		deny: []string{"y = x -DD-> print(y)"},
	}, {
		name: "statement after early exit depends on the branch",
		build: func(t *tree) *lang.File {
			return t.file("python", t.st(lang.Func, "def f():",
				t.st(lang.Simple, "a()"),
				t.st(lang.If, "if c:", t.st(lang.Return, "return")),
				t.st(lang.Simple, "b()")))
		},
		want: []string{"if c: -CD-> b()", "if c: -CD-> return", "def f(): -CD-> a()", "def f(): -CD-> if c:"},
		deny: []string{"def f(): -CD-> b()", "a() -CD-> b()"},
	}, {
		name: "loop body depends on header",
		build: func(t *tree) *lang.File {
			return t.file("python", t.st(lang.Loop, "while c:", t.st(lang.Simple, "a()")), t.st(lang.Simple, "b()"))
		},
		want: []string{"while c: -CD-> a()"},
		deny: []string{"while c: -CD-> b()", "while c: -CD-> while c:"},
	}, {
		name: "infinite loop",
		build: func(t *tree) *lang.File {
			return t.file("python", t.st(lang.Func, "def f():",
				t.st(lang.Simple, "x = 1"),
				t.st(lang.Loop, "while True:", t.st(lang.Simple, "a()"), t.st(lang.If, "if c:", t.st(lang.Simple, "b()")))))
		},
		want: []string{"while True: -CD-> a()", "while True: -CD-> if c:", "if c: -CD-> b()", "def f(): -CD-> x = 1", "def f(): -CD-> while True:"},
		deny: []string{"x = 1 -CD-> while True:"},
	}, {
		name: "infinite loop with break",
		build: func(t *tree) *lang.File {
			return t.file("python", t.st(lang.Loop, "while True:", t.st(lang.If, "if c:", t.st(lang.Break, "break")), t.st(lang.Simple, "a()")), t.st(lang.Simple, "after"))
		},
		want: []string{"break -CF-> after", "if c: -CD-> a()", "if c: -CD-> while True:"},
		deny: []string{"while True: -CF-> after"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := Build(tc.build(&tree{}))
			expect(t, g, tc.want, tc.deny)
		})
	}
}

func TestAppendTarget(t *testing.T) {
	tr := &tree{}
	g := Build(tr.file("python", tr.st(lang.Func, "def f():", tr.st(lang.Simple, "a()")), tr.st(lang.Simple, "b()")))
	id := g.AppendTarget()
	if id != 3 || !g.Nodes[id].Dummy || g.Nodes[id].StartRow != 3 {
		t.Fatalf("target %d %+v", id, g.Nodes[id])
	}
	if in := g.In(id, CF); len(in) != 1 || g.Text(in[0]) != "b()" {
		t.Errorf("target CF in = %v", in)
	}
	if out := g.Out(2, CF); len(out) != 1 || out[0] != id {
		t.Errorf("b() CF out = %v", out)
	}
	empty := Build(&lang.File{Path: "e"})
	if id := empty.AppendTarget(); id != 0 || len(empty.Edges) != 0 || len(empty.In(0, CF)) != 0 {
		t.Errorf("empty: id %d edges %v", id, empty.Edges)
	}
}

// A context ending on a function or class header puts the target in
// that header's body; a Java method declaration without body does not.
func TestAppendTargetAfterHeader(t *testing.T) {
	tests := []struct {
		name      string
		build     func(t *tree) *lang.File
		last      string // text of the target's CF predecessor
		bodyScope bool   // the target belongs to last's scope (not last's own)
	}{
		{"python def", func(t *tree) *lang.File {
			return t.file("python", t.st(lang.Simple, "x = 1"), t.st(lang.Func, "def f(a):"))
		}, "def f(a):", true},
		{"nested class", func(t *tree) *lang.File {
			f := t.st(lang.Func, "def f():")
			f.Body = []*lang.Stmt{t.st(lang.Simple, "a()"), t.st(lang.Class, "class C:")}
			return t.file("python", f)
		}, "class C:", true},
		{"java method", func(t *tree) *lang.File {
			c := t.st(lang.Class, "class A {")
			c.Body = []*lang.Stmt{t.st(lang.Func, "  void f(int a) {")}
			return t.file("java", c)
		}, "  void f(int a) {", true},
		{"java abstract method", func(t *tree) *lang.File {
			c := t.st(lang.Class, "class A {")
			c.Body = []*lang.Stmt{t.st(lang.Func, "  abstract void f(int a);")}
			return t.file("java", c)
		}, "  abstract void f(int a);", false},
		{"statement after a function", func(t *tree) *lang.File {
			return t.file("python", t.st(lang.Func, "def f():", t.st(lang.Simple, "a()")), t.st(lang.Simple, "b()"))
		}, "b()", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := Build(tc.build(&tree{}))
			id := g.AppendTarget()
			in := g.In(id, CF)
			if len(in) != 1 || g.Text(in[0]) != tc.last {
				t.Fatalf("target CF predecessors %v, want %q", in, tc.last)
			}
			want := g.Nodes[in[0]].Scope
			if tc.bodyScope {
				want = in[0]
			}
			if got := g.Nodes[id].Scope; got != want {
				t.Errorf("target scope %d, want %d", got, want)
			}
		})
	}
}

func ExampleWrite() {
	tr := &tree{}
	f := tr.file("python", du(tr.st(lang.Simple, "x = 1"), "x", ""), du(tr.st(lang.Simple, "print(x)"), "", "print,x"))
	Write(stdout{}, Build(f), "text", nil)
	// Output:
	// # t (python): 2 nodes, 2 edges
	// 0 simple 1-1 scope=- defs=x | x = 1
	// 1 simple 2-2 scope=- uses=print,x | print(x)
	// 0 -CF-> 1
	// 0 -DD-> 1 x
}

type stdout struct{}

func (stdout) Write(p []byte) (int, error) { fmt.Print(string(p)); return len(p), nil }

// The sparse solver of reaching definitions (one name at a time) gives
// exactly the edges, in the same order, of the dense one.
func TestDDSparseAgrees(t *testing.T) {
	defer func(w int) { ddDenseWords = w }(ddDenseWords)
	r := rand.New(rand.NewPCG(11, 12))
	withDD := 0
	for i := range 80 {
		f := ccgtest.RandomFile(r, 30+r.IntN(300), []string{"python", "java"}[i%2])
		ddDenseWords = 1 << 40
		want := Build(f)
		if slices.ContainsFunc(want.Edges, func(e Edge) bool { return e.Type == DD }) {
			withDD++
		}
		ddDenseWords = 0
		if got := Build(f); !slices.Equal(got.Edges, want.Edges) {
			t.Fatalf("file %d: the sparse solver gives %d edges, the dense one %d", i, len(got.Edges), len(want.Edges))
		}
	}
	if withDD < 60 {
		t.Errorf("only %d of 80 files have DD edges", withDD)
	}
}

// BuildConsuming gives Build's graph, target included, whether it takes
// the statement tree apart as it numbers the vertices (here from one
// statement on) or not, and leaves nil in the lists it took apart; Build
// leaves them as they were even from collectFrom statements on.
func TestBuildConsumingAgrees(t *testing.T) {
	defer func(n int) { collectFrom = n }(collectFrom)
	r := rand.New(rand.NewPCG(13, 14))
	for i := range 80 {
		f := ccgtest.RandomFile(r, 30+r.IntN(300), []string{"python", "java"}[i%2])
		collectFrom = 1 << 30
		want := Build(f)
		collectFrom = 1
		if got := Build(f); !reflect.DeepEqual(got, want) || !slices.ContainsFunc(f.Stmts, func(s *lang.Stmt) bool { return s != nil }) {
			t.Fatalf("file %d: Build from collectFrom on changed the graph or took f apart", i)
		}
		if i%4 == 3 {
			collectFrom = 1 << 30 // not consumed, being below collectFrom
		}
		got := BuildConsuming(f)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("file %d: BuildConsuming's graph differs from Build's", i)
		}
		if wantT, gotT := want.AppendTarget(), got.AppendTarget(); wantT != gotT || !reflect.DeepEqual(got, want) {
			t.Fatalf("file %d: the targets or the graphs with them differ", i)
		}
		if consumed := i%4 != 3; consumed != !slices.ContainsFunc(f.Stmts, func(s *lang.Stmt) bool { return s != nil }) {
			t.Fatalf("file %d: consumed %v, but f.Stmts holds %v", i, consumed, f.Stmts)
		}
	}
}

// A vertex's names are a range of the graph's one pool: appending to the
// slice Defs, Params or Uses returns must not write over the next
// vertex's names (the ranges are returned with their capacity clipped),
// AddNode's vertex reads back its own names, and DropNames leaves none.
func TestNamesPool(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for i := range 20 {
		g := Build(ccgtest.RandomFile(r, 30+r.IntN(200), []string{"python", "java"}[i%2]))
		type names struct{ defs, params, uses []string }
		read := func(v int32) names { return names{g.Defs(v), g.Params(v), g.Uses(v)} }
		var want []names
		for v := range g.Nodes {
			n := read(int32(v))
			want = append(want, names{slices.Clone(n.defs), slices.Clone(n.params), slices.Clone(n.uses)})
		}
		if !slices.ContainsFunc(want, func(n names) bool { return len(n.defs) > 0 && len(n.uses) > 0 }) {
			t.Fatalf("file %d: no vertex both defines and uses a name", i)
		}
		for v := range g.Nodes {
			n := read(int32(v))
			_, _, _ = append(n.defs, "D"), append(n.params, "P"), append(n.uses, "U")
		}
		id := g.AddNode(Node{Kind: lang.Simple, Scope: NoScope}, []string{"d"}, []string{"u", "v"}, []string{"p"})
		for v := range g.Nodes[:id] {
			if got := read(int32(v)); !reflect.DeepEqual(got, want[v]) {
				t.Fatalf("file %d: vertex %d has names %v, want %v", i, v, got, want[v])
			}
		}
		if got := read(id); !reflect.DeepEqual(got, names{[]string{"d"}, []string{"p"}, []string{"u", "v"}}) {
			t.Fatalf("file %d: the added vertex has names %v", i, got)
		}
		g.DropNames()
		for v := range g.Nodes {
			if got := read(int32(v)); got.defs != nil || got.params != nil || got.uses != nil {
				t.Fatalf("file %d: vertex %d has names %v after DropNames", i, v, got)
			}
		}
	}
}
