package ccg

// csr is a compact adjacency list: the neighbours of v are
// adj[off[v]:off[v+1]]. It keeps the per-scope graphs that the
// post-dominator pass works on in two flat int32 slices.
type csr struct {
	off []int32
	adj []int32
}

func (c *csr) of(v int32) []int32 { return c.adj[c.off[v]:c.off[v+1]] }

// row is of with the capacity cut to the row, so that appending to a
// result never writes into the next row; a vertex out of range has none.
func (c *csr) row(v int32) []int32 {
	if v < 0 || int(v)+1 >= len(c.off) {
		return nil
	}
	return c.adj[c.off[v]:c.off[v+1]:c.off[v+1]]
}

// makeCSR fills c from an edge list over n vertices, reusing c's storage.
// With reverse set, the edge (a, b) is stored as b -> a.
func (c *csr) fill(n int, from, to []int32, reverse bool) {
	if reverse {
		from, to = to, from
	}
	c.off = grow(c.off, n+1)
	for i := range c.off {
		c.off[i] = 0
	}
	for _, a := range from {
		c.off[a+1]++
	}
	c.offsets()
	c.adj = grow(c.adj, len(from))
	// Place edges using off[v] as a cursor, then shift the offsets back.
	for i, a := range from {
		c.adj[c.off[a]] = to[i]
		c.off[a]++
	}
	c.rewind()
}

// offsets turns the length of each row v, counted in c.off[v+1], into
// the rows' offsets.
func (c *csr) offsets() {
	for i := 1; i < len(c.off); i++ {
		c.off[i] += c.off[i-1]
	}
}

// rewind restores the offsets after each c.off[v] served as the cursor
// that placed row v, and so moved to the start of row v+1.
func (c *csr) rewind() {
	copy(c.off[1:], c.off)
	c.off[0] = 0
}

// grow returns s resized to n, reusing its storage when large enough.
func grow(s []int32, n int) []int32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]int32, n, n+n/4)
}

// domScratch holds the buffers of one dominator computation so repeated
// calls (one per scope) do not allocate.
type domScratch struct {
	idom  []int32
	order []int32 // vertices in reverse post-order
	po    []int32 // post-order number of each vertex, -1 if unreached
	stack []int32
	next  []int32 // DFS cursor into each vertex's successor list
}

// dominators computes the immediate dominator of every vertex of a graph
// with n vertices rooted at root, using the iterative algorithm of Cooper,
// Harvey and Kennedy ("A Simple, Fast Dominance Algorithm", 2001). succ and
// pred are the graph's successor and predecessor lists. The result maps a
// vertex to its immediate dominator; idom[root] == root and unreachable
// vertices map to -1. The returned slice is owned by sc.
func (sc *domScratch) dominators(n int, root int32, succ, pred *csr) []int32 {
	sc.idom = grow(sc.idom, n)
	sc.po = grow(sc.po, n)
	sc.next = grow(sc.next, n)
	for i := 0; i < n; i++ {
		sc.idom[i] = -1
		sc.po[i] = -1
		sc.next[i] = 0
	}
	// Iterative DFS for the post-order; po doubles as the visited mark
	// (-2 while on the stack).
	sc.order = sc.order[:0]
	sc.stack = append(sc.stack[:0], root)
	sc.po[root] = -2
	count := int32(0)
	for len(sc.stack) > 0 {
		v := sc.stack[len(sc.stack)-1]
		ns := succ.of(v)
		if i := sc.next[v]; int(i) < len(ns) {
			sc.next[v]++
			if w := ns[i]; sc.po[w] == -1 {
				sc.po[w] = -2
				sc.stack = append(sc.stack, w)
			}
			continue
		}
		sc.stack = sc.stack[:len(sc.stack)-1]
		sc.po[v] = count
		count++
		sc.order = append(sc.order, v)
	}
	// Reverse post-order.
	for i, j := 0, len(sc.order)-1; i < j; i, j = i+1, j-1 {
		sc.order[i], sc.order[j] = sc.order[j], sc.order[i]
	}
	idom, po := sc.idom, sc.po
	idom[root] = root
	for changed := true; changed; {
		changed = false
		for _, v := range sc.order[1:] {
			nd := int32(-1)
			for _, p := range pred.of(v) {
				if idom[p] == -1 {
					continue
				}
				if nd == -1 {
					nd = p
					continue
				}
				// Intersect: walk both fingers up until they meet.
				a, b := p, nd
				for a != b {
					for po[a] < po[b] {
						a = idom[a]
					}
					for po[b] < po[a] {
						b = idom[b]
					}
				}
				nd = a
			}
			if idom[v] != nd {
				idom[v] = nd
				changed = true
			}
		}
	}
	return idom
}
