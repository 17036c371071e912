package retrieve

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/graphcoder/graphcoder/embed"
)

// Dense retrieval (spec section 9): an entry may carry an embedding of its
// context sequence slice, computed at build time by an embeddings model;
// the query carries the embedding of its own slice from the same model,
// and the dense ranker returns the entries of largest inner product.
//
// Vectors are kept quantised to 8 bits per dimension with one scale per
// vector (embed.Vector), a quarter of float32's memory; the inner product of two
// quantised vectors is an exact integer sum times the two scales, so the
// ranking is exact for the stored vectors and ties are exact too.

// denseData is the dense part of an Index: dim int8 values and a scale per
// entry, the scale 0 for entries without a vector.
type denseData struct {
	dim   int
	vals  []int8
	scale []float32
	count int // entries with a vector
}

func (d *denseData) bytes() int64 { return int64(len(d.vals) + 4*len(d.scale)) }

// checkVectors validates the vectors of f against the index's dimension.
func (b *Builder) checkVectors(f *File) error {
	if len(f.Vectors) == 0 {
		return nil
	}
	if len(f.Vectors) != len(f.Entries) {
		return fmt.Errorf("%d vectors for %d entries", len(f.Vectors), len(f.Entries))
	}
	dim := b.ix.vec.dim
	for i, v := range f.Vectors {
		if len(v.Values) == 0 {
			continue
		}
		if dim == 0 {
			dim = len(v.Values)
		}
		if len(v.Values) != dim {
			return fmt.Errorf("entry %d: vector of %d dimensions, want %d", i, len(v.Values), dim)
		}
		if !(v.Scale > 0) || math.IsInf(float64(v.Scale), 0) {
			return fmt.Errorf("entry %d: vector scale %v", i, v.Scale)
		}
	}
	return nil
}

// addVectors appends the vectors of f (checked) for its entries, just
// added.
func (b *Builder) addVectors(f *File) {
	d := &b.ix.vec
	n := len(f.Entries)
	if d.dim == 0 {
		for _, v := range f.Vectors {
			if len(v.Values) > 0 {
				// The first vector: entries before it have none.
				d.dim = len(v.Values)
				prev := b.ix.Len() - n
				d.vals = make([]int8, prev*d.dim, (prev+n)*d.dim)
				d.scale = make([]float32, prev, prev+n)
				break
			}
		}
		if d.dim == 0 {
			return
		}
	}
	for i := range n {
		if i < len(f.Vectors) && len(f.Vectors[i].Values) > 0 {
			d.vals = append(d.vals, f.Vectors[i].Values...)
			d.scale = append(d.scale, f.Vectors[i].Scale)
			d.count++
			continue
		}
		d.vals = append(d.vals, make([]int8, d.dim)...)
		d.scale = append(d.scale, 0)
	}
}

// Vectors returns the number of entries holding a vector and the vectors'
// dimension.
func (ix *Index) Vectors() (count, dim int) { return ix.vec.count, ix.vec.dim }

// HasVectors reports whether any live entry may hold a vector.
func (s *Snapshot) HasVectors() bool {
	return s.base.vec.count > 0 || s.delta != nil && s.delta.vec.count > 0
}

// Dense returns the ranker of inner products between the query's Vector
// and the entries'. Entries without a vector, and a query without one,
// give no hits.
func Dense() Ranker { return dense{} }

type dense struct{}

func (dense) Name() string { return "dense" }

func (dense) Rank(ctx context.Context, s *Snapshot, q *Query, n int, deadline time.Time) ([]Hit, RankStats, error) {
	qv := q.Vector
	for _, ix := range []*Index{s.base, s.delta} {
		if ix != nil && ix.vec.count > 0 && len(qv.Values) > 0 && len(qv.Values) != ix.vec.dim {
			return nil, RankStats{Name: "dense"}, fmt.Errorf("rank dense: the query vector has %d dimensions, the index's %d", len(qv.Values), ix.vec.dim)
		}
	}
	return s.rankLayers(ctx, "dense", q, n, deadline, func(ix *Index, lq *Query, dead []bool, lim *scanLimit, st *RankStats) []Hit {
		if ix.vec.count == 0 || len(qv.Values) == 0 {
			return nil
		}
		return ix.denseTop(lq, qv, n, dead, lim, st)
	})
}

var denseHeapPool sync.Pool

// denseTop scans every entry's vector.
func (ix *Index) denseTop(q *Query, qv embed.Vector, n int, dead []bool, lim *scanLimit, st *RankStats) []Hit {
	h, _ := denseHeapPool.Get().(*rankHeap[ranked[float64]])
	if h == nil {
		h = new(rankHeap[ranked[float64]])
	}
	defer func() { *h = (*h)[:0]; denseHeapPool.Put(h) }()
	var v entryView
	d := &ix.vec
	qs := float64(qv.Scale)
	for lo := 0; lo < ix.Len(); lo += pollEvery {
		if lo > 0 && lim.stop() {
			break
		}
		for e := lo; e < min(lo+pollEvery, ix.Len()); e++ {
			sc := d.scale[e]
			if sc == 0 {
				continue
			}
			st.Scanned++
			score := float64(dot8(qv.Values, d.vals[e*d.dim:(e+1)*d.dim])) * float64(sc) * qs
			if score <= 0 || len(*h) == n && !(ranked[float64]{score, uint32(e)}).better((*h)[0]) {
				continue
			}
			if !ix.sameLanguage(q, uint32(e)) || ix.dead(dead, uint32(e)) {
				continue
			}
			if ix.leaks(q, uint32(e), &v) {
				st.Leaked++
				continue
			}
			st.Scored++
			h.offer(ranked[float64]{score, uint32(e)}, n)
		}
	}
	return drainRanked(h, 1)
}

// dot8 is the inner product of two int8 vectors of the same length,
// eight components a step so that the bounds are checked once a step.
func dot8(a, b []int8) int32 {
	b = b[:len(a)]
	var s0, s1 int32
	for len(a) >= 8 {
		x, y := a[:8:8], b[:8:8]
		s0 += int32(x[0])*int32(y[0]) + int32(x[1])*int32(y[1]) + int32(x[2])*int32(y[2]) + int32(x[3])*int32(y[3])
		s1 += int32(x[4])*int32(y[4]) + int32(x[5])*int32(y[5]) + int32(x[6])*int32(y[6]) + int32(x[7])*int32(y[7])
		a, b = a[8:], b[8:]
	}
	for i := range a {
		s0 += int32(a[i]) * int32(b[i])
	}
	return s0 + s1
}
