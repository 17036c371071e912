package java

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
)

// A completion request parses the lines before its cursor twice (package
// engine): as they are, for the query, and with their open brackets
// closed (ccg.Closers), for the buffer's outline; and where the indexed
// outline cannot stand for the code after the cursor, a third time, the
// whole buffer with the cursor's row blank. The three sources share the
// lines before the cursor, and a cut deep in a long method (a resource
// bundle's one array initialiser) makes each a whole tree-sitter parse of
// up to 200 KB. Tree-sitter can parse one of them again from another's
// tree (an edit at the end of the shared lines, ts_tree_edit, then an
// incremental parse), reusing the subtrees before the edit. These tests
// measure what that would save and check the property such a reuse rests
// on: the incremental tree is the fresh parse's, node for node.

// cutCase is a source cut before a row: the lines above it (head), those
// lines with their brackets closed (closed), and the whole source with the
// cut row blank (after).
type cutCase struct {
	name                string
	head, closed, after []byte
}

// cutCases returns up to n cuts of the java.base files of at least 16 KiB
// (the sizes the engine parses ahead), one seeded row per file, each with
// brackets open at the cut.
func cutCases(tb testing.TB, n int) []cutCase {
	files := javaBase(tb)
	r := rand.New(rand.NewPCG(13, 8))
	var out []cutCase
	for _, i := range r.Perm(len(files)) {
		f := files[i]
		if len(f.src) < 16<<10 || strings.ContainsRune(string(f.src), '\r') {
			continue
		}
		lines := lang.SplitLines(string(f.src))
		row := 1 + r.IntN(len(lines)-1)
		closers := ccg.Closers(lines[:row], "java")
		if closers == "" {
			continue
		}
		var head strings.Builder
		for _, l := range lines[:row] {
			head.WriteString(l)
			head.WriteByte('\n')
		}
		after := head.String() + "\n" + strings.Join(lines[row+1:], "\n")
		out = append(out, cutCase{fmt.Sprintf("%s:%d", f.path, row+1), []byte(head.String()), []byte(head.String() + closers), []byte(after)})
		if len(out) == n {
			break
		}
	}
	return out
}

// endPoint is the point just past the end of src.
func endPoint(src []byte) sitter.Point {
	s := string(src)
	nl := strings.LastIndexByte(s, '\n')
	return sitter.Point{Row: uint32(strings.Count(s, "\n")), Column: uint32(len(s) - nl - 1)}
}

// reparse parses to from the tree of a fresh parse of from, the two
// sharing the bytes of the shorter: the end of from is replaced by the
// end of to (a deletion or an insertion at the end of the shared bytes).
func reparse(ts *sitter.Parser, old *sitter.Tree, from, to []byte) (*sitter.Tree, error) {
	shared := min(len(from), len(to))
	start := endPoint(from[:shared])
	old.Edit(sitter.EditInput{
		StartIndex: uint32(shared), OldEndIndex: uint32(len(from)), NewEndIndex: uint32(len(to)),
		StartPoint: start, OldEndPoint: endPoint(from), NewEndPoint: endPoint(to),
	})
	return ts.ParseCtx(context.Background(), old, to)
}

// treeText writes every node of n with its type, byte range and whether
// it is a MISSING or an ERROR node: two trees with the same text are the
// same tree to the front end.
func treeText(n *sitter.Node, sb *strings.Builder) {
	fmt.Fprintf(sb, "(%s %d %d %t %t", n.Type(), n.StartByte(), n.EndByte(), n.IsMissing(), n.IsError())
	for i := 0; i < int(n.ChildCount()); i++ {
		treeText(n.Child(i), sb)
	}
	sb.WriteByte(')')
}

func text(t *sitter.Tree) string {
	var sb strings.Builder
	treeText(t.RootNode(), &sb)
	return sb.String()
}

// reuses are the three reparses measured: from the closed lines to the
// lines, from the lines to the closed lines, from the lines to the whole
// source with the cut row blank.
var reuses = []struct {
	name     string
	from, to func(c cutCase) []byte
}{
	{"closed-to-head", func(c cutCase) []byte { return c.closed }, func(c cutCase) []byte { return c.head }},
	{"head-to-closed", func(c cutCase) []byte { return c.head }, func(c cutCase) []byte { return c.closed }},
	{"head-to-after", func(c cutCase) []byte { return c.head }, func(c cutCase) []byte { return c.after }},
}

// TestReparseAfterCut checks, at seeded cuts of java.base files, that the
// incremental parse of each source from another's tree is the tree a
// fresh parse of it gives. It fails when the edit does not describe the
// change (e.g. an edit that leaves the old tree's end where it was).
func TestReparseAfterCut(t *testing.T) {
	n := 80
	if testing.Short() {
		n = 20
	}
	cases := cutCases(t, n)
	if len(cases) < n/2 {
		t.Fatalf("%d cuts, want at least %d", len(cases), n/2)
	}
	ts := sitter.NewParser()
	ts.SetLanguage(language)
	for _, c := range cases {
		for _, u := range reuses {
			from, to := u.from(c), u.to(c)
			old, err := ts.ParseCtx(context.Background(), nil, from)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := ts.ParseCtx(context.Background(), nil, to)
			if err != nil {
				t.Fatal(err)
			}
			inc, err := reparse(ts, old, from, to)
			if err != nil {
				t.Fatal(err)
			}
			if text(inc) != text(fresh) {
				t.Errorf("%s, %s: the incremental tree is not the fresh parse's", c.name, u.name)
			}
			old.Close()
			fresh.Close()
			inc.Close()
		}
	}
	t.Logf("%d cuts, 3 reparses each", len(cases))
}
