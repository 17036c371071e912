package engine

import (
	"context"

	"github.com/graphcoder/graphcoder/lang"
)

// The outline's parse ahead. A buffer is parsed twice: once for the query
// (its lines, bounded) and once for its outline (the same lines with
// their open brackets closed, closedOutline), each a whole tree-sitter
// parse of what lies above the cursor. The second depends on the first
// only through which source it reads (the query's elision, unless the
// query parse had to fall back to the lines unbounded) and whether it
// needs the statements too (the query parse ends in a syntax error, and
// the statements of the closed source may be the query, recover.go).
// For a large buffer with a core to spare the outline's parse runs beside
// the query's, on the source it reads unless that fallback happens, and
// with the statements whenever the language may need them; the outline
// of a whole parse is the outline parse's (lang.Language.Outline). When
// the guess of the source was wrong, or the whole parse failed where the
// outline alone is wanted, the parse is done again as before, so what the
// buffer gets is always what the two parses in a row give. It halves the
// parse's wall time where it is largest: a cursor inside a method of
// thousands of rows, e.g. a resource bundle's one array initialiser.

// aheadMinBytes and aheadMaxBytes bound the source size at which the
// outline is parsed ahead: below the first a parse takes a fraction of a
// millisecond and the second goroutine would cost about what it saves;
// above the second the two syntax trees at once (each some 50 times the
// source) would cost more memory than the time saved is worth.
const (
	aheadMinBytes = 16 << 10
	aheadMaxBytes = 1 << 20
)

// parsesAhead reports whether a source of n bytes has its outline parsed
// ahead.
func parsesAhead(n int) bool { return n >= aheadMinBytes && n <= aheadMaxBytes }

// aheadParse is a parse under way on its own goroutine beside the
// request's work; its result v once done is closed.
type aheadParse[T any] struct {
	cancel context.CancelFunc
	done   chan struct{}
	v      T
}

// startAhead starts parse on its own goroutine, with a context the parse
// ends with.
func startAhead[T any](ctx context.Context, parse func(context.Context) T) *aheadParse[T] {
	actx, cancel := context.WithCancel(ctx)
	a := &aheadParse[T]{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		a.v = parse(actx)
	}()
	return a
}

// wait returns the parse's result once it is done.
func (a *aheadParse[T]) wait() T {
	<-a.done
	a.cancel()
	return a.v
}

// stop ends the parse, when its result is not wanted, and waits for it:
// no work of the request outlives it. Nothing happens for a nil a.
func (a *aheadParse[T]) stop() {
	if a != nil {
		a.cancel()
		<-a.done
	}
}

// closedAhead is the outline's parse under way beside the query's.
type closedAhead struct {
	src   []string // the lines it parses (before the closers)
	stmts bool     // with the statements (parseClosed)
	*aheadParse[*lang.File]
}

// startClosed starts closedOutline(ctx, l, name, src, stmts) on its own
// goroutine.
func startClosed(ctx context.Context, l *lang.Language, name string, src []string, stmts bool) *closedAhead {
	return &closedAhead{src: src, stmts: stmts, aheadParse: startAhead(ctx, func(ctx context.Context) *lang.File {
		return closedOutline(ctx, l, name, src, stmts)
	})}
}

// stop is aheadParse.stop; nothing happens for a nil a.
func (a *closedAhead) stop() {
	if a != nil {
		a.aheadParse.stop()
	}
}

// outline returns closedOutline(ctx, l, name, src, stmts) of the source
// the buffer's outline is read from: the parse ahead's result when it
// read src (same slice) and holds what stmts asks, else a parse now.
func (a *closedAhead) outline(ctx context.Context, l *lang.Language, name string, src []string, stmts bool) *lang.File {
	if a == nil {
		return closedOutline(ctx, l, name, src, stmts)
	}
	if !sameLines(a.src, src) || stmts && !a.stmts {
		a.stop()
		return closedOutline(ctx, l, name, src, stmts)
	}
	f := a.wait()
	if f == nil && a.stmts && !stmts {
		// The whole parse failed; the outline alone may still read.
		return closedOutline(ctx, l, name, src, stmts)
	}
	return f
}

// sameLines reports whether a and b are the same slice of lines (not
// only equal ones: the guess is the very elision the query took).
func sameLines(a, b []string) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// linesBytes is the size of lines as a source, each ended by a newline.
func linesBytes(lines []string) int {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	return n
}

// The outline after the cursor, parsed ahead. The definition context
// adds the declarations after the cursor to the buffer's outline
// (buffer.addAfter), and where the indexed outline cannot stand for them
// (the buffer is an edited version: state.indexedAfter)
// that is a parse of the whole buffer (state.parsedAfter), as costly as
// the query's on a long file. Its source depends only on the query parse
// (which bodies it blanked), so for a large buffer with a core to spare
// it runs beside the retrieval, started once the query parse is done:
// the same function on the same lines, so its outline is the one the
// definition context would have parsed itself. Only beside a search
// that runs on one goroutine (coarse2fine, coarse, bm25; the fine
// stage's workers are short): hybrid's rankers run side by side and take
// both cores of a two-core machine, and there a parse beside them slowed
// the search by as much as it saved the definitions (bench/RESULTS.md).

// afterAhead is the parse of the outline after the cursor under way.
type afterAhead = aheadParse[afterOutline]

// afterOutline is parsedAfter's result.
type afterOutline struct {
	syms []lang.Symbol
	ok   bool
}

// startAfter starts parsedAfter for the buffer on its own goroutine when
// addAfter will need it and the buffer is large enough to repay a second
// goroutine; b must be parsed, and its outline not yet given the
// declarations after the cursor.
func (b *buffer) startAfter(ctx context.Context, l *lang.Language, st *state) {
	if b.afterAhead != nil || !b.ahead || b.withAfter || b.file == nil || len(b.after) == 0 ||
		!parsesAhead(linesBytes(b.lines)+linesBytes(b.after)) {
		return
	}
	if _, ok := st.indexedAfter(b, l); ok {
		return
	}
	path := b.path
	b.afterAhead = startAhead(ctx, func(ctx context.Context) afterOutline {
		syms, ok := st.parsedAfter(ctx, b, l, path)
		return afterOutline{syms, ok}
	})
}
