package sed

// The vertex assignment asks, for each query vertex in turn, for the
// Jaccard similarity with every free candidate vertex. Merging the two
// token sets of every pair costs nq * nc * (|a| + |b|) steps, which
// dominates the fine stage on large slices (a cursor in a long array
// initialiser gives 150 vertices of 30 tokens each on both sides). The
// postings path computes the same intersection sizes from the
// candidate's inverted lists instead: for each candidate token the
// vertices holding it, ascending; a query vertex adds one for each of its
// tokens to the vertices of that token's list. A token most candidate
// vertices hold (a keyword, a bracket, the array's type) is counted the
// other way round: one for every vertex, less one for each vertex of its
// complement list. Then each free vertex's similarity is computed from
// its intersection size by jaccard, the expression Jaccard uses, so the
// costs, the choices and the distance are bit for bit those of the merge.

// usePostings reports whether the postings path is the cheaper for a
// query of nq vertices and a candidate of nc: building the lists costs
// about as much as a few rows of merges, which small graphs do not repay.
func usePostings(nq, nc int) bool { return nq*nc >= 256 }

// postings is the candidate's inverted lists (see above), kept in a
// Scratch. Tokens are found through an open-addressing table from token
// id to list; a slot is live when its stamp is the current build's, so
// the table is never cleared.
type postings struct {
	slot  []int32  // table: list index, or -1
	key   []uint32 // table: token id
	stamp []uint32 // table: the build that wrote the slot
	gen   uint32
	shift uint8 // 32 - log2(len(slot))

	occ   []int32 // list index of each token occurrence, by vertex
	n     []int32 // per list: vertices holding the token
	start []int32 // per list: its vertices are verts[start[i]:start[i+1]]
	heavy []bool  // per list: it is the complement (the vertices without the token)
	plain []int32 // per list, concatenated: the vertices holding the token
	verts []int32
	size  []int32 // tokens of each candidate vertex
	count []int32 // per candidate vertex: intersection size less base
}

// find returns the slot of tok: its own, or the empty one where it would
// go.
func (p *postings) find(tok uint32) int {
	mask := len(p.slot) - 1
	for h := int((tok * 0x9e3779b1) >> p.shift); ; h = (h + 1) & mask {
		if p.stamp[h] != p.gen || p.key[h] == tok {
			return h
		}
	}
}

// list returns the list index of tok, or -1 when no candidate vertex
// holds it.
func (p *postings) list(tok uint32) int32 {
	if h := p.find(tok); p.stamp[h] == p.gen {
		return p.slot[h]
	}
	return -1
}

// build fills p with the inverted lists of c's tokens.
func (p *postings) build(c *Graph) {
	nc := c.Len()
	total := 0
	p.size = grow(p.size, nc)
	for u := range nc {
		p.size[u] = int32(len(tokensOf(c, u)))
		total += int(p.size[u])
	}
	// A table of at least twice as many slots as tokens; a larger one
	// from an earlier build is kept.
	bits := uint8(4)
	for 1<<bits < 2*total {
		bits++
	}
	if len(p.slot) < 1<<bits {
		p.slot = make([]int32, 1<<bits)
		p.key = make([]uint32, 1<<bits)
		p.stamp = make([]uint32, 1<<bits)
		p.gen = 0
	}
	for 1<<bits < len(p.slot) {
		bits++
	}
	p.shift = 32 - bits
	if p.gen++; p.gen == 0 {
		clear(p.stamp)
		p.gen = 1
	}
	p.occ, p.n = p.occ[:0], p.n[:0]
	for u := range nc {
		for _, tok := range tokensOf(c, u) {
			h := p.find(tok)
			if p.stamp[h] != p.gen {
				p.stamp[h], p.key[h], p.slot[h] = p.gen, tok, int32(len(p.n))
				p.n = append(p.n, 0)
			}
			l := p.slot[h]
			p.n[l]++
			p.occ = append(p.occ, l)
		}
	}
	// The plain lists by a counting sort of the occurrences, which come
	// by ascending vertex.
	lists := len(p.n)
	p.start = grow(p.start, lists+1)
	at := int32(0)
	for l, n := range p.n {
		p.start[l] = at
		at += n
	}
	p.start[lists] = at
	p.plain = grow(p.plain, total)
	i := 0
	for u := range nc {
		for range p.size[u] {
			l := p.occ[i]
			p.plain[p.start[l]] = int32(u)
			p.start[l]++
			i++
		}
	}
	// start[l] is now the end of list l. The final lists: a token most
	// vertices hold by its complement.
	p.heavy = growBool(p.heavy, lists)
	p.verts = p.verts[:0]
	lo := int32(0)
	for l := range lists {
		hi := p.start[l]
		p.start[l] = int32(len(p.verts))
		plain := p.plain[lo:hi]
		if p.heavy[l] = 2*len(plain) > nc; p.heavy[l] {
			k := 0
			for u := range int32(nc) {
				if k < len(plain) && plain[k] == u {
					k++
					continue
				}
				p.verts = append(p.verts, u)
			}
		} else {
			p.verts = append(p.verts, plain...)
		}
		lo = hi
	}
	p.start[lists] = int32(len(p.verts))
	p.count = grow(p.count, nc)
}

// nearestByPostings is nearestByMerge with the intersection sizes
// counted from the inverted lists build made of the candidate.
func (s *Scratch) nearestByPostings(qt []uint32) (int32, float64) {
	p := &s.post
	clear(p.count)
	base := int32(0)
	for _, tok := range qt {
		l := p.list(tok)
		if l < 0 {
			continue
		}
		list := p.verts[p.start[l]:p.start[l+1]]
		if p.heavy[l] {
			base++
			for _, u := range list {
				p.count[u]--
			}
		} else {
			for _, u := range list {
				p.count[u]++
			}
		}
	}
	best, bestCost := int32(Unaligned), 1.0
	for u := range p.count {
		// A vertex sharing no token costs 1, which never beats the
		// best so far (1 at the start), as in the merge.
		inter := int(base + p.count[u])
		if s.taken[u] || inter == 0 {
			continue
		}
		if sc := 1 - jaccard(inter, len(qt), int(p.size[u])); sc < bestCost {
			best, bestCost = int32(u), sc
			if sc == 0 {
				break
			}
		}
	}
	return best, bestCost
}
