package ccg

import (
	"fmt"
	"strings"

	"github.com/graphcoder/graphcoder/lang"
)

// EdgeType is the relation an edge stands for.
type EdgeType uint8

const (
	CF EdgeType = iota // control flow
	CD                 // control dependence
	DD                 // data dependence
)

func (t EdgeType) String() string {
	switch t {
	case CF:
		return "CF"
	case CD:
		return "CD"
	case DD:
		return "DD"
	}
	return fmt.Sprintf("EdgeType(%d)", t)
}

// NoScope is the Scope of top-level statements.
const NoScope = -1

// Node is one vertex: a statement of the file. It is 40 bytes: its
// names (Graph.Defs, Graph.Uses, Graph.Params) are a range of one pool
// the graph holds, not three slices of their own, since a large file's
// vertices and their name lists are most of what its graph holds.
type Node struct {
	Kind lang.Kind
	// Dummy marks the query-side target vertex, which has no text.
	Dummy bool
	// Scope is the id of the Func/Class header (or the statement owning an
	// Inner block) whose body holds this statement, or NoScope.
	Scope int32
	// StartRow and EndRow are 0-based, inclusive.
	StartRow, EndRow int
	// The vertex's names are Graph.names[names:]: nDefs definitions,
	// nParams parameters, nUses uses.
	names, nDefs, nParams, nUses uint32
}

// Edge is a typed directed edge between two vertex ids. A DD edge names
// its variable by number (Graph.Var): a file has several edges a
// statement, and an edge is 16 bytes where one holding the name took 32.
type Edge struct {
	From, To int32
	// Var is 1 + the index in Graph.Vars of the variable of a DD edge, 0
	// for none.
	Var  int32
	Type EdgeType
}

// Graph is the code context graph of one file. Vertex ids are indexes into
// Nodes, in source pre-order (a header before its body).
type Graph struct {
	Path     string
	Language string
	Lines    []string
	// Nodes are the vertices; a vertex's names are read with Defs, Uses
	// and Params, and a vertex with names is added with AddNode.
	Nodes []Node
	// names holds every vertex's names, each vertex's a range (Node.names).
	names []string
	// Edges are sorted by (From, To, Type, Var) and free of duplicates;
	// Vars, the names of the DD edges' variables, are sorted, so that
	// the order of Var is that of the names.
	Edges []Edge
	Vars  []string

	in, out [3]csr // adjacency by edge type, built by index()

	// enclosing is the chain of statements holding the last statement
	// in source order, innermost first (that statement, the statement
	// whose block holds it, ..., a top-level statement); after maps each
	// construct of the chain to the vertices whose normal completion flows
	// into the statement following it. AppendTarget reads both.
	enclosing []link
	after     map[int32][]int32
}

// Defs returns the names vertex v defines (lang.Stmt.Defs).
func (g *Graph) Defs(v int32) []string {
	n := &g.Nodes[v]
	return g.name(n.names, n.nDefs)
}

// Params returns the names bound only inside the scope vertex v opens
// (lang.Stmt.Params): their definitions reach the vertices of that scope
// and nothing after the vertex in its own scope.
func (g *Graph) Params(v int32) []string {
	n := &g.Nodes[v]
	return g.name(n.names+n.nDefs, n.nParams)
}

// Uses returns the names vertex v reads (lang.Stmt.Uses).
func (g *Graph) Uses(v int32) []string {
	n := &g.Nodes[v]
	return g.name(n.names+n.nDefs+n.nParams, n.nUses)
}

func (g *Graph) name(at, n uint32) []string {
	if n == 0 {
		return nil
	}
	return g.names[at : at+n : at+n]
}

// AddNode appends vertex n with the given names (n's own are ignored) and
// returns its id.
func (g *Graph) AddNode(n Node, defs, uses, params []string) int32 {
	g.names = appendNames(g.names, &n, defs, uses, params)
	g.Nodes = append(g.Nodes, n)
	return int32(len(g.Nodes) - 1)
}

// appendNames appends the names of a vertex to pool and sets n's range.
func appendNames(pool []string, n *Node, defs, uses, params []string) []string {
	n.names, n.nDefs, n.nParams, n.nUses = uint32(len(pool)), uint32(len(defs)), uint32(len(params)), uint32(len(uses))
	pool = append(pool, defs...)
	pool = append(pool, params...)
	return append(pool, uses...)
}

// DropNames lets go of the vertices' names: Defs, Uses and Params return
// nil afterwards.
func (g *Graph) DropNames() {
	g.names = nil
	for i := range g.Nodes {
		n := &g.Nodes[i]
		n.names, n.nDefs, n.nParams, n.nUses = 0, 0, 0, 0
	}
}

// Var returns the name of the variable of edge e, "" for none.
func (g *Graph) Var(e Edge) string {
	if e.Var <= 0 || int(e.Var) > len(g.Vars) {
		return ""
	}
	return g.Vars[e.Var-1]
}

// Text returns the source text of vertex v ("" for a dummy).
func (g *Graph) Text(v int32) string {
	n := &g.Nodes[v]
	if n.Dummy || n.StartRow < 0 || n.EndRow >= len(g.Lines) || n.StartRow > n.EndRow {
		return ""
	}
	return strings.Join(g.Lines[n.StartRow:n.EndRow+1], "\n")
}

// In returns the predecessors of v over edges of type t.
func (g *Graph) In(v int32, t EdgeType) []int32 { return g.in[t].row(v) }

// Out returns the successors of v over edges of type t.
func (g *Graph) Out(v int32, t EdgeType) []int32 { return g.out[t].row(v) }

// NodeAt returns the id of the first vertex that starts on row (0-based),
// or -1.
func (g *Graph) NodeAt(row int) int32 {
	for i := range g.Nodes {
		if g.Nodes[i].StartRow == row && !g.Nodes[i].Dummy {
			return int32(i)
		}
	}
	return -1
}
