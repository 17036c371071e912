package retrieve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/sed"
	"github.com/graphcoder/graphcoder/slice"
)

// randomSnapshot builds a base of random files, then a delta replacing
// some of them, adding new ones, and a list of deleted ones.
func randomSnapshot(t testing.TB, r *rand.Rand, alphabet int) (*Snapshot, int) {
	nFiles := 1 + r.IntN(6)
	stmts := 1 + r.IntN(50)
	base := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	delta := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	base.maskBits = []int{0, 5, 64, 128}[r.IntN(4)]
	delta.maskBits = []int{0, 5, 64, 128}[r.IntN(4)]
	var deleted []string
	var added []*File
	for range nFiles {
		added = append(added, randomFile(r, fmt.Sprintf("f%d.py", len(added)), stmts, alphabet))
		if err := base.Add(added[len(added)-1]); err != nil {
			t.Fatal(err)
		}
		added = addCopy(t, r, base, added) // a masked original may leave a live copy
	}
	for _, f := range added {
		path := f.Path
		switch r.IntN(4) {
		case 0: // changed
			if err := delta.Add(randomFile(r, path, 1+r.IntN(50), alphabet)); err != nil {
				t.Fatal(err)
			}
		case 1:
			deleted = append(deleted, path)
		}
	}
	for i := range r.IntN(3) { // new files, and maybe a copy
		f := randomFile(r, fmt.Sprintf("new%d.py", i), 1+r.IntN(50), alphabet)
		if err := delta.Add(f); err != nil {
			t.Fatal(err)
		}
		if r.IntN(3) == 0 {
			g := *f
			g.Path = fmt.Sprintf("new%d-copy.py", i)
			if err := delta.Add(&g); err != nil {
				t.Fatal(err)
			}
		}
	}
	s, err := NewSnapshot(base.Index(), delta.Index(), deleted)
	if err != nil {
		t.Fatal(err)
	}
	return s, len(added) + 2
}

// snapshotQuery draws a query's tokens as words and maps them into each
// part's ids.
func snapshotQuery(r *rand.Rand, s *Snapshot, files, alphabet int) *Query {
	var words []string
	for range r.IntN(12) {
		words = append(words, fmt.Sprintf("t%d", r.IntN(alphabet+5)))
	}
	path := fmt.Sprintf("f%d.py", r.IntN(files))
	if r.IntN(4) == 0 {
		path = "new0.py"
	}
	line := 1 + r.IntN(40)
	mk := func(ix *Index) *Query {
		q := &Query{Path: path, Line: line}
		for i, w := range words {
			if id, ok := ix.vocab.Lookup(w); ok {
				q.Key = append(q.Key, id)
			} else {
				q.Key = append(q.Key, uint32(ix.vocab.Len()+i))
			}
		}
		q.Key = sortedSet(q.Key)
		q.Graph = sed.Graph{Target: 1, Tokens: [][]uint32{q.Key, nil}, Hop: []uint8{1, 0},
			Edges: []slice.Edge{{From: 0, To: 1, Type: ccg.CF}}}
		return q
	}
	q := mk(s.base)
	if s.delta != nil {
		q.delta = mk(s.delta)
	}
	return q
}

// bruteForceSnapshot is the definition over the live entries of both
// parts, with the snapshot's entry ids.
func bruteForceSnapshot(s *Snapshot, q *Query, k int) []Candidate {
	var all []Candidate
	var v entryView
	for e := range s.base.Len() {
		if s.dead != nil && s.dead[s.base.fileOf(uint32(e))] {
			continue
		}
		sim := sed.Jaccard(q.Key, s.base.key(e, nil))
		if sim == 0 || s.base.leaks(q, uint32(e), &v) {
			continue
		}
		all = append(all, s.base.candidate(uint32(e), sim))
	}
	if s.delta != nil {
		for e := range s.delta.Len() {
			sim := sed.Jaccard(q.delta.Key, s.delta.key(e, nil))
			if sim == 0 || s.delta.leaks(q.delta, uint32(e), &v) {
				continue
			}
			c := s.delta.candidate(uint32(e), sim)
			c.Entry += s.base.Len()
			all = append(all, c)
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if all[i].Coarse != all[j].Coarse {
			return all[i].Coarse > all[j].Coarse
		}
		return all[i].Entry < all[j].Entry
	})
	return all[:min(k, len(all))]
}

// TestSnapshotCoarseEqualsBruteForce: the coarse stage over base + delta,
// with masked files, is exact.
func TestSnapshotCoarseEqualsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 40 {
		alphabet := 5 + r.IntN(60)
		s, files := randomSnapshot(t, r, alphabet)
		for qi := range 20 {
			q := snapshotQuery(r, s, files, alphabet)
			k := 1 + r.IntN(15)
			got, st, err := s.Search(context.Background(), q, Options{Mode: Coarse, TopK: k})
			if err != nil {
				t.Fatal(err)
			}
			want := bruteForceSnapshot(s, q, k)
			if len(got) != len(want) {
				t.Fatalf("trial %d query %d: %d candidates, brute force %d", trial, qi, len(got), len(want))
			}
			for i := range got {
				if got[i].Entry != want[i].Entry || got[i].Coarse != want[i].Coarse || got[i].Path != want[i].Path {
					t.Fatalf("trial %d query %d rank %d: got entry %d %s (%v), want %d %s (%v)",
						trial, qi, i, got[i].Entry, got[i].Path, got[i].Coarse, want[i].Entry, want[i].Path, want[i].Coarse)
				}
			}
			if st.Entries != s.Len() {
				t.Fatalf("stats entries %d, want %d", st.Entries, s.Len())
			}
			// coarse2fine scores exactly the coarse top k, values included.
			fine, _, err := s.Search(context.Background(), q, Options{Mode: CoarseToFine, TopK: k})
			if err != nil {
				t.Fatal(err)
			}
			ids := func(cs []Candidate) []int {
				var out []int
				for _, c := range cs {
					out = append(out, c.Entry)
				}
				slices.Sort(out)
				return out
			}
			if !slices.Equal(ids(fine), ids(got)) {
				t.Fatalf("trial %d query %d: coarse2fine re-ranked %v, coarse top k %v", trial, qi, ids(fine), ids(got))
			}
			for i, v := range s.Values(fine) {
				if v == "" || s.Statement(&fine[i]) == "" && fine[i].TargetLine > 0 {
					t.Fatalf("trial %d query %d: empty value for %+v", trial, qi, fine[i])
				}
			}
		}
	}
}

// TestSnapshotMasksFiles: a masked or replaced file is gone from the
// base; the delta's version is what Lines and the search see.
func TestSnapshotMasksFiles(t *testing.T) {
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	d := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	file := func(path string, lines ...string) *File {
		f := &File{Path: path, Language: "python", Lines: lines}
		ids := map[string]uint32{}
		for i, l := range lines {
			var toks []uint32
			for _, w := range (wordTokenizer{}).Split(nil, l) {
				toks = append(toks, vocabID(f, ids, w))
			}
			f.Stmts = append(f.Stmts, Stmt{StartRow: i, EndRow: i, Tokens: sortedSet(toks)})
			e := Entry{Target: uint32(i), Nodes: []uint32{uint32(i)}, Hop: []uint8{0}}
			if i > 0 {
				e = Entry{Target: uint32(i), Nodes: []uint32{uint32(i - 1), uint32(i)}, Hop: []uint8{1, 0},
					Edges: []slice.Edge{{From: 0, To: 1, Type: ccg.CF}}}
			}
			f.Entries = append(f.Entries, e)
		}
		return f
	}
	for _, f := range []*File{file("a.py", "alpha beta", "old line"), file("b.py", "alpha beta", "gone line"), file("c.py", "x", "y")} {
		if err := b.Add(f); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Add(file("a.py", "alpha beta", "new line")); err != nil {
		t.Fatal(err)
	}
	s, err := NewSnapshot(b.Index(), d.Index(), []string{"b.py", "unknown.py"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Files() != 2 || s.Len() != 4 || s.Masked() != 2 {
		t.Errorf("files %d, entries %d, masked %d; want 2, 4, 2", s.Files(), s.Len(), s.Masked())
	}
	if l := s.Lines("a.py"); !slices.Equal(l, []string{"alpha beta", "new line"}) {
		t.Errorf("a.py = %q", l)
	}
	if l := s.Lines("b.py"); l != nil {
		t.Errorf("b.py = %q, want nil", l)
	}
	for _, path := range []string{"a.py", "b.py", "c.py", "unknown.py"} {
		if got, want := textLines(s.Text(path)), s.Lines(path); !slices.Equal(got, want) || (got == nil) != (want == nil) {
			t.Errorf("%s row by row %q, want %q", path, got, want)
		}
	}
	q := snapshotQueryWords(s, "alpha", "beta")
	got, _, err := s.Search(context.Background(), q, Options{Mode: Coarse, TopK: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Path != "a.py" || got[0].Entry != 6+1 {
		t.Fatalf("candidates %+v, want the delta's a.py entry 1 only", got)
	}
	if p := s.Predict(q, &got[0]); p != "new line" {
		t.Errorf("prediction %q, want %q", p, "new line")
	}
	if v := s.Values(got); v[0] != "alpha beta\nnew line" {
		t.Errorf("value %q", v[0])
	}
}

func snapshotQueryWords(s *Snapshot, words ...string) *Query {
	mk := func(ix *Index) *Query {
		q := &Query{}
		for i, w := range words {
			if id, ok := ix.vocab.Lookup(w); ok {
				q.Key = append(q.Key, id)
			} else {
				q.Key = append(q.Key, uint32(ix.vocab.Len()+i))
			}
		}
		q.Key = sortedSet(q.Key)
		q.Graph = sed.Graph{Target: 1, Tokens: [][]uint32{q.Key, nil}, Hop: []uint8{1, 0},
			Edges: []slice.Edge{{From: 0, To: 1, Type: ccg.CF}}}
		q.Defs = make([][]string, 2)
		return q
	}
	q := mk(s.base)
	if s.delta != nil {
		q.delta = mk(s.delta)
	}
	return q
}

// TestAlign: a search with Options.NoAlignments returns the candidates of
// one without, but for their alignments, and Snapshot.Align sets each to
// the one the search would have returned (base and delta, with the
// default and another gamma); a candidate the fine stage did not score
// gets none.
func TestAlign(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 40 {
		s, files := randomSnapshot(t, r, 12)
		q := snapshotQuery(r, s, files, 12)
		for _, o := range []Options{{TopK: 20}, {Mode: Hybrid, TopK: 20, Gamma: 0.3}, {TopK: 20, Mode: Coarse}} {
			with, _, err := s.Search(context.Background(), q, o)
			if err != nil {
				t.Fatal(err)
			}
			o.NoAlignments = true
			without, _, err := s.Search(context.Background(), q, o)
			if err != nil {
				t.Fatal(err)
			}
			if len(with) != len(without) {
				t.Fatalf("%s: %d candidates with alignments, %d without", o.Mode, len(with), len(without))
			}
			for i := range without {
				c := &without[i]
				if c.Alignment != nil {
					t.Fatalf("%s: candidate %d has an alignment with NoAlignments", o.Mode, i)
				}
				s.Align(q, c, o.Gamma)
				if c.Entry != with[i].Entry || c.SED != with[i].SED && !(c.SED != c.SED && with[i].SED != with[i].SED) {
					t.Fatalf("%s: rank %d: entry %d SED %v, want entry %d SED %v", o.Mode, i, c.Entry, c.SED, with[i].Entry, with[i].SED)
				}
				if !slices.Equal(c.Alignment, with[i].Alignment) || (c.Alignment == nil) != (with[i].Alignment == nil) {
					t.Fatalf("%s: rank %d: alignment %v, the search's %v", o.Mode, i, c.Alignment, with[i].Alignment)
				}
			}
		}
	}
}

// textLines reads every row of t, nil for a nil t.
func textLines(t *Text) []string {
	if t == nil {
		return nil
	}
	out := make([]string, t.Len())
	for i := range out {
		out[i] = t.Line(i)
	}
	return out
}
