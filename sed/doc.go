// Package sed computes the decay-with-distance subgraph edit distance that
// GraphCoder uses to re-rank retrieved slices (Algorithm 2 of the paper).
//
// Exact graph edit distance is NP-hard; the paper approximates it with a
// greedy vertex assignment (Riesen et al. 2015). Query vertices are visited
// by increasing hop from the target, so the statements nearest the cursor
// choose their partners first, and each takes the cheapest still-free
// candidate vertex when substituting it costs less than deleting it. The
// query's dummy target is aligned with the candidate's own target at cost 0.
//
// Costs are weighted by gamma^hop(v): a mismatch next to the cursor matters
// much more than one five hops away, which is the point of the measure.
// With d(v) = gamma^hop(v):
//
//	SED = sum over aligned v    of d(v) * (1 - J(tokens(v), tokens(A(v))))
//	    + sum over unaligned v  of d(v)
//	    + sum over aligned e=(v,t,u) of d(v) * [no candidate edge A(v)->A(u) of type t]
//	    + sum over unaligned e=(v,t,u) of d(v)
//
// An edge is aligned when both of its ends are aligned and the candidate has
// at least one edge from A(v) to A(u) (same direction); it then costs 0 when
// one of those edges has the query edge's type, else 1.
//
// The assignment needs, for each query vertex, its Jaccard similarity with
// every free candidate vertex. Small graphs merge the token sets pair by
// pair; large ones (a slice of a long array initialiser has 150 vertices
// of 30 tokens on both sides) count the intersection sizes from the
// candidate's inverted lists, which is several times cheaper and gives the
// same costs bit for bit, hence the same alignment and distance
// (postings.go; a property test checks both paths against a plain
// reference).
//
// Graphs are compact: sorted integer token ids per vertex, a hop per vertex
// and typed edges between local vertex indexes. Distance is allocation-free
// once its Scratch has grown to the largest graph seen, so a retrieval can
// score thousands of candidates without touching the garbage collector.
package sed
