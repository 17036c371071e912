package retrieve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// BenchmarkBuiltBM25Terms times BM25's top 50 and mode hybrid's coarse
// stage (both rankers for their top 50, fused, as a lone request runs
// it) over 500 seeded queries of an index graphcoder build wrote
// (GRAPHCODER_BENCH_INDEX), query by query with every query term and
// with the query capped to its 16, 32, 64, 128 and 256 terms of largest idf
// (BM25Params.Terms) in turn, and reports the median, p95 and p99 of the
// wall time and of the calling thread's CPU time (in hybrid the rankers
// run on their own goroutines: its CPU figure is the caller's only), and
// logs how many terms the queries hold.
func BenchmarkBuiltBM25Terms(b *testing.B) {
	ix := builtIndex(b)
	s := &Snapshot{base: ix}
	qs := builtQueries(b, s, ix, 500, 42)
	var held []int
	for _, q := range qs {
		n := 0
		for _, t := range q.Key {
			if s.liveDF(ix, t) > 0 {
				n++
			}
		}
		held = append(held, n)
	}
	slices.Sort(held)
	b.Logf("query terms held: median %d, p95 %d, max %d", held[len(held)/2], held[len(held)*95/100], held[len(held)-1])
	caps := []int{0, 16, 32, 64, 128, 256}
	var names []string
	for _, k := range caps {
		names = append(names, fmt.Sprintf("k%d", k))
	}
	for _, what := range []string{"bm25", "hybrid"} {
		b.Run(what, func(b *testing.B) {
			timeVariants(b, qs, names, func(i int, q *Query) error {
				p := DefaultBM25
				p.Terms = caps[i]
				if what == "bm25" {
					_, _, err := BM25(p).Rank(context.Background(), s, q, 50, time.Time{})
					return err
				}
				opt := Options{Mode: Hybrid, TopK: 50, BM25: p}.withDefaults()
				var st Stats
				_, err := s.hybrid(context.Background(), q, opt, time.Time{}, &st)
				return err
			})
		})
	}
}

// TestBM25TermsReleaseClearsWords: the pooled state of a capped query
// keeps no word of the vocabulary once released, capped or not (a word
// is a view of the mapped file, which may be unmapped while the state
// waits in its pool).
func TestBM25TermsReleaseClearsWords(t *testing.T) {
	ix := mapIndex(t, randomIndex(t, rand.New(rand.NewPCG(3, 4)), 3, 30, 40))
	s := &Snapshot{base: ix}
	q := &Query{}
	for id := range uint32(ix.vocab.Len()) {
		if s.liveDF(ix, id) > 0 {
			q.Key = append(q.Key, id)
		}
	}
	if len(q.Key) < 4 {
		t.Fatalf("%d terms held, want at least 4", len(q.Key))
	}
	// Capped to 2 (the state is returned), then to every term (released
	// inside bm25Terms).
	for _, k := range []int{2, len(q.Key)} {
		c, _ := bm25CapPool.Get().(*bm25Cap)
		if c == nil {
			c = &bm25Cap{}
		}
		bm25CapPool.Put(c)
		cq, got := s.bm25Terms(q, k)
		if k < len(q.Key) {
			if got == nil || len(cq.Key) != k {
				t.Fatalf("k %d: the query of %d terms is not capped", k, len(q.Key))
			}
			c = got
			got.release()
		} else if got != nil {
			t.Fatalf("k %d: a state for an uncapped query", k)
		}
		if len(c.terms) != 0 {
			t.Fatalf("k %d: %d terms left in the released state", k, len(c.terms))
		}
		for i, x := range c.terms[:cap(c.terms)] {
			if x.word != "" {
				t.Fatalf("k %d: the released state keeps word %d (%q)", k, i, x.word)
			}
		}
	}
}

// TestBM25ParamsWithDefaults checks that k1 and b both zero stand for
// DefaultBM25's, the cap kept, and that nothing else is defaulted.
func TestBM25ParamsWithDefaults(t *testing.T) {
	for _, c := range []struct {
		in, want BM25Params
		valid    bool
	}{
		{BM25Params{}, DefaultBM25, true},
		{BM25Params{Terms: 16}, BM25Params{K1: DefaultBM25.K1, B: DefaultBM25.B, Terms: 16}, true},
		{BM25Params{K1: 2}, BM25Params{K1: 2}, true}, // b = 0 is no length normalisation
		{BM25Params{B: 0.5}, BM25Params{B: 0.5}, false},
		{BM25Params{Terms: -1}, BM25Params{K1: DefaultBM25.K1, B: DefaultBM25.B, Terms: -1}, false},
	} {
		got := c.in.WithDefaults()
		if got != c.want {
			t.Errorf("%+v.WithDefaults() = %+v, want %+v", c.in, got, c.want)
		}
		if err := got.Validate(); (err == nil) != c.valid {
			t.Errorf("%+v: Validate() = %v, want valid %v", got, err, c.valid)
		}
	}
}
