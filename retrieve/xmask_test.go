package retrieve

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSecondMaskBruteForce: with second masks of no bit, one, 64, 128 (the
// default, which every other test runs with) and 200 bits, the property
// tests of the Jaccard ranking still hold: random indexes and snapshots,
// runs of similar statements with block skips, ties across blocks, long
// keys with the window and split walk, the leak rule, the language
// filter, base + delta, and an index of real code.
func TestSecondMaskBruteForce(t *testing.T) {
	for _, bits := range []int{0, 1, 64, 200} {
		tests := slices.Concat(coarseProperties, []struct {
			name string
			f    func(*testing.T)
		}{
			{"SizeWindowEqualsBruteForce", TestSizeWindowEqualsBruteForce},
			{"RealIndexRankersEqualBruteForce", TestRealIndexRankersEqualBruteForce},
		})
		for _, c := range tests {
			if c.name == "RealIndexRankersEqualBruteForce" && bits != 0 || c.name == "BM25EqualsBruteForce" {
				continue // the default width runs it, and none here; BM25 has no second mask
			}
			t.Run(fmt.Sprintf("%d/%s", bits, c.name), func(t *testing.T) {
				old := xmaskBits
				xmaskBits = bits
				defer func() { xmaskBits = old }()
				c.f(t)
			})
		}
	}
}

// TestSecondMask: the second mask holds the tokens without a mask bit of
// the longest postings (at least one byte in 256 of entries), up to
// xmaskBits of them; an entry's bit of a token is set exactly when its
// postings hold the entry; a query's intersection counts those tokens
// once (the walk leaves them out) and the ranking, which then walks fewer
// postings, is the brute force's.
func TestSecondMask(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for trial := range 6 {
		b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		b.maskBits = []int{0, 8, 40}[trial%3]
		var runs [][]string
		for i := range 3 + r.IntN(3) {
			f, rs := runFile(r, fmt.Sprintf("f%d.py", i), 300+r.IntN(900))
			runs = append(runs, rs...)
			if err := b.Add(f); err != nil {
				t.Fatal(err)
			}
		}
		ix := b.Index()
		old := xmaskBits
		xmaskBits = []int{5, 64, 128}[trial/2]
		x := ix.xmask()
		xmaskBits = old

		var rare []uint32
		for tk := range uint32(len(ix.maskBit)) {
			if ix.maskBit[tk] < 0 && ix.postLen(tk) >= max(ix.Len()/256, 1) {
				rare = append(rare, tk)
			}
		}
		want := min(len(rare), []int{5, 64, 128}[trial/2])
		if len(x.tok) != want || x.words != (want+63)/64 {
			t.Fatalf("trial %d: %d tokens in %d words, want %d of %d", trial, len(x.tok), x.words, want, len(rare))
		}
		held := map[uint32]bool{}
		for _, tk := range x.tok {
			held[tk] = true
		}
		for _, tk := range rare {
			if held[tk] {
				continue
			}
			for _, xt := range x.tok {
				if ix.postLen(tk) > ix.postLen(xt) {
					t.Fatalf("trial %d: token %d (%d bytes) left out, %d (%d bytes) taken", trial, tk, ix.postLen(tk), xt, ix.postLen(xt))
				}
			}
		}
		for _, tk := range x.tok {
			bit, ok := x.lookup(tk)
			if !ok {
				t.Fatalf("token %d not found", tk)
			}
			in := make([]bool, ix.Len())
			for e := range ix.postings(tk) {
				in[e] = true
			}
			for e := range ix.Len() {
				if got := x.masks[e*x.words+bit/64]>>(bit%64)&1 != 0; got != in[e] {
					t.Fatalf("trial %d: entry %d token %d: bit %v, postings %v", trial, e, tk, got, in[e])
				}
			}
		}
		s := &Snapshot{base: ix}
		walked := 0
		for qi := range 40 {
			run := runs[r.IntN(len(runs))]
			q := snapshotQueryWords(s, slices.Concat(run, []string{fmt.Sprintf("r%d", r.IntN(400)), "unseen"})...)
			n := []int{1, 10, 50}[qi%3]
			equalHits(t, fmt.Sprintf("trial %d query %d", trial, qi), mustRank(t, Jaccard(), s, q, n), bruteJaccard(s, q, n))
			sc := ix.getScratch()
			ix.countJaccard(q, sc, n, nil)
			for _, tk := range sc.order {
				if _, ok := x.lookup(tk); ok {
					t.Fatalf("trial %d query %d: token %d of the second mask walked", trial, qi, tk)
				}
			}
			if slices.ContainsFunc(sc.xq, func(w uint64) bool { return w != 0 }) {
				walked++
			}
			ix.release(sc)
		}
		if walked == 0 {
			t.Fatalf("trial %d: no query held a token of the second mask", trial)
		}
	}
}

// TestSeeds: the walk keeps every block's largest count (scratch.bmax),
// plain, gated by a window or split over two goroutines, and the seeds
// the Jaccard scan takes through it are those of the plain rule: in id
// order, the first maxSeeds*k touched entries of count at least c in the
// window and the query's language blocks, c the largest count (up to
// maxSeedCount) that k touched entries reach.
func TestSeeds(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	sf, sw, cs := sizeFilterBytes, splitWalkBytes, canSplit
	defer func() { sizeFilterBytes, splitWalkBytes, canSplit = sf, sw, cs }()
	canSplit = func() bool { return true }
	cuts := map[uint32]int{}
	for trial := range 8 {
		b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		b.maskBits = []int{0, 8, 40}[trial%3]
		var runs [][]string
		for i := range 2 + r.IntN(3) {
			f, rs := runFile(r, fmt.Sprintf("f%d.py", i), 200+r.IntN(600))
			if i%2 == 1 {
				f.Language = "java"
			}
			runs = append(runs, rs...)
			if err := b.Add(f); err != nil {
				t.Fatal(err)
			}
		}
		ix := b.Index()
		s := &Snapshot{base: ix}
		for qi := range 50 {
			q := snapshotQueryWords(s, slices.Concat(runs[r.IntN(len(runs))], runs[r.IntN(len(runs))])...)
			if qi%3 == 0 {
				q.Language = "java"
			}
			k := []int{1, 2, 5, 20}[qi%4]
			// Plain, windowed, windowed and split.
			sizeFilterBytes, splitWalkBytes = []int{1 << 62, 0, 0}[qi%3], []int{1 << 62, 1 << 62, 0}[qi%3]
			sc := ix.getScratch()
			ix.countJaccard(q, sc, k, nil)
			for bl, m := range sc.bmax {
				if want := slices.Max(sc.counts[bl*blockSize : min((bl+1)*blockSize, ix.Len())]); m != want {
					t.Fatalf("trial %d query %d: block %d's largest count %d, want %d", trial, qi, bl, m, want)
				}
			}
			sc.lo, sc.hi = uint32(r.IntN(3)), uint32(5+r.IntN(40))
			lb := ix.languageBlocks(q.Language)
			var hist [maxSeedCount + 1]uint32
			for _, c := range sc.counts {
				if c > 0 {
					hist[min(c, maxSeedCount)]++
				}
			}
			c := histCut(&hist, uint32(k))
			if got := sc.seedCut(uint32(k)); got != c {
				t.Fatalf("trial %d query %d k %d: cut %d, want %d", trial, qi, k, got, c)
			}
			cuts[c]++
			var want []uint32
			for e, n := range sc.counts {
				if l := ix.keyLen[e]; n >= c && l >= sc.lo && l <= sc.hi && inBlocks(lb, uint32(e)) && len(want) < maxSeeds*k {
					want = append(want, uint32(e))
				}
			}
			if got := ix.seeds(sc, k, lb); !slices.Equal(got, want) {
				t.Fatalf("trial %d query %d k %d c %d: seeds %v, want %v", trial, qi, k, c, got, want)
			}
			ix.release(sc)
			if slices.ContainsFunc(sc.counts, func(c uint32) bool { return c != 0 }) || slices.ContainsFunc(sc.bmax, func(c uint32) bool { return c != 0 }) {
				t.Fatalf("trial %d query %d: counts left after release", trial, qi)
			}
		}
	}
	if len(cuts) < 3 {
		t.Fatalf("the seeds' cuts were only %v", cuts)
	}
}

// TestOpenSecondMaskWithoutMaskBits: a snapshot file whose second mask is
// intact but whose mask bits failed to read (a damaged ix.maskBit or
// head) is refused with an error, not a panic on the missing bits.
func TestOpenSecondMaskWithoutMaskBits(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 52))
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	b.maskBits = 8
	for i := range 3 {
		f, _ := runFile(r, fmt.Sprintf("f%d.py", i), 600)
		if err := b.Add(f); err != nil {
			t.Fatal(err)
		}
	}
	ix := b.Index()
	mapped := mapIndex(t, ix)
	if mapped.xmask().words == 0 {
		t.Fatal("no second mask to read")
	}
	get := func(name string, want int) []byte {
		s, err := mapped.keep.Section(name)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	bad := &Index{xm: &xmaskData{}} // no mask bits, as when their section fails
	if err := bad.openSecondMask(get, ix.Len(), len(ix.maskBit)); err == nil {
		t.Fatal("a second mask without mask bits to check it against was taken")
	}
	if err := mapped.openSecondMask(get, ix.Len(), len(ix.maskBit)); err != nil {
		t.Fatalf("the intact sections: %v", err)
	}
}
