package retrieve

import (
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// BM25's walk on two cores.
//
// A BM25 ranking spends most of its time walking the postings of the
// query's rarer tokens into a region's accumulators (bm25Scratch.walkList),
// and in mode hybrid it is the slower of the two rankers: once the Jaccard
// ranking beside it is done, its core idles while BM25 walks on. So when a
// core is free, a region's lists are walked by two goroutines at once,
// each taking the next list not yet taken (an atomic counter), the caller
// into the region's accumulators and a helper into accumulators of its own,
// which are added into the caller's once both are done. A term is an
// integer number of units, so the sums, and everything ranked from them,
// are those of one walk whatever goroutine walked which list; a list's
// cursor is moved by the one that walked it, and the next region starts
// only once both are done. The caller never waits for the helper to start:
// a helper that has not started when the lists are all taken is
// cancelled, and does nothing when the scheduler runs it.
//
// The ranking of a region (its seeds, bounds and exact scores) runs on the
// caller alone, and on keys of hundreds of tokens it takes as long as the
// walk (XmlSupport.java:209 of the JDK: 20 ms of walk, 19 of ranking). So
// once a region is walked and merged, the helper is armed at once for the
// next region's lists (whose cursors now stand at its start), and walks
// them while the caller ranks this region; the caller then takes the
// lists still left, as before. The helper writes only its own
// accumulators, the caller ranks from its own, so the sums and all that
// is ranked from them are those of one walk; a ranking that ends before
// the next region (the deadline, a panic) cancels or waits for the helper
// armed for it (dropHelper) before its scratch goes back to the pool.
//
// A core is free when the coarse rankings under way in the process
// (Jaccard and BM25 rankings, and the helpers themselves) are fewer than
// GOMAXPROCS, as the rule of Options.Walk and splitwalk.go count them: a
// lone hybrid request takes a helper once its Jaccard ranking is done, a
// lone BM25 ranking from its first long region; the joint walk of mode
// hybrid (taken when the cores are busy) never does. The rule sees the
// process only: on a machine whose cores other processes keep busy the
// helper's thread waits for one, and the caller for the helper at the
// end of the region. So a caller that waited for its helper longer than
// a region's share of a list takes (bm25LateHelper) walks the rest of
// its ranking alone, and no walk of the process takes a helper for a
// while: 100 ms after a late helper, twice as long after each next one
// up to 5 s, back to 100 ms once a helper comes in time (pauseHelpers).

// bm25SplitBytes is the length of the rare postings of a query (bytes)
// from which a BM25 ranking walks its regions on two cores when one is
// free; a variable so that the property tests split small walks.
var bm25SplitBytes = 1 << 18

// bm25Running counts the BM25 rankings under way, bm25Helpers their
// helpers.
var bm25Running, bm25Helpers atomic.Int32

// canHelpBM25 reports whether a BM25 walk may take a helper now (a
// variable: the property tests split on any machine).
var canHelpBM25 = func() bool {
	return int(jaccardRunning.Load()+bm25Running.Load()+bm25Helpers.Load()) < runtime.GOMAXPROCS(0) &&
		time.Now().UnixNano() >= bm25HelpFrom.Load()
}

// bm25LateHelper is how long a caller may wait for its helper at the end
// of a region before it walks on alone; bm25HelpFrom (Unix nanoseconds)
// is the end of the pause after a late helper, bm25Pause its length.
const bm25LateHelper = 250 * time.Microsecond

var bm25HelpFrom, bm25Pause atomic.Int64

// pauseHelpers notes whether a helper came late (at now): a late one
// doubles the pause (from 100 ms, up to 5 s) and starts it, one in time
// ends the doubling.
func pauseHelpers(late bool, now time.Time) {
	if !late {
		if bm25Pause.Load() != 0 {
			bm25Pause.Store(0)
		}
		return
	}
	p := min(max(2*time.Duration(bm25Pause.Load()), 100*time.Millisecond), 5*time.Second)
	bm25Pause.Store(int64(p))
	bm25HelpFrom.Store(now.Add(p).UnixNano())
}

// bm25WaitHelper makes the caller wait for the helper to take a list
// before it takes one, so that the property tests see both walk.
var bm25WaitHelper = false

// bm25Helper is the helper's state, kept with the scratch: accumulators
// of a region, their touched bits and block maxima (as bm25Scratch's).
// A region's walk arms it with a new generation: state is gen<<2 and
// then gen<<2|helpStarted when the helper starts, or gen<<2|helpCancelled
// when the caller finds, its lists all taken, that it has not; the
// helper then does nothing (nor a helper still holding an older
// generation), and the caller does not wait for it.
type bm25Helper struct {
	wg     sync.WaitGroup
	acc    []int64
	marked []uint64
	bmax   []int64
	gen    uint64
	state  atomic.Uint64
	lists  []bm25Weight // the region's lists
	next   atomic.Int32 // the next list to take
	lim    scanLimit
	failed any  // the helper's panic
	dirty  bool // acc, marked or bmax may hold a walk's sums
	// The region the helper walks, when it was armed, and whether it
	// was armed for a region the caller has not joined yet (walkSplit).
	lo, hi  uint32
	armed   time.Time
	pending bool
}

const (
	helpStarted   = 1
	helpCancelled = 2
)

// arm hands the lists of the region lo..hi-1 to a helper; it reports
// false, having armed nothing, when every helper is busy.
func (sc *bm25Scratch) arm(lim *scanLimit, lists []bm25Weight, from int, lo, hi uint32) bool {
	h := sc.help
	if h == nil {
		h = &bm25Helper{}
		sc.help = h
	}
	if len(h.acc) != len(sc.acc) {
		h.acc = make([]int64, len(sc.acc))
		h.marked = make([]uint64, len(sc.marked))
		h.bmax = make([]int64, len(sc.bmax))
	}
	h.next.Store(int32(from))
	h.lists, h.lim, h.failed, h.dirty = lists, *lim, nil, true
	h.lo, h.hi = lo, hi
	h.gen++
	h.state.Store(h.gen << 2)
	bm25Helpers.Add(1)
	h.wg.Add(1)
	h.armed = time.Now()
	if !sc.startHelper(h.gen) {
		h.cancel()
		h.lists, h.dirty = nil, false
		return false
	}
	h.pending = true
	return true
}

// cancel cancels the helper of the armed generation unless it started;
// it reports whether it did.
func (h *bm25Helper) cancel() bool {
	g := h.gen
	if !h.state.CompareAndSwap(g<<2, g<<2|helpCancelled) {
		return false
	}
	bm25Helpers.Add(-1)
	h.wg.Done()
	return true
}

// dropHelper stops a helper armed for a region the ranking does not walk
// (it ended early, or panicked): cancelled, or waited for when it
// started, as it writes into the pooled scratch; and lets go of what the
// ranking handed it (its lists, its copy of the limit and so the
// request's context).
func (sc *bm25Scratch) dropHelper() {
	h := sc.help
	if h == nil {
		return
	}
	if h.pending {
		h.cancel()
		h.wg.Wait()
		h.pending = false
	}
	h.lists, h.lim, h.failed = nil, scanLimit{}, nil
}

// walkSplit walks the region's lists on two goroutines (see above), with
// the helper armed for it while the region before was ranked, if it was;
// it reports false, having walked nothing, when no core is free or every
// helper is busy.
// Once the region is walked, it arms the helper for the next one,
// nlo..nhi-1 (none when empty), if a core is still free: the helper walks
// its lists while the caller ranks this region, and the caller takes the
// lists left when it is done.
func (sc *bm25Scratch) walkSplit(lim *scanLimit, lists []bm25Weight, from int, nlo, nhi uint32) bool {
	if h := sc.help; (h == nil || !h.pending) && (!canHelpBM25() || !sc.arm(lim, lists, from, sc.lo, sc.hi)) {
		return false
	}
	h := sc.help
	h.pending = false
	var waited time.Time
	cancelled := false
	func() {
		// A panic of the caller's walk (a damaged index) waits for a
		// helper that started, which writes into the pooled scratch.
		defer func() {
			cancelled = h.cancel()
			h.wg.Wait()
		}()
		for bm25WaitHelper && h.next.Load() == int32(from) {
			runtime.Gosched()
		}
		for {
			li := int(h.next.Add(1) - 1)
			if li >= len(lists) || lim.stop() {
				break
			}
			sc.walkList(li, lists[li], sc.lo, sc.hi, sc.acc, sc.marked, sc.bmax, nil)
		}
		waited = time.Now()
	}()
	// A helper is late when the caller waited for it, or when it had
	// not started by then, long after it was handed the region.
	now := time.Now()
	late := now.Sub(waited) > bm25LateHelper || cancelled && waited.Sub(h.armed) > bm25LateHelper
	pauseHelpers(late, now)
	if late {
		sc.split = false
	}
	if h.failed != nil {
		r := h.failed
		h.failed = nil
		panic(r)
	}
	if h.lim.err != nil && lim.err == nil {
		lim.err = h.lim.err
	}
	lim.partial = lim.partial || h.lim.partial
	h.lists = nil
	sc.mergeHelper()
	if sc.split && nlo < nhi && bm25Ahead && !lim.stop() && canHelpBM25() {
		sc.arm(lim, lists, from, nlo, nhi)
	}
	return true
}

// bm25Ahead says whether the helper walks the next region while the
// caller ranks one; a variable so that the benchmarks compare both.
var bm25Ahead = true

// The helpers are goroutines that live as long as the process, at most
// GOMAXPROCS of them, each waiting on bm25Work for a scratch whose region
// it helps walk, so that a region's helper costs a hand-over, not a
// goroutine (nor its allocation).
var (
	bm25Work    = make(chan bm25Job)
	bm25Workers atomic.Int32
)

// bm25Job is a region to help walk: the scratch and its helper's
// generation.
type bm25Job struct {
	sc  *bm25Scratch
	gen uint64
}

// startHelper hands generation gen of sc to an idle helper, or to a new
// one when fewer than GOMAXPROCS exist; it reports false when every
// helper is busy.
func (sc *bm25Scratch) startHelper(gen uint64) bool {
	j := bm25Job{sc, gen}
	select {
	case bm25Work <- j:
		return true
	default:
	}
	if int(bm25Workers.Add(1)) <= runtime.GOMAXPROCS(0) {
		go bm25Worker(j)
		return true
	}
	bm25Workers.Add(-1)
	return false
}

// bm25Worker is a helper's goroutine.
func bm25Worker(j bm25Job) {
	for {
		j.sc.helpWalk(j.gen)
		j = <-bm25Work
	}
}

// helpWalk takes lists of the region of generation gen until none is
// left, unless the caller cancelled it.
func (sc *bm25Scratch) helpWalk(gen uint64) {
	h := sc.help
	if !h.state.CompareAndSwap(gen<<2, gen<<2|helpStarted) {
		return
	}
	lists := h.lists
	defer func() {
		if r := recover(); r != nil {
			h.failed = r
		}
		bm25Helpers.Add(-1)
		h.wg.Done()
	}()
	for {
		li := int(h.next.Add(1) - 1)
		if li >= len(lists) || h.lim.stop() {
			return
		}
		sc.walkList(li, lists[li], h.lo, h.hi, h.acc, h.marked, h.bmax, nil)
	}
}

// mergeHelper adds the helper's sums into the region's and clears them.
func (sc *bm25Scratch) mergeHelper() {
	h := sc.help
	acc, marked, bmax := sc.acc, sc.marked, sc.bmax
	for w, x := range h.marked {
		if x == 0 {
			continue
		}
		marked[w] |= x
		for ; x != 0; x &= x - 1 {
			i := w*64 + bits.TrailingZeros64(x)
			a := acc[i] + h.acc[i]
			acc[i] = a
			bmax[i/blockSize] = max(bmax[i/blockSize], a)
			h.acc[i] = 0
		}
		h.marked[w] = 0
		clear(h.bmax[w*64/blockSize : (w+1)*64/blockSize])
	}
	h.dirty = false
}

// clearHelper clears the helper's sums after a walk that did not merge
// them (it panicked).
func (sc *bm25Scratch) clearHelper() {
	h := sc.help
	if h == nil || !h.dirty {
		return
	}
	for w, x := range h.marked {
		for ; x != 0; x &= x - 1 {
			h.acc[w*64+bits.TrailingZeros64(x)] = 0
		}
		h.marked[w] = 0
	}
	clear(h.bmax)
	h.dirty = false
}
