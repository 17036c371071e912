package slice

import (
	"slices"

	"github.com/graphcoder/graphcoder/ccg"
)

// Options are the parameters of Algorithm 1.
type Options struct {
	Hops          int // h: maximum CF hops from the target (default 5)
	MaxStatements int // l: stop once this many statements are collected (default 20)
}

// DefaultOptions returns h=5, l=20.
func DefaultOptions() Options { return Options{Hops: 5, MaxStatements: 20} }

// Edge is an edge of a slice between two local vertex indexes.
type Edge struct {
	From, To uint16
	Type     ccg.EdgeType
}

// Slice is the h-hop context of one statement: an induced subgraph of the
// CCG. Local vertex i is graph vertex Nodes[i]; Nodes is sorted by source
// position, so the context sequence slice is the texts in this order.
type Slice struct {
	Target int     // local index of the target vertex
	Nodes  []int32 // graph vertex ids
	Hop    []uint8 // BFS distance from the target, any edge type and direction
	Edges  []Edge  // sorted by (From, To, Type)
}

// Unreachable is the Hop of a slice vertex that no path inside the slice
// joins to the target. Algorithm 1 never produces one (every vertex enters
// the slice through an edge to a vertex already in it); the value is
// defined for slices built by other means. Distances that would reach it
// are clamped to Unreachable-1.
const Unreachable = 255

// maxNodes keeps local indexes within uint16.
const maxNodes = 1<<16 - 1

// Of returns the slice of target in g. It is a convenience for one-off
// calls; use a Slicer to slice many statements.
func Of(g *ccg.Graph, target int32, opt Options) *Slice {
	var s Slicer
	return s.Of(g, target, opt)
}

// Slicer computes slices reusing its buffers between calls, so slicing
// every statement of a file allocates little beyond the results. A Slicer
// is not safe for concurrent use.
type Slicer struct {
	// mark[v] == epoch while v is in the slice; local[v] is then its
	// index in members. queued[v] == epoch once v entered the BFS queue.
	mark, queued []uint32
	local        []int32
	epoch        uint32

	members []int32 // slice vertices in insertion order
	queue   []int32 // BFS queue of vertices ...
	depth   []int32 // ... and their CF hop count
	hop     []int32 // BFS distance of each local vertex, -1 unseen
	order   []int32 // BFS queue over local vertices
	off     []int32 // undirected local adjacency (CSR)
	adj     []int32
	cur     []int32
	edges   []Edge
}

// Of computes Algorithm 1 of the GraphCoder paper for target with h =
// opt.Hops and l = opt.MaxStatements:
//
//	X := {}; queue := [(target, 0)]
//	while queue not empty:
//	    (x, d) := pop front;  if d > h: break
//	    X_CF += x;  X_DD += DD-in(x);  X_CD += CD-in(x)
//	    if |X_CF ∪ X_CD ∪ X_DD| >= l: break
//	    push (z, d+1) for each CF in-neighbour z not in X_CF and not queued
//
// The target stands for the statement to predict, whose uses are unknown
// at prediction time (and the query-side dummy has none), so its own DD
// and CD in-edges are ignored while collecting and are left out of the
// induced edges. The result is g induced on X_CF ∪ X_CD ∪ X_DD minus those
// edges, vertices sorted by (StartRow, id).
//
// Size bound. Let l' = max(l, 1) and D = the largest number of distinct
// DD/CD in-neighbours of a vertex other than the target. Then
//
//	|slice| <= l' - 1 + 1 + D = l' + D   (and always <= |V|).
//
// Proof: every iteration that does not break starts and ends with |X| < l
// (otherwise it would have broken), and the first iteration starts with
// |X| = 0 <= l' - 1. So the last iteration starts with |X| <= l' - 1 and
// adds at most the vertex x itself plus its DD and CD in-neighbours: at
// most 1 + D vertices (1 for the target, which contributes no in-
// neighbours). Earlier iterations left |X| < l. Hence |X| <= l' - 1 + 1 +
// D. The bound is tight: a target whose single CF predecessor has D
// distinct DD/CD predecessors reaches it with l = 2. Slices are also
// capped at 65,535 vertices so local indexes fit in uint16.
func (s *Slicer) Of(g *ccg.Graph, target int32, opt Options) *Slice {
	return s.OfInto(g, target, opt, nil)
}

// OfInto is Of writing the slice into dst, reusing its buffers, and
// returning it; with a nil dst it allocates a new Slice. A caller that is
// done with each slice before it computes the next (an index build
// encoding every statement's slice) then allocates nothing per slice.
func (s *Slicer) OfInto(g *ccg.Graph, target int32, opt Options, dst *Slice) *Slice {
	if dst == nil {
		dst = &Slice{}
	}
	n := len(g.Nodes)
	if target < 0 || int(target) >= n {
		*dst = Slice{Target: -1, Nodes: dst.Nodes[:0], Hop: dst.Hop[:0], Edges: dst.Edges[:0]}
		return dst
	}
	s.reset(n)
	// The target is always in its slice: a negative h is taken as 0.
	h, l := max(opt.Hops, 0), opt.MaxStatements
	s.queue = append(s.queue[:0], target)
	s.depth = append(s.depth[:0], 0)
	s.queued[target] = s.epoch
	full := false
	for head := 0; head < len(s.queue) && !full; head++ {
		x, d := s.queue[head], s.depth[head]
		if int(d) > h {
			break
		}
		full = !s.add(x)
		if x != target {
			for _, z := range g.In(x, ccg.DD) {
				full = full || !s.add(z)
			}
			for _, z := range g.In(x, ccg.CD) {
				full = full || !s.add(z)
			}
		}
		if len(s.members) >= l {
			break
		}
		for _, z := range g.In(x, ccg.CF) {
			if s.queued[z] != s.epoch {
				// Not queued yet implies not in X_CF: every X_CF vertex was queued.
				s.queued[z] = s.epoch
				s.queue = append(s.queue, z)
				s.depth = append(s.depth, d+1)
			}
		}
	}
	return s.result(g, target, dst)
}

func (s *Slicer) reset(n int) {
	if len(s.mark) < n {
		s.mark = make([]uint32, n)
		s.queued = make([]uint32, n)
		s.local = make([]int32, n)
		s.epoch = 0
	}
	s.epoch++
	if s.epoch == 0 { // wrapped: clear the stamps
		clear(s.mark)
		clear(s.queued)
		s.epoch = 1
	}
	s.members = s.members[:0]
}

// add puts v in the slice; it reports false when the slice is at its cap.
func (s *Slicer) add(v int32) bool {
	if s.mark[v] == s.epoch {
		return true
	}
	if len(s.members) >= maxNodes {
		return false
	}
	s.mark[v] = s.epoch
	s.members = append(s.members, v)
	return true
}

// result sorts the members, induces the edges and computes hops.
func (s *Slicer) result(g *ccg.Graph, target int32, out *Slice) *Slice {
	k := len(s.members)
	out.Target = 0
	out.Nodes = append(out.Nodes[:0], s.members...)
	if cap(out.Hop) < k {
		out.Hop = make([]uint8, k)
	}
	out.Hop = out.Hop[:k]
	slices.SortFunc(out.Nodes, func(a, b int32) int {
		if ra, rb := g.Nodes[a].StartRow, g.Nodes[b].StartRow; ra != rb {
			return ra - rb
		}
		return int(a - b)
	})
	for i, v := range out.Nodes {
		s.local[v] = int32(i)
		if v == target {
			out.Target = i
		}
	}
	s.edges = s.edges[:0]
	for i, v := range out.Nodes {
		for t := ccg.CF; t <= ccg.DD; t++ {
			for _, w := range g.Out(v, t) {
				if s.mark[w] != s.epoch || (t != ccg.CF && w == target) {
					continue
				}
				s.edges = append(s.edges, Edge{From: uint16(i), To: uint16(s.local[w]), Type: t})
			}
		}
	}
	slices.SortFunc(s.edges, func(a, b Edge) int {
		if a.From != b.From {
			return int(a.From) - int(b.From)
		}
		if a.To != b.To {
			return int(a.To) - int(b.To)
		}
		return int(a.Type) - int(b.Type)
	})
	out.Edges = append(out.Edges[:0], s.edges...)

	// Hops: BFS from the target over slice edges in both directions.
	s.hop = grow(s.hop, k)
	for i := range s.hop {
		s.hop[i] = -1
	}
	s.order = append(s.order[:0], int32(out.Target))
	s.hop[out.Target] = 0
	// Undirected adjacency of the slice in CSR form.
	s.off = grow(s.off, k+1)
	clear(s.off)
	for _, e := range out.Edges {
		s.off[e.From+1]++
		s.off[e.To+1]++
	}
	for i := 1; i <= k; i++ {
		s.off[i] += s.off[i-1]
	}
	s.adj = grow(s.adj, int(s.off[k]))
	s.cur = append(s.cur[:0], s.off[:k]...)
	for _, e := range out.Edges {
		s.adj[s.cur[e.From]] = int32(e.To)
		s.cur[e.From]++
		s.adj[s.cur[e.To]] = int32(e.From)
		s.cur[e.To]++
	}
	for head := 0; head < len(s.order); head++ {
		u := s.order[head]
		for _, w := range s.adj[s.off[u]:s.off[u+1]] {
			if s.hop[w] < 0 {
				s.hop[w] = s.hop[u] + 1
				s.order = append(s.order, w)
			}
		}
	}
	for i, d := range s.hop {
		switch {
		case d < 0:
			out.Hop[i] = Unreachable
		case d >= Unreachable:
			out.Hop[i] = Unreachable - 1
		default:
			out.Hop[i] = uint8(d)
		}
	}
	return out
}

func grow(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n)
}
