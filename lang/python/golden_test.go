package python

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

// update is the -update flag of the golden tests, shared with the other
// front ends' test helpers.
var update = langtest.Update

// dump renders a statement tree, one statement per line: role, kind, grammar
// type, 1-based rows, label, defs and uses, with nested statements indented.
func dump(f *lang.File) string {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "errors: %d\n", f.Errors)
	for _, s := range f.Stmts {
		dumpStmt(&buf, s, "", 0)
	}
	return buf.String()
}

func dumpStmt(buf *bytes.Buffer, s *lang.Stmt, role string, depth int) {
	indent := strings.Repeat("  ", depth)
	rows := fmt.Sprintf("%d", s.StartRow+1)
	if s.EndRow != s.StartRow {
		rows = fmt.Sprintf("%d-%d", s.StartRow+1, s.EndRow+1)
	}
	fmt.Fprintf(buf, "%s%s%s %s L%s", indent, role, s.Kind, s.Type(), rows)
	if s.Label() != "" {
		fmt.Fprintf(buf, " label=%s", s.Label())
	}
	if s.Exhaustive() {
		buf.WriteString(" exhaustive")
	}
	if s.InlineBody {
		buf.WriteString(" inline")
	}
	if len(s.Defs()) > 0 {
		fmt.Fprintf(buf, " defs=%s", strings.Join(s.Defs(), ","))
	}
	if len(s.Params()) > 0 {
		fmt.Fprintf(buf, " params=%s", strings.Join(s.Params(), ","))
	}
	if len(s.Uses()) > 0 {
		fmt.Fprintf(buf, " uses=%s", strings.Join(s.Uses(), ","))
	}
	buf.WriteByte('\n')
	for _, in := range s.Inner() {
		for _, c := range in {
			dumpStmt(buf, c, "inner: ", depth+1)
		}
	}
	for _, c := range s.Body {
		dumpStmt(buf, c, "", depth+1)
	}
	if s.Cond() != nil {
		dumpStmt(buf, s.Cond(), "cond: ", depth)
	}
	for _, c := range s.Cases() {
		dumpStmt(buf, c, "", depth+1)
	}
	for _, c := range s.Handlers() {
		dumpStmt(buf, c, "", depth)
	}
	if s.Else() != nil {
		dumpStmt(buf, s.Else(), "else: ", depth)
	}
	if s.Finally() != nil {
		dumpStmt(buf, s.Finally(), "", depth)
	}
}

func parseFile(t testing.TB, path string, src []byte) *lang.File {
	t.Helper()
	f, err := NewParser().Parse(context.Background(), path, src)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	return f
}

func TestGolden(t *testing.T) {
	fixtures, err := filepath.Glob("testdata/*.py")
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, fixture := range fixtures {
		name := strings.TrimSuffix(filepath.Base(fixture), ".py")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(fixture)
			if err != nil {
				t.Fatal(err)
			}
			f := parseFile(t, fixture, src)
			checkInvariants(t, f)
			got := dump(f)
			golden := strings.TrimSuffix(fixture, ".py") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("statement tree of %s differs from %s:\n%s", fixture, golden, lineDiff(string(want), got))
			}
		})
	}
}

// lineDiff lists the lines that differ between want and got.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var buf strings.Builder
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			fmt.Fprintf(&buf, "line %d:\n- %s\n+ %s\n", i+1, a, b)
		}
	}
	return buf.String()
}

// checkInvariants asserts the row rules every statement tree obeys:
// rows lie inside the file, StartRow <= EndRow, and in lang.Walk order
// (a header, then its body, then its else/handler/finally clauses) each
// statement starts on or after the row where the previous one ends. Two
// statements therefore share at most a boundary row: a header and the
// start of its body on one line (`if x: y()`), or simple statements
// separated by ';'.
func checkInvariants(t testing.TB, f *lang.File) {
	t.Helper()
	prevEnd := 0
	var prev *lang.Stmt
	lang.Walk(f.Stmts, func(s *lang.Stmt) {
		if s.StartRow < 0 || s.EndRow >= len(f.Lines) || s.StartRow > s.EndRow {
			t.Errorf("%s: %s %s has rows %d-%d outside 0..%d", f.Path, s.Kind, s.Type(), s.StartRow, s.EndRow, len(f.Lines)-1)
		}
		if s.StartRow < prevEnd {
			t.Errorf("%s: %s %s at rows %d-%d starts before the end of the previous statement %s %s at rows %d-%d",
				f.Path, s.Kind, s.Type(), s.StartRow+1, s.EndRow+1, prev.Kind, prev.Type(), prev.StartRow+1, prev.EndRow+1)
		}
		prevEnd, prev = s.EndRow, s
		for _, list := range [][]string{s.Defs(), s.Uses(), s.Params()} {
			for j := 1; j < len(list); j++ {
				if list[j-1] >= list[j] {
					t.Errorf("%s: %s at row %d: names not sorted and unique: %q", f.Path, s.Type(), s.StartRow+1, list)
				}
			}
		}
	})
}
