package tsflat

import (
	"context"
	"runtime"
	"sync/atomic"
	"time"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// MaxParseMicros bounds the time tree-sitter may spend on one file, in
// microseconds, for every front end. Real files parse in milliseconds; the
// bound only keeps a pathological input from stalling a build. A variable
// so that a test can show every front end applies it.
var MaxParseMicros int64 = 30_000_000

// KeepBuffer bounds the records a pooled parser keeps for its next call
// (1<<16 records, about 2 MiB): the buffers of a larger file are dropped
// after its parse, so that a parser pool does not hold the memory of the
// largest file it ever saw.
const KeepBuffer = 1 << 16

// Keep returns buf for reuse, or nil when it is over KeepBuffer.
func Keep[T any](buf []T) []T {
	if cap(buf) > KeepBuffer {
		return nil
	}
	return buf[:0]
}

// CollectFrom is the size of a source file from which a front end
// collects its garbage between the stages of a parse (the syntax records,
// the outline, the statement tree): the heap may grow by as much as it
// holds after a collection before the next one, so a stage that starts
// with the previous stage's garbage still in the heap takes twice what it
// needs, and a process whose heap holds more than one file (an open
// index) collects nothing while one file is parsed. Few files are this
// large, and a collection costs milliseconds.
const CollectFrom = 256 << 10

// Collect collects the garbage when a source of size bytes is at least
// CollectFrom bytes (see CollectFrom).
func Collect(size int) {
	if size >= CollectFrom {
		runtime.GC()
	}
}

// SyntaxParser runs tree-sitter alone: the syntax tree is built and freed.
// It is the parse floor that index build times are measured against, and
// satisfies lang.SyntaxParser.
type SyntaxParser struct{ ts *sitter.Parser }

// NewSyntaxParser returns a SyntaxParser for the grammar l.
func NewSyntaxParser(l *sitter.Language) SyntaxParser {
	ts := sitter.NewParser()
	ts.SetLanguage(l)
	return SyntaxParser{ts}
}

// ParseSyntax parses src and frees the tree.
func (p SyntaxParser) ParseSyntax(src []byte) error {
	tree, err := Parse(context.Background(), p.ts, src, 0)
	if err != nil {
		return err
	}
	tree.Close()
	return nil
}

// sitterParser mirrors the layout of sitter.Parser, to reach the
// cancellation flag tree-sitter polls while it parses.
type sitterParser struct {
	isClosed bool
	c        unsafe.Pointer
	cancel   *uintptr
}

// cancelFlag returns the flag the parser's tree-sitter parser polls, or nil
// when the binding's layout is not the expected one.
func cancelFlag(ts *sitter.Parser) *uintptr {
	if unsafe.Sizeof(sitter.Parser{}) != unsafe.Sizeof(sitterParser{}) {
		return nil
	}
	return (*sitterParser)(unsafe.Pointer(ts)).cancel
}

// Parse parses src with ts, bounded by maxMicros of parse time (0: no
// bound) and stopped as soon as ctx is done: tree-sitter polls a flag
// while it parses, and ctx sets it. The binding's own cancellable parse
// can leave that flag set when a context is cancelled just as a parse
// completes, and every later parse with the parser then fails; so the
// binding is never handed ctx: Parse sets the flag itself, waits for its
// setter to finish, and clears it before returning. A halted parser is
// reset so the next call starts afresh.
func Parse(ctx context.Context, ts *sitter.Parser, src []byte, maxMicros int64) (*sitter.Tree, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	limit := maxMicros
	if d, ok := ctx.Deadline(); ok {
		left := max(time.Until(d).Microseconds(), 1)
		if limit == 0 || left < limit {
			limit = left
		}
	}
	ts.SetOperationLimit(int(limit))
	var parsed, watched chan struct{}
	flag := cancelFlag(ts)
	if flag != nil && ctx.Done() != nil {
		atomic.StoreUintptr(flag, 0)
		parsed, watched = make(chan struct{}), make(chan struct{})
		go func() {
			defer close(watched)
			select {
			case <-ctx.Done():
				atomic.StoreUintptr(flag, 1)
			case <-parsed:
			}
		}()
	}
	tree, err := ts.ParseCtx(context.Background(), nil, src)
	if parsed != nil {
		close(parsed)
		<-watched // the watcher is done with the flag: clear it for the next parse
		atomic.StoreUintptr(flag, 0)
	}
	if err != nil {
		ts.Reset()
		if cerr := ctx.Err(); cerr != nil {
			err = cerr
		}
		return nil, err
	}
	return tree, nil
}
