package sed

import (
	"math"
	"slices"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/slice"
)

func e(from, to uint16, t ccg.EdgeType) slice.Edge { return slice.Edge{From: from, To: to, Type: t} }

// chain is the query used by most cases: the dummy target 0 (hop 0), vertex
// 1 {1,2} at hop 1 flowing into it, vertex 2 {3} at hop 2 defining data
// vertex 1 uses.
func chain() *Graph {
	return &Graph{
		Target: 0,
		Tokens: [][]uint32{nil, {1, 2}, {3}},
		Hop:    []uint8{0, 1, 2},
		Edges:  []slice.Edge{e(1, 0, ccg.CF), e(2, 1, ccg.DD)},
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		name  string
		q, c  *Graph
		gamma float64
		want  float64
		align []int32
	}{
		{
			// Every vertex substitutes at cost 0, every edge maps onto an
			// edge of its own type: 0.
			name: "identical", q: chain(), c: chain(), gamma: 0.1, want: 0,
			align: []int32{0, 1, 2},
		},
		{
			// The candidate's target carries tokens of its own: they are
			// ignored, the targets align at cost 0.
			name: "target tokens ignored", q: chain(),
			c: &Graph{Target: 0, Tokens: [][]uint32{{9, 9}, {1, 2}, {3}}, Hop: []uint8{0, 1, 2},
				Edges: []slice.Edge{e(1, 0, ccg.CF), e(2, 1, ccg.DD)}},
			gamma: 0.1, want: 0, align: []int32{0, 1, 2},
		},
		{
			// No token in common: substitution costs 1, not less than
			// deletion, so vertices 1 and 2 are deleted: 0.1 + 0.01.
			// Both edges lose an end: 0.1 (edge from hop-1 vertex 1) +
			// 0.01 (edge from hop-2 vertex 2). Total 0.22.
			name: "disjoint", q: chain(),
			c: &Graph{Target: 0, Tokens: [][]uint32{nil, {7, 8}, {9}}, Hop: []uint8{0, 1, 1},
				Edges: []slice.Edge{e(1, 0, ccg.CF)}},
			gamma: 0.1, want: 0.22, align: []int32{0, Unaligned, Unaligned},
		},
		{
			// Vertices align at cost 0; edge 1->0 CF matches; edge 2->1
			// is DD in the query but CF in the candidate: 0.1^2 * 1 = 0.01.
			name: "edge type mismatch", q: chain(),
			c: &Graph{Target: 0, Tokens: [][]uint32{nil, {1, 2}, {3}}, Hop: []uint8{0, 1, 2},
				Edges: []slice.Edge{e(1, 0, ccg.CF), e(2, 1, ccg.CF)}},
			gamma: 0.1, want: 0.01, align: []int32{0, 1, 2},
		},
		{
			// A parallel edge of the right type makes the pair match: 0.
			name: "parallel edges", q: chain(),
			c: &Graph{Target: 0, Tokens: [][]uint32{nil, {1, 2}, {3}}, Hop: []uint8{0, 1, 2},
				Edges: []slice.Edge{e(1, 0, ccg.CF), e(2, 1, ccg.CF), e(2, 1, ccg.DD)}},
			gamma: 0.1, want: 0, align: []int32{0, 1, 2},
		},
		{
			// Edges are directed: the candidate's 0->1 does not align the
			// query's 1->0, which is deleted at 0.1^1 = 0.1.
			name: "reversed edge", q: chain(),
			c: &Graph{Target: 0, Tokens: [][]uint32{nil, {1, 2}, {3}}, Hop: []uint8{0, 1, 2},
				Edges: []slice.Edge{e(0, 1, ccg.CF), e(2, 1, ccg.DD)}},
			gamma: 0.1, want: 0.1, align: []int32{0, 1, 2},
		},
		{
			// Vertex 1 {1,2} vs {1,3}: J = 1/3, cost 2/3 at hop 1.
			// gamma 0.1: 0.1 * 2/3.
			name: "gamma 0.1", q: chain(), c: partial(), gamma: 0.1, want: 0.1 * 2 / 3,
			align: []int32{0, 1, 2},
		},
		{
			// Same pair, gamma 0.5: 0.5 * 2/3 = 1/3.
			name: "gamma 0.5", q: chain(), c: partial(), gamma: 0.5, want: 1.0 / 3,
			align: []int32{0, 1, 2},
		},
		{
			// gamma 1 removes the decay: 2/3.
			name: "gamma 1", q: chain(), c: partial(), gamma: 1, want: 2.0 / 3,
			align: []int32{0, 1, 2},
		},
		{
			// The vertex nearer the target chooses first: vertex 1 {1,2}
			// (hop 1) takes the only candidate vertex {1} at cost 1/2;
			// vertex 2 {1} (hop 2), which would have matched it exactly,
			// is deleted. 0.1*0.5 + 0.01*1 = 0.06; no edges.
			name:  "greedy by hop",
			q:     &Graph{Target: 0, Tokens: [][]uint32{nil, {1, 2}, {1}}, Hop: []uint8{0, 1, 2}},
			c:     &Graph{Target: 0, Tokens: [][]uint32{nil, {1}}, Hop: []uint8{0, 1}},
			gamma: 0.1, want: 0.06, align: []int32{0, 1, Unaligned},
		},
		{
			// A query made of the target alone costs nothing.
			name: "empty query slice",
			q:    &Graph{Target: 0, Tokens: [][]uint32{nil}, Hop: []uint8{0}},
			c:    chain(), gamma: 0.1, want: 0, align: []int32{0},
		},
		{
			// Against a candidate with no vertex at all every query vertex
			// and edge is deleted: target 1 + 0.1 + 0.01 + edges 0.1 + 0.01.
			name: "empty candidate", q: chain(),
			c:     &Graph{Target: -1},
			gamma: 0.1, want: 1.22, align: []int32{Unaligned, Unaligned, Unaligned},
		},
		{
			name: "both empty", q: &Graph{Target: -1}, c: &Graph{Target: -1},
			gamma: 0.1, want: 0, align: []int32{},
		},
	}
	var s Scratch
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Distance(tt.q, tt.c, tt.gamma, &s)
			if math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Distance = %v, want %v", got, tt.want)
			}
			if al := s.Alignment(); !slices.Equal(al, tt.align) {
				t.Errorf("alignment = %v, want %v", al, tt.align)
			}
		})
	}
}

// partial is chain with vertex 1 holding {1,3} instead of {1,2}.
func partial() *Graph {
	g := chain()
	g.Tokens[1] = []uint32{1, 3}
	return g
}

func TestJaccard(t *testing.T) {
	tests := []struct {
		a, b []uint32
		want float64
	}{
		{nil, nil, 0},
		{[]uint32{1}, nil, 0},
		{[]uint32{1, 2}, []uint32{1, 2}, 1},
		{[]uint32{1, 2, 3}, []uint32{2, 3, 4, 5}, 2.0 / 5},
	}
	for _, tt := range tests {
		if got := Jaccard(tt.a, tt.b); got != tt.want {
			t.Errorf("Jaccard(%v, %v) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

// The scratch must not leak state between calls: scoring a large graph and
// then a small one gives the same result as a fresh scratch.
func TestScratchReuse(t *testing.T) {
	var s Scratch
	big := bigGraph(40)
	Distance(big, big, 0.1, &s)
	var fresh Scratch
	a := Distance(chain(), partial(), 0.1, &s)
	b := Distance(chain(), partial(), 0.1, &fresh)
	if a != b {
		t.Fatalf("reused scratch %v, fresh %v", a, b)
	}
}

func TestDistanceAllocs(t *testing.T) {
	q, c := bigGraph(20), bigGraph(25)
	var s Scratch
	Distance(q, c, 0.1, &s)
	if n := testing.AllocsPerRun(100, func() { Distance(q, c, 0.1, &s) }); n != 0 {
		t.Fatalf("Distance allocates %v times per call, want 0", n)
	}
}

func bigGraph(n int) *Graph {
	g := &Graph{Target: n - 1}
	for i := 0; i < n; i++ {
		g.Tokens = append(g.Tokens, []uint32{uint32(i % 7), uint32(10 + i%5), uint32(20 + i)})
		g.Hop = append(g.Hop, uint8(n-1-i))
		if i > 0 {
			g.Edges = append(g.Edges, e(uint16(i-1), uint16(i), ccg.CF))
		}
		if i > 2 {
			g.Edges = append(g.Edges, e(uint16(i-3), uint16(i), ccg.DD))
		}
	}
	return g
}

func BenchmarkDistance(b *testing.B) {
	q, c := bigGraph(20), bigGraph(20)
	var s Scratch
	b.ReportAllocs()
	for b.Loop() {
		Distance(q, c, 0.1, &s)
	}
}
