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

		plen := func(t uint32) uint32 { return ix.postOff[t+1] - ix.postOff[t] }
		var rare []uint32
		for tk := range uint32(len(ix.maskBit)) {
			if ix.maskBit[tk] < 0 && plen(tk) >= max(uint32(ix.Len()/256), 1) {
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
				if plen(tk) > plen(xt) {
					t.Fatalf("trial %d: token %d (%d bytes) left out, %d (%d bytes) taken", trial, tk, plen(tk), xt, plen(xt))
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
