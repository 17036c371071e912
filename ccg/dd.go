package ccg

import "slices"

// ddBuilder solves reaching definitions over the union CF graph with an
// iterative bit-vector data-flow pass and emits a DD edge for every
// definition that reaches a use of the same name.
type ddBuilder struct {
	from, to, vars []int32 // result: DD edges and the interned name of each
	names          []string
}

func (d *ddBuilder) build(nodes []Node, cfFrom, cfTo []int32) {
	n := len(nodes)
	if n == 0 {
		return
	}
	// Intern the names that are used somewhere: a definition of a name
	// nobody reads can never give an edge, so it gets no bit.
	ids := make(map[string]int32)
	for i := range nodes {
		for _, u := range nodes[i].Uses {
			if _, ok := ids[u]; !ok {
				ids[u] = int32(len(d.names))
				d.names = append(d.names, u)
			}
		}
	}
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
		for _, def := range nodes[i].Defs {
			addSite(i, def)
		}
		defEnd[i] = int32(len(siteNode))
		for _, p := range nodes[i].Params {
			if !slices.Contains(nodes[i].Defs, p) {
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
		if len(nodes[y].Uses) == 0 {
			continue
		}
		ready := false
		for _, u := range nodes[y].Uses {
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
