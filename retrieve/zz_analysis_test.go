package retrieve

import (
	"context"
	"math/bits"
	"testing"
	"time"
)

func TestZZAnalysis(t *testing.T) {
	ix := builtIndex(t)
	s := &Snapshot{base: ix}
	qs := builtQueries(t, s, ix, 200, 42)
	N := ix.Len()
	for _, B := range []int{16, 64, 256} {
		nb := (N + B - 1) / B
		or := make([]uint64, 2*nb)
		lmin := make([]uint32, nb)
		for i := range lmin {
			lmin[i] = 1 << 30
		}
		for e := 0; e < N; e++ {
			or[2*(e/B)] |= ix.masks[2*e]
			or[2*(e/B)+1] |= ix.masks[2*e+1]
			lmin[e/B] = min(lmin[e/B], ix.keyLen[e])
		}
		var mustScan, touchedB, either, prunable int
		for _, q := range qs {
			sc := ix.getScratch()
			ix.count(q, sc)
			qm := 0
			for _, x := range sc.qmask {
				qm += bits.OnesCount64(x)
			}
			hits, _, _ := Jaccard().Rank(context.Background(), s, q, 50, time.Time{})
			n := float64(len(q.Key))
			tau := 0.0
			if len(hits) == 50 {
				tau = hits[49].Score
			}
			if tau > float64(qm)/n {
				prunable++
			}
			tb := make([]bool, nb)
			for _, e := range sc.touched {
				tb[int(e)/B] = true
			}
			for b := 0; b < nb; b++ {
				pc := float64(bits.OnesCount64(or[2*b]&sc.qmask[0]) + bits.OnesCount64(or[2*b+1]&sc.qmask[1]))
				ub := pc / (n + max(float64(lmin[b])-pc, 0))
				m := ub >= tau && pc > 0
				if m {
					mustScan++
				}
				if tb[b] {
					touchedB++
				}
				if m || tb[b] {
					either++
				}
			}
			ix.release(sc)
		}
		tot := float64(nb * len(qs))
		t.Logf("B=%d blocks %d: prunable %d; must scan %.3f, touched %.3f, either %.3f", B, nb, prunable, float64(mustScan)/tot, float64(touchedB)/tot, float64(either)/tot)
	}
}
