package symtab

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/graph/network"
	"gonum.org/v1/gonum/graph/simple"
)

// randomGraph returns the sorted adjacency lists of a random directed
// graph of n nodes without loops or duplicate edges, some nodes without
// out-edges, some without in-edges.
func randomGraph(rng *rand.Rand, n int) (out, in [][]int32) {
	out = make([][]int32, n)
	in = make([][]int32, n)
	for i := range n {
		if rng.IntN(5) == 0 {
			continue // dangling
		}
		deg := rng.IntN(min(n, 12))
		seen := map[int32]bool{int32(i): true}
		for range deg {
			j := int32(rng.IntN(n))
			if rng.IntN(3) == 0 {
				j = int32(rng.IntN(min(n, 4))) // a few popular nodes
			}
			if !seen[j] {
				seen[j] = true
				out[i] = append(out[i], j)
				in[j] = append(in[j], int32(i))
			}
		}
		slices.Sort(out[i])
	}
	for i := range in {
		slices.Sort(in[i])
	}
	return out, in
}

// TestPageRankMatchesGonum checks pageRank against gonum's
// graph/network.PageRankSparse run to a tight tolerance on random graphs.
func TestPageRankMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 13))
	for trial := range 60 {
		n := 1 + rng.IntN(300)
		out, in := randomGraph(rng, n)
		got := pageRank(out, in, pageRankDamping)
		g := simple.NewDirectedGraph()
		for i := range n {
			g.AddNode(simple.Node(i))
		}
		for i, o := range out {
			for _, j := range o {
				g.SetEdge(g.NewEdge(simple.Node(i), simple.Node(j)))
			}
		}
		want := network.PageRankSparse(g, pageRankDamping, 1e-14)
		var sum float64
		for i, r := range got {
			sum += r
			if w := want[int64(i)]; math.Abs(r-w) > 1e-9*math.Max(w, 1/float64(n)) {
				t.Fatalf("trial %d (%d nodes): rank of %d is %g, gonum's %g", trial, n, i, r, w)
			}
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("trial %d: ranks sum to %g", trial, sum)
		}
	}
}

// TestPageRankDeterministic checks that the same graph gives the same
// ranks bit for bit, which gonum's random start does not.
func TestPageRankDeterministic(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	out, in := randomGraph(rng, 2000)
	a := pageRank(out, in, pageRankDamping)
	for range 3 {
		if b := pageRank(out, in, pageRankDamping); !slices.Equal(a, b) {
			t.Fatal("ranks differ from one computation to the next")
		}
	}
	if pageRank(nil, nil, pageRankDamping) != nil {
		t.Fatal("ranks of an empty graph")
	}
}
