package retrieve

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// splitScanned runs f with every Jaccard scan of a query with mask bits
// split in two halves (splitscan.go), however small the index, the
// halves in the order order (splitScanOrder).
func splitScanned(t *testing.T, order int, f func(t *testing.T)) {
	se, cs, so := splitScanEntries, canSplit, splitScanOrder
	splitScanEntries, canSplit, splitScanOrder = 0, func() bool { return true }, order
	defer func() { splitScanEntries, canSplit, splitScanOrder = se, cs, so }()
	f(t)
}

// TestSplitScanBruteForce: with the Jaccard scan split on every query,
// the property tests of the coarse stage still hold (random indexes and
// snapshots, base + delta, masked files, runs of similar statements
// with block skips, ties across blocks and across the cut, the leak rule,
// the language filter of mixed indexes, long keys with the size window
// and the bands, which scan again, with and without a second mask,
// mapped indexes, the budget and cancellation); and scans were split.
func TestSplitScanBruteForce(t *testing.T) {
	split := scanSplits.Load()
	tests := []struct {
		name string
		f    func(*testing.T)
	}{
		{"SizeWindowEqualsBruteForce", TestSizeWindowEqualsBruteForce},
		{"MappedIndex", TestMappedIndex},
		{"CancelAndBudget", TestCancelAndBudget},
		{"LanguageBlocks", TestLanguageBlocks},
		{"SplitScanTwins", testSplitScanTwins},
	}
	for _, c := range coarseProperties {
		if c.name != "BM25EqualsBruteForce" { // BM25 has a scan of its own
			tests = append(tests, c)
		}
	}
	for order := range 3 {
		for _, bits := range []int{0, 128} {
			for _, c := range tests {
				t.Run(fmt.Sprintf("%d/%d/%s", order, bits, c.name), func(t *testing.T) {
					old := xmaskBits
					xmaskBits = bits
					defer func() { xmaskBits = old }()
					splitScanned(t, order, c.f)
				})
			}
			t.Run(fmt.Sprintf("%d/%d/banded/SizeWindowEqualsBruteForce", order, bits), func(t *testing.T) {
				old := xmaskBits
				xmaskBits = bits
				defer func() { xmaskBits = old }()
				splitScanned(t, order, func(t *testing.T) { banded(t, 8, 1, TestSizeWindowEqualsBruteForce) })
			})
		}
	}
	if n := scanSplits.Load() - split; n < 1000 {
		t.Errorf("%d scans were split", n)
	} else {
		t.Logf("%d scans were split", n)
	}
}

// TestSplitScanRankAllocs: a split scan allocates no more than
// TestRankAllocs allows a ranking.
func TestSplitScanRankAllocs(t *testing.T) { splitScanned(t, 0, TestRankAllocs) }

// TestSplitScanDamaged: a damaged mapped index whose rankings split
// their scans answers or fails with ErrDamaged (a panic of the second
// half is handed to the caller's guard); nothing panics.
func TestSplitScanDamaged(t *testing.T) { splitScanned(t, 0, TestMappedDamage) }

// testSplitScanTwins (run split by TestSplitScanBruteForce): on an index
// of files and their identical copies after them, every entry of the
// first half of the scan has a twin of the same similarity in the
// second, so the lists are full of ties across the cut, which the
// smaller id wins, whichever half's root the other half reads.
func testSplitScanTwins(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for trial := range 12 {
		b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		b.maskBits = []int{1, 5, 20, 64}[trial%4]
		var files []*File
		for i := range 6 {
			files = append(files, randomFile(rand.New(rand.NewPCG(uint64(trial), uint64(i))), fmt.Sprintf("a%d.py", i), 200, 60))
		}
		for _, f := range files[:6] {
			c := *f
			c.Path = "b" + f.Path[1:]
			files = append(files, &c)
		}
		for _, f := range files {
			if err := b.Add(f); err != nil {
				t.Fatal(err)
			}
		}
		s := &Snapshot{base: b.Index()}
		for range 30 {
			q := randomQuery(r, s.base, 60)
			q.Path = fmt.Sprintf("%c%d.py", "ab"[r.IntN(2)], r.IntN(6))
			for _, n := range []int{1, 7, 40} {
				equalHits(t, fmt.Sprintf("trial %d %s:%d n %d", trial, q.Path, q.Line, n), mustRank(t, Jaccard(), s, q, n), bruteJaccard(s, q, n))
			}
		}
	}
}
