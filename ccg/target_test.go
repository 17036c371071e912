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
// continued while it is open: the target stays inside it (closed blocks
// are TestAppendTargetAfterClosedBlock's).
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
		src:   "class A {\n    void f(int x) {\n        a();\n        if (x < 0) {\n            g(x);\n",
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
		// (The parser loses the method when the braces stay open here;
		// TestAppendTargetHandBuilt has the open case.)
		name:  "java nested ifs, then the method and class closed",
		path:  "A.java",
		src:   "class A {\n    void f(int a, int b) {\n        if (a > 0)\n            if (b > 0)\n                g();\n    }\n}\n",
		preds: []string{"class A {"},
		scope: "",
	}, {
		name:  "java inline if inside a braced body",
		path:  "A.java",
		src:   "class A {\n    void f(int a, int b) {\n        a();\n        while (a > 0) {\n            if (b > 0) break;\n",
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
			// Like a real query context, the sources stop mid-file with
			// Java braces left open.
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

// targetPlace renders where AppendTarget put the target: its CF
// predecessors as "kind: first line" (sorted) and its scope's first line
// ("" for the top level).
func targetPlace(t *testing.T, path, src string) (preds []string, scope string, dump string) {
	t.Helper()
	f := parse(t, path, path, []byte(src))
	g := ccg.Build(f)
	id := g.AppendTarget()
	first := func(v int32) string {
		line, _, _ := strings.Cut(g.Text(v), "\n")
		return strings.TrimSpace(line)
	}
	for _, p := range g.In(id, ccg.CF) {
		preds = append(preds, g.Nodes[p].Kind.String()+": "+first(p))
	}
	slices.Sort(preds)
	if s := g.Nodes[id].Scope; s != ccg.NoScope {
		scope = first(s)
	}
	var b strings.Builder
	ccg.Write(&b, g, "text", nil)
	return preds, scope, b.String()
}

// A context whose last lines only close blocks (`}`, `};`, `})`, `});`,
// `}()`, with blank and comment lines between) puts the target after each
// construct those braces close, in the enclosing scope, with CF edges from
// the vertices leaving the construct: the statement written there in the
// indexed file has exactly those predecessors. The expectations were
// worked out by hand from the CFG rules (cfg.go).
func TestAppendTargetAfterClosedBlock(t *testing.T) {
	const (
		javaHead = "package p;\nclass A {\n    int f(int x) {\n        a();\n"
		goHead   = "package p\n\nfunc f(x int) int {\n\ta()\n"
		jsHead   = "import x from 'y';\nexport function f(x) {\n  a();\n"
	)
	tests := []struct {
		name, path, src string
		preds           []string
		scope           string
	}{
		// Java.
		{"java if", "A.java", javaHead + "        if (x > 0) {\n            g(x);\n        }\n",
			[]string{"if: if (x > 0) {", "simple: g(x);"}, "int f(int x) {"},
		{"java if that returns", "A.java", javaHead + "        if (x > 0) {\n            return x;\n        }\n",
			[]string{"if: if (x > 0) {"}, "int f(int x) {"},
		{"java if/else chain", "A.java", javaHead + "        if (x > 0) {\n            g(x);\n        } else if (x < 0) {\n            return h(x);\n        } else {\n            k();\n        }\n",
			[]string{"simple: g(x);", "simple: k();"}, "int f(int x) {"},
		{"java for with break", "A.java", javaHead + "        for (int i = 0; i < x; i++) {\n            if (i == 3) break;\n            g(i);\n        }\n",
			[]string{"break: if (i == 3) break;", "loop: for (int i = 0; i < x; i++) {"}, "int f(int x) {"},
		{"java while (true) left by break", "A.java", javaHead + "        while (true) {\n            if (g()) break;\n        }\n",
			[]string{"break: if (g()) break;"}, "int f(int x) {"},
		{"java do while", "A.java", javaHead + "        do {\n            g();\n        } while (x > 0);\n",
			[]string{"do_cond: } while (x > 0);"}, "int f(int x) {"},
		{"java switch", "A.java", javaHead + "        switch (x) {\n        case 1:\n            g();\n            break;\n        default:\n            h();\n        }\n",
			[]string{"break: break;", "simple: h();"}, "int f(int x) {"},
		{"java try/catch", "A.java", javaHead + "        try {\n            g();\n        } catch (E e) {\n            h();\n        }\n",
			[]string{"simple: g();", "simple: h();"}, "int f(int x) {"},
		{"java try/catch/finally", "A.java", javaHead + "        try {\n            g();\n        } catch (E e) {\n            h();\n        } finally {\n            k();\n        }\n",
			[]string{"simple: k();"}, "int f(int x) {"},
		{"java method", "A.java", javaHead + "        return x;\n    }\n",
			[]string{"func: int f(int x) {"}, "class A {"},
		{"java nested class", "A.java", "package p;\nclass A {\n    int n;\n    class B {\n        void y() {\n            w();\n        }\n    }\n",
			[]string{"class: class B {"}, "class A {"},
		{"java several closers", "A.java", javaHead + "        if (x > 0) {\n            g();\n        }\n    }\n}\n",
			[]string{"class: class A {"}, ""},
		{"java closer, blank and comment lines", "A.java", javaHead + "        return x;\n    }\n\n    /**\n     * Returns y.\n     */\n    // and more\n",
			[]string{"func: int f(int x) {"}, "class A {"},
		{"java closer on the statement's row", "A.java", "package p;\nclass A {\n    int n;\n    int size() { return n; }\n",
			[]string{"func: int size() { return n; }"}, "class A {"},
		{"java if on one row", "A.java", javaHead + "        if (x > 0) { return x; }\n",
			[]string{"if: if (x > 0) { return x; }"}, "int f(int x) {"},
		{"java lambda", "A.java", javaHead + "        run(() -> {\n            g();\n        });\n",
			[]string{"simple: run(() -> {"}, "int f(int x) {"},
		{"java anonymous class", "A.java", javaHead + "        Object o = new Object() {\n            void z() {\n                q();\n            }\n        };\n",
			[]string{"simple: Object o = new Object() {"}, "int f(int x) {"},
		{"java bare block", "A.java", javaHead + "        {\n            g();\n        }\n",
			[]string{"simple: g();"}, "int f(int x) {"},
		{"java inline if in a closed loop", "A.java", javaHead + "        while (x > 0) {\n            if (g()) break;\n        }\n",
			[]string{"break: if (g()) break;", "loop: while (x > 0) {"}, "int f(int x) {"},
		{"java else stays in its block", "A.java", javaHead + "        if (x > 0) {\n            g(x);\n        } else {\n",
			[]string{"else: } else {"}, "int f(int x) {"},
		{"java catch stays in its block", "A.java", javaHead + "        try {\n            g();\n        } catch (E e) {\n",
			[]string{"catch: } catch (E e) {"}, "int f(int x) {"},
		{"java open block", "A.java", javaHead + "        if (x > 0) {\n            g(x);\n",
			[]string{"simple: g(x);"}, "int f(int x) {"},

		// Go.
		{"go if", "a.go", goHead + "\tif x > 0 {\n\t\treturn x\n\t}\n",
			[]string{"if: if x > 0 {"}, "func f(x int) int {"},
		{"go func", "a.go", goHead + "\treturn x\n}\n",
			[]string{"func: func f(x int) int {"}, ""},
		{"go func, then a doc comment", "a.go", goHead + "\treturn x\n}\n\n// g does nothing.\n",
			[]string{"func: func f(x int) int {"}, ""},
		{"go range loop", "a.go", goHead + "\tfor _, y := range ys {\n\t\tg(y)\n\t}\n",
			[]string{"loop: for _, y := range ys {"}, "func f(x int) int {"},
		{"go switch", "a.go", goHead + "\tswitch x {\n\tcase 1:\n\t\tg()\n\tdefault:\n\t\th()\n\t}\n",
			[]string{"simple: g()", "simple: h()"}, "func f(x int) int {"},
		{"go deferred func literal", "a.go", goHead + "\tdefer func() {\n\t\tg()\n\t}()\n",
			[]string{"simple: defer func() {"}, "func f(x int) int {"},
		{"go composite literal", "a.go", goHead + "\tv := T{\n\t\tA: 1,\n\t}\n",
			[]string{"simple: v := T{"}, "func f(x int) int {"},
		{"go method on one row", "a.go", "package p\n\ntype T []int\n\nfunc (t T) Len() int { return len(t) }\n",
			[]string{"func: func (t T) Len() int { return len(t) }"}, ""},

		// JavaScript.
		{"javascript if/else", "a.js", jsHead + "  if (x) {\n    g();\n  } else {\n    h();\n  }\n",
			[]string{"simple: g();", "simple: h();"}, "export function f(x) {"},
		{"javascript function", "a.js", jsHead + "  return x;\n}\n",
			[]string{"func: export function f(x) {"}, ""},
		{"javascript callbacks", "a.js", jsHead + "  describe('a', () => {\n    it('b', () => {\n      expect(1);\n    });\n  });\n",
			[]string{"simple: describe('a', () => {"}, "export function f(x) {"},
		{"javascript else stays in its block", "a.js", jsHead + "  if (x) {\n    g();\n  } else {\n",
			[]string{"else: } else {"}, "export function f(x) {"},
		{"javascript code after the closer", "a.js", jsHead + "  foo(function () {\n    b();\n  }, 100);\n",
			[]string{"simple: b();"}, "foo(function () {"},
		{"javascript object literal", "a.js", jsHead + "  const o = {\n    m() {\n      return 1;\n    },\n  };\n",
			[]string{"simple: const o = {"}, "export function f(x) {"},
		{"javascript try/catch", "a.js", jsHead + "  try {\n    g();\n  } catch (e) {\n    h();\n  }\n",
			[]string{"simple: g();", "simple: h();"}, "export function f(x) {"},
		{"javascript braces in a template and a regex", "a.js", jsHead + "  const s = `${x} {` + /\\{/.source;\n  if (x) {\n    g(s);\n  }\n",
			[]string{"if: if (x) {", "simple: g(s);"}, "export function f(x) {"},
		{"javascript class method", "a.js", "export class C {\n  m() {\n    n();\n  }\n",
			[]string{"func: m() {"}, "export class C {"},

		// TypeScript.
		{"typescript interface", "a.ts", "export interface I {\n  a: number;\n}\n",
			[]string{"class: export interface I {"}, ""},
		{"typescript arrow function", "a.ts", "export const f = async (x: number) => {\n  await g(x);\n};\n",
			[]string{"func: export const f = async (x: number) => {"}, ""},
		{"typescript loop", "a.ts", "export function m(xs: number[]): void {\n  for (const x of xs) {\n    g(x);\n  }\n",
			[]string{"loop: for (const x of xs) {"}, "export function m(xs: number[]): void {"},
		{"typescript method", "a.ts", "export class C {\n  m(xs: number[]): void {\n    for (const x of xs) {\n      g(x);\n    }\n  }\n",
			[]string{"func: m(xs: number[]): void {"}, "export class C {"},

		// Python: whether the next line dedents is unknown.
		{"python indented body stays", "t.py", "def f(x):\n    if x:\n        return 1\n",
			[]string{"return: return 1"}, "def f(x):"},
		{"python after a method, blank and comment lines", "t.py", "class A:\n    def f(self):\n        a()\n\n# next\n",
			[]string{"simple: a()"}, "def f(self):"},
		{"python dict literal", "t.py", "def f():\n    x = {\n        'a': 1,\n    }\n",
			[]string{"simple: x = {"}, "def f():"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			preds, scope, dump := targetPlace(t, tc.path, tc.src)
			if !slices.Equal(preds, tc.preds) || scope != tc.scope {
				t.Errorf("target preds %q scope %q, want %q scope %q\n%s", preds, scope, tc.preds, tc.scope, dump)
			}
		})
	}
}
