package engine

import (
	"archive/zip"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/internal/realcode"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/retrieve"
	"github.com/graphcoder/graphcoder/slice"
)

// TestBoundedParseReal is the property test of the bounded query parse
// (bounded.go): on real code, the query of a cursor (its key, its slice
// graph with hops, edges and token sets, the names each slice statement
// defines, the indentation) and the rows, kinds, definitions and uses of
// the slice's statements are the ones the parse of the whole prefix
// gives. It indexes a sample of the Python standard library, of the JDK
// sources and of the Go tree (each skipped when absent), completes
// seeded random lines of each file both ways, and checks that the bounded
// parse did blank rows at 40 % of them at least (where it does not, a
// syntax error of the cut-off source spans the bodies, or no statement
// follows them); at some of them the statements of the bounded parse
// reach into the blanked rows through Java syntax errors alone, which the
// whole prefix has the same (elision.throughErrors). At a cursor inside
// a block
// comment the reference is the whole prefix without the comment, which
// the query leaves out by rule (withoutOpenComment). The outline of the buffer is not
// held to equality; the test logs how often it agrees (with the
// declarations after the cursor, buffer.addAfter).
func TestBoundedParseReal(t *testing.T) {
	if testing.Short() {
		t.Skip("real code")
	}
	repo := realRepo(t, 30, 20, 30)
	idx := t.TempDir()
	buildIndex(t, repo, idx)
	whole := openIndex(t, idx, Options{WholePrefixParse: true})
	bounded := openIndex(t, idx, Options{})

	ctx := context.Background()
	r := rand.New(rand.NewPCG(13, 3))
	type tally struct{ cursors, comments, blanked, errors, recovered, rows, blankedRows, outlines, cuts, cutDefs int }
	byLang := map[string]*tally{}
	for _, f := range indexedFiles(t, repo, whole.cur.Load(), ".py", ".go", ".java") {
		rel, l, lines := f.rel, f.l, f.lines
		tl := byLang[l.Name]
		if tl == nil {
			tl = &tally{}
			byLang[l.Name] = tl
		}
		for range 8 {
			line := 2 + r.IntN(len(lines)-1)
			before := lines[:line-1]
			// A block comment open at the end is left out by rule
			// (withoutOpenComment): the whole prefix without it is the
			// reference then.
			ref, cut := withoutOpenComment(before, l.Name)
			if cut > 0 {
				tl.comments++
			}
			after := lines[line-1:]
			if n := len(after); n > 0 && after[n-1] == "" {
				after = after[:n-1]
			}
			if len(after) > 0 {
				after = after[1:] // the cursor's line
			}
			wq, wg, ws, wb := queryOf(t, ctx, whole, l, rel, line, ref, after)
			bq, bg, bs, bb := queryOf(t, ctx, bounded, l, rel, line, before, after)
			tl.cursors++
			tl.rows += len(before)
			if bb.blanked > 0 {
				tl.blanked++
				tl.blankedRows += bb.blanked
			}
			if bb.elided != nil && bb.elided.cut > 0 {
				tl.cuts++ // top-level definitions cut (elision.cutModule)
				tl.cutDefs += bb.elided.cut
			}
			if bb.elided == nil && bb.blanked > cut {
				tl.errors++ // the statements read through syntax errors (elision.throughErrors)
			}
			if bb.recovered {
				tl.recovered++ // the query read from the closed source (recover.go)
			}
			if diff := sliceDiff(wg, ws, bg, bs); diff != "" {
				t.Fatalf("%s:%d (%d rows blanked): the bounded query slice differs from the whole prefix's: %s", rel, line, bb.blanked, diff)
			}
			wq.Nodes, bq.Nodes = nil, nil // vertex ids: the bounded graph has fewer vertices
			if !reflect.DeepEqual(wq, bq) {
				t.Fatalf("%s:%d (%d rows blanked): the bounded query differs from the whole prefix's", rel, line, bb.blanked)
			}
			if reflect.DeepEqual(outlineKeys(wb), outlineKeys(bb)) {
				tl.outlines++
			}
			if !slices.Equal(wb.file.Imports, bb.file.Imports) {
				t.Fatalf("%s:%d: the bounded parse's imports %+v differ from the whole prefix's %+v", rel, line, bb.file.Imports, wb.file.Imports)
			}
		}
	}
	names := make([]string, 0, len(byLang))
	for name := range byLang {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		tl := byLang[name]
		t.Logf("%s: %d cursors (%d in a block comment), %d with rows blanked (%d of them read through syntax errors; %d of %d rows before the cursors, %.0f %%), %d with %d top-level definitions cut, %d recovered from one syntax error, the same slice, query and imports at all of them; the same outline at %d",
			name, tl.cursors, tl.comments, tl.blanked, tl.errors, tl.blankedRows, tl.rows, 100*float64(tl.blankedRows)/float64(max(tl.rows, 1)), tl.cuts, tl.cutDefs, tl.recovered, tl.outlines)
		if moduleCutLanguages[name] && tl.cuts == 0 {
			t.Errorf("%s: no cursor had top-level definitions cut", name)
		}
		if tl.blanked*5 < tl.cursors*2 {
			t.Errorf("%s: the bounded parse blanked rows at %d of %d cursors, want at least 40 %%", name, tl.blanked, tl.cursors)
		}
	}
}

// realRepo returns a repository of samples of real code: py Python files
// of the standard library (no tests), gos of the Go tree, java of the JDK
// sources, each language left out when its code is absent; it skips t
// when all are.
func realRepo(t *testing.T, py, gos, java int) string {
	t.Helper()
	repo := t.TempDir()
	n := 0
	put := func(rel string, src []byte) {
		p := filepath.Join(repo, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		n++
	}
	copyTree := func(dir, prefix string, exts []string, k int, skip ...string) {
		for _, p := range realcode.Sample(realcode.Files(dir, exts, skip...), k) {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(dir, p)
			put(prefix+"/"+filepath.ToSlash(rel), src)
		}
	}
	if std := realcode.PythonStdlib(); std != "" && py > 0 {
		copyTree(std, "py", []string{".py"}, py, "site-packages", "test", "tests")
	}
	if goroot := realcode.GoSrc(); goroot != "" && gos > 0 {
		copyTree(goroot, "go", []string{".go"}, gos, "testdata")
	}
	if zr, err := realcode.OpenJDKSources(); err == nil && java > 0 {
		var files []*zip.File
		for _, f := range zr.File {
			if strings.HasSuffix(f.Name, ".java") {
				files = append(files, f)
			}
		}
		for _, f := range realcode.Sample(files, java) {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			src, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			put("java/"+f.Name, src)
		}
		zr.Close()
	} else if err == nil {
		zr.Close()
	}
	if n == 0 {
		t.Skip("none of the Python standard library, the Go tree and the JDK sources is here")
	}
	return repo
}

// indexedFile is a file of a real repository: its path, language and
// lines (lang.SplitLines).
type indexedFile struct {
	rel   string
	l     *lang.Language
	lines []string
}

// indexedFiles returns the files of repo with one of exts that st indexes
// (not over a limit) and that have 20 lines at least, in path order.
func indexedFiles(t *testing.T, repo string, st *state, exts ...string) []indexedFile {
	t.Helper()
	var out []indexedFile
	for _, p := range realcode.Files(repo, exts) {
		rel, _ := filepath.Rel(repo, p)
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines := lang.SplitLines(string(src))
		if len(lines) < 20 || st.syms.File(rel) == nil {
			continue
		}
		out = append(out, indexedFile{rel, lang.ForPath(rel), lines})
	}
	return out
}

// queryOf parses, slices and turns into a query the lines before line of
// the indexed file rel, as a request does, and adds the declarations of
// the lines after it to the buffer's outline.
func queryOf(t *testing.T, ctx context.Context, e *Engine, l *lang.Language, rel string, line int, before, after []string) (q *retrieve.Query, g *ccg.Graph, s *slice.Slice, buf *buffer) {
	t.Helper()
	st := e.cur.Load()
	buf = &buffer{path: rel, lines: before, after: after}
	req := Request{Path: rel, Line: line}
	g, s, err := e.querySlice(ctx, st, l, rel, req, buf)
	if err != nil {
		t.Fatalf("%s:%d: %v", rel, line, err)
	}
	q = st.ix.NewQuery(g, s, rel, line)
	buf.addAfter(ctx, l, rel, st)
	return q, g, s, buf
}

// queried is a query made by queryOf, and the engine that made it.
type queried struct {
	e   *Engine
	q   *retrieve.Query
	g   *ccg.Graph
	s   *slice.Slice
	buf *buffer
}

// bothWays holds the query of one cursor made with the whole prefix
// parsed and with the bounded parse.
type bothWays struct {
	whole, bounded queried
	l              *lang.Language
	line           int
}

// lastRowBothWays indexes src as the repository's one file rel and makes
// the query of its last row (src ends in a newline) both ways.
func lastRowBothWays(t *testing.T, rel, src string) bothWays {
	t.Helper()
	lines := lang.SplitLines(src)
	line := len(lines) - 1
	idx := t.TempDir()
	buildIndex(t, fileRepo(t, rel, src), idx)
	c := bothWays{l: lang.ForPath(rel), line: line}
	before, after := lines[:line-1], lines[line:len(lines)-1]
	for _, w := range []struct {
		q *queried
		o Options
	}{{&c.whole, Options{WholePrefixParse: true}}, {&c.bounded, Options{}}} {
		w.q.e = openIndex(t, idx, w.o)
		w.q.q, w.q.g, w.q.s, w.q.buf = queryOf(t, context.Background(), w.q.e, c.l, rel, line, before, after)
	}
	return c
}

// sliceDiff describes how two slices differ in their statements (rows,
// kind, text, definitions, uses, parameters), hops, edges or target; ""
// when they do not.
func sliceDiff(ag *ccg.Graph, a *slice.Slice, bg *ccg.Graph, b *slice.Slice) string {
	if len(a.Nodes) != len(b.Nodes) || a.Target != b.Target {
		return fmt.Sprintf("%d statements, target %d; bounded %d, target %d", len(a.Nodes), a.Target, len(b.Nodes), b.Target)
	}
	for i := range a.Nodes {
		x, y := vertexOf(ag, a.Nodes[i]), vertexOf(bg, b.Nodes[i])
		if !reflect.DeepEqual(x, y) || ag.Text(a.Nodes[i]) != bg.Text(b.Nodes[i]) {
			return fmt.Sprintf("statement %d: %+v %q; bounded %+v %q", i, x, ag.Text(a.Nodes[i]), y, bg.Text(b.Nodes[i]))
		}
	}
	if !slices.Equal(a.Hop, b.Hop) || !slices.Equal(a.Edges, b.Edges) {
		return fmt.Sprintf("hops %v edges %v; bounded hops %v edges %v", a.Hop, a.Edges, b.Hop, b.Edges)
	}
	return ""
}

// vertex is what sliceDiff compares of a vertex: all but its Scope (a
// vertex id) and where its names are in the graph's pool.
type vertex struct {
	Kind               lang.Kind
	Dummy              bool
	StartRow, EndRow   int
	Defs, Uses, Params []string
}

func vertexOf(g *ccg.Graph, v int32) vertex {
	n := &g.Nodes[v]
	return vertex{n.Kind, n.Dummy, n.StartRow, n.EndRow, g.Defs(v), g.Uses(v), g.Params(v)}
}

// outlineKeys are the buffer outline's symbols as the definition context
// reads them.
func outlineKeys(b *buffer) []string {
	var out []string
	for i, s := range b.file.Symbols {
		out = append(out, fmt.Sprintf("%s %s %d-%d %d %s", lang.QualifiedName(b.file.Symbols, i), s.Kind, s.StartRow, s.EndRow, s.NameRow, s.Type))
	}
	slices.Sort(out)
	return out
}

// TestBoundedThroughErrors: a Java source cut off deep inside a method
// parses into one syntax error from its first row to its last, bounded
// or not. The bounded parse reads it through the error (no second parse
// of the whole prefix): the query is the whole prefix's, and the error's
// text holds the blanked body as it is.
func TestBoundedThroughErrors(t *testing.T) {
	src := cutOffJava
	idx := t.TempDir()
	buildIndex(t, fileRepo(t, "A.java", src), idx)
	whole := openIndex(t, idx, Options{WholePrefixParse: true, NoQueryRecovery: true})
	bounded := openIndex(t, idx, Options{NoQueryRecovery: true})
	lines := lang.SplitLines(src)
	const line = 28 // after `}` closing `if (s != null)`
	before, after := lines[:line-1], lines[line:len(lines)-1]
	l := lang.ForPath("A.java")
	ctx := context.Background()
	wq, wg, ws, _ := queryOf(t, ctx, whole, l, "A.java", line, before, after)
	bq, bg, bs, bb := queryOf(t, ctx, bounded, l, "A.java", line, before, after)
	if bb.elided != nil || bb.blanked == 0 {
		t.Fatalf("the bounded parse was not read through the syntax error: %d rows blanked, elision %v", bb.blanked, bb.elided != nil)
	}
	if diff := sliceDiff(wg, ws, bg, bs); diff != "" {
		t.Fatalf("the bounded query slice differs from the whole prefix's: %s", diff)
	}
	wq.Nodes, bq.Nodes = nil, nil
	if !reflect.DeepEqual(wq, bq) {
		t.Fatal("the bounded query differs from the whole prefix's")
	}
	v := bs.Nodes[0]
	if n := bg.Nodes[v]; n.Kind != lang.Error || n.StartRow != 0 || n.EndRow != line-2 {
		t.Fatalf("first slice statement %+v, want one error over rows 0-%d", n, line-2)
	}
	if got := bg.Text(v); got != strings.Join(before, "\n") {
		t.Errorf("the error's text is not the prefix's:\n%s", got)
	}
}

// cutOffJava is a Java source whose prefix up to line 28, cut off deep
// inside g, parses into one syntax error from its first row to its last.
const cutOffJava = `package p;

class A {
    int f() {
        int x = 1;
        return x;
    }

    void g(Object p, int ttl) throws Exception {
        if (p == null)
            throw new Exception("closed");
        synchronized(this) {
            synchronized(p) {
                int a = p.hashCode();
                if (a > 0) {
                    if (p != null) {
                        throw new IllegalArgumentException("no");
                    }
                    Object s = p.toString();
                    if (s != null) {
                        if (a > 1) {
                            check(a, ttl);
                        } else {
                            check(a,
                                    ttl);
                        }
                    }
                    check(s, a);
                }
            }
        }
    }
}
`

// TestBoundedTypeBodies checks the bodies of the classes above the
// cursor's definition blanked (Python and Java): the query is the whole
// prefix's, though a blanked class defines names the cursor's statements
// use, and the outline keeps the blanked classes' members and imports.
func TestBoundedTypeBodies(t *testing.T) {
	for _, tc := range []struct {
		name, rel, src string
		line           int      // the cursor's line (1-based)
		members        []string // qualified names of members the blanking hides
	}{
		{"python", "m.py", typeBodiesPython, 22, []string{"Token.kind", "Token.value", "Token.size"}},
		{"java", "p/A.java", typeBodiesJava, 26, []string{"A.Inner.kind", "A.Inner.value"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			idx := t.TempDir()
			buildIndex(t, fileRepo(t, tc.rel, tc.src), idx)
			whole := openIndex(t, idx, Options{WholePrefixParse: true})
			bounded := openIndex(t, idx, Options{})
			lines := lang.SplitLines(tc.src)
			before, after := lines[:tc.line-1], lines[tc.line:len(lines)-1]
			l := lang.ForPath(tc.rel)
			ctx := context.Background()
			wq, wg, ws, wb := queryOf(t, ctx, whole, l, tc.rel, tc.line, before, after)
			bq, bg, bs, bb := queryOf(t, ctx, bounded, l, tc.rel, tc.line, before, after)
			if bb.elided == nil {
				t.Fatal("nothing blanked")
			}
			var hidden []string
			for _, r := range bb.elided.regions {
				for _, row := range lines[r.from : r.to+1] {
					hidden = append(hidden, strings.TrimSpace(row))
				}
			}
			if !slices.Contains(hidden, "kind = 1") && !slices.Contains(hidden, "int kind = 1;") {
				t.Fatalf("the class body was not blanked; blanked rows %q", hidden)
			}
			if diff := sliceDiff(wg, ws, bg, bs); diff != "" {
				t.Fatalf("the bounded query slice differs from the whole prefix's: %s", diff)
			}
			wq.Nodes, bq.Nodes = nil, nil
			if !reflect.DeepEqual(wq, bq) {
				t.Fatal("the bounded query differs from the whole prefix's")
			}
			keys := strings.Join(outlineKeys(bb), "\n")
			for _, m := range tc.members {
				if !strings.Contains(keys, m+" ") {
					t.Errorf("the outline lost %s:\n%s", m, keys)
				}
			}
			if !reflect.DeepEqual(outlineKeys(wb), outlineKeys(bb)) {
				t.Errorf("outline\n%s\nwant the whole prefix's\n%s", keys, strings.Join(outlineKeys(wb), "\n"))
			}
			if !reflect.DeepEqual(wb.file.Imports, bb.file.Imports) {
				t.Errorf("imports %+v, want the whole prefix's %+v", bb.file.Imports, wb.file.Imports)
			}
		})
	}
}

// typeBodiesPython has a class whose body defines kind and value before
// a function that uses module-level names of the same spelling.
const typeBodiesPython = `import os

kind = 0


class Token:
    from os import path
    kind = 1
    value = kind + 1

    def size(self):
        return len(self.value)


def parse(text):
    value = text.strip()
    if not value:
        return kind
    t = Token()
    t.value = value
    n = t.size()
    return n + kind


def other():
    return None
`

// typeBodiesJava has a nested class before the method of the cursor,
// whose fields share names with the outer class's.
const typeBodiesJava = `package p;

class A {
    int kind = 0;

    static class Inner {
        int kind = 1;
        String value = "x";

        int size() {
            return value.length();
        }
    }

    int value() {
        return kind;
    }

    int parse(String text) {
        String value = text.trim();
        if (value.isEmpty()) {
            return kind;
        }
        Inner t = new Inner();
        int n = t.size();
        return n + kind;
    }
}
`

// TestBoundedModuleCut checks the top-level definitions far above the
// cursor cut (elision.cutModule): those whose names the kept text never
// spells become `pass`, the one the cursor's function calls, the one a
// kept header names and one with a walrus in its header stay, and the
// query and outline are the whole prefix's.
func TestBoundedModuleCut(t *testing.T) {
	var b strings.Builder
	b.WriteString("import os\n\n\ndef helper(x):\n    return x + 1\n\n\ndef uses_base(y=base_value):\n    return y\n\n\n")
	b.WriteString("def walrus(z=(w := 3)):\n    return z\n\n\nbase_value = 2\n\n\n")
	for i := range 12 {
		fmt.Fprintf(&b, "@staticmethod\ndef unused_%d(a, b):\n    return a * b + %d\n\n\n", i, i)
	}
	b.WriteString("def target(v):\n    n = helper(v) + uses_base()\n    m = os.path.join(str(n), 'x')\n    return m\n")
	c := lastRowBothWays(t, "m.py", b.String()) // the row of `return m`
	wq, wg, ws, wb := c.whole.q, c.whole.g, c.whole.s, c.whole.buf
	bq, bg, bs, bb := c.bounded.q, c.bounded.g, c.bounded.s, c.bounded.buf
	bounded, l, line, ctx := c.bounded.e, c.l, c.line, context.Background()
	if bb.elided == nil || bb.elided.cut == 0 {
		t.Fatal("no definition cut")
	}
	kept := strings.Join(bb.elided.lines, "\n")
	for _, name := range []string{"def helper", "def uses_base", "def walrus"} {
		if !strings.Contains(kept, name) {
			t.Errorf("%s was cut", name)
		}
	}
	// The last hops+1 top-level definitions before the cursor stay.
	hops := sliceOptions(bounded.cur.Load(), Request{}).Hops
	if n := strings.Count(kept, "def unused_"); n != hops {
		t.Errorf("%d of the unused definitions kept, want the last %d", n, hops)
	}
	if diff := sliceDiff(wg, ws, bg, bs); diff != "" {
		t.Fatalf("the bounded query slice differs from the whole prefix's: %s", diff)
	}
	wq.Nodes, bq.Nodes = nil, nil
	if !reflect.DeepEqual(wq, bq) {
		t.Fatal("the bounded query differs from the whole prefix's")
	}
	if !reflect.DeepEqual(outlineKeys(wb), outlineKeys(bb)) {
		t.Errorf("outline\n%s\nwant the whole prefix's\n%s", strings.Join(outlineKeys(bb), "\n"), strings.Join(outlineKeys(wb), "\n"))
	}
	// A request for more hops than the index's keeps more.
	deep := &buffer{path: "m.py", lines: bb.lines, after: bb.after}
	if _, _, err := bounded.querySlice(ctx, bounded.cur.Load(), l, "m.py", Request{Path: "m.py", Line: line, Hops: hops + 4}, deep); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(strings.Join(deep.elided.lines, "\n"), "def unused_"); n != hops+4 {
		t.Errorf("at %d hops %d unused definitions kept, want %d", hops+4, n, hops+4)
	}
}

// TestBoundedFirstStands: an instance attribute first assigned in a body
// the query parse blanks, and again in a method it keeps, is one field of
// the buffer's outline, at its first assignment, as in the whole
// prefix's (elision.firstStands).
func TestBoundedFirstStands(t *testing.T) {
	var b strings.Builder
	b.WriteString("class Counter:\n    def __init__(self):\n        self.count = 0\n        self.step = 1\n\n")
	for i := range 6 {
		fmt.Fprintf(&b, "    def unused_%d(self, a):\n        return a * %d\n\n", i, i)
	}
	b.WriteString("    def reset(self):\n        self.count = 0\n\n    def bump(self, n):\n        total = self.count + n\n        self.count = total\n        return total\n")
	c := lastRowBothWays(t, "c.py", b.String()) // the row of `return total`
	wb, bb := c.whole.buf, c.bounded.buf
	if bb.blanked == 0 {
		t.Fatal("no body blanked")
	}
	var fields []string
	for _, s := range bb.file.Symbols {
		if s.Kind == lang.SymField {
			fields = append(fields, fmt.Sprintf("%s@%d", s.Name, s.StartRow))
		}
	}
	if want := []string{"count@2", "step@3"}; !slices.Equal(fields, want) {
		t.Errorf("fields %v, want %v", fields, want)
	}
	if !reflect.DeepEqual(outlineKeys(wb), outlineKeys(bb)) {
		t.Errorf("outline\n%s\nwant the whole prefix's\n%s", strings.Join(outlineKeys(bb), "\n"), strings.Join(outlineKeys(wb), "\n"))
	}
}
