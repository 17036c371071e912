package ccg

import "slices"

// ddBuilder solves reaching definitions over the union CF graph and emits
// a DD edge for every definition that reaches a use of the same name.
//
// Two exact solvers give the same edges in the same order. The dense one,
// an iterative bit-vector data-flow pass over all definition sites at
// once, is the fast one for real code. Its sets take vertices x sites
// bits, which grows with the square of a file's size (20,000 functions
// with two parameters each would need 300 MB), so past ddDenseWords words
// the sparse one runs instead: reaching definitions of different names
// never interact (a definition kills only those of its own name), so it
// solves one name at a time, with sets of that name's sites only, kept
// sorted and sparse; memory then grows with the vertices and the sets
// that actually reach them.
type ddBuilder struct {
	from, to, vars []int32 // result: DD edges and the interned name of each
	names          []string
}

// ddDenseWords bounds the bit-vector words (8 bytes each) of the dense
// solver: 2M words, 16 MiB. (A variable for the tests.)
var ddDenseWords = 1 << 21

func (d *ddBuilder) build(g *Graph, cfFrom, cfTo []int32) {
	nodes := g.Nodes
	n := len(nodes)
	if n == 0 {
		return
	}
	// Intern the names that are used somewhere: a definition of a name
	// nobody reads can never give an edge, so it gets no site.
	ids := make(map[string]int32)
	for i := range nodes {
		for _, u := range g.Uses(int32(i)) {
			if _, ok := ids[u]; !ok {
				ids[u] = int32(len(d.names))
				d.names = append(d.names, u)
			}
		}
	}
	sites := 0
	for i := range nodes {
		for _, def := range g.Defs(int32(i)) {
			if _, ok := ids[def]; ok {
				sites++
			}
		}
		for _, p := range g.Params(int32(i)) {
			if _, ok := ids[p]; ok && !slices.Contains(g.Defs(int32(i)), p) {
				sites++
			}
		}
	}
	if sites == 0 {
		return
	}
	if words := (sites + 63) / 64; n*words <= ddDenseWords {
		d.dense(g, cfFrom, cfTo, ids)
	} else {
		d.sparse(g, cfFrom, cfTo, ids, sites)
	}
}

// dense solves all names at once with bit vectors over all sites.
func (d *ddBuilder) dense(g *Graph, cfFrom, cfTo []int32, ids map[string]int32) {
	nodes := g.Nodes
	n := len(nodes)
	nv := len(d.names)
	// Definition sites, numbered in vertex order: for each vertex first
	// its Defs, then its Params (those not also among its Defs).
	// genStart[v] is the first site of v, defEnd[v] the end of its Defs
	// sites; sitesOf[name] lists the sites of each name.
	var siteNode, siteName []int32
	count := make([]int32, nv+1)
	genStart := make([]int32, n+1)
	defEnd := make([]int32, n)
	addSite := func(v int, def string) {
		if id, ok := ids[def]; ok {
			siteNode = append(siteNode, int32(v))
			siteName = append(siteName, id)
			count[id+1]++
		}
	}
	openers := 0
	for i := range nodes {
		genStart[i] = int32(len(siteNode))
		for _, def := range g.Defs(int32(i)) {
			addSite(i, def)
		}
		defEnd[i] = int32(len(siteNode))
		for _, p := range g.Params(int32(i)) {
			if !slices.Contains(g.Defs(int32(i)), p) {
				addSite(i, p)
			}
		}
		if int32(len(siteNode)) > defEnd[i] {
			openers++
		}
	}
	genStart[n] = int32(len(siteNode))
	if len(siteNode) == 0 {
		return
	}
	for i := 1; i <= nv; i++ {
		count[i] += count[i-1]
	}
	sitesOf := make([]int32, len(siteNode))
	cur := append([]int32(nil), count...)
	for s, v := range siteName {
		sitesOf[cur[v]] = int32(s)
		cur[v]++
	}

	var succ, pred csr
	succ.fill(n, cfFrom, cfTo, false)
	pred.fill(n, cfFrom, cfTo, true)
	order := reversePostOrder(n, &succ, &pred)

	words := (len(siteNode) + 63) / 64
	// out[v] is the OUT set of v along its edges within its own scope.
	// A vertex with Params sites also has inner[bodyRow[v]], the OUT set
	// along its edges into the scope it opens, where the Params hold too.
	out := make([]uint64, n*words)
	bodyRow := make([]int32, n)
	inner := make([]uint64, openers*words)
	row := int32(0)
	for v := range nodes {
		bodyRow[v] = -1
		if genStart[v+1] > defEnd[v] {
			bodyRow[v] = row
			row++
		}
	}
	in := make([]uint64, words)
	scratch := make([]uint64, words)
	pending := make([]bool, n)
	for i := range pending {
		pending[i] = true
	}
	// meet computes in = union of OUT over the predecessors of v, taking a
	// scope opener's inner OUT when v belongs to the scope it opens.
	meet := func(v int32) {
		clear(in)
		for _, p := range pred.of(v) {
			po := out[int(p)*words : int(p)*words+words]
			if r := bodyRow[p]; r >= 0 && nodes[v].Scope == p {
				po = inner[int(r)*words : int(r)*words+words]
			}
			for w := range in {
				in[w] |= po[w]
			}
		}
	}
	// transfer computes set = gen ∪ (set − kill) for the sites lo..hi of
	// v: clear every site of each name they define, then set them. It
	// reports whether the result differs from dst, and stores it there.
	transfer := func(set, dst []uint64, lo, hi int32) bool {
		for s := lo; s < hi; s++ {
			name := siteName[s]
			for _, k := range sitesOf[count[name]:count[name+1]] {
				set[k>>6] &^= 1 << (k & 63)
			}
		}
		for s := lo; s < hi; s++ {
			set[s>>6] |= 1 << (s & 63)
		}
		if slices.Equal(set, dst) {
			return false
		}
		copy(dst, set)
		return true
	}
	// Worklist in reverse post-order: sweep the order, visiting only
	// pending vertices, until a sweep changes nothing.
	for changed := true; changed; {
		changed = false
		for _, v := range order {
			if !pending[v] {
				continue
			}
			pending[v] = false
			meet(v)
			diff := false
			if r := bodyRow[v]; r >= 0 {
				copy(scratch, in)
				diff = transfer(scratch, inner[int(r)*words:int(r)*words+words], genStart[v], genStart[v+1])
			}
			if transfer(in, out[int(v)*words:int(v)*words+words], genStart[v], defEnd[v]) {
				diff = true
			}
			if diff {
				changed = true
				for _, s := range succ.of(v) {
					pending[s] = true
				}
			}
		}
	}
	// Each use of name at y is reached by the sites of name in IN[y].
	for y := range nodes {
		if len(g.Uses(int32(y))) == 0 {
			continue
		}
		ready := false
		for _, u := range g.Uses(int32(y)) {
			name := ids[u]
			sites := sitesOf[count[name]:count[name+1]]
			if len(sites) == 0 {
				continue
			}
			if !ready {
				meet(int32(y))
				ready = true
			}
			for _, k := range sites {
				if in[k>>6]&(1<<(k&63)) != 0 && siteNode[k] != int32(y) {
					d.from = append(d.from, siteNode[k])
					d.to = append(d.to, int32(y))
					d.vars = append(d.vars, name)
				}
			}
		}
	}
}

// sparse solves one name at a time: for name x, the sites of x (in the
// dense solver's numbering) are propagated from the vertices that define
// x with sorted sets (each vertex's OUT set of x and, for a vertex binding
// x as a parameter, its inner OUT, into the scope it opens), but only
// through the region where x is live: the vertices from which a use of x
// is reachable without passing a definition of x, found by a backward walk
// from the uses. Outside that region no set can reach a use, so the result
// is exact, and the work is the size of the live ranges rather than of
// everything downstream of each definition.
//
// It is the solver of large files, so its scratch is kept small: the
// sites and uses of each name in compressed rows, a vertex's OUT set as
// a range of one pool reset for each name (a parameter's inner OUT is
// always its own site alone and is not stored), the work list a ring of
// one slot per vertex (a vertex is queued at most once at a time).
func (d *ddBuilder) sparse(g *Graph, cfFrom, cfTo []int32, ids map[string]int32, sites int) {
	nodes := g.Nodes
	n := len(nodes)
	nv := len(d.names)
	// Sites in the dense numbering: per vertex its Defs, then its Params.
	// siteNode is the vertex of each site, siteName its name, param
	// whether it is a parameter's; sitesOf.of(x) lists the sites of x in
	// ascending order and usesOf.of(x) the uses of x, as vertex and index
	// among its Uses, in vertex order.
	siteNode := make([]int32, 0, sites)
	siteName := make([]int32, 0, sites)
	param := make([]bool, 0, sites)
	for i := range nodes {
		for _, def := range g.Defs(int32(i)) {
			if id, ok := ids[def]; ok {
				siteNode, siteName, param = append(siteNode, int32(i)), append(siteName, id), append(param, false)
			}
		}
		for _, p := range g.Params(int32(i)) {
			if id, ok := ids[p]; ok && !slices.Contains(g.Defs(int32(i)), p) {
				siteNode, siteName, param = append(siteNode, int32(i)), append(siteName, id), append(param, true)
			}
		}
	}
	var sitesOf csr
	sitesOf.off = make([]int32, nv+1)
	for _, x := range siteName {
		sitesOf.off[x+1]++
	}
	sitesOf.offsets()
	sitesOf.adj = make([]int32, len(siteName))
	for k, x := range siteName {
		sitesOf.adj[sitesOf.off[x]] = int32(k)
		sitesOf.off[x]++
	}
	sitesOf.rewind()
	var usesOf csr // pairs: vertex, index among its Uses
	usesOf.off = make([]int32, nv+1)
	for y := range nodes {
		for _, u := range g.Uses(int32(y)) {
			usesOf.off[ids[u]+1] += 2
		}
	}
	usesOf.offsets()
	usesOf.adj = make([]int32, usesOf.off[nv])
	for y := range nodes {
		for ui, u := range g.Uses(int32(y)) {
			at := &usesOf.off[ids[u]]
			usesOf.adj[*at], usesOf.adj[*at+1] = int32(y), int32(ui)
			*at += 2
		}
	}
	usesOf.rewind()
	var succ, pred csr
	succ.fill(n, cfFrom, cfTo, false)
	pred.fill(n, cfFrom, cfTo, true)

	// The OUT set of the current name of v is pool[outAt[v]:outAt[v]+outLen[v]],
	// valid when stamp[v] == epoch; touched lists the vertices stamped
	// for the current name (what a compaction of the pool keeps).
	var pool []int32
	outAt := make([]int32, n)
	outLen := make([]int32, n)
	stamp := make([]int32, n)
	defSite := make([]int32, n)   // the vertex's def site of the name, valid when siteStamp[v] == epoch
	paramSite := make([]int32, n) // likewise its parameter site, or -1
	siteStamp := make([]int32, n)
	queued := make([]bool, n)
	live := make([]int32, n)     // == epoch: in the live region of the current name
	expanded := make([]int32, n) // == epoch: its predecessors were walked
	ring := make([]int32, n)     // the work list, from head, count long
	// A name's walk and its stamped vertices hold a vertex at most once.
	walk, touched := make([]int32, 0, n), make([]int32, 0, n)
	var in, scratch []int32
	// Most uses are reached by one definition.
	edges := make([]ddEdge, 0, len(usesOf.adj)/2)
	epoch := int32(0)
	meet := func(v int32) []int32 {
		in = in[:0]
		for _, p := range pred.of(v) {
			if stamp[p] != epoch {
				continue
			}
			set := pool[outAt[p] : outAt[p]+outLen[p]]
			if siteStamp[p] == epoch && paramSite[p] >= 0 && nodes[v].Scope == p {
				set = paramSite[p : p+1] // the inner OUT: the parameter's site
			}
			scratch = unionSorted(scratch[:0], in, set)
			in, scratch = scratch, in
		}
		return in
	}
	// store makes set the OUT set of v, compacting the pool first when
	// it would grow and holds more garbage than sets.
	store := func(v int32, set []int32) {
		if len(pool)+len(set) > cap(pool) {
			held := 0
			for _, t := range touched {
				held += int(outLen[t])
			}
			if len(pool) > 2*held {
				// At least len(touched) more values fit before the
				// next compaction, which costs as much.
				compact := make([]int32, 0, max(2*(held+len(set)), len(touched), 64))
				for _, t := range touched {
					at := len(compact)
					compact = append(compact, pool[outAt[t]:outAt[t]+outLen[t]]...)
					outAt[t] = int32(at)
				}
				pool = compact
			}
		}
		outAt[v], outLen[v] = int32(len(pool)), int32(len(set))
		pool = append(pool, set...)
	}
	for x := range nv {
		xSites := sitesOf.of(int32(x))
		xUses := usesOf.of(int32(x))
		if len(xSites) == 0 || len(xUses) == 0 {
			continue
		}
		epoch++
		pool, touched = pool[:0], touched[:0]
		for _, s := range xSites {
			v := siteNode[s]
			if siteStamp[v] != epoch {
				siteStamp[v], defSite[v], paramSite[v] = epoch, -1, -1
			}
			if param[s] {
				paramSite[v] = s
			} else {
				defSite[v] = s
			}
		}
		// The live region: back from the uses, stopping at the vertices
		// whose set entering the walked vertex is generated afresh (a
		// definition of x, or a parameter of x for its own scope).
		walk = walk[:0]
		for i := 0; i < len(xUses); i += 2 {
			u := xUses[i]
			live[u] = epoch
			if expanded[u] != epoch {
				expanded[u] = epoch
				walk = append(walk, u)
			}
		}
		for len(walk) > 0 {
			w := walk[len(walk)-1]
			walk = walk[:len(walk)-1]
			for _, p := range pred.of(w) {
				live[p] = epoch
				gen := siteStamp[p] == epoch && (defSite[p] >= 0 || paramSite[p] >= 0 && nodes[w].Scope == p)
				if !gen && expanded[p] != epoch {
					expanded[p] = epoch
					walk = append(walk, p)
				}
			}
		}
		head, count := 0, 0
		push := func(v int32) {
			queued[v] = true
			ring[(head+count)%n] = v
			count++
		}
		for _, s := range xSites {
			if v := siteNode[s]; live[v] == epoch && !queued[v] {
				push(v)
			}
		}
		for count > 0 {
			v := ring[head]
			head, count = (head+1)%n, count-1
			queued[v] = false
			set := meet(v)
			hasSite := siteStamp[v] == epoch
			newOut := set
			if hasSite && defSite[v] >= 0 {
				newOut = defSite[v : v+1] // kills every other site of the name
			}
			// A first visit always changes v; the inner OUT of a
			// parameter's vertex is its site alone, set on that visit.
			if stamp[v] == epoch && slices.Equal(pool[outAt[v]:outAt[v]+outLen[v]], newOut) {
				continue
			}
			if stamp[v] != epoch {
				stamp[v], outAt[v], outLen[v] = epoch, 0, 0
				touched = append(touched, v)
			}
			store(v, newOut)
			for _, s := range succ.of(v) {
				if live[s] == epoch && !queued[s] {
					push(s)
				}
			}
		}
		for i := 0; i < len(xUses); i += 2 {
			u, ui := xUses[i], xUses[i+1]
			for _, k := range meet(u) {
				if siteNode[k] != u {
					if len(edges) == cap(edges) {
						// Doubling: append grows a long slice by a
						// quarter, allocating four times its final
						// size on the way.
						edges = slices.Grow(edges, max(len(edges), 64))
					}
					edges = append(edges, ddEdge{to: u, use: ui, site: k})
				}
			}
		}
	}
	// The dense solver's order: by use, then by site.
	slices.SortFunc(edges, func(a, b ddEdge) int {
		if a.to != b.to {
			return int(a.to - b.to)
		}
		if a.use != b.use {
			return int(a.use - b.use)
		}
		return int(a.site - b.site)
	})
	d.from = make([]int32, len(edges))
	d.to = make([]int32, len(edges))
	d.vars = make([]int32, len(edges))
	for i, e := range edges {
		d.from[i], d.to[i], d.vars[i] = siteNode[e.site], e.to, siteName[e.site]
	}
}

// ddEdge is one DD edge of the sparse solver with what orders it: the
// use's vertex and index among its Uses, and the definition site's number
// (which gives the edge's source and its name).
type ddEdge struct {
	to, use, site int32
}

// unionSorted appends the union of the sorted sets a and b to dst.
func unionSorted(dst, a, b []int32) []int32 {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			dst = append(dst, a[i])
			i++
		case a[i] > b[j]:
			dst = append(dst, b[j])
			j++
		default:
			dst = append(dst, a[i])
			i, j = i+1, j+1
		}
	}
	dst = append(dst, a[i:]...)
	return append(dst, b[j:]...)
}

// reversePostOrder orders the vertices of a graph so that, outside of back
// edges, a vertex comes after its predecessors. DFS starts from vertices
// without predecessors, then from any vertex still unvisited.
func reversePostOrder(n int, succ, pred *csr) []int32 {
	order := make([]int32, 0, n)
	visited := make([]bool, n)
	next := make([]int32, n)
	var stack []int32
	dfs := func(s int32) {
		visited[s] = true
		stack = append(stack[:0], s)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			ns := succ.of(v)
			if i := next[v]; int(i) < len(ns) {
				next[v]++
				if w := ns[i]; !visited[w] {
					visited[w] = true
					stack = append(stack, w)
				}
				continue
			}
			stack = stack[:len(stack)-1]
			order = append(order, v)
		}
	}
	for v := int32(0); v < int32(n); v++ {
		if len(pred.of(v)) == 0 && !visited[v] {
			dfs(v)
		}
	}
	for v := int32(0); v < int32(n); v++ {
		if !visited[v] {
			dfs(v)
		}
	}
	for i, j := 0, len(order)-1; i < j; i, j = i+1, j-1 {
		order[i], order[j] = order[j], order[i]
	}
	return order
}
