package retrieve

import (
	"slices"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/slice"
)

// A query's token ids: a word the index knows has its vocabulary id in
// every statement it occurs in; words it has never seen get ids past the
// vocabulary, numbered in the order they first occur, one id per word
// however often it recurs; each statement's set is sorted and without
// duplicates, and the key is their union.
func TestNewQueryTokenIDs(t *testing.T) {
	f := &File{Path: "lib/a.py", Lines: []string{"x = open ( path )"}, Vocab: []string{"x", "=", "open", "(", "path", ")"}}
	f.Stmts = []Stmt{{StartRow: 0, EndRow: 0, Tokens: []uint32{0, 1, 2, 3, 4, 5}}}
	f.Entries = []Entry{{Target: 0, Nodes: []uint32{0}, Hop: []uint8{0}}}
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	if err := b.Add(f); err != nil {
		t.Fatal(err)
	}
	ix := b.Index()
	id := func(w string) uint32 {
		v, ok := ix.vocab.Lookup(w)
		if !ok {
			t.Fatalf("%q not in the vocabulary", w)
		}
		return v
	}
	n := uint32(ix.vocab.Len())
	g := &ccg.Graph{
		Path:  "app/main.py",
		Lines: []string{"zeta = open ( path ) zeta", "y = beta ( zeta )", "path = beta ( x ) alpha"},
		Nodes: []ccg.Node{{StartRow: 0, EndRow: 0}, {StartRow: 1, EndRow: 1}, {StartRow: 2, EndRow: 2}, {StartRow: -1, EndRow: -1, Dummy: true}},
	}
	s := &slice.Slice{Target: 3, Nodes: []int32{0, 1, 2, 3}, Hop: []uint8{3, 2, 1, 0}}
	q := ix.NewQuery(g, s, g.Path, 4)
	// Unseen words in order of first occurrence: zeta, y, beta, alpha.
	zeta, y, beta, alpha := n, n+1, n+2, n+3
	want := [][]uint32{
		sortedSet([]uint32{zeta, id("="), id("open"), id("("), id("path"), id(")")}),
		sortedSet([]uint32{y, id("="), beta, id("("), zeta, id(")")}),
		sortedSet([]uint32{id("path"), id("="), beta, id("("), id("x"), id(")"), alpha}),
		nil,
	}
	for i := range want {
		if !slices.Equal(q.Graph.Tokens[i], want[i]) {
			t.Errorf("statement %d: tokens %v, want %v", i, q.Graph.Tokens[i], want[i])
		}
	}
	if key := sortedSet(slices.Concat(want...)); !slices.Equal(q.Key, key) {
		t.Errorf("key %v, want %v", q.Key, key)
	}
}
