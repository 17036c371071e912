package retrieve

import (
	"context"
	"fmt"
	"github.com/graphcoder/graphcoder/embed"
	"github.com/graphcoder/graphcoder/internal/cputime"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func randomFloats(r *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(r.NormFloat64())
	}
	return v
}

// randomVectors gives each of n entries a vector, except a few.
func randomVectors(r *rand.Rand, n, dim int) []embed.Vector {
	out := make([]embed.Vector, n)
	for i := range out {
		if r.IntN(8) != 0 {
			out[i] = embed.Quantize(randomFloats(r, dim))
		}
	}
	return out
}

// bruteDense is the definition: the inner product of the stored vectors,
// positive scores only, best n.
func bruteDense(s *Snapshot, q *Query, n int) []Hit {
	var hits []Hit
	for _, le := range liveEntries(s) {
		d := &le.ix.vec
		if d.count == 0 || d.scale[le.local] == 0 || len(q.Vector.Values) == 0 {
			continue
		}
		var dot int64
		for i, x := range q.Vector.Values {
			dot += int64(x) * int64(d.vals[int(le.local)*d.dim+i])
		}
		score := float64(dot) * float64(d.scale[le.local]) * float64(q.Vector.Scale)
		if score > 0 && eligible(s, q, &le) {
			hits = append(hits, Hit{le.id, score})
		}
	}
	return sortHits(hits, n)
}

// TestDenseEqualsBruteForce covers files with and without vectors, base
// and delta.
func TestDenseEqualsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	for trial := range 20 {
		dim := 1 + r.IntN(40)
		base := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		delta := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		var masked []string
		for i := range 1 + r.IntN(5) {
			f := randomFile(r, fmt.Sprintf("f%d.py", i), 1+r.IntN(50), 20)
			if r.IntN(3) != 0 {
				f.Vectors = randomVectors(r, len(f.Entries), dim)
			}
			if err := base.Add(f); err != nil {
				t.Fatal(err)
			}
			if r.IntN(3) == 0 {
				g := randomFile(r, f.Path, 1+r.IntN(50), 20)
				g.Vectors = randomVectors(r, len(g.Entries), dim)
				if err := delta.Add(g); err != nil {
					t.Fatal(err)
				}
			} else if r.IntN(4) == 0 {
				masked = append(masked, f.Path)
			}
		}
		s, err := NewSnapshot(base.Index(), delta.Index(), masked)
		if err != nil {
			t.Fatal(err)
		}
		for qi := range 10 {
			q := snapshotQuery(r, s, 5, 20)
			q.Vector = embed.Quantize(randomFloats(r, dim))
			n := 1 + r.IntN(15)
			equalHits(t, fmt.Sprintf("trial %d query %d", trial, qi), mustRank(t, Dense(), s, q, n), bruteDense(s, q, n))
		}
		// No query vector: no hits, no error.
		q := snapshotQuery(r, s, 5, 20)
		if h := mustRank(t, Dense(), s, q, 5); len(h) != 0 {
			t.Fatalf("hits without a query vector: %v", h)
		}
		// A vector of another dimension is refused.
		q.Vector = embed.Quantize(randomFloats(r, dim+1))
		if s.HasVectors() {
			if _, _, err := Dense().Rank(context.Background(), s, q, 5, time.Time{}); err == nil || !strings.Contains(err.Error(), "dimensions") {
				t.Fatalf("dimension mismatch: %v", err)
			}
		}
	}
}

func TestAddRejectsBadVectors(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	b := NewBuilder(wordTokenizer{}, Params{})
	f := randomFile(r, "a.py", 5, 10)
	f.Vectors = randomVectors(r, 4, 8) // one short
	if err := b.Add(f); err == nil {
		t.Fatal("vectors for 4 of 5 entries accepted")
	}
	f.Vectors = randomVectors(r, 5, 8)
	if err := b.Add(f); err != nil {
		t.Fatal(err)
	}
	g := randomFile(r, "b.py", 5, 10)
	g.Vectors = randomVectors(r, 5, 9)
	if err := b.Add(g); err == nil || !strings.Contains(err.Error(), "dimensions") {
		t.Fatalf("a vector of another dimension: %v", err)
	}
	g.Vectors = []embed.Vector{{Scale: 0, Values: make([]int8, 8)}, {}, {}, {}, {}}
	if err := b.Add(g); err == nil {
		t.Fatal("a zero scale accepted")
	}
	// The refused file left nothing behind.
	g.Vectors = nil
	if err := b.Add(g); err != nil {
		t.Fatal(err)
	}
	ix := b.Index()
	if n, dim := ix.Vectors(); n != 5-countEmpty(f.Vectors) || dim != 8 || ix.Len() != 10 {
		t.Fatalf("vectors %d of dimension %d, entries %d", n, dim, ix.Len())
	}
}

func countEmpty(vs []embed.Vector) int {
	n := 0
	for _, v := range vs {
		if len(v.Values) == 0 {
			n++
		}
	}
	return n
}

// BenchmarkDense scans 8,400 entries of 768-dimensional vectors (the size
// of asyncio's index with a 768-dimensional model) for the top 50.
func BenchmarkDense(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	bl := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	for i := range 30 {
		f := randomFile(r, fmt.Sprintf("f%d.py", i), 280, 40)
		f.Vectors = randomVectors(r, len(f.Entries), 768)
		if err := bl.Add(f); err != nil {
			b.Fatal(err)
		}
	}
	s := &Snapshot{base: bl.Index()}
	q := randomQuery(r, s.base, 40)
	q.Vector = embed.Quantize(randomFloats(r, 768))
	b.ReportAllocs()
	c0 := cputime.Process()
	n := 0
	for b.Loop() {
		if _, _, err := Dense().Rank(context.Background(), s, q, 50, time.Time{}); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64((cputime.Process()-c0).Microseconds())/1000/float64(n), "cpu-ms/op")
}
