package ccg

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/graph/flow"
	"gonum.org/v1/gonum/graph/simple"

	"github.com/graphcoder/graphcoder/ccg/ccgtest"
)

type edgeList struct {
	n        int
	from, to []int32
}

func randomGraph(r *rand.Rand, n, m int) edgeList {
	g := edgeList{n: n}
	// A spanning path keeps most vertices reachable; random edges add joins
	// and back edges.
	for v := 1; v < n; v++ {
		if r.IntN(10) > 0 {
			g.from = append(g.from, int32(r.IntN(v)))
			g.to = append(g.to, int32(v))
		}
	}
	for i := 0; i < m; i++ {
		a, b := int32(r.IntN(n)), int32(r.IntN(n))
		if a != b {
			g.from = append(g.from, a)
			g.to = append(g.to, b)
		}
	}
	return g
}

// cfgGraph is the union CF graph of a random statement tree.
func cfgGraph(r *rand.Rand, stmts int) edgeList {
	g := Build(ccgtest.RandomFile(r, stmts, "python"))
	el := edgeList{n: len(g.Nodes)}
	for _, e := range g.Edges {
		if e.Type == CF {
			el.from = append(el.from, e.From)
			el.to = append(el.to, e.To)
		}
	}
	return el
}

func gonumGraph(el edgeList) *simple.DirectedGraph {
	g := simple.NewDirectedGraph()
	for v := 0; v < el.n; v++ {
		g.AddNode(simple.Node(v))
	}
	for i := range el.from {
		if el.from[i] != el.to[i] {
			g.SetEdge(simple.Edge{F: simple.Node(el.from[i]), T: simple.Node(el.to[i])})
		}
	}
	return g
}

func ours(el edgeList, sc *domScratch, succ, pred *csr) []int32 {
	succ.fill(el.n, el.from, el.to, false)
	pred.fill(el.n, el.from, el.to, true)
	return sc.dominators(el.n, 0, succ, pred)
}

func TestDominatorsAgreeWithGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var sc domScratch
	var succ, pred csr
	for iter := 0; iter < 500; iter++ {
		var el edgeList
		if iter%2 == 0 {
			n := 1 + r.IntN(60)
			el = randomGraph(r, n, r.IntN(2*n+1))
		} else {
			el = cfgGraph(r, 1+r.IntN(80))
		}
		idom := ours(el, &sc, &succ, &pred)
		tree := flow.Dominators(simple.Node(0), gonumGraph(el))
		for v := 0; v < el.n; v++ {
			want := int64(-1)
			if d := tree.DominatorOf(int64(v)); d != nil {
				want = d.ID()
			}
			got := int64(idom[v])
			if v == 0 {
				got = -1 // gonum gives the root no dominator
			}
			if got != want {
				t.Fatalf("iter %d (n=%d): idom(%d) = %d, gonum %d", iter, el.n, v, got, want)
			}
		}
	}
}

// BenchmarkDominators compares our Cooper-Harvey-Kennedy implementation on
// int slices with gonum's Lengauer-Tarjan on the same graphs.
func BenchmarkDominators(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	graphs := []struct {
		name string
		el   edgeList
	}{
		{"cfg-5000", cfgGraph(r, 5000)},
		{"gnm-1000x2000", randomGraph(r, 1000, 2000)},
	}
	for _, tc := range graphs {
		b.Run(tc.name+"/chk", func(b *testing.B) {
			var sc domScratch
			var succ, pred csr
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				ours(tc.el, &sc, &succ, &pred)
			}
		})
		b.Run(tc.name+"/gonum", func(b *testing.B) {
			g := gonumGraph(tc.el)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				flow.Dominators(simple.Node(0), g)
			}
		})
		b.Run(tc.name+"/gonum+convert", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				flow.Dominators(simple.Node(0), gonumGraph(tc.el))
			}
		})
	}
}
