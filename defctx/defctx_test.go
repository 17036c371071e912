package defctx

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/internal/golden"
	"github.com/graphcoder/graphcoder/lang"
	_ "github.com/graphcoder/graphcoder/lang/golang"
	_ "github.com/graphcoder/graphcoder/lang/java"
	_ "github.com/graphcoder/graphcoder/lang/python"
	_ "github.com/graphcoder/graphcoder/lang/typescript"
	"github.com/graphcoder/graphcoder/symtab"
)

// repo is a fixture repository parsed into a symbol table, with its lines.
type repo struct {
	view  *symtab.View
	table *symtab.Table // the view's one table
	lines map[string][]string
	root  string
	repo  *symtab.Repo
}

func loadRepo(t testing.TB, dir string) *repo {
	t.Helper()
	r := &repo{lines: map[string][]string{}, root: filepath.Base(dir), repo: symtab.NewRepo(dir)}
	b := symtab.NewBuilder(r.root, true)
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		l := lang.ForPath(p)
		if l == nil {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		f, err := l.Parse(context.Background(), rel, src)
		if err != nil {
			return err
		}
		r.lines[rel] = f.Lines
		return b.Add(symtab.FromLang(f, l, r.repo))
	})
	if err != nil {
		t.Fatal(err)
	}
	r.table = b.Finish()
	r.view = symtab.NewView(r.table)
	return r
}

// input is the cursor at line of path, with the buffer's lines before it
// parsed on top of the repository, as the engine does.
func (r *repo) input(t testing.TB, path string, line int, cands []Candidate) Input {
	t.Helper()
	l := lang.ForPath(path)
	before := r.lines[path][:line-1]
	// The engine's outline of a buffer: its open brackets closed.
	f, err := l.Outline(context.Background(), path, []byte(strings.Join(before, "\n")+"\n"+ccg.Closers(before, l.Name)))
	if err != nil {
		t.Fatal(err)
	}
	buf := symtab.FromLang(f, l, r.repo)
	top := symtab.NewBuilder(r.root, false)
	top.Add(buf)
	return Input{View: r.view.With(top.Finish(), nil), File: buf, Lines: before, Line: line, Candidates: cands,
		Source: func(p string) Text { return linesText(r.lines[p]) }, CommentPrefix: l.CommentPrefix, Keywords: l.Keywords}
}

func dump(blocks []Block, st Stats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "stats %+v\n", st)
	for _, bl := range blocks {
		fmt.Fprintf(&b, "== %s score %.2f\n", bl.Path, bl.Score)
		for _, d := range bl.Definitions {
			fmt.Fprintf(&b, "   %s %s:%d %s [%s: %s] %.2f\n", d.Kind, d.Path, d.Line, d.Name, d.Origin, d.Reason, d.Score)
		}
		for i, l := range bl.Lines {
			fmt.Fprintf(&b, "%4d| %s\n", bl.Rows[i], l)
		}
	}
	return b.String()
}

func TestCollectGolden(t *testing.T) {
	r := loadRepo(t, "testdata/py")
	cands := []Candidate{
		{Path: "ledger/report.py", Line: 5, Text: "    acc.deposit(0)"},
		{Path: "ledger/models.py", Line: 26, Text: "        self.deposit(self.balance * self.RATE)"},
		{Path: "ledger/report.py", Line: 6, Text: "    out.write(format_balance(acc))"},
	}
	var out strings.Builder
	for _, tc := range []struct {
		name string
		o    Options
	}{
		{"all", Options{}},
		{"no predicted", Options{NoPredicted: true}},
		{"no near", Options{NoNear: true}},
	} {
		fmt.Fprintf(&out, "#### %s\n", tc.name)
		out.WriteString(dump(Collect(r.input(t, "app.py", 9, cands), tc.o)))
	}
	// Inside a method: the enclosing class and its base.
	out.WriteString("#### in Savings.accrue\n")
	out.WriteString(dump(Collect(r.input(t, "ledger/models.py", 26, nil), Options{})))
	golden.Check(t, "py.golden", out.String())
}

// TestCollectGoTS: the definition context of Go and TypeScript code: a
// local assigned a call (its return type's methods), a receiver (Go: a
// parameter of the method's type), a method declared in another file of
// the package, a field's type's method, a namespace import.
func TestCollectGoTS(t *testing.T) {
	var out strings.Builder
	g := loadRepo(t, "testdata/go")
	out.WriteString("#### go: main, at the Println line\n")
	out.WriteString(dump(Collect(g.input(t, "app/main.go", 12, nil), Options{})))
	out.WriteString("#### go: Cart.Total, at the Greet line\n")
	out.WriteString(dump(Collect(g.input(t, "cart/methods.go", 12, nil), Options{})))
	ts := loadRepo(t, "testdata/ts")
	out.WriteString("#### ts: main, at the log line\n")
	out.WriteString(dump(Collect(ts.input(t, "src/main.ts", 7, nil), Options{})))
	golden.Check(t, "gots.golden", out.String())
}

func TestChains(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`self.parser.feed(data)`, "self.parser.feed() data"},
		{`return at.trees().isAccessible(scope, (TypeElement) el);`, "return at.trees() at.trees.isAccessible() scope TypeElement el"},
		{`x = new Foo(a.b).bar(); "s".join(y) # self.z()`, "x Foo() a.b Foo.bar() y"},
		{`f()[0].g(h)`, "f() h"},
		{`if (sb.length() > 0) {`, "if() sb.length()"}, // keywords are dropped when resolved
	} {
		var got []string
		chs, _ := appendChains(tc.text, "#", nil, nil)
		for _, ch := range chs {
			s := strings.Join(ch.parts, ".")
			if ch.call {
				s += "()"
			}
			got = append(got, s)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("appendChains(%q) = %q, want %q", tc.text, strings.Join(got, " "), tc.want)
		}
	}
}

// TestBadInput: a class of thousands of members, import cycles, missing
// modules and shadowed names give bounded blocks and no failure.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var big strings.Builder
	big.WriteString("from .a import x\nclass Big(Big, Missing):\n")
	for i := 0; i < 3000; i++ {
		fmt.Fprintf(&big, "    def m%d(self, v):\n        return self.m%d(v)\n", i, (i+1)%3000)
	}
	write("p/__init__.py", "from .a import *\nfrom .b import *\n")
	write("p/a.py", "from .b import x\nfrom . import b\n")
	write("p/b.py", "from .a import x\nfrom .a import *\nimport p.a as a\n")
	write("p/big.py", big.String())
	write("q.py", "import missing.module\nfrom p.big import Big\nfrom p import x\nBig = 3\n\ndef f(b: Big):\n    b.m5(x)\n    missing.module.call(b.m2999())\n    x.y.z()\n    self.q()\n")
	r := loadRepo(t, dir)
	for _, at := range []struct {
		path string
		line int
	}{{"q.py", 11}, {"p/big.py", 4000}, {"p/b.py", 3}} {
		in := r.input(t, at.path, at.line, []Candidate{{Path: "p/big.py", Line: 100, Text: "        return self.m49(v)"}})
		blocks, st := Collect(in, Options{})
		if len(blocks) > 2*DefaultMaxFiles {
			t.Errorf("%s:%d: %d blocks", at.path, at.line, len(blocks))
		}
		for _, b := range blocks {
			if len(b.Lines) > DefaultMaxLines || len(b.Lines) != len(b.Rows) {
				t.Errorf("%s:%d: block of %s has %d lines, %d rows", at.path, at.line, b.Path, len(b.Lines), len(b.Rows))
			}
		}
		t.Logf("%s:%d: %d blocks, %+v", at.path, at.line, len(blocks), st)
	}
}

// TestDeclaredExternal: a local declared of a type the repository does not
// define has no repository methods: nothing is looked up by name for it,
// while a local of unknown type is.
func TestDeclaredExternal(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Tree.java", "class Tree {\n    void append(String s) {}\n    void visit() {}\n}\n")
	write("Use.java", "class Use {\n    void run() {\n        var o = make();\n        StringBuilder sb = new StringBuilder();\n        sb.append(\"x\");\n        o.visit();\n\n    }\n}\n")
	r := loadRepo(t, dir)
	blocks, _ := Collect(r.input(t, "Use.java", 7, nil), Options{})
	var names []string
	for _, b := range blocks {
		for _, d := range b.Definitions {
			names = append(names, d.Name)
		}
	}
	got := strings.Join(names, " ")
	if strings.Contains(got, "Tree.append") || !strings.Contains(got, "Tree.visit") {
		t.Errorf("definitions %q: want Tree.visit (o is of unknown type) and not Tree.append (sb is a StringBuilder)", got)
	}
}

// TestBareByName: a bare call a Java class's scope does not resolve (here
// a method defined further down the buffer's file, which the leak rule
// hides) is looked up by name; not when an import binds the name, nor in
// a class with a base the repository does not define.
func TestBareByName(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Sibling.java", "class Sibling {\n    static void emit(int code, int bits) {}\n}\n")
	body := "    static {\n        emit(1, 2);\n        emit(3, 4);\n\n    }\n    static void emit(int code, int bits) {}\n}\n"
	write("Table.java", "class Table {\n"+body)
	calls := strings.Replace(body, "    static void emit(int code, int bits) {}\n", "", 1)
	write("Imported.java", "import static q.Codes.emit;\nclass Imported {\n"+calls)
	write("Outside.java", "class Outside extends java.util.ArrayList<String> {\n"+calls)
	r := loadRepo(t, dir)
	for _, tc := range []struct {
		path string
		line int
		want bool
	}{{"Table.java", 5, true}, {"Imported.java", 6, false}, {"Outside.java", 5, false}} {
		blocks, _ := Collect(r.input(t, tc.path, tc.line, nil), Options{})
		found := false
		for _, b := range blocks {
			for _, d := range b.Definitions {
				if d.Name == "Sibling.emit" && d.Origin == ByName {
					found = true
				}
			}
		}
		if found != tc.want {
			t.Errorf("%s: Sibling.emit by name %v, want %v", tc.path, found, tc.want)
		}
		blocks, _ = Collect(r.input(t, tc.path, tc.line, nil), Options{NoBareByName: true})
		for _, b := range blocks {
			for _, d := range b.Definitions {
				if d.Name == "Sibling.emit" {
					t.Errorf("%s: NoBareByName, yet %+v", tc.path, d)
				}
			}
		}
	}
}

// TestOverloads: of the overloads of a called name, the best one is shown
// with its signature among the definitions with a reason, the others are
// listed for context (KeepOverloads shows them all); and blocks go by
// score, a strong class's listed members before weaker definitions
// (FillLast puts every listed member last).
func TestOverloads(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Logger.java", `class Logger {
    /** Logs a message. */
    void log(String msg) {}
    /** Logs a message. */
    void log(String fmt, Object... args) {}
    /** Logs a throwable. */
    void log(Throwable t) {}
    boolean on() { return true; }
}
`)
	write("Use.java", "class Use {\n    void run(Logger lg) {\n        lg.log(\"a\");\n\n    }\n}\n")
	r := loadRepo(t, dir)
	logs := func(o Options) (reasoned, listed int, blocks []Block) {
		blocks, _ = Collect(r.input(t, "Use.java", 4, nil), o)
		for _, b := range blocks {
			for _, d := range b.Definitions {
				if d.Name == "Logger.log" {
					reasoned++
				}
			}
			if len(b.Definitions) == 0 {
				for _, l := range b.Lines {
					if strings.Contains(l, "void log(") {
						listed++
					}
				}
			}
		}
		return reasoned, listed, blocks
	}
	if reasoned, listed, blocks := logs(Options{}); reasoned != 1 || listed != 2 {
		t.Errorf("overloads with a reason %d, listed for context %d; want 1 and 2:\n%s", reasoned, listed, dump(blocks, Stats{}))
	}
	if reasoned, listed, _ := logs(Options{KeepOverloads: true}); reasoned != 3 || listed != 0 {
		t.Errorf("KeepOverloads: overloads with a reason %d, listed %d; want 3 and 0", reasoned, listed)
	}
	for _, o := range []Options{{}, {FillLast: true}} {
		_, _, blocks := logs(o)
		context := false
		for i, b := range blocks {
			if i > 0 && !o.FillLast && b.Score > blocks[i-1].Score {
				t.Errorf("block %d (score %.2f) after a weaker one (%.2f)", i, b.Score, blocks[i-1].Score)
			}
			if o.FillLast && context && len(b.Definitions) > 0 {
				t.Errorf("FillLast: block %d of definitions with a reason after a block listed for context", i)
			}
			context = context || len(b.Definitions) == 0
		}
	}
}
