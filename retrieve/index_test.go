package retrieve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/sed"
	"github.com/graphcoder/graphcoder/slice"
)

// wordTokenizer splits on white space; enough for hand-made indexes.
type wordTokenizer struct{}

func (wordTokenizer) Name() string { return "words" }
func (wordTokenizer) Split(dst []string, text string) []string {
	return append(dst, strings.Fields(text)...)
}

// vocabID returns the id of word w in f.Vocab, adding it when it is new;
// local maps the words of f.Vocab to their ids.
func vocabID(f *File, local map[string]uint32, w string) uint32 {
	id, ok := local[w]
	if !ok {
		id = uint32(len(f.Vocab))
		local[w] = id
		f.Vocab = append(f.Vocab, w)
	}
	return id
}

// randomFile makes a file of n statements, one per line, with tokens drawn
// from a shared alphabet, and one entry per statement whose slice is the
// few statements before it (a CF chain into the target).
func randomFile(r *rand.Rand, path string, n, alphabet int) *File {
	f := &File{Path: path, Language: "python"}
	local := map[string]uint32{}
	for i := 0; i < n; i++ {
		var words []string
		var ids []uint32
		for j := 0; j < 1+r.IntN(5); j++ {
			w := fmt.Sprintf("t%d", r.IntN(1+r.IntN(alphabet))) // skewed, like code
			words = append(words, w)
			ids = append(ids, vocabID(f, local, w))
		}
		f.Lines = append(f.Lines, strings.Join(words, " "))
		slices.Sort(ids)
		f.Stmts = append(f.Stmts, Stmt{StartRow: i, EndRow: i, Tokens: slices.Compact(ids)})
	}
	f.Entries = chainEntries(r, n)
	return f
}

// chainEntries returns an entry per statement of n, each a chain of CF
// edges from up to 3 statements before it.
func chainEntries(r *rand.Rand, n int) []Entry {
	var out []Entry
	for i := 0; i < n; i++ {
		lo := max(0, i-r.IntN(4))
		e := Entry{Target: uint32(i)}
		for j := lo; j <= i; j++ {
			e.Nodes = append(e.Nodes, uint32(j))
			e.Hop = append(e.Hop, uint8(i-j))
			if j > lo {
				e.Edges = append(e.Edges, slice.Edge{From: uint16(j - lo - 1), To: uint16(j - lo), Type: ccg.CF})
			}
		}
		out = append(out, e)
	}
	return out
}

func randomIndex(t testing.TB, r *rand.Rand, files, stmts, alphabet int) *Index {
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	// Vary the tokens given a mask bit, so that both the masks and the
	// postings hold tokens (0: postings only; 128: mostly masks).
	b.maskBits = []int{0, 1, 5, 20, 64, 128}[r.IntN(6)]
	var added []*File
	for i := 0; i < files; i++ {
		added = append(added, randomFile(r, fmt.Sprintf("f%d.py", len(added)), stmts, alphabet))
		if err := b.Add(added[len(added)-1]); err != nil {
			t.Fatal(err)
		}
		added = addCopy(t, r, b, added)
	}
	return b.Index()
}

// addCopy adds to b, one time in three, a copy of one of the files added
// so far under the next path, and returns them with it: its entries share
// their keys with the original's (dups.go), or, one time in four, it is
// of another language, whose entries do not.
func addCopy(t testing.TB, r *rand.Rand, b *Builder, added []*File) []*File {
	if r.IntN(3) != 0 {
		return added
	}
	g := *added[r.IntN(len(added))]
	g.Path = fmt.Sprintf("f%d.py", len(added))
	if r.IntN(4) == 0 {
		g.Language = "java"
	}
	if err := b.Add(&g); err != nil {
		t.Fatal(err)
	}
	return append(added, &g)
}

func randomQuery(r *rand.Rand, ix *Index, alphabet int) *Query {
	q := &Query{Path: fmt.Sprintf("f%d.py", r.IntN(ix.Files())), Line: 1 + r.IntN(40)}
	n := r.IntN(12)
	for i := 0; i < n; i++ {
		if id, ok := ix.vocab.Lookup(fmt.Sprintf("t%d", r.IntN(alphabet+5))); ok {
			q.Key = append(q.Key, id)
		} else {
			q.Key = append(q.Key, uint32(ix.vocab.Len()+i)) // unseen token
		}
	}
	q.Key = sortedSet(q.Key)
	q.Graph = sed.Graph{Target: 1, Tokens: [][]uint32{q.Key, nil}, Hop: []uint8{1, 0},
		Edges: []slice.Edge{{From: 0, To: 1, Type: ccg.CF}}}
	return q
}

// bruteForce is the definition: Jaccard against every entry, positive
// scores only, leak rule, best k by (score desc, entry asc).
func bruteForce(ix *Index, q *Query, k int) []Candidate {
	var all []Candidate
	var v entryView
	for e := range ix.Len() {
		s := sed.Jaccard(q.Key, ix.key(e, nil))
		if s == 0 || ix.leaks(q, uint32(e), &v) {
			continue
		}
		all = append(all, ix.candidate(uint32(e), s))
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Coarse != all[j].Coarse {
			return all[i].Coarse > all[j].Coarse
		}
		return all[i].Entry < all[j].Entry
	})
	return all[:min(k, len(all))]
}

func TestCoarseEqualsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 30; trial++ {
		alphabet := 5 + r.IntN(60)
		ix := randomIndex(t, r, 1+r.IntN(6), 1+r.IntN(60), alphabet)
		for qi := 0; qi < 20; qi++ {
			q := randomQuery(r, ix, alphabet)
			k := 1 + r.IntN(15)
			got, st, err := ix.Search(context.Background(), q, Options{Mode: Coarse, TopK: k})
			if err != nil {
				t.Fatal(err)
			}
			want := bruteForce(ix, q, k)
			if len(got) != len(want) {
				t.Fatalf("trial %d query %d: %d candidates, brute force %d", trial, qi, len(got), len(want))
			}
			for i := range got {
				if got[i].Entry != want[i].Entry || got[i].Coarse != want[i].Coarse || got[i].Score != got[i].Coarse {
					t.Fatalf("trial %d query %d rank %d: got entry %d (%v), want %d (%v)",
						trial, qi, i, got[i].Entry, got[i].Coarse, want[i].Entry, want[i].Coarse)
				}
			}
			if st.Entries != ix.Len() {
				t.Fatalf("stats entries %d, want %d", st.Entries, ix.Len())
			}
		}
	}
}

// Fine over every entry and coarse2fine with k covering every entry that
// shares a token agree on the scored entries; results are sorted by SED
// then coarse score.
func TestFineModes(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	ix := randomIndex(t, r, 4, 50, 20)
	for qi := 0; qi < 20; qi++ {
		q := randomQuery(r, ix, 20)
		q.Path = ""
		c2f, st, err := ix.Search(context.Background(), q, Options{TopK: ix.Len()})
		if err != nil {
			t.Fatal(err)
		}
		if st.Candidates != st.Scanned {
			t.Fatalf("coarse2fine scored %d, scanned %d", st.Candidates, st.Scanned)
		}
		fine, _, err := ix.Search(context.Background(), q, Options{Mode: Fine, TopK: ix.Len()})
		if err != nil {
			t.Fatal(err)
		}
		if len(fine) != ix.Len() {
			t.Fatalf("fine returned %d of %d entries", len(fine), ix.Len())
		}
		sedOf := map[int]float64{}
		for _, c := range fine {
			sedOf[c.Entry] = c.SED
		}
		for i, c := range c2f {
			if c.SED != sedOf[c.Entry] {
				t.Fatalf("entry %d: SED %v under coarse2fine, %v under fine", c.Entry, c.SED, sedOf[c.Entry])
			}
			if i > 0 && less(&c, &c2f[i-1]) {
				t.Fatalf("rank %d out of order", i)
			}
			if c.Alignment == nil || c.Score != 1/(1+c.SED) {
				t.Fatalf("rank %d: alignment %v score %v", i, c.Alignment, c.Score)
			}
		}
	}
}

func TestCancelAndBudget(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	ix := randomIndex(t, r, 20, 200, 30)
	q := randomQuery(r, ix, 30)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := ix.Search(ctx, q, Options{}); err == nil {
		t.Fatal("cancelled search returned no error")
	}
	got, st, err := ix.Search(context.Background(), q, Options{Mode: Fine, Budget: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if !st.Partial {
		t.Fatal("a 1ns budget did not give a partial result")
	}
	if len(got) != 10 {
		t.Fatalf("partial result has %d candidates, want 10", len(got))
	}
}

// The leak rule: entries of the query's own file whose value window (10
// lines after the statement) or slice reaches the target row are never
// returned; other files are unaffected.
func TestLeakRule(t *testing.T) {
	lines := make([]string, 40)
	for i := range lines {
		lines[i] = "x = y"
	}
	mk := func(path string) *File {
		f := &File{Path: path, Lines: lines, Vocab: []string{"x", "=", "y"}}
		for i := range lines {
			f.Stmts = append(f.Stmts, Stmt{StartRow: i, EndRow: i, Tokens: []uint32{0, 1, 2}})
			// The slice of statement i is i-1 -> i, except that statement
			// 5's slice also holds statement 30 (a loop back edge).
			e := Entry{Target: uint32(i), Nodes: []uint32{uint32(i)}, Hop: []uint8{0}}
			if i > 0 {
				e = Entry{Target: uint32(i), Nodes: []uint32{uint32(i - 1), uint32(i)}, Hop: []uint8{1, 0},
					Edges: []slice.Edge{{From: 0, To: 1, Type: ccg.CF}}}
			}
			if i == 5 {
				e = Entry{Target: 5, Nodes: []uint32{4, 5, 30}, Hop: []uint8{1, 0, 1}}
			}
			f.Entries = append(f.Entries, e)
		}
		return f
	}
	b := NewBuilder(wordTokenizer{}, Params{})
	for _, p := range []string{"a.py", "b.py"} {
		if err := b.Add(mk(p)); err != nil {
			t.Fatal(err)
		}
	}
	ix := b.Index()
	// Cursor on line 26 (row 25): in a.py, statements at rows >= 15 reach
	// row 25 with their value, and statement 5 with its key.
	q := &Query{Path: "a.py", Line: 26, Key: []uint32{0, 1, 2}}
	got, st, err := ix.Search(context.Background(), q, Options{Mode: Coarse, TopK: 100})
	if err != nil {
		t.Fatal(err)
	}
	var fromA []int
	for _, c := range got {
		if c.Path == "a.py" {
			fromA = append(fromA, c.TargetLine-1)
		}
	}
	// Statement 0's key is empty (its slice is itself): it shares no token.
	var want []int
	for row := 1; row < 15; row++ {
		if row != 5 {
			want = append(want, row)
		}
	}
	slices.Sort(fromA)
	if !slices.Equal(fromA, want) {
		t.Fatalf("rows kept from a.py = %v, want %v", fromA, want)
	}
	if n := len(got) - len(fromA); n != 39 {
		t.Fatalf("%d candidates from b.py, want all 39 with a key", n)
	}
	if st.Leaked != 26 {
		t.Fatalf("leaked = %d, want 26", st.Leaked)
	}
}

func TestAddRejectsBadRecords(t *testing.T) {
	bad := []*File{
		{Path: "a", Lines: []string{"x"}, Stmts: []Stmt{{Tokens: []uint32{3}}}},
		{Path: "b", Lines: []string{"x"}, Stmts: []Stmt{{StartRow: 0, EndRow: 4}}},
		{Path: "c", Lines: []string{"x"}, Stmts: []Stmt{{}}, Entries: []Entry{{Target: 2}}},
		{Path: "d", Lines: []string{"x"}, Stmts: []Stmt{{}}, Entries: []Entry{{Target: 0, Nodes: []uint32{0}}}},
		{Path: "e", Lines: []string{"x"}, Stmts: []Stmt{{}}, Entries: []Entry{{Target: 0, Nodes: []uint32{0}, Hop: []uint8{0},
			Edges: []slice.Edge{{From: 0, To: 3}}}}},
	}
	for _, f := range bad {
		b := NewBuilder(wordTokenizer{}, Params{})
		if err := b.Add(f); err == nil {
			t.Errorf("file %s: no error", f.Path)
		}
	}
}
