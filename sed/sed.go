package sed

import (
	"math"

	"github.com/graphcoder/graphcoder/slice"
)

// Graph is one slice in the compact form the distance needs. Vertex i has
// the token set Tokens[i] (sorted, no duplicates) and hop Hop[i]. Edges use
// local vertex indexes. The target's tokens are ignored.
type Graph struct {
	Target int
	Tokens [][]uint32
	Hop    []uint8
	Edges  []slice.Edge
}

// Len returns the number of vertices.
func (g *Graph) Len() int { return len(g.Hop) }

// Unaligned marks a query vertex with no candidate partner in an alignment.
const Unaligned = -1

// Scratch holds the buffers of Distance. The zero value is ready to use; a
// Scratch must not be shared between goroutines.
type Scratch struct {
	gamma float64
	pow   [256]float64 // gamma^hop

	order []int32 // query vertices by increasing hop
	align []int32 // query vertex -> candidate vertex or Unaligned
	taken []bool  // candidate vertex already assigned
	adj   []uint8 // candidate adjacency: bit t set when an edge of type t exists
	post  postings
}

func (s *Scratch) setGamma(gamma float64) {
	if s.gamma == gamma && s.pow[0] == 1 {
		return
	}
	s.gamma = gamma
	p := 1.0
	for i := range s.pow {
		s.pow[i] = p
		p *= gamma
	}
}

// Alignment returns the vertex alignment of the last Distance call: entry v
// is the candidate vertex aligned with query vertex v, or Unaligned. The
// slice is reused by the next call.
func (s *Scratch) Alignment() []int32 { return s.align }

// Jaccard returns |a n b| / |a u b| of two sorted, duplicate-free sets, and
// 0 when both are empty.
func Jaccard(a, b []uint32) float64 {
	if len(a) == 0 && len(b) == 0 {
		return 0
	}
	inter := 0
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			inter++
			i++
			j++
		}
	}
	return jaccard(inter, len(a), len(b))
}

// jaccard is the Jaccard similarity of two sets of na and nb elements
// with inter in common; both assignment paths compute it so, and give
// the same costs bit for bit.
func jaccard(inter, na, nb int) float64 {
	return float64(inter) / float64(na+nb-inter)
}

// Distance returns the decay-with-distance subgraph edit distance from the
// query q to the candidate c with decay gamma (see the package doc). It
// records the alignment in s. A vertex index or edge end outside its graph
// is treated as unaligned rather than trusted.
func Distance(q, c *Graph, gamma float64, s *Scratch) float64 {
	return distance(q, c, gamma, s, usePostings(q.Len(), c.Len()))
}

// distance is Distance with the vertex assignment's path chosen: the
// candidate's inverted lists or merges (postings.go); both give the same
// alignment and distance.
func distance(q, c *Graph, gamma float64, s *Scratch, byPostings bool) float64 {
	s.setGamma(gamma)
	nq, nc := q.Len(), c.Len()
	s.order = grow(s.order, nq)
	s.align = grow(s.align, nq)
	s.taken = growBool(s.taken, nc)
	for i := range s.taken {
		s.taken[i] = false
	}

	// Counting sort of query vertices by hop keeps the order stable and
	// allocation-free.
	var counts [257]int32
	for _, h := range q.Hop {
		counts[int(h)+1]++
	}
	for i := 1; i < len(counts); i++ {
		counts[i] += counts[i-1]
	}
	for v, h := range q.Hop {
		s.order[counts[h]] = int32(v)
		counts[h]++
		s.align[v] = Unaligned
	}

	cost := 0.0
	if q.Target >= 0 && q.Target < nq && c.Target >= 0 && c.Target < nc {
		s.align[q.Target] = int32(c.Target)
		s.taken[c.Target] = true
	}
	cost += s.assign(q, c, byPostings)

	// Candidate adjacency as an nc x nc matrix of edge-type bits.
	s.adj = growU8(s.adj, nc*nc)
	for _, e := range c.Edges {
		if int(e.From) < nc && int(e.To) < nc {
			s.adj[int(e.From)*nc+int(e.To)] |= 1 << e.Type
		}
	}
	for _, e := range q.Edges {
		if int(e.From) >= nq || int(e.To) >= nq {
			continue
		}
		w := s.pow[q.Hop[e.From]]
		a, b := s.align[e.From], s.align[e.To]
		if a == Unaligned || b == Unaligned {
			cost += w
			continue
		}
		bits := s.adj[int(a)*nc+int(b)]
		if bits == 0 || bits&(1<<e.Type) == 0 {
			cost += w // deleted, or aligned with an edge of another type
		}
	}
	for _, e := range c.Edges {
		if int(e.From) < nc && int(e.To) < nc {
			s.adj[int(e.From)*nc+int(e.To)] = 0
		}
	}
	if math.IsNaN(cost) {
		return math.Inf(1)
	}
	return cost
}

// assign gives the query vertices in s.order their partners as the
// package doc says, the nearest free candidate vertex of each found from
// c's inverted lists (byPostings, postings.go) or by merging the token
// sets, and returns the vertices' part of the distance.
func (s *Scratch) assign(q, c *Graph, byPostings bool) float64 {
	if byPostings {
		s.post.build(c)
	}
	cost := 0.0
	for _, v := range s.order {
		if s.align[v] != Unaligned {
			continue // the target
		}
		qt := tokensOf(q, int(v))
		var best int32
		var bestCost float64
		if byPostings {
			best, bestCost = s.nearestByPostings(qt)
		} else {
			best, bestCost = s.nearestByMerge(qt, c)
		}
		if best != Unaligned {
			s.align[v] = best
			s.taken[best] = true
		}
		cost += s.pow[q.Hop[v]] * bestCost // bestCost is 1 (deletion) when unaligned
	}
	return cost
}

// nearestByMerge returns the free candidate vertex of least cost 1 -
// Jaccard with the query tokens qt, the first of them, and its cost;
// Unaligned and 1 when none shares a token. Each similarity merges the
// two token sets.
func (s *Scratch) nearestByMerge(qt []uint32, c *Graph) (int32, float64) {
	best, bestCost := int32(Unaligned), 1.0
	for u := range c.Len() {
		if s.taken[u] {
			continue
		}
		if sc := 1 - Jaccard(qt, tokensOf(c, u)); sc < bestCost {
			best, bestCost = int32(u), sc
			if sc == 0 {
				break
			}
		}
	}
	return best, bestCost
}

func tokensOf(g *Graph, v int) []uint32 {
	if v == g.Target || v >= len(g.Tokens) {
		return nil
	}
	return g.Tokens[v]
}

func grow(b []int32, n int) []int32 {
	if cap(b) < n {
		return make([]int32, n, n+n/2)
	}
	return b[:n]
}

func growBool(b []bool, n int) []bool {
	if cap(b) < n {
		return make([]bool, n, n+n/2)
	}
	return b[:n]
}

func growU8(b []uint8, n int) []uint8 {
	if cap(b) < n {
		return make([]uint8, n, n+n/2) // zeroed; kept zero between calls
	}
	return b[:n]
}
