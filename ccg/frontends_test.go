package ccg_test

import (
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
)

// hasEdge reports whether g has an edge of type typ from the vertex whose
// first line (trimmed) is from to the vertex whose first line is to.
func hasEdge(g *ccg.Graph, typ ccg.EdgeType, from, to string) bool {
	first := func(v int32) string {
		line, _, _ := strings.Cut(g.Text(v), "\n")
		return strings.TrimSpace(line)
	}
	for _, e := range g.Edges {
		if e.Type == typ && first(e.From) == from && first(e.To) == to {
			return true
		}
	}
	return false
}

// TestControlFlowSubtleties checks, on parsed Go, JavaScript and
// TypeScript, the control flow that is easy to get wrong: no fall-through
// after return or throw, break to its label, continue to its loop's
// header, Go's fallthrough and goto, select and switch catching break,
// panic and defer as plain statements, and catch clauses that catch
// everything.
func TestControlFlowSubtleties(t *testing.T) {
	type edge struct{ from, to string }
	tests := []struct {
		name, path, src string
		want, deny      []edge
	}{{
		name: "go return has no fall-through",
		path: "a.go",
		src:  "package p\n\nfunc f(x int) int {\n\tif x > 0 {\n\t\treturn 1\n\t}\n\ty := 2\n\treturn y\n}\n",
		want: []edge{{"if x > 0 {", "return 1"}, {"if x > 0 {", "y := 2"}},
		deny: []edge{{"return 1", "y := 2"}},
	}, {
		name: "go break to its label, continue to its header",
		path: "a.go",
		src: "package p\n\nfunc f(items []string) {\nouter:\n\tfor _, it := range items {\n\t\tfor j := range it {\n" +
			"\t\t\tif j > 2 {\n\t\t\t\tbreak outer\n\t\t\t}\n\t\t\tif j > 1 {\n\t\t\t\tcontinue outer\n\t\t\t}\n\t\t\tuse(j)\n\t\t}\n\t}\n\tdone()\n}\n",
		want: []edge{
			{"break outer", "done()"},
			{"continue outer", "for _, it := range items {"},
			{"use(j)", "for j := range it {"},
		},
		deny: []edge{
			{"break outer", "for j := range it {"},
			{"break outer", "for _, it := range items {"},
			{"continue outer", "for j := range it {"},
			{"continue outer", "use(j)"},
		},
	}, {
		name: "go fallthrough enters the next clause only there",
		path: "a.go",
		src: "package p\n\nfunc f(x int) {\n\tswitch x {\n\tcase 1:\n\t\ta()\n\t\tfallthrough\n\tcase 2:\n\t\tb()\n" +
			"\tcase 3:\n\t\tc()\n\t}\n\tafter()\n}\n",
		want: []edge{{"a()", "fallthrough"}, {"fallthrough", "b()"}, {"b()", "after()"}, {"c()", "after()"}, {"switch x {", "after()"}},
		deny: []edge{{"fallthrough", "after()"}, {"a()", "after()"}, {"b()", "c()"}},
	}, {
		name: "go goto forwards and backwards",
		path: "a.go",
		src: "package p\n\nfunc f(n int) {\nagain:\n\tn--\n\tif n > 0 {\n\t\tgoto again\n\t}\n\tgoto end\n\tdead()\n" +
			"end:\n\tfinish()\n}\n",
		want: []edge{{"goto again", "again:"}, {"goto end", "end:"}, {"end:", "finish()"}},
		deny: []edge{{"goto again", "goto end"}, {"goto end", "dead()"}},
	}, {
		name: "go break leaves a select, the infinite loop only by return",
		path: "a.go",
		src: "package p\n\nfunc f(ch chan int) {\n\tfor {\n\t\tselect {\n\t\tcase v := <-ch:\n\t\t\tif v < 0 {\n\t\t\t\tbreak\n\t\t\t}\n" +
			"\t\t\tif v == 0 {\n\t\t\t\treturn\n\t\t\t}\n\t\t}\n\t\ttick()\n\t}\n\tunreachable()\n}\n",
		want: []edge{{"break", "tick()"}, {"tick()", "for {"}, {"select {", "case v := <-ch:"}},
		deny: []edge{{"for {", "unreachable()"}, {"break", "unreachable()"}, {"select {", "tick()"}},
	}, {
		name: "go panic is not an exit, defer is a plain statement",
		path: "a.go",
		src: "package p\n\nfunc f(err error) {\n\tdefer first()\n\tdefer second()\n\tif err != nil {\n\t\tpanic(err)\n\t}\n" +
			"\tnext()\n\treturn\n}\n",
		want: []edge{{"defer first()", "defer second()"}, {"defer second()", "if err != nil {"}, {"panic(err)", "next()"}, {"next()", "return"}},
		deny: []edge{{"return", "defer second()"}, {"return", "defer first()"}, {"defer second()", "defer first()"}},
	}, {
		name: "javascript throw and return have no fall-through",
		path: "a.js",
		src:  "function f(x) {\n  if (x) {\n    throw new Error(x);\n  }\n  if (!x) return 1;\n  next();\n}\n",
		want: []edge{{"if (x) {", "if (!x) return 1;"}},
		deny: []edge{{"throw new Error(x);", "if (!x) return 1;"}},
	}, {
		name: "javascript labeled break and continue, switch fall-through",
		path: "a.js",
		src: "function f(xs) {\n  outer: for (const x of xs) {\n    for (let i = 0; i < x; i++) {\n      if (i) continue outer;\n" +
			"      if (x) break outer;\n    }\n  }\n  switch (xs.length) {\n    case 0:\n      a();\n    case 1:\n      b();\n      break;\n" +
			"    default:\n      c();\n  }\n  done();\n}\n",
		want: []edge{
			{"if (i) continue outer;", "outer: for (const x of xs) {"},
			{"if (x) break outer;", "switch (xs.length) {"},
			{"a();", "b();"},
			{"break;", "done();"},
			{"c();", "done();"},
		},
		deny: []edge{{"a();", "done();"}, {"b();", "c();"}, {"switch (xs.length) {", "done();"}},
	}, {
		name: "javascript catch catches everything, return runs finally",
		path: "a.js",
		src: "function f() {\n  try {\n    if (bad()) {\n      throw new Error();\n    }\n    return g();\n  } catch (err) {\n" +
			"    log(err);\n  } finally {\n    close();\n  }\n  after();\n}\n",
		want: []edge{{"throw new Error();", "} catch (err) {"}, {"return g();", "} finally {"}, {"log(err);", "} finally {"}},
		deny: []edge{{"throw new Error();", "} finally {"}, {"return g();", "after();"}},
	}, {
		name: "typescript do-while and for await",
		path: "a.ts",
		src: "async function f(it: AsyncIterable<number>): Promise<void> {\n  for await (const v of it) {\n    if (v < 0) continue;\n" +
			"    use(v);\n  }\n  do {\n    step();\n  } while (more());\n  end();\n}\n",
		want: []edge{
			{"if (v < 0) continue;", "for await (const v of it) {"},
			{"use(v);", "for await (const v of it) {"},
			{"for await (const v of it) {", "do {"},
			{"} while (more());", "step();"},
			{"} while (more());", "end();"},
		},
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
				if !hasEdge(g, ccg.CF, e.from, e.to) {
					t.Errorf("missing CF %q -> %q\n%s", e.from, e.to, dump.String())
				}
			}
			for _, e := range tc.deny {
				if hasEdge(g, ccg.CF, e.from, e.to) {
					t.Errorf("unexpected CF %q -> %q\n%s", e.from, e.to, dump.String())
				}
			}
		})
	}
}
