package ccg

import (
	"cmp"
	"runtime"
	"slices"

	"github.com/graphcoder/graphcoder/lang"
)

// collectFrom is the number of statements from which Build collects the
// garbage once the vertices are made, before the control flow (the
// statement tree it lets go of then is the largest thing live), and once
// the control flow is built, before the dependences: the heap may grow
// by as much as it holds after a collection before the next. No file of
// the Python standard library or the JDK has this many statements, and a
// collection costs milliseconds. (A variable for the tests.)
var collectFrom = 8192

// Build returns the code context graph of f: one vertex per statement (ids
// in lang.Walk pre-order) and its CF, CD and DD edges. It never fails: a
// statement the builder does not understand is a plain sequential vertex.
// It does not change f.
func Build(f *lang.File) *Graph { return build(f, false) }

// BuildConsuming is Build for a caller that is done with f's statement
// tree: for a file of collectFrom statements or more it takes the tree
// apart while it numbers the vertices (f.Stmts and every statement list
// of the tree hold nil afterwards), so that the statements numbered so
// far are collected before the vertices are grown to their number, and
// the whole tree is never in the heap beside all the vertices.
func BuildConsuming(f *lang.File) *Graph { return build(f, true) }

func build(f *lang.File, consume bool) *Graph {
	g := &Graph{Path: f.Path, Language: f.Language, Lines: f.Lines}
	n, names := 0, 0
	lang.Walk(f.Stmts, func(s *lang.Stmt) { n, names = n+1, names+len(s.Defs())+len(s.Params())+len(s.Uses()) })
	b := &cfgBuilder{lines: f.Lines, pendingLoop: none, python: f.Language == "python",
		ecma: f.Language == "javascript" || f.Language == "typescript"}
	if b.consume = consume && n >= collectFrom; b.consume {
		// Room for two thirds: the vertices grow to n once, after a
		// collection of the statements numbered by then (number1).
		b.nodes, b.total = make([]Node, 0, 2*n/3+1), n
	} else {
		b.nodes = make([]Node, 0, n)
	}
	b.names = make([]string, 0, names)
	b.t = idTree{lists: make([]int32, 0, n), body: make([]span, 0, n), clause: make([]int32, 0, n), inline: make([]bool, 0, n)}
	top := b.t.list(b.number(f.Stmts, NoScope))
	// The statement tree is not read past this point: the vertices and
	// b.t hold what the control flow needs of it, so that a caller who
	// has no other use for the tree can have it collected before the
	// control flow is built (for a large file it is the largest thing
	// live).
	f, b.stack = nil, nil
	if n >= collectFrom {
		runtime.GC() // see collectFrom
	}
	b.from = make([]int32, 0, n+n/2)
	b.to = make([]int32, 0, n+n/2)
	b.enclose(top)
	b.top(top)
	b.t = idTree{}
	g.Nodes, g.names = b.nodes, b.names
	if n >= collectFrom {
		runtime.GC() // the tree of ids and the frontiers
	}
	g.enclosing, g.after = b.chain, b.after

	cdFrom, cdTo := controlDependences(g.Nodes, b.from, b.to, b.exits)
	if n >= collectFrom {
		runtime.GC() // the dominator scratch
	}
	var dd ddBuilder // holds only its result
	dd.build(g, b.from, b.to)
	if n >= collectFrom {
		runtime.GC() // the solver's sets
	}

	edges := make([]Edge, 0, len(b.from)+len(cdFrom)+len(dd.from))
	for i := range b.from {
		if b.from[i] != b.to[i] {
			edges = append(edges, Edge{From: b.from[i], To: b.to[i], Type: CF})
		}
	}
	for i := range cdFrom {
		edges = append(edges, Edge{From: cdFrom[i], To: cdTo[i], Type: CD})
	}
	// The names of the variables, sorted, and each name's number in them.
	var rank []int32
	g.Vars, rank = sortedNames(dd.names)
	for i := range dd.from {
		edges = append(edges, Edge{From: dd.from[i], To: dd.to[i], Type: DD, Var: rank[dd.vars[i]] + 1})
	}
	slices.SortFunc(edges, compareEdges)
	g.Edges = slices.Compact(edges)
	g.index()
	return g
}

// controlDependences returns the CD edges; the builder's scratch is
// garbage when it returns.
func controlDependences(nodes []Node, from, to, exits []int32) (cdFrom, cdTo []int32) {
	var cd cdBuilder
	cd.build(nodes, from, to, exits)
	return cd.cdFrom, cd.cdTo
}

func compareEdges(a, b Edge) int {
	if c := cmp.Compare(a.From, b.From); c != 0 {
		return c
	}
	if c := cmp.Compare(a.To, b.To); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Type, b.Type); c != 0 {
		return c
	}
	return cmp.Compare(a.Var, b.Var)
}

// sortedNames returns names sorted and without duplicates, and the index
// of each of names in them.
func sortedNames(names []string) (sorted []string, rank []int32) {
	if len(names) == 0 {
		return nil, nil
	}
	order := make([]int32, len(names))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Compare(names[a], names[b]) })
	rank = make([]int32, len(names))
	sorted = make([]string, 0, len(names))
	for _, i := range order {
		if len(sorted) == 0 || sorted[len(sorted)-1] != names[i] {
			sorted = append(sorted, names[i])
		}
		rank[i] = int32(len(sorted) - 1)
	}
	return sorted, rank
}

// index rebuilds the adjacency lists from Edges, in compressed rows (one
// offset array and one neighbour array per edge type and direction, so a
// vertex costs six offsets rather than six slices). Each list holds a
// neighbour once per edge type, even when several DD edges (one per
// variable) join the same pair.
func (g *Graph) index() {
	n := len(g.Nodes)
	unique := func(i int) bool {
		e := g.Edges[i]
		if i > 0 {
			p := g.Edges[i-1]
			if p.From == e.From && p.To == e.To && p.Type == e.Type {
				return false
			}
		}
		return int(e.From) < n && int(e.To) < n && e.From >= 0 && e.To >= 0 && int(e.Type) < len(g.in)
	}
	for t := range g.in {
		g.in[t].off = make([]int32, n+1)
		g.out[t].off = make([]int32, n+1)
	}
	for i, e := range g.Edges {
		if unique(i) {
			g.in[e.Type].off[e.To+1]++
			g.out[e.Type].off[e.From+1]++
		}
	}
	next := [3][2][]int32{}
	for t := range g.in {
		for v := 0; v < n; v++ {
			g.in[t].off[v+1] += g.in[t].off[v]
			g.out[t].off[v+1] += g.out[t].off[v]
		}
		g.in[t].adj = make([]int32, g.in[t].off[n])
		g.out[t].adj = make([]int32, g.out[t].off[n])
		next[t][0] = append([]int32(nil), g.in[t].off[:n]...)
		next[t][1] = append([]int32(nil), g.out[t].off[:n]...)
	}
	for i, e := range g.Edges {
		if unique(i) {
			in, out := &next[e.Type][0][e.To], &next[e.Type][1][e.From]
			g.in[e.Type].adj[*in] = e.From
			g.out[e.Type].adj[*out] = e.To
			*in++
			*out++
		}
	}
}
