package retrieve

import (
	"math"
	"math/bits"
	"slices"
	"sync"
)

// Block bounds: the coarse scans visit the entries in blocks of
// blockSize consecutive ids, and skip a block when no entry of it can
// enter the heap. An entry's similarity to the query is bounded by what
// its block holds at most: the union of the block's masks (the query's
// frequent tokens any entry of the block holds) and, for Jaccard, the
// smallest key length in the block. Consecutive entries are the
// consecutive statements of one file, which share most of their frequent
// tokens, so the union is much smaller than the query's frequent tokens
// on most blocks: on the standard library index, against the final
// threshold of a Jaccard top 50, about one block in four can hold an
// entry that beats it (bench/RETRIEVAL.md has what the scans gain).
//
// The bounds are derived from the masks and key lengths the first time a
// scan asks for them (a pass over the masks, which the first scan reads
// anyway), and take 8 maskWords + 4 bytes per block, about 1.3 bytes per
// entry; BM25's, derived from its per-entry data on its first use, 5 more
// per block (0.3 bytes per entry).

// blockSize is the number of entries of a block: 16 counts of the
// Jaccard scan fill a cache line.
const blockSize = 16

// blockBounds are the per-block bounds of an Index.
type blockBounds struct {
	once sync.Once
	or   []uint64 // maskWords per block: the union of its entries' masks
	lmin []uint32 // per block: its smallest key length

	// BM25's, derived on its first use (not stored): per block the
	// largest mask tf of its entries (bm25Data.maxTF) and their smallest
	// key multiset size, which bound the tf saturation tf/(tf+K(dl)) of
	// any mask token of the block.
	bmOnce sync.Once
	tfMax  []uint8
	dlMin  []uint32

	// Derived on first use (sizefilter.go, not stored): per block its
	// largest key length (the Jaccard scan's), and the size classes
	// (the first windowed walk's): classBits[c] is the bit set of the
	// entries of key length at least classMin[c] (ascending), each
	// holding at most a share of the entries (sizeShares).
	sizeOnce sync.Once
	lmax     []uint32
	// Derived on first use (not stored): the same bounds per group of
	// superSize blocks, which the Jaccard scan tries before the
	// blocks' own (superBounds).
	superOnce sync.Once
	super     superBounds
	classOnce sync.Once
	classMin  []uint32
	classBits [][]uint64
}

// nBlocks returns the number of blocks of ix.
func (ix *Index) nBlocks() int { return (ix.Len() + blockSize - 1) / blockSize }

// blocks returns ix's block bounds, deriving them on first use.
func (ix *Index) blocks() *blockBounds {
	b := ix.bounds
	if b == nil {
		// An Index made without a constructor (tests): derive them for
		// this search alone.
		b = &blockBounds{}
	}
	b.once.Do(func() {
		mw, n := ix.maskWords, ix.Len()
		nb := (n + blockSize - 1) / blockSize
		b.or = make([]uint64, nb*mw)
		b.lmin = make([]uint32, nb)
		for k := range nb {
			lo, hi := k*blockSize, min((k+1)*blockSize, n)
			or := b.or[k*mw : (k+1)*mw]
			lmin := ix.keyLen[lo]
			for e := lo; e < hi; e++ {
				for w, x := range ix.masks[e*mw : (e+1)*mw] {
					or[w] |= x
				}
				lmin = min(lmin, ix.keyLen[e])
			}
			b.lmin[k] = lmin
		}
	})
	return b
}

// queryBits returns how many of the query's mask bits q block k's union
// holds, and whether it holds one of must (nil: any).
func (b *blockBounds) queryBits(k int, q, must []uint64) (int, bool) {
	mw := len(q)
	or := b.or[k*mw : (k+1)*mw]
	pc, hold := 0, must == nil
	for w, x := range or {
		pc += bits.OnesCount64(x & q[w])
		if must != nil {
			hold = hold || x&must[w] != 0
		}
	}
	return pc, hold
}

// bm25 derives the BM25 bounds of b from ix on first use.
func (b *blockBounds) bm25(ix *Index) {
	b.bmOnce.Do(func() {
		n := ix.Len()
		nb := (n + blockSize - 1) / blockSize
		b.tfMax = make([]uint8, nb)
		b.dlMin = make([]uint32, nb)
		for k := range nb {
			lo, hi := k*blockSize, min((k+1)*blockSize, n)
			t, d := uint8(0), uint32(math.MaxUint32)
			for e := lo; e < hi; e++ {
				t = max(t, ix.bm.maxTF[e])
				d = min(d, ix.bm.dlOf(uint32(e)))
			}
			b.tfMax[k], b.dlMin[k] = t, d
		}
	})
}

// Groups of blocks. On the JDK index, against the final threshold of a
// Jaccard top 50, the median query can rule out 72 % of the groups of 4
// blocks (43 % of those of 8, 21 % of those of 16) by the union of their
// masks, their largest count and their key lengths, so that the scan
// reads 8 bytes of bounds a block for those instead of 40 (both masks'
// unions, the key lengths).

// superSize is the number of blocks of a group.
const superSize = 4

// superBounds are per group of superSize blocks the union of their
// masks' unions (words per group), and their smallest and largest key
// lengths.
type superBounds struct {
	or         []uint64
	lmin, lmax []uint32
}

// groups derives b's per-group bounds on first use (after sizes, whose
// largest key lengths it reads).
func (b *blockBounds) groups(ix *Index) *superBounds {
	b.superOnce.Do(func() {
		b.super = groupBounds(b.or, ix.maskWords, len(b.lmin))
		g := &b.super
		ng := (len(b.lmin) + superSize - 1) / superSize
		g.lmin, g.lmax = make([]uint32, ng), make([]uint32, ng)
		for k := range ng {
			lo, hi := k*superSize, min((k+1)*superSize, len(b.lmin))
			g.lmin[k], g.lmax[k] = slices.Min(b.lmin[lo:hi]), slices.Max(b.lmax[lo:hi])
		}
	})
	return &b.super
}

// groupBounds returns the unions per group of superSize blocks of the
// per-block unions or (words per block, nb blocks).
func groupBounds(or []uint64, words, nb int) superBounds {
	ng := (nb + superSize - 1) / superSize
	g := superBounds{or: make([]uint64, ng*words)}
	for k := range nb {
		dst := g.or[k/superSize*words : (k/superSize+1)*words]
		for w, x := range or[k*words : (k+1)*words] {
			dst[w] |= x
		}
	}
	return g
}
