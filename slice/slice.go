package slice

import "github.com/graphcoder/graphcoder/ccg"

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
