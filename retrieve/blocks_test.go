package retrieve

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// runFile makes a file of n statements in runs of 4 to 40: each run draws
// its statements' tokens from a few of the frequent tokens f0..f39 (which
// get the mask bits) and a few rare ones of its own, so that consecutive
// entries share their tokens as consecutive statements of code do, and
// the block bounds (blocks.go) rule blocks out. It returns the file and
// the runs' token sets, for queries.
func runFile(r *rand.Rand, path string, n int) (*File, [][]string) {
	var lines []string
	var runs [][]string
	for len(lines) < n {
		var words []string
		for range 2 + r.IntN(6) {
			words = append(words, fmt.Sprintf("f%d", r.IntN(1+r.IntN(40))))
		}
		for range 1 + r.IntN(6) {
			words = append(words, fmt.Sprintf("r%d", r.IntN(400)))
		}
		runs = append(runs, words)
		for range min(4+r.IntN(37), n-len(lines)) {
			var stmt []string
			for range 1 + r.IntN(5) {
				stmt = append(stmt, words[r.IntN(len(words))])
			}
			lines = append(lines, strings.Join(stmt, " "))
		}
	}
	spans := make([]int, n)
	for i := range spans {
		spans[i] = r.IntN(8)
	}
	return chainFile(path, lines, func(i int) int { return max(0, i-spans[i]) }), runs
}

// randomParts adds the files f0.py to f<nFiles-1>.py to base, each drawn
// by file (changed false) and of language java one time in three; of
// each, one time in odds a changed version (changed true) goes into
// delta, one time in odds it is deleted. It returns the snapshots of
// base alone and of base + delta.
func randomParts(t *testing.T, r *rand.Rand, base, delta *Builder, nFiles, odds int, file func(path string, changed bool) *File) []*Snapshot {
	t.Helper()
	var deleted []string
	for i := range nFiles {
		path := fmt.Sprintf("f%d.py", i)
		f := file(path, false)
		if r.IntN(3) == 0 {
			f.Language = "java"
		}
		if err := base.Add(f); err != nil {
			t.Fatal(err)
		}
		switch r.IntN(odds) {
		case 0:
			if err := delta.Add(file(path, true)); err != nil {
				t.Fatal(err)
			}
		case 1:
			deleted = append(deleted, path)
		}
	}
	ix := base.Index()
	s, err := NewSnapshot(ix, delta.Index(), deleted)
	if err != nil {
		t.Fatal(err)
	}
	return []*Snapshot{{base: ix}, s}
}

// placeQuery puts query qi (and its delta part) at a random line of one
// of the files randomParts made, every fourth in language python.
func placeQuery(r *rand.Rand, q *Query, nFiles, qi int) {
	for _, lq := range []*Query{q, q.delta} {
		if lq != nil {
			lq.Path, lq.Line = fmt.Sprintf("f%d.py", r.IntN(nFiles)), 1+r.IntN(300)
			if qi%4 == 0 {
				lq.Language = "python"
			}
		}
	}
}

// TestBlockBoundsEqualBruteForce: on indexes whose blocks differ (runs of
// similar statements), base alone and base + delta, with ties, the leak
// rule and the language filter, Jaccard and BM25 return exactly the
// definitions' lists, and the Jaccard scan skips blocks on some queries
// (it scores fewer entries than share a token with the query).
func TestBlockBoundsEqualBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	skipped := 0
	for trial := range 12 {
		base := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		base.maskBits = []int{16, 40, 64, 128, 200}[r.IntN(5)]
		var runs [][]string
		nFiles := 1 + r.IntN(6)
		delta := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		delta.maskBits = []int{0, 40, 128}[r.IntN(3)]
		snaps := randomParts(t, r, base, delta, nFiles, 5, func(path string, changed bool) *File {
			var lines int
			if changed {
				lines = 20 + r.IntN(100)
			} else {
				lines = 50 + r.IntN(400)
			}
			f, rs := runFile(r, path, lines)
			runs = append(runs, rs...)
			return f
		})
		for si, s := range snaps {
			for qi := range 25 {
				run := runs[r.IntN(len(runs))]
				var words []string
				for _, w := range run {
					if r.IntN(4) != 0 {
						words = append(words, w)
					}
				}
				for range r.IntN(4) {
					words = append(words, fmt.Sprintf("f%d", r.IntN(50)))
				}
				q := snapshotQueryWords(s, words...)
				placeQuery(r, q, nFiles, qi)
				n := []int{1, 3, 10, 50}[r.IntN(4)]
				what := fmt.Sprintf("trial %d snapshot %d query %d n %d", trial, si, qi, n)
				got, st, err := Jaccard().Rank(t.Context(), s, q, n, time.Time{})
				if err != nil {
					t.Fatal(err)
				}
				equalHits(t, "jaccard: "+what, got, bruteJaccard(s, q, n))
				if st.Scanned < len(bruteJaccard(s, q, s.Len())) {
					skipped++
				}
				equalHits(t, "bm25: "+what, mustRank(t, BM25(DefaultBM25), s, q, n), bruteBM25(s, q, DefaultBM25, n))
				equalJoint(t, what, s, q, DefaultBM25, n)
			}
		}
	}
	if skipped == 0 {
		t.Fatal("the Jaccard scan never skipped a block")
	}
	t.Logf("the Jaccard scan skipped blocks on %d of %d queries", skipped, 12*2*25)
}

// TestJaccardBlockTies: a block whose bound ties with the heap's worst
// is still scanned when it starts below the worst's id. Entry 1 of a.py
// ({m1, m2}) and the one entry of b.py ({x, m1}) both score 2/3 against
// {m1, m2, x}; the latter is scored first (the seeds hold the entries of
// the query's rarer tokens), the former wins the tie.
func TestJaccardBlockTies(t *testing.T) {
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	b.maskBits = 2
	prev := func(i int) int { return max(0, i-1) }
	a := make([]string, 40)
	for i := range a {
		a[i] = "m1 m2"
	}
	for _, f := range []*File{chainFile("a.py", a, prev), chainFile("b.py", []string{"x m1", "y"}, prev)} {
		if err := b.Add(f); err != nil {
			t.Fatal(err)
		}
	}
	s := &Snapshot{base: b.Index()}
	q := snapshotQueryWords(s, "m1", "m2", "x")
	for _, n := range []int{1, 2, 5} {
		got := mustRank(t, Jaccard(), s, q, n)
		equalHits(t, fmt.Sprintf("n %d", n), got, bruteJaccard(s, q, n))
		if got[0].Entry != 1 {
			t.Fatalf("n %d: best %v, want entry 1", n, got[0])
		}
	}
}
