package retrieve

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// A Jaccard walk over long postings on two cores. The postings of a
// token are deltas, readable only from their start, so the walk is not
// cut by lists but by entries: the caller's goroutine walks each list up
// to the middle entry id and hands the position over to a second
// goroutine, which walks the rest of that list while the first goes on
// with the next. The two write the counts of disjoint entries, and the
// second lags by at most one list, so the walk takes about half its
// time. It runs only when a core is free: when the coarse rankings under
// way (Jaccard rankings and hybrid searches, two cores each) need no
// more cores than GOMAXPROCS gives, the rule of Options.Walk.

// splitWalkBytes is the length of postings (bytes) from which a walk is
// split; a variable so that the property tests split small walks.
var splitWalkBytes = 1 << 18

// jaccardRunning counts the Jaccard rankings under way, for the rule.
var jaccardRunning atomic.Int32

// canSplit reports whether a walk may take a second core now (a
// variable: the property tests split on any machine).
var canSplit = func() bool {
	return 2*int(jaccardRunning.Load()+hybridRunning.Load()) <= runtime.GOMAXPROCS(0)
}

// walkLists adds the postings of the tokens ord (total bytes long) to
// the counts, of the entries in gate only unless it is nil.
func (ix *Index) walkLists(ord []uint32, sc *scratch, gate []uint64, total int) {
	if len(ord) == 0 || !ix.splits(total) {
		for _, t := range ord {
			ix.walkPostings(t, sc, gate)
		}
		return
	}
	lists := sc.lists[:0]
	for _, t := range ord {
		lists = append(lists, ix.post[ix.postOff[t]:ix.postOff[t+1]])
	}
	sc.lists = lists
	ix.walkSplit(lists, sc, gate)
}

// splits reports whether a walk of total bytes of postings is split.
func (ix *Index) splits(total int) bool {
	return total >= splitWalkBytes && ix.Len() >= 2 && canSplit()
}

// splitPos is where the second half of a list starts: its byte offset
// and the entry id before it.
type splitPos struct {
	off int
	e   uint32
}

// splitWalk is the state shared by the two halves of a split walk.
type splitWalk struct {
	wg  sync.WaitGroup
	pos []splitPos
	// handoff carries the index of each list whose pos is set, then -1
	// when the first half failed; the second half receives every value
	// sent, so that a send never blocks for good.
	handoff chan int32
	failed  any // the second half's panic
}

// splitWalks keeps the states.
var splitWalks freeList

// walkSplit walks the postings lists (each deltas from entry 0) on two
// goroutines (see above).
func (ix *Index) walkSplit(lists [][]byte, sc *scratch, gate []uint64) {
	sp, _ := splitWalks.Get().(*splitWalk)
	if sp == nil {
		sp = &splitWalk{handoff: make(chan int32, 256)}
	}
	if cap(sp.pos) < len(lists) {
		sp.pos = make([]splitPos, len(lists))
	}
	sp.pos, sp.failed = sp.pos[:len(lists)], nil
	for len(sp.handoff) > 0 {
		<-sp.handoff // a -1 nobody read
	}
	// The halves meet at a block's start, so that each raises the
	// largest counts (bmax) of its own blocks.
	mid := uint32(ix.Len()/2) &^ (blockSize - 1)
	sp.wg.Add(1)
	go walkSecond(lists, sc.counts, sc.bmax, gate, sp)
	defer func() {
		r := recover()
		if r != nil {
			sp.handoff <- -1
		}
		sp.wg.Wait()
		if r == nil {
			r = sp.failed
		}
		sp.failed = nil
		splitWalks.Put(sp)
		if r != nil {
			panic(r)
		}
	}()
	counts, bmax := sc.counts, sc.bmax
	for i, b := range lists {
		e, off := uint32(0), 0
		for off < len(b) {
			ne, k := e+uint32(b[off]), 1
			if b[off] >= 0x80 {
				v, n := uvarint(b[off:])
				ne, k = e+uint32(v), n
			}
			if ne >= mid {
				break
			}
			e, off = ne, off+k
			if gate != nil && gate[e/64]>>(e%64)&1 == 0 {
				continue
			}
			bumpCount(counts, bmax, e)
		}
		sp.pos[i] = splitPos{off, e}
		sp.handoff <- int32(i)
	}
}

// walkSecond walks the second halves of the lists as walkSplit hands
// them over. After a panic (a damaged index) it only drains the handoff.
func walkSecond(lists [][]byte, counts, bmax []uint32, gate []uint64, sp *splitWalk) {
	defer sp.wg.Done()
	for range lists {
		i := <-sp.handoff
		if i < 0 {
			return
		}
		if sp.failed == nil {
			sp.walkHalf(lists[i], sp.pos[i], counts, bmax, gate)
		}
	}
}

// walkHalf walks the postings list from p.
func (sp *splitWalk) walkHalf(list []byte, p splitPos, counts, bmax []uint32, gate []uint64) {
	defer func() {
		if r := recover(); r != nil {
			sp.failed = r
		}
	}()
	countList(list[p.off:], p.e, counts, bmax, gate)
}
