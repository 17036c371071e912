package retrieve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// repTable returns each entry's representative (dups.go): itself unless
// it is a copy.
func repTable(ix *Index) []uint32 {
	rep := make([]uint32, ix.Len())
	for e := range rep {
		rep[e] = uint32(e)
	}
	for e := range uint32(ix.Len()) {
		if ix.isCopy(e) {
			continue
		}
		for d := ix.nextCopy(e); d != 0; d = ix.nextCopy(d) {
			rep[d] = e
		}
	}
	return rep
}

// TestCopiesRankAsWithout: the files of copied code built with the
// chains of copies rank as the same files built without them, in every
// ranker and mode, ties included: whole files copied under other paths
// (before and after others, so across blocks and the split scan's cut),
// copies of another language (which do not chain), originals a snapshot
// masks beside live copies, and queries in a copy's file, whose later
// entries leak. Keys range from a few tokens to hundreds (the size
// window and the bands) and term frequencies above 1 occur (BM25's
// columns); the floor is taken on every BM25 query. The chains hold
// together: a copy's key and term frequencies are its representative's,
// and no posting holds it.
func TestCopiesRankAsWithout(t *testing.T) {
	floorBytes := bm25FloorBytes
	defer func() { bm25FloorBytes, dedupKeys = floorBytes, true }()
	r := rand.New(rand.NewPCG(41, 42))
	ctx := context.Background()
	chained := 0
	for trial := range 12 {
		alphabet := 6 + r.IntN(40)
		var files []*File
		for i := range 2 + r.IntN(4) {
			path := fmt.Sprintf("f%d.py", i)
			switch r.IntN(3) {
			case 0:
				files = append(files, randomFile(r, path, 1+r.IntN(80), alphabet))
			case 1:
				files = append(files, longSliceFile(r, path, 1+r.IntN(80), alphabet))
			default:
				files = append(files, sizedFile(r, path, 20+r.IntN(150)))
			}
		}
		originals := len(files)
		for i := range 1 + r.IntN(4) {
			g := *files[r.IntN(originals)]
			g.Path = fmt.Sprintf("f%d.py", originals+i)
			if r.IntN(5) == 0 {
				g.Language = "java"
			}
			at := r.IntN(len(files) + 1)
			files = slices.Insert(files, at, &g)
		}
		var masked []string
		for _, f := range files {
			if r.IntN(4) == 0 {
				masked = append(masked, f.Path)
			}
		}
		maskBits := []int{0, 5, 30, 128}[r.IntN(4)]
		build := func(dedup bool) *Snapshot {
			dedupKeys = dedup
			b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 30})
			b.maskBits = maskBits
			for _, f := range files {
				if err := b.Add(f); err != nil {
					t.Fatal(err)
				}
			}
			ix := b.Index()
			if r.IntN(2) == 0 {
				ix = mapIndex(t, ix)
			}
			s, err := NewSnapshot(ix, nil, masked)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		with, without := build(true), build(false)
		dedupKeys = true
		if without.base.dup != nil {
			t.Fatal("chains built with dedupKeys off")
		}
		if with.base.dup != nil {
			chained++
			checkChains(t, with.base)
		}
		for qi := range 24 {
			var words []string
			if qi%2 == 0 {
				words = sizedWords(r, files)
			} else {
				for range 1 + r.IntN(12) {
					words = append(words, fmt.Sprintf("t%d", r.IntN(alphabet+5)))
				}
			}
			path, line := files[r.IntN(len(files))].Path, 1+r.IntN(100)
			lang := []string{"", "", "python", "java"}[r.IntN(4)]
			n := []int{1, 3, 10, 50}[r.IntN(4)]
			bm25FloorBytes = []int{0, floorBytes}[qi%2]
			p := DefaultBM25
			if r.IntN(4) == 0 {
				p.Terms = 1 + r.IntN(5)
			}
			var got [2][][]Hit
			var cands [2][][]Candidate
			for i, s := range []*Snapshot{with, without} {
				q := snapshotQueryWords(s, words...)
				q.Path, q.Line, q.Language = path, line, lang
				got[i] = [][]Hit{mustRank(t, Jaccard(), s, q, n), mustRank(t, BM25(p), s, q, n)}
				for _, mode := range Modes() {
					c, _, err := s.Search(ctx, q, Options{Mode: mode, TopK: n, BM25: p})
					if err != nil {
						t.Fatal(err)
					}
					for j := range c {
						c[j].Alignment = nil
					}
					cands[i] = append(cands[i], c)
				}
			}
			what := fmt.Sprintf("trial %d query %d n %d |Q| %d", trial, qi, n, len(words))
			equalHits(t, what+" jaccard", got[0][0], got[1][0])
			equalHits(t, what+" bm25", got[0][1], got[1][1])
			for m, mode := range Modes() {
				if fmt.Sprint(cands[0][m]) != fmt.Sprint(cands[1][m]) {
					t.Fatalf("%s mode %s:\n got %v\nwant %v", what, mode, cands[0][m], cands[1][m])
				}
			}
		}
	}
	if chained < 10 {
		t.Fatalf("%d of 12 indexes had copies", chained)
	}
}

// checkChains fails unless every copy of ix has its representative's key
// and term frequencies, in the same language, and no posting holds a copy.
func checkChains(t *testing.T, ix *Index) {
	t.Helper()
	rep := repTable(ix)
	for e := range uint32(ix.Len()) {
		if !ix.isCopy(e) {
			continue
		}
		r := rep[e]
		if r == e || ix.isCopy(r) {
			t.Fatalf("copy %d: representative %d", e, r)
		}
		ke, kr := ix.key(int(e), nil), ix.key(int(r), nil)
		if !slices.Equal(ke, kr) || ix.files[ix.fileOf(e)].language != ix.files[ix.fileOf(r)].language {
			t.Fatalf("copy %d of %d: key %v, its representative's %v", e, r, ke, kr)
		}
		var d dupFinder
		if string(d.recordOf(ix, e)) != string(d.recordOf(ix, r)) {
			t.Fatalf("copy %d of %d: other term frequencies", e, r)
		}
		if m := ix.masks[int(e)*ix.maskWords : int(e+1)*ix.maskWords]; slices.ContainsFunc(m, func(w uint64) bool { return w != 0 }) {
			t.Fatalf("copy %d has mask bits", e)
		}
	}
	for tok := range uint32(len(ix.maskBit)) {
		if ix.maskBit[tok] >= 0 {
			continue
		}
		n := uint32(0)
		for e := range ix.postings(tok) {
			if ix.isCopy(e) {
				t.Fatalf("token %d: posting of copy %d", tok, e)
			}
			n++
		}
		if n != ix.bm.postN[tok] {
			t.Fatalf("token %d: %d postings, postN %d", tok, n, ix.bm.postN[tok])
		}
	}
}
