package retrieve

import (
	"fmt"
	"testing"
)

// splitScanned runs f with every Jaccard scan of a query with mask bits
// split in two halves (splitscan.go), however small the index.
func splitScanned(t *testing.T, f func(t *testing.T)) {
	se, cs := splitScanEntries, canSplit
	splitScanEntries, canSplit = 0, func() bool { return true }
	defer func() { splitScanEntries, canSplit = se, cs }()
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
	}
	for _, c := range coarseProperties {
		if c.name != "BM25EqualsBruteForce" { // BM25 has a scan of its own
			tests = append(tests, c)
		}
	}
	for _, bits := range []int{0, 128} {
		for _, c := range tests {
			t.Run(fmt.Sprintf("%d/%s", bits, c.name), func(t *testing.T) {
				old := xmaskBits
				xmaskBits = bits
				defer func() { xmaskBits = old }()
				splitScanned(t, c.f)
			})
		}
		t.Run(fmt.Sprintf("%d/banded/SizeWindowEqualsBruteForce", bits), func(t *testing.T) {
			old := xmaskBits
			xmaskBits = bits
			defer func() { xmaskBits = old }()
			splitScanned(t, func(t *testing.T) { banded(t, 8, 1, TestSizeWindowEqualsBruteForce) })
		})
	}
	if n := scanSplits.Load() - split; n < 1000 {
		t.Errorf("%d scans were split", n)
	} else {
		t.Logf("%d scans were split", n)
	}
}

// TestSplitScanRankAllocs: a split scan allocates no more than
// TestRankAllocs allows a ranking.
func TestSplitScanRankAllocs(t *testing.T) { splitScanned(t, TestRankAllocs) }

// TestSplitScanDamaged: a damaged mapped index whose rankings split
// their scans answers or fails with ErrDamaged (a panic of the second
// half is handed to the caller's guard); nothing panics.
func TestSplitScanDamaged(t *testing.T) { splitScanned(t, TestMappedDamage) }
