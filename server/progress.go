package server

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// ErrNotReady is answered while the index is being built or loaded:
// front ends answer it with "try later" (HTTP 503, an empty LSP list).
var ErrNotReady = errors.New("the index is being built")

// Later is a [Completer] for a server that starts before its index is
// ready: it answers [ErrNotReady] until Set hands it the real completer,
// and then forwards to it, its [Reloader] and [Updater] included.
type Later struct {
	c atomic.Pointer[Completer]
}

// Set makes c answer from now on.
func (l *Later) Set(c Completer) { l.c.Store(&c) }

// Ready reports whether Set was called.
func (l *Later) Ready() bool { return l.c.Load() != nil }

// Complete implements [Completer].
func (l *Later) Complete(ctx context.Context, req Request) (*Result, error) {
	c := l.c.Load()
	if c == nil {
		return nil, ErrNotReady
	}
	return (*c).Complete(ctx, req)
}

// Reload implements [Reloader].
func (l *Later) Reload() error {
	if c := l.c.Load(); c != nil {
		if r, ok := (*c).(Reloader); ok {
			return r.Reload()
		}
	}
	return nil
}

// Update implements [Updater], reloading when the completer cannot update.
func (l *Later) Update(paths []string) error {
	if c := l.c.Load(); c != nil {
		switch u := (*c).(type) {
		case Updater:
			return u.Update(paths)
		case Reloader:
			return u.Reload()
		}
	}
	return nil
}

// Task is a snapshot of a long task's progress.
type Task struct {
	Title   string // what runs, e.g. "graphcoder: indexing"
	Message string // where it is, e.g. "120/400 files"
	// Percent is how far it is, 0 to 100, or -1 when unknown.
	Percent int
	Done    bool
	// Err is why it failed, when it did.
	Err error
}

// Progress tells watchers how a long task (the initial index build and
// load) goes: the LSP server reports it to editors as work-done progress.
// It is safe for concurrent use; a nil *Progress reports a task that is
// done.
type Progress struct {
	mu      sync.Mutex
	task    Task
	changed chan struct{} // closed at the next change
}

// NewProgress returns the progress of a task that is starting.
func NewProgress(title string) *Progress {
	return &Progress{task: Task{Title: title, Percent: -1}, changed: make(chan struct{})}
}

// Update reports where the task is.
func (p *Progress) Update(percent int, format string, args ...any) {
	p.set(func(t *Task) { t.Percent, t.Message = min(percent, 100), fmt.Sprintf(format, args...) })
}

// Finish reports the task's end, failed when err is not nil.
func (p *Progress) Finish(err error, format string, args ...any) {
	p.set(func(t *Task) { t.Done, t.Err, t.Message = true, err, fmt.Sprintf(format, args...) })
}

func (p *Progress) set(f func(*Task)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.task.Done {
		return
	}
	f(&p.task)
	close(p.changed)
	p.changed = make(chan struct{})
}

// State returns the task as it is and a channel closed at its next change
// (nil once it is done).
func (p *Progress) State() (Task, <-chan struct{}) {
	if p == nil {
		return Task{Done: true}, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.task.Done {
		return p.task, nil
	}
	return p.task, p.changed
}
