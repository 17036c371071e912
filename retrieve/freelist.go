package retrieve

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// freeList keeps the per-search scratch whose arrays are sized by the
// index (the Jaccard counts, 4 bytes per entry: 5.8 MB a search on an
// index of 1.45M entries) or large (BM25's accumulators of a region,
// ScratchBytes). A
// sync.Pool would do, but the collector empties a pool at every cycle, so
// a server would allocate those arrays again after each collection, and
// the garbage they leave brings the next collection nearer: the more
// often the collector runs (as under a memory limit), the more it has to
// collect. A freeList is never emptied by the collector; it keeps at most
// ScratchLimit values, so what it holds is bounded by how many searches
// run at once (a server's parallel setting), and values put back beyond
// that are left to the collector. Get and Put have sync.Pool's
// signatures.
type freeList struct {
	mu    sync.Mutex
	items []any
}

// Get returns a kept value, or nil when there is none.
func (l *freeList) Get() any {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(l.items)
	if n == 0 {
		return nil
	}
	x := l.items[n-1]
	l.items[n-1] = nil
	l.items = l.items[:n-1]
	return x
}

// Put keeps x for a later Get, unless ScratchLimit values are kept
// already.
func (l *freeList) Put(x any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.items) < ScratchLimit() {
		l.items = append(l.items, x)
	}
}

// drop forgets the kept values beyond n.
func (l *freeList) drop(n int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.items) > n {
		clear(l.items[n:])
		l.items = l.items[:n]
	}
}

var scratchLimit atomic.Int64

// SetScratchLimit sets how many scratch sets of each kind sized by the
// index the package keeps between searches (n <= 0: the default,
// runtime.GOMAXPROCS): one per search expected to run at once (a search
// of mode hybrid uses one of each kind, its rankers running together),
// each set ScratchBytes of the largest index searched. Those kept beyond
// the new limit are dropped.
func SetScratchLimit(n int) {
	scratchLimit.Store(int64(max(n, 0)))
	n = ScratchLimit()
	scratchPool.drop(n)
	bm25ScratchPool.drop(n)
}

// ScratchBytes returns the bytes of one set of the scratch SetScratchLimit
// keeps, for an index of n entries: the Jaccard counts, 4 bytes an entry,
// and their largest per block, 4 bytes a block, BM25's bit set of the touched entries, 1/8 byte an entry, and its
// accumulators, touched bits and block maxima of a region of entries
// (bm25Region), 8 + 1/8 + 1/2 bytes an entry of the region, and the
// bounds of its ranges of 64 entries (bm25seek.go), 1/8 byte an entry of
// the region, with the 32 KiB of the bounds of their saturation and the
// 96 KiB of the table the floor chooses its entries by (bm25floor.go).
func ScratchBytes(n int) int64 {
	r := int64(min(n, bm25Region))
	return 4*int64(n) + 4*int64((n+blockSize-1)/blockSize) + int64(n+63)/64*8 + r*8 + r/8 + r/2 + r/8 + 16*256*8 + 2*bm25FloorEntries*12
}

// ScratchLimit returns the limit SetScratchLimit sets.
func ScratchLimit() int {
	if n := scratchLimit.Load(); n > 0 {
		return int(n)
	}
	return runtime.GOMAXPROCS(0)
}
