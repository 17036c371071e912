package retrieve

import (
	"cmp"
	"math"
	"slices"
)

// Size filtering for the Jaccard walk of large queries.
//
// An entry of key length L can reach at most min(L, |Q|) / max(L, |Q|)
// against a query key Q, whatever it shares with it. A query whose key
// holds hundreds of tokens (a slice over long statements: an array
// initialiser, a long method) walks the postings of hundreds of rarer
// tokens, which touch almost every entry (on the JDK index 1.3M of
// 1.45M entries and 6 MB of postings for the slowest cursors), while
// its top k are entries of long keys: the k-th similarity is about 0.1,
// so only keys of at least a tenth of |Q| tokens can reach it. So when
// the rarer postings are long (sizeFilterBytes), the walk goes rarest
// list first. After the shortest eighth of the postings, the counts so
// far plus the mask bits are a lower bound of each touched entry's
// |A n B|, so of its similarity; if k of the entries of the largest
// counts are eligible, the k-th best of their bounds is a lower bound of
// the final k-th similarity, and an entry whose length bound is below it
// is out of the race. That is a window [lo, hi] of key lengths. The rest
// of the walk then counts only the entries of the smallest size class
// holding every length from lo up (a bit set per class,
// blockBounds.classes), and the scan leaves out the entries and blocks
// outside the window (blockBounds.lmax). The counts of the entries left
// out are partial, but those entries are never scored. The result is
// exactly the plain walk's: the property tests run with sizeFilterBytes
// 0.

// sizeFilterBytes is the length of the rarer postings of a query (bytes)
// from which the Jaccard walk seeds a window of key lengths; a variable
// so that the property tests run the windowed walk on small indexes.
var sizeFilterBytes = 1 << 20

// sizeShares are the shares of the entries the size classes hold at
// most: the entries of key length at least classMin[c] are at most
// 1/sizeShares[c] of all.
var sizeShares = [...]int{4, 8, 16, 32, 64}

// sizes derives the per-block largest key length on first use.
func (b *blockBounds) sizes(ix *Index) {
	b.sizeOnce.Do(func() {
		n := ix.Len()
		nb := (n + blockSize - 1) / blockSize
		b.lmax = make([]uint32, nb)
		for k := range nb {
			b.lmax[k] = slices.Max(ix.keyLen[k*blockSize : min((k+1)*blockSize, n)])
		}
	})
}

// classes derives the size classes on first use.
func (b *blockBounds) classes(ix *Index) {
	b.classOnce.Do(func() {
		b.classMin = lengthMins(ix.keyLen, sizeShares[:], 1)
		b.classBits = lengthSets(ix.keyLen, b.classMin)
	})
}

// lengthMins returns, per share s of shares in turn, the smallest key
// length from first up that at most 1/s of the keys of lengths keyLen
// reach (lengths capped at 1<<12), ascending: a length not above the one
// before or reached by no key is left out.
func lengthMins(keyLen []uint32, shares []int, first int) []uint32 {
	const capLen = 1 << 12
	// above[l]: keys of length at least l, lengths capped.
	var above [capLen + 2]int
	for _, l := range keyLen {
		above[min(l, capLen)]++
	}
	for l := capLen - 1; l >= 0; l-- {
		above[l] += above[l+1]
	}
	var mins []uint32
	n := len(keyLen)
	for _, share := range shares {
		l := first
		for l < capLen && above[l] > n/share {
			l++
		}
		if above[l] == 0 || len(mins) > 0 && uint32(l) <= mins[len(mins)-1] {
			continue
		}
		mins = append(mins, uint32(l))
	}
	return mins
}

// lengthSets returns per length of mins (ascending) the bit set of the
// entries of key length at least it.
func lengthSets(keyLen []uint32, mins []uint32) [][]uint64 {
	sets := make([][]uint64, len(mins))
	for c := range sets {
		sets[c] = make([]uint64, (len(keyLen)+63)/64)
	}
	for e, l := range keyLen {
		for c, m := range mins {
			if l < m {
				break
			}
			sets[c][e/64] |= 1 << (e % 64)
		}
	}
	return sets
}

// gate returns the bit set of the smallest size class holding every
// entry of key length at least lo, nil when none is smaller than all.
func (b *blockBounds) gate(lo uint32) []uint64 {
	var g []uint64
	for c, m := range b.classMin {
		if m <= lo {
			g = b.classBits[c]
		}
	}
	return g
}

// countJaccard is count for the Jaccard ranking of the k best: the
// same counts, or, when the query's rarer postings are long, exact
// counts for the entries of the window it sets in sc (see above).
func (ix *Index) countJaccard(q *Query, sc *scratch, k int, dead []bool) {
	ord, total := ix.prepareJaccard(q, sc)
	if total < sizeFilterBytes || k <= 0 || len(ord) < 2 {
		ix.walkLists(ord, sc, nil, total)
		return
	}
	slices.SortFunc(ord, func(a, b uint32) int { return cmp.Or(cmp.Compare(ix.postLen(a), ix.postLen(b)), cmp.Compare(a, b)) })
	j, done := 0, 0
	for j < len(ord) && (j == 0 || done+ix.postLen(ord[j]) <= total/8) {
		ix.walkPostings(ord[j], sc, nil)
		done += ix.postLen(ord[j])
		j++
	}
	var gate []uint64
	if lo, hi, ok := ix.seedWindow(q, sc, k, dead); ok {
		bb := ix.blocks()
		bb.classes(ix)
		sc.lo, sc.hi = lo, hi
		if ix.walkBands(ord[j:], sc, lo, total-done) {
			return
		}
		gate = bb.gate(lo)
	}
	ix.walkLists(ord[j:], sc, gate, total-done)
}

// prepareJaccard sets the query's bits of both masks in sc and returns
// the tokens the Jaccard walk reads (sc.order: the query's tokens of
// neither mask, in key order) and the length of their postings.
func (ix *Index) prepareJaccard(q *Query, sc *scratch) ([]uint32, int) {
	ix.queryMask(q, sc)
	nv := uint32(len(ix.maskBit))
	x := ix.xmask()
	if x.words > 0 {
		sc.xq = slices.Grow(sc.xq[:0], x.words)[:x.words]
		clear(sc.xq)
		sc.xmasks, sc.xor, sc.xgor = x.masks, x.or, x.groups(ix.nBlocks())
	}
	ord, total := sc.order[:0], 0
	for _, t := range q.Key {
		if t < nv && ix.maskBit[t] < 0 {
			if b, ok := x.lookup(t); ok {
				sc.xq[b/64] |= 1 << (b % 64) // counted by the second mask
				continue
			}
			ord = append(ord, t)
			total += ix.postLen(t)
		}
	}
	sc.order = ord
	return ord, total
}

// walkPostings adds token t's postings to the counts, of the entries in
// gate only unless it is nil.
func (ix *Index) walkPostings(t uint32, sc *scratch, gate []uint64) {
	countList(ix.post[ix.postOff[t]:ix.postOff[t+1]], 0, sc.counts, sc.bmax, gate)
}

// countList adds one to the counts of the entries of the postings b
// (deltas from entry e), of those in gate only unless it is nil, and
// raises the largest counts of their blocks in bmax.
func countList(b []byte, e uint32, counts, bmax []uint32, gate []uint64) {
	for len(b) > 0 {
		// Inline one-byte deltas, the common case.
		if b[0] < 0x80 {
			e += uint32(b[0])
			b = b[1:]
		} else {
			v, k := uvarint(b)
			e += uint32(v)
			b = b[k:]
		}
		if gate != nil && gate[e/64]>>(e%64)&1 == 0 {
			continue
		}
		bumpCount(counts, bmax, e)
	}
}

// bumpCount adds one to entry e's count and raises its block's largest
// count. The count is read first, so that an entry past the index (a
// damaged posting) panics before anything is written. The maximum is
// stored without a branch (a conditional move): whether a count raises
// its block's is as good as random, and the mispredicted branch cost a
// third of the walk (on the long queries of the JDK index, 328 against
// 210 ms for the same postings).
func bumpCount(counts, bmax []uint32, e uint32) {
	c := counts[e] + 1
	m := &bmax[e/blockSize]
	*m = max(*m, c)
	counts[e] = c
}

// seedWindow returns the window of key lengths [lo, hi] outside which
// an entry cannot reach the final k-th similarity: the counts so far
// (of the query's rarest tokens) plus the mask bits give a lower bound of
// |A n B|, so of the similarity, of every touched entry; the k-th best
// such bound among at most seedScale*k eligible entries of the largest
// counts (language, files left out, leak rule) is a lower bound of the
// k-th similarity of the ranking. ok is false when fewer than k are
// eligible.
func (ix *Index) seedWindow(q *Query, sc *scratch, k int, dead []bool) (lo, hi uint32, ok bool) {
	counts := sc.counts
	limit := uint32(seedScale * k)
	c := sc.seedCut(limit)
	n := uint32(len(q.Key))
	h := sc.heap[:0]
	seen := uint32(0)
	for b, m := range sc.bmax {
		if m < c {
			continue
		}
		for e := uint32(b * blockSize); e < min(uint32(b+1)*blockSize, uint32(len(counts))); e++ {
			if counts[e] < c {
				continue
			}
			if seen++; seen > limit {
				break
			}
			if !ix.sameLanguage(q, e) {
				continue
			}
			inter := ix.inter(sc, int(e))
			union := n + ix.keyLen[e] - inter
			// The entry, then the copies of its key (dups.go).
			for x := e; ; {
				s := scored{x, inter, union}
				if len(h) == k && !s.better(h[0]) {
					break
				}
				if !ix.dead(dead, x) && !ix.leaks(q, x, &sc.nodes) {
					h.offer(s, k)
				}
				if x = ix.nextCopy(x); x == 0 {
					break
				}
			}
		}
		if seen > limit {
			break
		}
	}
	sc.heap = h[:0]
	if len(h) < k || h[0].inter == 0 {
		return 0, math.MaxUint32, false
	}
	// bound(L) = L/|Q| for L <= |Q|, |Q|/L above; bound(L) >= i0/u0.
	i0, u0, nq := uint64(h[0].inter), uint64(h[0].union), uint64(n)
	lo = uint32((i0*nq + u0 - 1) / u0)
	hi = uint32(min(nq*u0/i0, math.MaxUint32))
	return lo, hi, true
}

// seedScale*k is the number of entries seedWindow bounds at most.
const seedScale = 16
