package sed

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/slice"
)

// referenceDistance is the decay-with-distance subgraph edit distance of
// the package doc written as plainly as possible: every similarity by
// Jaccard, no scratch reuse. It returns the distance and the alignment.
func referenceDistance(q, c *Graph, gamma float64) (float64, []int32) {
	nq, nc := q.Len(), c.Len()
	pow := func(h uint8) float64 {
		p := 1.0
		for range h {
			p *= gamma
		}
		return p
	}
	align := make([]int32, nq)
	for v := range align {
		align[v] = Unaligned
	}
	taken := make([]bool, nc)
	if q.Target >= 0 && q.Target < nq && c.Target >= 0 && c.Target < nc {
		align[q.Target] = int32(c.Target)
		taken[c.Target] = true
	}
	order := make([]int, nq)
	for v := range order {
		order[v] = v
	}
	slices.SortStableFunc(order, func(a, b int) int { return int(q.Hop[a]) - int(q.Hop[b]) })
	cost := 0.0
	for _, v := range order {
		if align[v] != Unaligned {
			continue
		}
		best, bestCost := int32(Unaligned), 1.0
		for u := range nc {
			if taken[u] {
				continue
			}
			if sc := 1 - Jaccard(tokensOf(q, v), tokensOf(c, u)); sc < bestCost {
				best, bestCost = int32(u), sc
			}
		}
		if best != Unaligned {
			align[v] = best
			taken[best] = true
		}
		cost += pow(q.Hop[v]) * bestCost
	}
	for _, e := range q.Edges {
		if int(e.From) >= nq || int(e.To) >= nq {
			continue
		}
		w := pow(q.Hop[e.From])
		a, b := align[e.From], align[e.To]
		if a == Unaligned || b == Unaligned {
			cost += w
			continue
		}
		typed := false
		for _, f := range c.Edges {
			if int32(f.From) == a && int32(f.To) == b && f.Type == e.Type {
				typed = true
			}
		}
		if !typed {
			cost += w
		}
	}
	if math.IsNaN(cost) {
		return math.Inf(1), align
	}
	return cost, align
}

// randomGraph returns a graph of n vertices whose token sets are drawn
// from a vocabulary of vocab ids, common of them held by most vertices
// (as keywords and brackets are), some vertices repeating an earlier
// vertex's set, a few empty; hops up to maxHop, edges of random types.
func randomGraph(r *rand.Rand, n, vocab, common, maxHop int) *Graph {
	g := &Graph{Target: r.IntN(n+1) - 1}
	if r.IntN(10) == 0 {
		g.Target = n + r.IntN(3) // out of range: no target
	}
	for v := range n {
		var set []uint32
		switch k := r.IntN(20); {
		case k == 0:
			// empty
		case k < 4 && v > 0:
			set = slices.Clone(g.Tokens[r.IntN(v)])
		default:
			for t := range common {
				if r.IntN(10) < 8 {
					set = append(set, uint32(t))
				}
			}
			for range r.IntN(12) {
				set = append(set, uint32(common+r.IntN(vocab)))
			}
			slices.Sort(set)
			set = slices.Compact(set)
		}
		g.Tokens = append(g.Tokens, set)
		g.Hop = append(g.Hop, uint8(r.IntN(maxHop+1)))
	}
	for range r.IntN(3*n + 1) {
		g.Edges = append(g.Edges, slice.Edge{From: uint16(r.IntN(n + 1)), To: uint16(r.IntN(n + 1)),
			Type: ccg.EdgeType(r.IntN(3))})
	}
	return g
}

// Both paths of the vertex assignment give the reference's distance, bit
// for bit, and its alignment, on random graphs small and large, with one
// scratch reused across all of them.
func TestDistanceMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 13))
	var s Scratch
	for i := range 3000 {
		n, m := 1+r.IntN(40), 1+r.IntN(40)
		if i%10 == 0 {
			n, m = 100+r.IntN(100), 100+r.IntN(100)
		}
		vocab, common := 1+r.IntN(60), r.IntN(6)
		q := randomGraph(r, n, vocab, common, 1+r.IntN(5))
		c := randomGraph(r, m, vocab, common, 1+r.IntN(5))
		if r.IntN(4) == 0 {
			// A candidate sharing most of the query's sets.
			c = randomGraph(r, n, vocab, common, 3)
			for v := range c.Tokens {
				if r.IntN(3) > 0 {
					c.Tokens[v] = slices.Clone(q.Tokens[r.IntN(n)])
				}
			}
		}
		gamma := []float64{0.1, 0.5, 1}[r.IntN(3)]
		want, wantAlign := referenceDistance(q, c, gamma)
		for _, byPostings := range []bool{false, true} {
			got := distance(q, c, gamma, &s, byPostings)
			if math.Float64bits(got) != math.Float64bits(want) || !slices.Equal(s.Alignment(), wantAlign) {
				t.Fatalf("case %d (postings %v, %d x %d vertices): distance %v alignment %v, want %v %v",
					i, byPostings, n, m, got, s.Alignment(), want, wantAlign)
			}
		}
	}
}

// arrayGraph is a slice of a long array initialiser as a cursor deep in
// one makes it: n rows at hop 2 of about 30 tokens, ten of them held by
// every row (the brackets, the element type, new), the rest drawn from a
// vocabulary of rows' own strings.
func arrayGraph(r *rand.Rand, n int) *Graph {
	g := &Graph{Target: 0, Tokens: [][]uint32{nil}, Hop: []uint8{0}}
	for v := 1; v < n; v++ {
		var set []uint32
		for t := range 10 {
			set = append(set, uint32(t))
		}
		for range 20 {
			set = append(set, uint32(10+r.IntN(4000)))
		}
		slices.Sort(set)
		g.Tokens = append(g.Tokens, slices.Compact(set))
		g.Hop = append(g.Hop, 2)
		g.Edges = append(g.Edges, slice.Edge{From: uint16(v), To: uint16(v - 1), Type: ccg.CF},
			slice.Edge{From: uint16(v), To: 0, Type: ccg.DD})
	}
	return g
}

// BenchmarkDistanceLarge scores a 148-vertex array-initialiser slice
// against another by each path of the vertex assignment.
func BenchmarkDistanceLarge(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	q, c := arrayGraph(r, 148), arrayGraph(r, 147)
	for _, path := range []struct {
		name       string
		byPostings bool
	}{{"merge", false}, {"postings", true}} {
		b.Run(path.name, func(b *testing.B) {
			var s Scratch
			b.ReportAllocs()
			for b.Loop() {
				distance(q, c, 0.1, &s, path.byPostings)
			}
		})
	}
}

// BenchmarkDistanceSmall is BenchmarkDistance by each path.
func BenchmarkDistanceSmall(b *testing.B) {
	for _, n := range []int{8, 16, 24, 40} {
		q, c := bigGraph(n), bigGraph(n)
		for _, path := range []struct {
			name       string
			byPostings bool
		}{{"merge", false}, {"postings", true}} {
			b.Run(path.name+"-"+string(rune('0'+n/8)), func(b *testing.B) {
				var s Scratch
				b.ReportAllocs()
				for b.Loop() {
					distance(q, c, 0.1, &s, path.byPostings)
				}
			})
		}
	}
}
