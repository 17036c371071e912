package engine

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/graphcoder/graphcoder/internal/mapfile"
)

// The release of the snapshot file's mapped pages.
//
// A search reads the mapped snapshot file in place, and the kernel maps a
// file's pages into the process in whole folios of its page cache (up to
// megabytes each), so every request adds to the resident set pages of
// which it read a few bytes; after a few hundred requests a server holds
// most of the file. Releasing them (madvise MADV_DONTNEED) keeps the page
// cache's copy, and the next request that reads them maps them again at a
// page fault per folio: cheap once, not after every request (on the JDK's
// index, releasing after each made the median request 1.3x slower).
//
// So a request that ends releases them only when the process's resident
// set is over Options.ResidentBudget (read from the kernel's counters,
// microseconds) and the file-backed part has grown by at least
// releaseGain since the last release: a heap alone over the budget does
// not make every request release what it just mapped. A server that has
// been idle for Options.ReleaseEvery releases them too, so an idle server
// holds none of the file. Where the resident set cannot be read, a
// request releases at most once every ReleaseEvery, as before the budget.
//
// A request's release keeps the arrays every search reads through
// (snapfile.Image.ReleaseCold): mapping them again is most of what a
// release costs the next search, and they are the same few tens of MiB
// whatever the queries. Releasing after every request (a negative
// ReleaseEvery, as a one-shot command does) and the idle release take
// out all of the file.
//
// The madvise of a request's release walks every resident page of the
// file outside the kept arrays, about a millisecond on the JDK's index
// for tens of MiB, and a busy engine over its budget releases every few
// requests: so a request only decides (a read of the resident set) and
// hands the release to a goroutine of its own, at most one at a time,
// instead of waiting for it before it answers. Releasing after every
// request stays in the request, which then ends with the file out of
// its resident set.

// DefaultReleaseEvery is the default of Options.ReleaseEvery: how long an
// engine must have been idle before it releases the mapped pages.
const DefaultReleaseEvery = time.Second

// DefaultResidentBudget is the default of Options.ResidentBudget: the
// resident set above which a request that ends releases the mapped pages.
// On the JDK's index (1.45M entries) a busy server holds 125-150 MiB of
// heap, 28 MiB of executable and about 40 MiB of the arrays every search
// reads through, so it releases every few requests, and its peak stays
// at 245-260 MiB (bench/RESULTS.md, "Serve memory while busy").
const DefaultResidentBudget = 224 << 20

// releaseGain is the least growth of the file-backed resident set since
// the last release for which a request over the budget releases again.
// A busy engine's heap, executable and kept arrays alone come to about
// the budget, so this is how often it releases: a hybrid request on the
// JDK's index maps several MiB, and at 16 MiB a back-to-back run released
// every fourth request. At 32 MiB it releases half as often, its hybrid
// median is 0.93-0.95x, and serve's peak stays where it was (230-234 MiB
// against 232-238 over 150 requests); at 64 MiB the peak rose to 251-254
// MiB for no faster request (bench/RESULTS.md, "What releasing the mapped
// pages costs a busy engine").
const releaseGain = 32 << 20

// releaseState is an engine's record of its releases. Its fields are
// UnixNano times (0 for never) and bytes.
type releaseState struct {
	last    atomic.Int64 // the last release
	end     atomic.Int64 // when the last request ended
	fileLow atomic.Int64 // the file-backed resident set after the last release
	armed   atomic.Bool  // an idle timer is pending
	count   atomic.Int64 // releases so far
	// busy says a request's release is running in the background;
	// running counts those, for Close.
	busy    atomic.Bool
	running sync.WaitGroup
}

// releaseDue reports whether a request that ends with the process at r
// releases the mapped pages: r is over budget (never for a negative
// budget) and its file-backed part has grown by at least releaseGain
// since it was fileLow, right after the last release.
func releaseDue(r mapfile.Resident, fileLow, budget int64) bool {
	return budget >= 0 && r.Total > budget && r.File-fileLow >= releaseGain
}

// releaseEvery returns Options.ReleaseEvery with its default (0 for after
// every request).
func (e *Engine) releaseEvery() time.Duration {
	switch {
	case e.opts.ReleaseEvery < 0:
		return 0
	case e.opts.ReleaseEvery == 0:
		return DefaultReleaseEvery
	}
	return e.opts.ReleaseEvery
}

// residentBudget returns Options.ResidentBudget with its default (-1 for
// none).
func (e *Engine) residentBudget() int64 {
	switch {
	case e.opts.ResidentBudget < 0:
		return -1
	case e.opts.ResidentBudget == 0:
		return DefaultResidentBudget
	}
	return e.opts.ResidentBudget
}

// done ends a request: the last one running may release the pages of the
// snapshot file.
func (e *Engine) done() {
	e.running.Add(-1)
	e.release(e.cur.Load(), 0)
}

// release decides, when no more than alone requests are running (a
// request calls it after its search with alone 1, and as it ends with
// alone 0), whether to take the pages of st's snapshot file out of the
// resident memory now (see the comment at the top of this file), and
// when the last request ends arms the idle timer.
func (e *Engine) release(st *state, alone int32) {
	if e.opts.KeepMapped || st == nil || st.mapped == nil || e.running.Load() > alone {
		return
	}
	now := time.Now().UnixNano()
	if alone == 0 {
		e.mapped.end.Store(now)
	}
	every := e.releaseEvery()
	if every > 0 {
		var due bool
		if r, ok := mapfile.ReadResident(); ok {
			due = releaseDue(r, e.mapped.fileLow.Load(), e.residentBudget())
		} else {
			due = now-e.mapped.last.Load() >= int64(every)
		}
		if !due {
			if alone == 0 {
				e.armIdle(every, every)
			}
			return
		}
	}
	if every == 0 {
		// After every request: all of it, for the least resident
		// memory, before the request ends.
		e.releaseNow(st, now, true)
		return
	}
	e.releaseBehind(st, now)
}

// releaseBehind releases the cold pages of st's snapshot file (a
// request's release) in a goroutine, unless one is running already.
func (e *Engine) releaseBehind(st *state, now int64) {
	if !e.mapped.busy.CompareAndSwap(false, true) {
		return
	}
	e.mapped.running.Add(1)
	go func() {
		defer e.mapped.running.Done()
		e.releaseNow(st, now, false)
		e.mapped.busy.Store(false)
	}()
}

// armIdle starts a timer, unless one is pending, that releases the mapped
// pages once no request has ended for every.
func (e *Engine) armIdle(every, wait time.Duration) {
	if !e.mapped.armed.CompareAndSwap(false, true) {
		return
	}
	time.AfterFunc(wait, func() {
		e.mapped.armed.Store(false)
		if e.running.Load() > 0 {
			return // the last request running arms it again as it ends
		}
		end := e.mapped.end.Load()
		if idle := time.Duration(time.Now().UnixNano() - end); idle < every {
			e.armIdle(every, every-idle)
			return
		}
		if e.mapped.last.Load() > end {
			return // released since the last request
		}
		e.releaseNow(e.cur.Load(), time.Now().UnixNano(), true)
	})
}

// releaseNow releases the pages of st's snapshot file, all of them or
// (a request's release) all but the arrays every search reads through,
// and notes when, and what stays resident.
func (e *Engine) releaseNow(st *state, now int64, all bool) {
	if st == nil || st.mapped == nil {
		return
	}
	// A failure leaves the pages resident: nothing depends on it.
	if all {
		_ = st.mapped.Release()
	} else {
		_ = st.mapped.ReleaseCold()
	}
	runtime.KeepAlive(st)
	e.mapped.last.Store(now)
	e.mapped.count.Add(1)
	if r, ok := mapfile.ReadResident(); ok {
		e.mapped.fileLow.Store(r.File)
	}
}
