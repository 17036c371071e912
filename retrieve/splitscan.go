package retrieve

import (
	"math"
	"math/bits"
	"sync"
	"sync/atomic"
)

// The Jaccard scan (topK) as a state of its own, so that the pass over
// the groups of blocks can be cut in two halves of the index, each on
// its own goroutine, when a core is free: on the 10M-line corpus the
// scan is about two thirds of the ranking's CPU time (the walk the
// rest), and most of it is waiting on the memory of the entries of the
// blocks that pass (their counts, key lengths and masks), which a second
// core halves. Each half keeps its own heap, both starting from the
// seeds; the second half's heap is merged into the first's after both
// end. The list is the same: an entry of the final top k is in the top k
// of its half (fewer than k entries beat it there), so its half keeps
// it, and each entry is scored in one half only (the seeds, scored
// before the cut, are flagged in the counts: both halves leave them out
// of their blocks, and the merge leaves out the second half's copies).
// The rule of the split walk (splitwalk.go, canSplit) decides: never
// inside a hybrid search, whose BM25 ranking takes the other core.

// splitScanEntries is the size of an index (entries) from which a
// Jaccard scan is split; a variable so that the property tests split
// small indexes. Below it the scan is too short for the handoff. On a
// machine with a core free the split pays from the standard library's
// index (484k entries) up: in interleaved runs of the engine's requests
// in mode coarse2fine the median retrieval took 0.75 of the unsplit on
// that index and 0.84 of it on the JDK's (1.45M), and it paid on the
// 10M-line corpus's (3.38M); on a machine loaded by other processes,
// whose load canSplit does not see, the JDK's was slower split
// (bench/RETRIEVAL.md).
var splitScanEntries = 1 << 18

// scanSplits counts the split scans, for the tests.
var scanSplits atomic.Int64

// splitScanOrder runs the halves of a split scan one after the other
// on the caller's goroutine, for the tests (whose halves would otherwise
// see each other's roots at random): 1 the second half first, 2 the
// first half first; 0 (the default) on two goroutines.
var splitScanOrder = 0

// jaccardScan is the state of one Jaccard scan, or of one half of it.
type jaccardScan struct {
	ix   *Index
	q    *Query
	sc   *scratch
	k    int
	dead []bool
	lb   []uint64 // the query's language's blocks (nil: every block)
	n    uint32   // |Q|
	lim  *scanLimit

	// While the heap is full, an entry enters only when inter/union
	// beats the root's i0/u0, or ties with it and has a smaller id than
	// the root's e0. In a split scan i0/u0 is the better of the roots of
	// the two halves' heaps (e0 then the largest id when it is the
	// other's): an entry below the other half's root is below k entries
	// of the index, so it cannot be in the top k either.
	h               rankHeap[scored]
	i0, u0          uint64
	e0              uint32
	full            bool
	peer            *jaccardScan  // the other half of a split scan
	pub             atomic.Uint64 // the heap's root once full: inter<<32 | union
	scanned, leaked int
	nodes           *entryView // for the leak rule

	// The second half's own: its limit (a scanLimit is not shared), its
	// entry view, a panic it ended with, and its end.
	ownLim   scanLimit
	ownNodes entryView
	failed   any
	g0, g1   int
	wg       sync.WaitGroup
}

// start sets js up for a scan of q's top k with an empty heap h.
func (js *jaccardScan) start(ix *Index, q *Query, sc *scratch, k int, dead []bool, lim *scanLimit, h rankHeap[scored], nodes *entryView) {
	js.ix, js.q, js.sc, js.k, js.dead, js.lim, js.nodes = ix, q, sc, k, dead, lim, nodes
	js.lb = ix.languageBlocks(q.Language)
	js.n = uint32(len(q.Key))
	js.h = h
	js.i0, js.u0, js.e0, js.full = 0, 0, math.MaxUint32, false
	js.scanned, js.leaked, js.failed = 0, 0, nil
	js.peer = nil
	js.pub.Store(0)
}

// beats reports whether an entry (of id e at least) of similarity at
// most inter/union can enter the heap.
func (js *jaccardScan) beats(inter, union uint64, e uint32) bool {
	l, r := inter*js.u0, js.i0*union
	return !js.full || l > r || l == r && e < js.e0
}

// offer offers entry e of intersection inter to the heap, under the
// language filter, the files left out and the leak rule, and then the
// copies of its key (dups.go), each under its own checks, until one
// cannot enter.
func (js *jaccardScan) offer(e, inter uint32) {
	ix := js.ix
	union := js.n + ix.keyLen[e] - inter
	if !ix.sameLanguage(js.q, e) {
		return
	}
	for {
		if ix.dead(js.dead, e) {
		} else if ix.leaks(js.q, e, js.nodes) {
			js.leaked++
		} else {
			js.push(scored{e, inter, union})
		}
		if e = ix.nextCopy(e); e == 0 || !js.beats(uint64(inter), uint64(union), e) {
			return
		}
		js.scanned++
	}
}

// push puts s, an entry that passed the checks, in the heap.
func (js *jaccardScan) push(s scored) {
	js.h.offer(s, js.k)
	if len(js.h) < js.k {
		return
	}
	r := js.h[0]
	if l, rr := uint64(r.inter)*js.u0, js.i0*uint64(r.union); !js.full || l > rr || l == rr && r.e < js.e0 {
		js.i0, js.u0, js.e0, js.full = uint64(r.inter), uint64(r.union), r.e, true
	}
	if js.peer != nil {
		js.pub.Store(uint64(r.inter)<<32 | uint64(r.union))
	}
}

// fromPeer raises the threshold to the other half's root when it is
// better.
func (js *jaccardScan) fromPeer() {
	v := js.peer.pub.Load()
	if v == 0 {
		return
	}
	i, u := v>>32, v&math.MaxUint32
	if !js.full || i*js.u0 > js.i0*u {
		js.i0, js.u0, js.e0, js.full = i, u, math.MaxUint32, true
	}
}

// touched scans the query without a mask bit: only the postings can give
// an entry a token, so it visits the entries of the touched blocks in id
// order.
func (js *jaccardScan) touched() {
	sc, keyLen, n := js.sc, js.ix.keyLen, js.n
	counts, wlo, whi := sc.counts, sc.lo, sc.hi
	for b, m := range sc.bmax {
		lo, hi := b*blockSize, min((b+1)*blockSize, len(keyLen))
		if lo%pollEvery == 0 && lo > 0 && js.lim.stop() {
			break
		}
		if m == 0 || !inBlocks(js.lb, uint32(lo)) {
			continue
		}
		for e := lo; e < hi; e++ {
			inter := counts[e]
			if l := keyLen[e]; inter == 0 || l < wlo || l > whi {
				continue
			}
			js.scanned++
			if !js.beats(uint64(inter), uint64(n+keyLen[e]-inter), uint32(e)) {
				continue
			}
			js.offer(uint32(e), inter)
		}
	}
}

// scanCut returns the group at which a scan of ix's ng groups of blocks
// is cut in two (half of the blocks of the query's language lb, nil:
// all, on each side), or 0 when it is not split.
func (ix *Index) scanCut(lb []uint64, ng int) int {
	if ng < 2 || ix.Len() < splitScanEntries || !canSplit() {
		return 0
	}
	if lb == nil {
		return ng / 2
	}
	total := 0
	for _, w := range lb {
		total += bits.OnesCount64(w)
	}
	half := 0
	for i, w := range lb {
		if half += bits.OnesCount64(w); 2*half >= total {
			// Block i*64 and up: groups of superSize blocks.
			return min(max((i+1)*64/superSize, 1), ng-1)
		}
	}
	return ng / 2
}

// groupsSplit scans the groups [0, ng) in two halves cut at mid, the
// second by second (whose state it sets up) on another goroutine, and
// merges the second's heap into js's.
func (js *jaccardScan) groupsSplit(second *jaccardScan, mid, ng int) {
	second.start(js.ix, js.q, js.sc, js.k, js.dead, nil, append(second.h[:0], js.h...), &second.ownNodes)
	second.i0, second.u0, second.e0, second.full = js.i0, js.u0, js.e0, js.full
	js.peer, second.peer = second, js
	if js.lim != nil {
		second.ownLim = scanLimit{ctx: js.lim.ctx, deadline: js.lim.deadline}
		second.lim = &second.ownLim
	}
	scanSplits.Add(1)
	second.g0, second.g1 = mid, ng
	switch splitScanOrder {
	case 1:
		second.groups(mid, ng)
		js.groups(0, mid)
		js.merge(second)
		return
	case 2:
		js.groups(0, mid)
		second.groups(mid, ng)
		js.merge(second)
		return
	}
	second.wg.Add(1)
	select {
	case scanWork <- second:
	default:
		go scanWorker() // none is idle
		scanWork <- second
	}
	defer func() {
		r := recover()
		second.wg.Wait()
		if r == nil {
			r = second.failed
		}
		second.failed = nil
		if r != nil {
			panic(r)
		}
	}()
	js.groups(0, mid)
	second.wg.Wait()
	if second.failed != nil {
		return // the deferred call panics with it
	}
	js.merge(second)
}

// merge puts the entries of the second half's heap in js's, but for the
// seeds and their copies (js has those it kept), and adds its counts and
// limits.
func (js *jaccardScan) merge(second *jaccardScan) {
	js.peer = nil
	counts := js.sc.counts
	for _, s := range second.h {
		if counts[s.e]&seededFlag == 0 && !(js.ix.isCopy(s.e) && inHeap(js.h, s.e)) {
			js.push(s)
		}
	}
	js.scanned += second.scanned
	js.leaked += second.leaked
	if l := second.lim; l != nil && js.lim != nil {
		if js.lim.err == nil {
			js.lim.err = l.err
		}
		js.lim.partial = js.lim.partial || l.partial
	}
}

// inHeap reports whether h holds entry e.
func inHeap(h rankHeap[scored], e uint32) bool {
	for _, s := range h {
		if s.e == e {
			return true
		}
	}
	return false
}

// scanWork hands the second halves to the workers, goroutines that
// live on once started (one more whenever none is idle, so as many as
// split scans ever ran at once): a goroutine started per scan would cost
// an allocation a ranking.
var scanWork = make(chan *jaccardScan)

// scanWorker scans the second halves it is handed.
func scanWorker() {
	for js := range scanWork {
		js.second()
	}
}

// second scans the groups [g0, g1) for groupsSplit. A panic (a damaged
// index) is handed back to the caller's goroutine.
func (js *jaccardScan) second() {
	defer js.wg.Done()
	defer func() {
		if r := recover(); r != nil {
			js.failed = r
		}
	}()
	js.groups(js.g0, js.g1)
}

// groups scans the groups of blocks [g0, g1) (blocks.go): a group whose
// bound cannot beat the heap is skipped whole, then a block, then an
// entry by its own bound, and the rest are scored. The bounds are those
// topK describes.
func (js *jaccardScan) groups(g0, g1 int) {
	ix, sc := js.ix, js.sc
	n := js.n
	bb := ix.blocks()
	nb := len(bb.lmin)
	mw, qm := ix.maskWords, sc.qmask
	masks := ix.masks
	xw := len(sc.xq) // words of the second mask the intersections add (xmask.go)
	xq, xmasks, xor := sc.xq, sc.xmasks, sc.xor
	counts, keyLen := sc.counts, ix.keyLen
	wlo, whi := sc.lo, sc.hi
	lb, bmax, lim := js.lb, sc.bmax, js.lim
	gb := bb.groups(ix)
	xgor := sc.xgor
	for g := g0; g < g1; g++ {
		b0, b1 := g*superSize, min((g+1)*superSize, nb)
		if b0%(pollEvery/blockSize) == 0 && b0 > 0 && lim.stop() {
			break
		}
		if js.peer != nil {
			js.fromPeer()
		}
		if gb.lmax[g] < wlo || gb.lmin[g] > whi {
			continue
		}
		gm := uint32(0)
		for _, m := range bmax[b0:b1] {
			gm = max(gm, m)
		}
		gpc := 0
		if mw == 2 {
			gpc = bits.OnesCount64(gb.or[2*g]&qm[0]) + bits.OnesCount64(gb.or[2*g+1]&qm[1])
		} else {
			for w, x := range qm {
				gpc += bits.OnesCount64(gb.or[g*mw+w] & x)
			}
		}
		if xw == 2 {
			gpc += bits.OnesCount64(xgor[2*g]&xq[0]) + bits.OnesCount64(xgor[2*g+1]&xq[1])
		} else {
			for w, x := range xq[:xw] {
				gpc += bits.OnesCount64(xgor[g*xw+w] & x)
			}
		}
		if i := min(uint32(gpc)+gm, gb.lmax[g]); i == 0 || !js.beats(uint64(i), uint64(n+max(gb.lmin[g], i)-i), uint32(b0*blockSize)) {
			continue
		}
		for b := b0; b < b1; b++ {
			lo, hi := b*blockSize, min((b+1)*blockSize, len(keyLen))
			if bb.lmax[b] < wlo || bb.lmin[b] > whi {
				continue // no key length of the window
			}
			if lb != nil && lb[b/64]>>(b%64)&1 == 0 {
				continue // no entry of the query's language
			}
			var pc int
			if mw == 2 {
				pc = bits.OnesCount64(bb.or[2*b]&qm[0]) + bits.OnesCount64(bb.or[2*b+1]&qm[1])
			} else {
				pc, _ = bb.queryBits(b, qm, nil)
			}
			xpc := 0 // the second mask's part of pc
			if xw == 2 {
				xpc = bits.OnesCount64(xor[2*b]&xq[0]) + bits.OnesCount64(xor[2*b+1]&xq[1])
			} else {
				for w, x := range xq[:xw] {
					xpc += bits.OnesCount64(xor[b*xw+w] & x)
				}
			}
			pc += xpc
			i := uint32(pc)
			i += bmax[b] // the largest count of the block
			// |A n B| <= |B|: no entry holds more than the block's longest key.
			if i = min(i, bb.lmax[b]); i == 0 {
				continue
			}
			if !js.beats(uint64(i), uint64(n+max(bb.lmin[b], i)-i), uint32(lo)) {
				continue
			}
			// A block no posting touched (most of those that pass
			// are such: their entries share only mask tokens with
			// the query) has counts of 0 and no seed, so its counts
			// are not read: a cache miss a block.
			touched := bmax[b] != 0
			for e := lo; e < hi; e++ {
				inter := uint32(0)
				if touched {
					if inter = counts[e]; inter&seededFlag != 0 {
						continue
					}
				}
				l := keyLen[e]
				if l < wlo || l > whi {
					continue
				}
				// The entry's own bound: its count plus the query bits
				// of the block's unions, at most its key length; it
				// spares the masks of most entries of a block that
				// passed for one entry's count.
				ub := min(inter+uint32(pc), l)
				if ub == 0 || !js.beats(uint64(ub), uint64(n+l-ub), uint32(e)) {
					continue
				}
				if mw == 2 {
					inter += uint32(bits.OnesCount64(masks[2*e]&qm[0]) + bits.OnesCount64(masks[2*e+1]&qm[1]))
					if xw > 0 {
						// Again with the first mask's exact part, before
						// the second mask is read.
						ub := min(inter+uint32(xpc), l)
						if ub == 0 || !js.beats(uint64(ub), uint64(n+l-ub), uint32(e)) {
							continue
						}
						if xw == 2 {
							inter += uint32(bits.OnesCount64(xmasks[2*e]&xq[0]) + bits.OnesCount64(xmasks[2*e+1]&xq[1]))
						} else {
							inter += sc.xinter(e)
						}
					}
				} else {
					inter = ix.inter(sc, e)
				}
				if inter == 0 {
					continue
				}
				js.scanned++
				if !js.beats(uint64(inter), uint64(n+l-inter), uint32(e)) {
					continue
				}
				js.offer(uint32(e), inter)
			}
		}
	}
}
