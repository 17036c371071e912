package ccg_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
)

// A context ending in an inline body (a Java brace-less body, a Python body
// on its header's row) cannot be continued by the next line: the target
// follows the whole construct, in the construct's scope, with CF edges from
// the vertices that complete it normally. A braced or indented body is
// continued: the target stays inside it.
func TestAppendTargetAfterInlineBody(t *testing.T) {
	tests := []struct {
		name, path, src string
		preds           []string // first lines of the target's CF predecessors, sorted
		scope           string   // first line of the target's scope header, "" for top level
	}{{
		name:  "java if throw",
		path:  "A.java",
		src:   "class A {\n    void f(int x) {\n        a();\n        if (x < 0) throw new E();\n",
		preds: []string{"if (x < 0) throw new E();"},
		scope: "void f(int x) {",
	}, {
		name:  "java if throw on the next row",
		path:  "A.java",
		src:   "class A {\n    void f(int x) {\n        if (x < 0)\n            throw new E();\n",
		preds: []string{"if (x < 0)"},
		scope: "void f(int x) {",
	}, {
		name:  "java if call",
		path:  "A.java",
		src:   "class A {\n    void f(int x) {\n        if (x < 0)\n            g(x);\n",
		preds: []string{"g(x);", "if (x < 0)"},
		scope: "void f(int x) {",
	}, {
		name:  "java braced body",
		path:  "A.java",
		src:   "class A {\n    void f(int x) {\n        if (x < 0) {\n            g(x);\n        }\n    }\n}\n",
		preds: []string{"g(x);"},
		scope: "void f(int x) {",
	}, {
		name:  "java loop",
		path:  "A.java",
		src:   "class A {\n    void f(int[] xs) {\n        for (int x : xs) g(x);\n",
		preds: []string{"for (int x : xs) g(x);"},
		scope: "void f(int[] xs) {",
	}, {
		name:  "java if else",
		path:  "A.java",
		src:   "class A {\n    void f(int x) {\n        if (x < 0) g(x);\n        else h(x);\n",
		preds: []string{"else h(x);", "if (x < 0) g(x);"},
		scope: "void f(int x) {",
	}, {
		name:  "java else if chain ending in return",
		path:  "A.java",
		src:   "class A {\n    int f(int x) {\n        if (x < 0) { g(x); }\n        else if (x > 0) return 1;\n        else return 2;\n",
		preds: []string{"if (x < 0) { g(x); }"},
		scope: "int f(int x) {",
	}, {
		name:  "java nested ifs",
		path:  "A.java",
		src:   "class A {\n    void f(int a, int b) {\n        if (a > 0)\n            if (b > 0)\n                g();\n    }\n}\n",
		preds: []string{"g();", "if (a > 0)", "if (b > 0)"},
		scope: "void f(int a, int b) {",
	}, {
		name:  "java inline if inside a braced body",
		path:  "A.java",
		src:   "class A {\n    void f(int a, int b) {\n        while (a > 0) {\n            if (b > 0) break;\n        }\n    }\n}\n",
		preds: []string{"if (b > 0) break;"},
		scope: "void f(int a, int b) {",
	}, {
		name:  "python if return",
		path:  "t.py",
		src:   "def f(x, y):\n    a = 1\n    if x: return y\n",
		preds: []string{"if x: return y"},
		scope: "def f(x, y):",
	}, {
		name:  "python while",
		path:  "t.py",
		src:   "def f(c):\n    while c: c = g(c)\n",
		preds: []string{"while c: c = g(c)"},
		scope: "def f(c):",
	}, {
		name:  "python if else",
		path:  "t.py",
		src:   "def f(x):\n    if x: a()\n    else: b()\n",
		preds: []string{"else: b()", "if x: a()"},
		scope: "def f(x):",
	}, {
		name:  "python nested inline in indented body",
		path:  "t.py",
		src:   "def f(x, y):\n    if x:\n        if y: return 1\n",
		preds: []string{"if y: return 1"},
		scope: "def f(x, y):",
	}, {
		name:  "python one-line def",
		path:  "t.py",
		src:   "x = 1\ndef f(): pass\n",
		preds: []string{"def f(): pass"},
		scope: "",
	}, {
		name:  "python indented body",
		path:  "t.py",
		src:   "def f(x):\n    if x:\n        return 1\n",
		preds: []string{"return 1"},
		scope: "def f(x):",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Like a real query context, most sources stop mid-file with
			// Java braces left open; a few close them where the parser's
			// recovery from such short sources loses the method.
			f := parse(t, tc.path, tc.path, []byte(tc.src))
			g := ccg.Build(f)
			id := g.AppendTarget()
			first := func(v int32) string {
				line, _, _ := strings.Cut(g.Text(v), "\n")
				return strings.TrimSpace(line)
			}
			var preds []string
			for _, p := range g.In(id, ccg.CF) {
				preds = append(preds, first(p))
			}
			slices.Sort(preds)
			scope := ""
			if s := g.Nodes[id].Scope; s != ccg.NoScope {
				scope = first(s)
			}
			if !slices.Equal(preds, tc.preds) || scope != tc.scope {
				var dump strings.Builder
				ccg.Write(&dump, g, "text", nil)
				t.Errorf("target preds %q scope %q, want %q scope %q\n%s", preds, scope, tc.preds, tc.scope, dump.String())
			}
		})
	}
}
