package retrieve

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// clearPlain is clearCounts one block at a time, the reference.
func clearPlain(sc *scratch) {
	for b, m := range sc.bmax {
		if m != 0 {
			clear(sc.counts[b*blockSize : min((b+1)*blockSize, len(sc.counts))])
			sc.bmax[b] = 0
		}
	}
}

// touchedScratch returns the scratch of an index of n entries with about
// share of its blocks touched, each touched block's entries counted at
// random, and the count of a block left out at random.
func touchedScratch(r *rand.Rand, n int, share float64) *scratch {
	nb := (n + blockSize - 1) / blockSize
	sc := &scratch{counts: make([]uint32, n), bmax: make([]uint32, nb)}
	for b := range nb {
		if r.Float64() >= share {
			continue
		}
		for e := b * blockSize; e < min((b+1)*blockSize, n); e++ {
			if r.IntN(3) == 0 {
				bumpCount(sc.counts, sc.bmax, uint32(e))
			}
		}
	}
	return sc
}

// TestClearCounts: clearCounts leaves every count and block mark zero,
// as the plain loop does, whatever blocks are touched and however the
// entries end within the last block or the last eight.
func TestClearCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 300 {
		n := 1 + r.IntN(2000)
		share := []float64{0, 0.01, 0.3, 1}[trial%4]
		sc := touchedScratch(r, n, share)
		ref := &scratch{counts: slices.Clone(sc.counts), bmax: slices.Clone(sc.bmax)}
		(&Index{}).clearCounts(sc)
		clearPlain(ref)
		if !slices.Equal(sc.counts, ref.counts) || !slices.Equal(sc.bmax, ref.bmax) {
			t.Fatalf("trial %d (%d entries, share %g): clearCounts left marks or counts", trial, n, share)
		}
		for _, c := range sc.counts {
			if c != 0 {
				t.Fatalf("trial %d: a count left", trial)
			}
		}
	}
}

// BenchmarkClearCounts clears the counts of a query over an index of the
// JDK's size (1.45M entries) with 2 % of its blocks touched (a query's
// rare postings), plainly and eight blocks at a time.
func BenchmarkClearCounts(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	base := touchedScratch(r, 1_450_000, 0.02)
	for _, c := range []struct {
		name  string
		clear func(*scratch)
	}{{"plain", clearPlain}, {"by-eight", (&Index{}).clearCounts}} {
		b.Run(c.name, func(b *testing.B) {
			sc := &scratch{counts: slices.Clone(base.counts), bmax: slices.Clone(base.bmax)}
			work := &scratch{counts: make([]uint32, len(sc.counts)), bmax: make([]uint32, len(sc.bmax))}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				copy(work.counts, sc.counts)
				copy(work.bmax, sc.bmax)
				b.StartTimer()
				c.clear(work)
			}
		})
	}
}
