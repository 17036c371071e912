package retrieve

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/slice"
)

func TestRename(t *testing.T) {
	m := map[string]string{"fh": "f", "self.buf": "self.data", "n": "count"}
	tests := []struct{ in, want string }{
		{"data = fh.read()", "data = f.read()"},
		{"fh", "f"},
		{"x.fh = fh", "x.fh = f"},                         // attributes stay
		{"print('fh', fh)", "print('fh', f)"},             // strings stay
		{`s = "a \"fh\" b" + fh`, `s = "a \"fh\" b" + f`}, // escapes
		{"self.buf.append(n1 + n)", "self.data.append(n1 + count)"},
		{"self.bufx = 1", "self.bufx = 1"},
		{"fh2 = fh_", "fh2 = fh_"},
		{"café = fh", "café = f"},         // identifiers in any script
		{"x→fh", "x→f"},                   // a symbol is no identifier character
		{"s = `fh` + fh", "s = `fh` + f"}, // backquoted literals stay
		{`"""fh""" + fh`, `"""fh""" + f`}, // triple quotes
		{"n2fh = 1fh", "n2fh = 1fh"},      // a number does not start a name
	}
	for _, tt := range tests {
		if got := Rename(tt.in, m); got != tt.want {
			t.Errorf("Rename(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// Renaming through the alignment turns a retrieved line into one that
// fits the query's names: the candidate opens its file as fh, the query
// as f, so the candidate's next line fh.read() is predicted as f.read().
func TestPredictRenames(t *testing.T) {
	cand := &File{
		Path:  "lib/load.py",
		Lines: []string{"def load(path):", "    fh = open(path)", "    data = fh.read()"},
	}
	vocab := map[string]uint32{}
	tokens := func(line string) []uint32 {
		var ids []uint32
		for _, w := range strings.Fields(line) {
			ids = append(ids, vocabID(cand, vocab, w))
		}
		return sortedSet(ids)
	}
	defs := [][]string{{"load", "path"}, {"fh"}, {"data"}}
	for i, l := range cand.Lines {
		cand.Stmts = append(cand.Stmts, Stmt{StartRow: i, EndRow: i, Tokens: tokens(l), Defs: defs[i]})
	}
	cand.Entries = []Entry{{Target: 2, Nodes: []uint32{1, 2}, Hop: []uint8{1, 0},
		Edges: []slice.Edge{{From: 0, To: 1, Type: ccg.CF}, {From: 0, To: 1, Type: ccg.DD}}}}
	index := func(f *File) *Index {
		b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		if err := b.Add(f); err != nil {
			t.Fatal(err)
		}
		return b.Index()
	}
	ix := index(cand)

	// The query: lines before the cursor, its last statement, the dummy.
	g := &ccg.Graph{
		Path:  "app/main.py",
		Lines: []string{"def main(path):", "    f = open(path)"},
	}
	g.AddNode(ccg.Node{StartRow: 0, EndRow: 0}, []string{"main", "path"}, nil, nil)
	g.AddNode(ccg.Node{StartRow: 1, EndRow: 1}, []string{"f"}, []string{"open", "path"}, nil)
	g.AddNode(ccg.Node{StartRow: -1, EndRow: -1, Dummy: true}, nil, nil, nil)
	s := &slice.Slice{Target: 1, Nodes: []int32{1, 2}, Hop: []uint8{1, 0},
		Edges: []slice.Edge{{From: 0, To: 1, Type: ccg.CF}}}
	q := ix.NewQuery(g, s, g.Path, 3)
	got, _, err := ix.Search(context.Background(), q, Options{})
	if err != nil || len(got) != 1 {
		t.Fatalf("search: %v, %d candidates", err, len(got))
	}
	if p := ix.Predict(q, &got[0]); p != "    data = f.read()" {
		t.Errorf("prediction %q, want %q", p, "    data = f.read()")
	}
	// Without definitions nothing is renamed.
	bare := *cand
	bare.Stmts = slices.Clone(cand.Stmts)
	for i := range bare.Stmts {
		bare.Stmts[i].Defs = nil
	}
	if p := index(&bare).Predict(q, &got[0]); p != "    data = fh.read()" {
		t.Errorf("prediction without defs %q", p)
	}
	// Indentation follows the query: a tab-indented query.
	g.Lines[1] = "\tf = open(path)"
	q = ix.NewQuery(g, s, g.Path, 3)
	if p := ix.Predict(q, &got[0]); p != "\tdata = f.read()" {
		t.Errorf("prediction %q, want tab indentation", p)
	}
}

// Parameters rename like definitions: the candidate's function takes fh,
// the query's f, so the candidate's fh.read() is predicted as f.read().
func TestPredictRenamesParams(t *testing.T) {
	cand := &File{Path: "lib/load.py", Lines: []string{"def load(fh):", "    data = fh.read()"}}
	vocab := map[string]uint32{}
	for i, l := range cand.Lines {
		var ids []uint32
		for _, w := range strings.Fields(l) {
			ids = append(ids, vocabID(cand, vocab, w))
		}
		cand.Stmts = append(cand.Stmts, Stmt{StartRow: i, EndRow: i, Tokens: sortedSet(ids)})
	}
	cand.Stmts[0].Defs, cand.Stmts[0].Params = []string{"load"}, []string{"fh"}
	cand.Stmts[1].Defs = []string{"data"}
	cand.Entries = []Entry{{Target: 1, Nodes: []uint32{0, 1}, Hop: []uint8{1, 0},
		Edges: []slice.Edge{{From: 0, To: 1, Type: ccg.CF}, {From: 0, To: 1, Type: ccg.CD}}}}
	index := func(f *File) *Index {
		b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		if err := b.Add(f); err != nil {
			t.Fatal(err)
		}
		return b.Index()
	}
	ix := index(cand)
	g := &ccg.Graph{
		Path:  "app/main.py",
		Lines: []string{"def load(f):"},
	}
	g.AddNode(ccg.Node{StartRow: 0, EndRow: 0}, []string{"load"}, nil, []string{"f"})
	g.AddNode(ccg.Node{StartRow: -1, EndRow: -1, Dummy: true}, nil, nil, nil)
	s := &slice.Slice{Target: 1, Nodes: []int32{0, 1}, Hop: []uint8{1, 0},
		Edges: []slice.Edge{{From: 0, To: 1, Type: ccg.CF}}}
	q := ix.NewQuery(g, s, g.Path, 2)
	got, _, err := ix.Search(context.Background(), q, Options{})
	if err != nil || len(got) != 1 {
		t.Fatalf("search: %v, %d candidates", err, len(got))
	}
	if p := ix.Predict(q, &got[0]); p != "    data = f.read()" {
		t.Errorf("prediction %q, want %q", p, "    data = f.read()")
	}
	// Without the parameters nothing is renamed.
	bare := *cand
	bare.Stmts = slices.Clone(cand.Stmts)
	bare.Stmts[0].Params = nil
	if p := index(&bare).Predict(q, &got[0]); p != "    data = fh.read()" {
		t.Errorf("prediction without params %q", p)
	}
}

// TestVote: the prediction of most rank weight wins; ties go to the
// better candidate.
func TestVote(t *testing.T) {
	lines := []string{"a = 1", "x = 1", "a = 1", "y = 2", "a = 1", "  y = 2  "}
	b := NewBuilder(wordTokenizer{}, Params{})
	if err := b.Add(chainFile("a.py", lines, func(i int) int { return max(0, i-1) })); err != nil {
		t.Fatal(err)
	}
	s := &Snapshot{base: b.Index()}
	q := snapshotQueryWords(s, "a", "=", "1")
	cands := []Candidate{s.candidate(1, 1), s.candidate(3, 1), s.candidate(5, 1)}
	for _, tc := range []struct {
		n    int
		k    float64
		want string
	}{
		{1, 0, "x = 1"},
		{3, 0, "x = 1"}, // 1 against 1/2 + 1/3
		{3, 2, "y = 2"}, // 1/3 against 1/4 + 1/5
		{2, 0, "x = 1"},
		{2, 1e9, "x = 1"}, // nearly equal weights: still the better candidate
		{9, 2, "y = 2"},
	} {
		if got := s.Vote(q, cands, tc.n, tc.k); got != tc.want {
			t.Errorf("Vote(n=%d, k=%v) = %q, want %q", tc.n, tc.k, got, tc.want)
		}
	}
	if got := s.Vote(q, nil, 3, 0); got != "" {
		t.Errorf("no candidates: %q", got)
	}
}
