package ccg

// cdBuilder computes control dependence scope by scope (Ferrante,
// Ottenstein and Warren 1987) from post-dominator trees. Its buffers are
// reused across scopes.
type cdBuilder struct {
	local  []int32 // global id -> local index in the current scope
	global []int32 // local index -> global id
	from   []int32 // local CFG edges (the exit is local index len(global))
	to     []int32
	succ   csr
	pred   csr
	dom    domScratch
	seen   []bool
	tarjan tarjan

	cdFrom, cdTo []int32 // result
}

// build adds the CD edges of every scope of a graph with nodes, CF edges
// (from[i] -> to[i]) and the vertices that flow to their scope's exit.
func (c *cdBuilder) build(nodes []Node, from, to, exits []int32) {
	n := len(nodes)
	c.local = grow(c.local, n)
	// Bucket vertices, CF edges and exits by scope with counting sorts on
	// the scope key (header id + 1, so the top level is key 0).
	key := func(v int32) int32 { return nodes[v].Scope + 1 }
	vstart := make([]int32, n+2)
	for v := range nodes {
		vstart[key(int32(v))+1]++
	}
	for i := 1; i < len(vstart); i++ {
		vstart[i] += vstart[i-1]
	}
	byScope := make([]int32, n)
	cur := append([]int32(nil), vstart...)
	for v := range nodes {
		k := key(int32(v))
		byScope[cur[k]] = int32(v)
		cur[k]++
	}
	// Intra-scope edges, bucketed the same way.
	estart := make([]int32, n+2)
	for i := range from {
		if nodes[from[i]].Scope == nodes[to[i]].Scope {
			estart[key(from[i])+1]++
		}
	}
	for i := 1; i < len(estart); i++ {
		estart[i] += estart[i-1]
	}
	edges := make([]int32, estart[n+1])
	copy(cur, estart)
	for i := range from {
		if nodes[from[i]].Scope == nodes[to[i]].Scope {
			k := key(from[i])
			edges[cur[k]] = int32(i)
			cur[k]++
		}
	}
	xstart := make([]int32, n+2)
	for _, x := range exits {
		xstart[key(x)+1]++
	}
	for i := 1; i < len(xstart); i++ {
		xstart[i] += xstart[i-1]
	}
	// Entry edges: header -> first statement(s) of its body.
	nstart := make([]int32, n+2)
	for i := range from {
		if nodes[to[i]].Scope == from[i] {
			nstart[key(to[i])+1]++
		}
	}
	for i := 1; i < len(nstart); i++ {
		nstart[i] += nstart[i-1]
	}
	entries := make([]int32, nstart[n+1])
	copy(cur, nstart)
	for i := range from {
		if nodes[to[i]].Scope == from[i] {
			k := key(to[i])
			entries[cur[k]] = to[i]
			cur[k]++
		}
	}
	xs := make([]int32, len(exits))
	copy(cur, xstart)
	for _, x := range exits {
		k := key(x)
		xs[cur[k]] = x
		cur[k]++
	}

	for k := 0; k <= n; k++ {
		members := byScope[vstart[k]:vstart[k+1]]
		if len(members) == 0 {
			continue
		}
		c.scope(int32(k)-1, members, from, to, edges[estart[k]:estart[k+1]], xs[xstart[k]:xstart[k+1]], entries[nstart[k]:nstart[k+1]])
	}
}

// scope computes the CD edges of one scope. header is the scope's header id
// (NoScope at the top level), members its vertices in id order, eidx the
// indexes of its CF edges, exits the members flowing to its exit and
// entries the members the header flows into.
//
// As in Ferrante et al., the scope's CFG is augmented with a virtual entry
// (standing for the header) with edges to the body's first statements and
// to the exit; what depends on the entry depends on the header. At the top
// level such edges are dropped.
func (c *cdBuilder) scope(header int32, members, from, to, eidx, exits, entries []int32) {
	k := int32(len(members))
	exit, entry := k, k+1
	c.global = append(c.global[:0], members...)
	for i, v := range members {
		c.local[v] = int32(i)
	}
	c.from, c.to = c.from[:0], c.to[:0]
	for _, e := range eidx {
		c.from = append(c.from, c.local[from[e]])
		c.to = append(c.to, c.local[to[e]])
	}
	for _, x := range exits {
		c.from = append(c.from, c.local[x])
		c.to = append(c.to, exit)
	}
	if header != NoScope {
		for _, x := range entries {
			c.from = append(c.from, entry)
			c.to = append(c.to, c.local[x])
		}
		c.from = append(c.from, entry)
		c.to = append(c.to, exit)
	}
	nv := int(k) + 2
	c.pred.fill(nv, c.from, c.to, true)

	// Vertices that cannot reach the exit (a loop left by no jump) have no
	// post-dominator. As is standard, give every sink strongly connected
	// component of them a virtual edge to the exit, from its smallest id
	// (the loop header, since headers precede their bodies): the loop's
	// body then depends on its header as if the loop could end.
	if c.reach(nv, exit) < nv {
		c.succ.fill(nv, c.from, c.to, false)
		for _, v := range c.tarjan.sinkRoots(nv, &c.succ, c.seen) {
			c.from = append(c.from, v)
			c.to = append(c.to, exit)
		}
		c.pred.fill(nv, c.from, c.to, true)
	}
	c.succ.fill(nv, c.from, c.to, false)

	// Post-dominators: dominators of the reversed CFG rooted at the exit.
	ipdom := c.dom.dominators(nv, exit, &c.pred, &c.succ)

	hasParent := c.seen[:0]
	for i := 0; i < nv; i++ {
		hasParent = append(hasParent, false)
	}
	c.seen = hasParent
	for i := range c.from {
		a, bb := c.from[i], c.to[i]
		stop := ipdom[a]
		if stop < 0 {
			continue
		}
		for r := bb; r != stop && r >= 0 && r != exit; r = ipdom[r] {
			if r != a {
				src := header
				if a != entry {
					src = c.global[a]
				}
				c.cdFrom = append(c.cdFrom, src)
				c.cdTo = append(c.cdTo, c.global[r])
				hasParent[r] = true
			}
			if ipdom[r] == r {
				break
			}
		}
	}
	if header == NoScope {
		return
	}
	for i := int32(0); i < k; i++ {
		if !hasParent[i] {
			c.cdFrom = append(c.cdFrom, header)
			c.cdTo = append(c.cdTo, c.global[i])
		}
	}
}

// reach marks in c.seen the vertices that reach the exit and returns their
// number.
func (c *cdBuilder) reach(nv int, exit int32) int {
	c.seen = c.seen[:0]
	for i := 0; i < nv; i++ {
		c.seen = append(c.seen, false)
	}
	stack := append(c.dom.stack[:0], exit)
	c.seen[exit] = true
	count := 1
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range c.pred.of(v) {
			if !c.seen[p] {
				c.seen[p] = true
				count++
				stack = append(stack, p)
			}
		}
	}
	c.dom.stack = stack
	return count
}

// tarjan finds strongly connected components (Tarjan 1972, iterative).
type tarjan struct {
	index, low []int32
	onStack    []bool
	stack      []int32
	call       []int32 // DFS call stack
	next       []int32 // cursor into each vertex's successors
	comp       []int32 // component id of each vertex
	roots      []int32
}

// sinkRoots returns, for every sink strongly connected component of the
// subgraph induced by the vertices with skip[v] == false, its smallest
// vertex. A component is a sink when no edge leaves it inside that subgraph.
func (t *tarjan) sinkRoots(nv int, succ *csr, skip []bool) []int32 {
	t.index = grow(t.index, nv)
	t.low = grow(t.low, nv)
	t.next = grow(t.next, nv)
	t.comp = grow(t.comp, nv)
	t.onStack = t.onStack[:0]
	for i := 0; i < nv; i++ {
		t.index[i], t.low[i], t.next[i], t.comp[i] = -1, 0, 0, -1
		t.onStack = append(t.onStack, false)
	}
	t.stack, t.roots = t.stack[:0], t.roots[:0]
	counter, ncomp := int32(0), int32(0)
	for s := 0; s < nv; s++ {
		if skip[s] || t.index[s] >= 0 {
			continue
		}
		t.call = append(t.call[:0], int32(s))
		t.index[s], t.low[s] = counter, counter
		counter++
		t.stack = append(t.stack, int32(s))
		t.onStack[s] = true
		for len(t.call) > 0 {
			v := t.call[len(t.call)-1]
			ns := succ.of(v)
			if i := t.next[v]; int(i) < len(ns) {
				t.next[v]++
				w := ns[i]
				if skip[w] {
					continue
				}
				if t.index[w] < 0 {
					t.index[w], t.low[w] = counter, counter
					counter++
					t.stack = append(t.stack, w)
					t.onStack[w] = true
					t.call = append(t.call, w)
				} else if t.onStack[w] && t.index[w] < t.low[v] {
					t.low[v] = t.index[w]
				}
				continue
			}
			t.call = t.call[:len(t.call)-1]
			if len(t.call) > 0 {
				if u := t.call[len(t.call)-1]; t.low[v] < t.low[u] {
					t.low[u] = t.low[v]
				}
			}
			if t.low[v] != t.index[v] {
				continue
			}
			// v roots a component: pop it, noting its smallest vertex and
			// whether an edge leaves it.
			min, sink := v, true
			start := len(t.stack)
			for {
				start--
				w := t.stack[start]
				t.onStack[w] = false
				t.comp[w] = ncomp
				if w < min {
					min = w
				}
				if w == v {
					break
				}
			}
			for _, w := range t.stack[start:] {
				for _, x := range succ.of(w) {
					if !skip[x] && t.comp[x] != ncomp {
						sink = false
					}
				}
			}
			t.stack = t.stack[:start]
			ncomp++
			if sink {
				t.roots = append(t.roots, min)
			}
		}
	}
	return t.roots
}
