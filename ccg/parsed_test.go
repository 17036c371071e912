package ccg_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
)

// hasDD reports whether g has a DD edge for name from the vertex whose
// first line is from to the vertex whose first line is to (both trimmed).
func hasDD(g *ccg.Graph, from, to, name string) bool {
	first := func(v int32) string {
		line, _, _ := strings.Cut(g.Text(v), "\n")
		return strings.TrimSpace(line)
	}
	for _, e := range g.Edges {
		if e.Type == ccg.DD && g.Var(e) == name && first(e.From) == from && first(e.To) == to {
			return true
		}
	}
	return false
}

// Parameters are bound inside the scope their header opens: they reach
// that body and neither flow into nor kill definitions of the enclosing
// scope after the header.
func TestParamsStayInTheirScope(t *testing.T) {
	type dd struct{ from, to, name string }
	tests := []struct {
		name, path, src string
		want, deny      []dd
	}{{
		name: "python def",
		path: "t.py",
		src:  "x = 1\ndef f(x):\n    return x\nprint(x)\nf(x)\n",
		want: []dd{
			{"x = 1", "print(x)", "x"},
			{"def f(x):", "return x", "x"},
			{"def f(x):", "f(x)", "f"},
		},
		deny: []dd{
			{"def f(x):", "print(x)", "x"},
			{"x = 1", "return x", "x"},
		},
	}, {
		name: "python class type parameter",
		path: "t.py",
		src:  "T = int\nclass C[T]:\n    a: T\nb: T\n",
		want: []dd{{"T = int", "b: T", "T"}, {"class C[T]:", "a: T", "T"}},
		deny: []dd{{"class C[T]:", "b: T", "T"}, {"T = int", "a: T", "T"}},
	}, {
		name: "java method",
		path: "A.java",
		src:  "class A {\n    int x = 1;\n    void f(int x) {\n        print(x);\n    }\n    int y = x;\n}\n",
		want: []dd{
			{"int x = 1;", "int y = x;", "x"},
			{"void f(int x) {", "print(x);", "x"},
		},
		deny: []dd{
			{"void f(int x) {", "int y = x;", "x"},
			{"int x = 1;", "print(x);", "x"},
		},
	}, {
		name: "java lambda block",
		path: "B.java",
		src: "class B {\n    String e;\n    void m(List<String> s) {\n        s.forEach(e -> {\n            print(e);\n        });\n" +
			"        show(e);\n    }\n}\n",
		want: []dd{
			{"s.forEach(e -> {", "print(e);", "e"},
			{"String e;", "show(e);", "e"},
			{"void m(List<String> s) {", "s.forEach(e -> {", "s"},
		},
		deny: []dd{{"s.forEach(e -> {", "show(e);", "e"}, {"String e;", "print(e);", "e"}},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := parse(t, tc.path, tc.path, []byte(tc.src))
			if f.Errors != 0 {
				t.Fatalf("%d syntax errors", f.Errors)
			}
			g := ccg.Build(f)
			var dump strings.Builder
			ccg.Write(&dump, g, "text", nil)
			for _, e := range tc.want {
				if !hasDD(g, e.from, e.to, e.name) {
					t.Errorf("missing DD %q -> %q (%s)\n%s", e.from, e.to, e.name, dump.String())
				}
			}
			for _, e := range tc.deny {
				if hasDD(g, e.from, e.to, e.name) {
					t.Errorf("unexpected DD %q -> %q (%s)\n%s", e.from, e.to, e.name, dump.String())
				}
			}
		})
	}
}

// Statements that Python error recovery leaves in a match before its first
// case run between the header and the cases.
func TestParsedMatchStrays(t *testing.T) {
	src := "def f(x):\n    match x:\n        $$$\n        case 1:\n            pass\n"
	f := parse(t, "t.py", "t.py", []byte(src))
	var sw *lang.Stmt
	lang.Walk(f.Stmts, func(s *lang.Stmt) {
		if s.Kind == lang.Switch {
			sw = s
		}
	})
	if sw == nil || len(sw.Body) == 0 {
		t.Skip("the front end no longer leaves strays in this match")
	}
	g := ccg.Build(f)
	header, stray := g.NodeAt(1), g.NodeAt(2)
	if !slices.Contains(g.Out(header, ccg.CF), stray) {
		t.Errorf("no CF edge from the match header to the stray statement")
	}
	if len(g.In(stray, ccg.CF)) == 0 || len(g.Out(stray, ccg.CF)) == 0 {
		t.Errorf("stray statement is not on the control flow: in %v out %v", g.In(stray, ccg.CF), g.Out(stray, ccg.CF))
	}
}
