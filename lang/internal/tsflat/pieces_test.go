package tsflat_test

import (
	"archive/zip"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/internal/realcode"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/langtest"
	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

// piecesCase is one source for the pieces' property test.
type piecesCase struct{ path, src string }

// generated returns sources made to be cut in many places, and sources
// whose likely cuts fall where a piece does not parse alone or would
// parse otherwise (inside strings and comments, before a continuing
// clause, under a decorator, in a continued expression).
func generated() []piecesCase {
	// rep repeats template n times, $1, $2 and $3 replaced by i, i+1 and i+2.
	rep := func(n int, template string) string {
		var b strings.Builder
		for i := range n {
			strings.NewReplacer("$1", fmt.Sprint(i), "$2", fmt.Sprint(i+1), "$3", fmt.Sprint(i+2)).WriteString(&b, template)
		}
		return b.String()
	}
	return []piecesCase{
		{"defs.py", rep(300, "def f$1(a, b):\n    return a + b\n")},
		{"chain.py", "x0 = 0\n" + rep(300, "x$2 = x$1 + 1\n")},
		{"tricky.py", `"""Doc.
def not_code():
    pass
"""
import os
` + rep(60, `@dec(
  a=$1)
def f$1(x):
    s = '''
class NotCode:
x = 1
'''
    return s
if x$3:
    pass
else:
    y = \
x
# a comment
class C$1:
    z = [
1, 2]
try:
    pass
except E:
    pass
finally:
    pass
`)},
		{"M.java", "package p;\n\nimport a.B;\n\n/** Doc. */\npublic class M<T> extends B {\n" +
			rep(200, "  @Override\n  public int f$1(int a, int b) {\n    return a + b; // }\n  }\n  String s$2 = \"}\";\n") + "}\n\nclass Other { int x; }\n"},
		// A member's doc comment may end the piece before the member's.
		{"Doc.java", "class D {\n" + rep(200, "  /** F $1. */\n  int f$1() { return $2; }\n  /* not a doc */\n  int g$1;\n  record R$1(int a) {}\n") + "}\n"},
		{"Enum.java", "enum E {\n  A(1),\n  B(2);\n" + rep(200, "  int f$1() { return $2; }\n  static final int C$1 = $3;\n") + "}\n"},
		// The container between two other classes: every piece parses them.
		{"Three.java", "class A {\n" + rep(40, "  int a$1() { return $1; }\n") + "}\nclass B {\n" +
			rep(300, "  int b$1() { return $2; }\n") + "}\nclass C {\n" + rep(40, "  int c$1() { return $1; }\n") + "}\n"},
		{"Chain.java", "class M {\n  void m() {\n    int x0 = 0;\n" + rep(300, "    int x$2 = x$1 + 1;\n") + "    use(x300);\n  }\n}\n"},
		{"Switch.java", "class S {\n  int m(int k) {\n    switch (k) {\n" + rep(200, "    case $1:\n      k++;\n      return k;\n") + "    default:\n      return 0;\n    }\n  }\n}\n"},
		{"chain.go", "package m\n\nfunc m() {\n\tx0 := 0\n" + rep(300, "\tx$2 := x$1 + 1\n\tif x$2 > 0 {\n\t} else {\n\t}\n") + "}\n"},
		{"Tricky.java", "class T {\n" + rep(60, `  enum E$1 { A, B,
  C; int v() { return 1; } }
  Object o$2 = new Object() {
    public String toString() { return """
      class X {
      }
      """; }
  }
  ;
  int x$3 = 1,
  y$1 = 2;
  static {
  }
  <U> U g$1(U u) throws
  Exception { return u; }
  /* a
  } comment
  */
`) + "}\n"},
		{"m.go", "package m\n\nimport \"fmt\"\n\n" + rep(200, "func f$1(a, b int) int {\n\treturn a + b\n}\n\nvar v$2 = `\nfunc not() {\n`\n\ntype T$3 struct{}\n")},
		{"m.ts", rep(200, "export function f$1(a: number, b: number): number {\n  return a + b;\n}\nconst s$2 = `\nfunction no() {\n${a}`;\nclass C$3 { m() {} }\n")},
		{"tricky.ts", rep(60, "let a$1 = b\n(c)\nfunction g$2() {}\nx = function () {}\nlet y$3 = 1\ntype T$1 = {\n}\ninterface I$2 {}\n")},
		{"m.js", rep(200, "function f$1(a, b) {\n  return a + b;\n}\nvar r$2 = /a+/;\nlet t$3 = `}\n`;\n")},
		// A regular expression's brace is counted as a bracket: no cut after it.
		{"regex.js", rep(100, "function f$1() {}\nvar r$2 = /[{]/;\n")},
	}
}

// realSources returns a sample of real files of every language, or none
// where the code is absent.
func realSources(t *testing.T) []piecesCase {
	var out []piecesCase
	add := func(paths []string, n int) {
		for _, p := range realcode.Sample(paths, langtest.SampleSize(n, n/4)) {
			if b, err := os.ReadFile(p); err == nil {
				out = append(out, piecesCase{p, string(b)})
			}
		}
	}
	if d := realcode.PythonStdlib(); d != "" {
		add(realcode.Files(d, []string{".py"}, "site-packages"), 80)
	}
	if d := realcode.GoSrc(); d != "" {
		add(realcode.Files(d, []string{".go"}, "testdata"), 80)
	}
	if d := realcode.NPMDir(); d != "" {
		add(realcode.Files(filepath.Join(d, "node_modules"), []string{".ts", ".js"}), 80)
	}
	if z, err := realcode.OpenJDKSources(); err == nil {
		defer z.Close()
		var java []*zip.File
		for _, f := range z.File {
			if strings.HasSuffix(f.Name, ".java") {
				java = append(java, f)
			}
		}
		for _, f := range realcode.Sample(java, langtest.SampleSize(80, 20)) {
			r, err := f.Open()
			if err != nil {
				continue
			}
			b, err := io.ReadAll(r)
			r.Close()
			if err == nil {
				out = append(out, piecesCase{f.Name, string(b)})
			}
		}
	}
	return out
}

// A file parsed in pieces gives the front end's file of the whole parse:
// the same statements, outline and lines, for every front end, on
// sources made to be cut and on real code with pieces of 512 bytes (so
// that every file takes the pieces' path, and real code is cut in many
// places).
func TestPiecesParseAsWhole(t *testing.T) {
	from, size := tsflat.PieceFrom, tsflat.PieceBytes
	defer func() { tsflat.PieceFrom, tsflat.PieceBytes = from, size }()
	cases := generated()
	nGenerated := len(cases)
	cases = append(cases, realSources(t)...)
	ctx := context.Background()
	parse := func(c piecesCase, pieces bool) (*lang.File, error) {
		tsflat.PieceFrom, tsflat.PieceBytes = math.MaxInt, size
		if pieces {
			tsflat.PieceFrom, tsflat.PieceBytes = 0, 512
		}
		l := lang.ForPath(c.path)
		return l.Parse(ctx, c.path, []byte(c.src))
	}
	var joinedAll, wholeAll int64
	for i, c := range cases {
		if lang.ForPath(c.path) == nil {
			continue
		}
		want, wantErr := parse(c, false)
		joined, whole := tsflat.PieceStats()
		got, gotErr := parse(c, true)
		joined2, whole2 := tsflat.PieceStats()
		joinedAll += joined2 - joined
		wholeAll += whole2 - whole
		if whole2 > whole {
			t.Logf("%s: parsed whole after a piece", c.path)
		}
		if (wantErr == nil) != (gotErr == nil) || wantErr != nil && !errors.Is(gotErr, lang.ErrTooLarge) && gotErr.Error() != wantErr.Error() {
			t.Errorf("%s: error %v in pieces, %v whole", c.path, gotErr, wantErr)
			continue
		}
		if wantErr != nil {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: parsed in pieces (%d joined, %d parsed whole) differs from the whole parse:\n%s", c.path,
				joined2-joined, whole2-whole, firstDiff(langtest.Dump(got), langtest.Dump(want)))
		}
		// Every generated source is cut but a regular expression's braces and a
		// switch, whose labels' statements are cut from them (parsed whole).
		if i < nGenerated && !strings.HasPrefix(c.path, "regex") && !strings.HasPrefix(c.path, "Switch") && joined2 == joined {
			t.Errorf("%s: not parsed in pieces (%d parsed whole)", c.path, whole2-whole)
		}
	}
	t.Logf("%d sources (%d generated): %d parsed in pieces, %d tried and parsed whole", len(cases), nGenerated, joinedAll, wholeAll)
}

// firstDiff shows where two dumps part.
func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n  pieces: %s\n  whole:  %s", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d lines", len(al), len(bl))
}

// FuzzPiecesParseAsWhole checks that a source parsed in pieces of 64
// bytes gives the front end's file of its whole parse, for any source in
// any language: the cuts are read from the source alone and may fall
// anywhere, and a piece that does not fit must make the parse whole.
func FuzzPiecesParseAsWhole(f *testing.F) {
	exts := []string{".py", ".java", ".go", ".ts", ".js"}
	for _, c := range generated() {
		src := c.src
		if len(src) > 4096 {
			src = src[:4096]
		}
		for i, e := range exts {
			if strings.HasSuffix(c.path, e) {
				f.Add(uint8(i), src)
			}
		}
	}
	from, size := tsflat.PieceFrom, tsflat.PieceBytes
	defer func() { tsflat.PieceFrom, tsflat.PieceBytes = from, size }()
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, ext uint8, src string) {
		path := "f" + exts[int(ext)%len(exts)]
		l := lang.ForPath(path)
		tsflat.PieceFrom, tsflat.PieceBytes = math.MaxInt, size
		want, wantErr := l.Parse(ctx, path, []byte(src))
		tsflat.PieceFrom, tsflat.PieceBytes = 0, 64
		got, gotErr := l.Parse(ctx, path, []byte(src))
		if (wantErr == nil) != (gotErr == nil) {
			t.Fatalf("error %v in pieces, %v whole", gotErr, wantErr)
		}
		if wantErr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("parsed in pieces differs from the whole parse:\n%s", firstDiff(langtest.Dump(got), langtest.Dump(want)))
		}
	})
}

// A file whose last piece does not parse alone is parsed whole after the
// pieces before it were handed to the front end: what it made of them is
// thrown away, and the file is the whole parse's, for every front end
// that maps the pieces one by one.
func TestPiecesFallBackAfterMapped(t *testing.T) {
	from, size := tsflat.PieceFrom, tsflat.PieceBytes
	defer func() { tsflat.PieceFrom, tsflat.PieceBytes = from, size }()
	rep := func(n int, format string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, format, i)
		}
		return b.String()
	}
	cases := []piecesCase{
		{"late.py", "import os\n\n" + rep(300, "def f%d(a, b):\n    return a + b\n") + "def broken(:\n    pass\n"},
		{"late.go", "package p\n\nimport \"os\"\n\n" + rep(300, "func f%d(a, b int) int {\n\treturn a + b\n}\n") + "func broken( {\n}\n"},
		{"late.ts", "import { a } from 'a';\n\n" + rep(300, "export function f%d(a: number): number {\n  return a + 1;\n}\n") + "function broken( {\n}\n"},
		{"late.js", "import { a } from 'a';\n\n" + rep(300, "export function f%d(a) {\n  return a + 1;\n}\n") + "function broken( {\n}\n"},
		// Java's pieces divide a class body: the walks waiting for the next
		// piece are stopped.
		{"late.java", "import a.B;\n\n/** A. */\nclass A {\n" + rep(300, "  /** F. */\n  int f%d(int a, int b) {\n    return a + b;\n  }\n") + "  void broken() {\n    int x = ;\n  }\n}\n"},
	}
	ctx := context.Background()
	for _, c := range cases {
		l := lang.ForPath(c.path)
		tsflat.PieceFrom, tsflat.PieceBytes = math.MaxInt, size
		want, err := l.Parse(ctx, c.path, []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if want.Errors == 0 || len(want.Symbols) == 0 {
			t.Fatalf("%s: %d errors, %d symbols: the source is not what the test needs", c.path, want.Errors, len(want.Symbols))
		}
		tsflat.PieceFrom, tsflat.PieceBytes = 0, 512
		_, whole := tsflat.PieceStats()
		got, err := l.Parse(ctx, c.path, []byte(c.src))
		if err != nil {
			t.Fatalf("%s: %v in pieces", c.path, err)
		}
		if _, whole2 := tsflat.PieceStats(); whole2 == whole {
			t.Errorf("%s: the last piece did not make the parse whole", c.path)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: parsed whole after the pieces differs from the whole parse:\n%s", c.path, firstDiff(langtest.Dump(got), langtest.Dump(want)))
		}
	}
}
