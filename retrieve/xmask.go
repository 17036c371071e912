package retrieve

import (
	"cmp"
	"errors"
	"fmt"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/graphcoder/graphcoder/internal/mapfile"
)

// A second mask for the Jaccard walk.
//
// The masks give bits to the DefaultMaskWords x 64 tokens held by the
// most keys; every other token of a query is counted by walking its
// postings. On a large index the tokens just below the mask's cut are
// still held by a few per cent of the entries each, and they make most
// of a walk: on the JDK index (1.45M entries) the postings of the 128
// most frequent tokens without a mask bit are 55 % of the bytes an
// average query walks, and nearly all of the entries it touches. So the
// Jaccard ranking gives those tokens bits of a second per-entry mask
// (xmaskBits of them, the tokens without a mask bit whose postings are
// longest, if at least one byte in 256 of entries): a query's
// intersection with an entry is the count of its remaining rarer tokens
// plus the popcounts of both masks, and the block bounds (blocks.go) add
// the second mask's per-block union. The second mask is Jaccard's alone:
// BM25 weighs those tokens by their term frequencies, which it reads
// beside the postings, so it walks them as before, and the walk mode
// hybrid shares between the two counts them as well (the scan then
// leaves the second mask out: scratch.xq is empty).
//
// The masks are derived from the postings (a walk of those tokens'
// postings: 5.6 MB and about 0.1-0.2 s on the JDK) on the first Jaccard
// ranking of an index built in memory, or when it is written: mapped.go
// stores them in the snapshot file, 16 bytes per entry per 128 bits (23
// MB on the JDK), and an index opened from a file written before them
// goes without (deriving them would cost a one-query process, such as
// graphcoder complete, more than they save it). The ranking is exactly the one without them: the property tests
// run with random widths, and TestBuiltSecondMaskEqualsPlain compares the
// two on an index graphcoder build wrote.

// xmaskBits is the number of tokens given a bit of the second mask at
// most; a variable so that the property tests vary it (0: none).
var xmaskBits = 128

// xmaskData is the second mask of an Index, derived on first use.
type xmaskData struct {
	once  sync.Once
	words int      // per entry; 0: no second mask
	tok   []uint32 // the tokens given a bit, by id ascending
	bit   []uint16 // tok[i]'s bit
	masks []uint64 // words per entry
	or    []uint64 // words per block: the union of its entries' masks
	size  atomic.Int64

	// gor holds words per group of superSize blocks: the union of its
	// blocks' unions (blocks.go), derived on first use (not stored).
	gonce sync.Once
	gor   []uint64
}

// groups returns the unions of x's masks per group of blocks of an
// index of nb blocks, deriving them on first use.
func (x *xmaskData) groups(nb int) []uint64 {
	x.gonce.Do(func() {
		x.gor = groupBounds(x.or, x.words, nb).or
		x.size.Add(int64(8 * len(x.gor)))
	})
	return x.gor
}

// xmask returns ix's second mask, deriving it on first use.
func (ix *Index) xmask() *xmaskData {
	x := ix.xm
	if x == nil {
		// An Index made without a constructor (tests): derive it for
		// this search alone.
		x = &xmaskData{}
	}
	x.once.Do(func() { x.derive(ix) })
	return x
}

// derive picks the tokens and sets their bits from their postings. The
// fields are set last, so that a damaged index panicking half way leaves
// no second mask (its tokens are then walked).
func (x *xmaskData) derive(ix *Index) {
	n := ix.Len()
	if xmaskBits <= 0 || n == 0 {
		return
	}
	minLen := max(n/256, 1)
	var cand []uint32
	for t := range uint32(len(ix.maskBit)) {
		if ix.maskBit[t] < 0 && ix.postLen(t) >= minLen {
			cand = append(cand, t)
		}
	}
	slices.SortFunc(cand, func(a, b uint32) int { return cmp.Or(cmp.Compare(ix.postLen(b), ix.postLen(a)), cmp.Compare(a, b)) })
	cand = cand[:min(len(cand), xmaskBits)]
	if len(cand) == 0 {
		return
	}
	words := (len(cand) + 63) / 64
	masks := make([]uint64, n*words)
	for i, t := range cand {
		w, m := i/64, uint64(1)<<(i%64)
		for e := range ix.postings(t) {
			masks[int(e)*words+w] |= m
		}
	}
	nb := (n + blockSize - 1) / blockSize
	or := make([]uint64, nb*words)
	for e := range n {
		b := e / blockSize
		for w := range words {
			or[b*words+w] |= masks[e*words+w]
		}
	}
	order := make([]int, len(cand))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(cand[a], cand[b]) })
	tok, bit := make([]uint32, len(cand)), make([]uint16, len(cand))
	for i, j := range order {
		tok[i], bit[i] = cand[j], uint16(j)
	}
	x.set(tok, bit, masks, or, words)
}

// set sets the second mask's fields and the memory they hold.
func (x *xmaskData) set(tok []uint32, bit []uint16, masks, or []uint64, words int) {
	x.tok, x.bit, x.masks, x.or, x.words = tok, bit, masks, or, words
	x.size.Store(int64(8*(len(masks)+len(or)) + 6*len(tok)))
}

// openSecondMask takes the second mask of ix from the sections of a
// mapped index (see mapped.go), get returning a section checked against
// a length in bytes (-1: any), after checking what a search relies on:
// the tokens ascending, without a mask bit, their bits a permutation.
func (ix *Index) openSecondMask(get func(string, int) []byte, nEntries, nVocab int) error {
	tok, err1 := mapfile.View[uint32](get("ix.xmask.tok", -1))
	bit, err2 := mapfile.View[uint16](get("ix.xmask.bit", 2*len(tok)))
	words := (len(tok) + 63) / 64
	masks, err3 := mapfile.View[uint64](get("ix.xmask.masks", 8*nEntries*words))
	or, err4 := mapfile.View[uint64](get("ix.xmask.or", 8*((nEntries+blockSize-1)/blockSize)*words))
	if err := errors.Join(err1, err2, err3, err4); err != nil {
		return err
	}
	if len(ix.maskBit) != nVocab {
		// ix.maskBit's own section failed: nothing to check against.
		return errors.New("section ix.xmask.tok: no mask bits to check the tokens against")
	}
	if len(bit) != len(tok) || len(tok) > 1<<16 {
		return fmt.Errorf("section ix.xmask.bit: %d bits for %d tokens", len(bit), len(tok))
	}
	seen := make([]bool, len(tok))
	for i, t := range tok {
		if i > 0 && t <= tok[i-1] || int(t) >= nVocab || ix.maskBit[t] >= 0 {
			return fmt.Errorf("section ix.xmask.tok: token %d at %d out of order or with a mask bit", t, i)
		}
		b := bit[i]
		if int(b) >= len(tok) || seen[b] {
			return fmt.Errorf("section ix.xmask.bit: bit %d of token %d repeated or out of range", b, t)
		}
		seen[b] = true
	}
	x := ix.xm
	x.once.Do(func() { x.set(tok, bit, masks, or, words) })
	return nil
}

// lookup returns token t's bit, if it has one.
func (x *xmaskData) lookup(t uint32) (int, bool) {
	i, ok := slices.BinarySearch(x.tok, t)
	if !ok {
		return 0, false
	}
	return int(x.bit[i]), true
}

// bytes is the memory the second mask holds once derived.
func (x *xmaskData) bytes() int64 { return x.size.Load() }

// xinter returns the popcount of entry e's second mask against the
// query's.
func (sc *scratch) xinter(e int) uint32 {
	w := len(sc.xq)
	m := sc.xmasks[e*w : (e+1)*w]
	n := 0
	for i, q := range sc.xq {
		n += bits.OnesCount64(m[i] & q)
	}
	return uint32(n)
}
