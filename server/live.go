package server

import (
	"context"
	"log"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// LiveOptions configure a [Live] index.
type LiveOptions struct {
	// Reindex updates the index for the changed paths (absolute); it is
	// expected to be incremental. It returns the paths whose entries
	// actually changed (in whatever form Reload expects), none when
	// nothing did. Required.
	Reindex func(ctx context.Context, paths []string) (changed []string, err error)
	// Reload makes the changed paths visible to queries, typically
	// [Service.Update]; it is not called when nothing changed. Optional.
	Reload func(changed []string) error
	// Debounce is how long changes must settle before a re-index
	// (default 50 ms). A burst never delays a re-index by more than 20
	// times this.
	Debounce time.Duration
	// Logger receives one line per re-index (default: discarded).
	Logger *log.Logger
}

// Live keeps an index up to date: it collects changed paths, waits for
// them to settle, then re-indexes and reloads, one run at a time. Changes
// that arrive during a run are picked up by the next one.
type Live struct {
	opts LiveOptions
	kick chan struct{}

	mu      sync.Mutex
	pending map[string]struct{}

	runs atomic.Uint64
	busy atomic.Bool
}

// NewLive returns a live index; call [Live.Run] to start it.
func NewLive(opts LiveOptions) *Live {
	if opts.Debounce <= 0 {
		opts.Debounce = 50 * time.Millisecond
	}
	if opts.Logger == nil {
		opts.Logger = log.New(discard{}, "", 0)
	}
	return &Live{opts: opts, kick: make(chan struct{}, 1), pending: map[string]struct{}{}}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Notify records changed paths and schedules a re-index. It never blocks.
func (l *Live) Notify(paths ...string) {
	l.mu.Lock()
	for _, p := range paths {
		l.pending[p] = struct{}{}
	}
	l.mu.Unlock()
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// Runs counts completed re-index runs.
func (l *Live) Runs() uint64 { return l.runs.Load() }

// Busy reports whether a re-index is pending or running.
func (l *Live) Busy() bool {
	l.mu.Lock()
	n := len(l.pending)
	l.mu.Unlock()
	return n > 0 || l.busy.Load()
}

// Run serves notifications until ctx is done.
func (l *Live) Run(ctx context.Context) {
	d := l.opts.Debounce
	for {
		select {
		case <-ctx.Done():
			return
		case <-l.kick:
		}
		l.busy.Store(true)
		settle := time.NewTimer(d)
		deadline := time.NewTimer(20 * d)
	wait:
		for {
			select {
			case <-ctx.Done():
				settle.Stop()
				deadline.Stop()
				return
			case <-l.kick:
				settle.Reset(d)
			case <-settle.C:
				break wait
			case <-deadline.C:
				break wait
			}
		}
		settle.Stop()
		deadline.Stop()
		l.runOnce(ctx)
		l.busy.Store(false)
	}
}

func (l *Live) runOnce(ctx context.Context) {
	l.mu.Lock()
	paths := make([]string, 0, len(l.pending))
	for p := range l.pending {
		paths = append(paths, p)
	}
	clear(l.pending)
	l.mu.Unlock()
	if len(paths) == 0 {
		return
	}
	sort.Strings(paths)
	start := time.Now()
	changed, err := l.opts.Reindex(ctx, paths)
	if err == nil && len(changed) > 0 && l.opts.Reload != nil {
		err = l.opts.Reload(changed)
	}
	l.runs.Add(1)
	if err != nil {
		l.opts.Logger.Printf("re-index of %d changed file(s) failed: %v", len(paths), err)
		return
	}
	l.opts.Logger.Printf("re-indexed %d changed file(s) (%d in the index changed) in %v", len(paths), len(changed), time.Since(start).Round(time.Millisecond))
}
