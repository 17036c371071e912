package engine

import (
	"context"
	"slices"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
)

// The recovered query parse. Cut off deep inside a method, a Java prefix
// often parses into one syntax error from its first rows to its last:
// tree-sitter's recovery gives up on the blocks still open and wraps the
// class, its methods and the statements before the cursor into a single
// ERROR node. The query slice then is that one statement, the text of
// the whole file above the cursor: nothing of the statements the cursor
// sits in is a statement of its own, the coarse search matches the
// keys of a whole file, and the slice says nothing about the code being
// written. The outline's parse already reads the source with its open
// brackets closed (closedOutline), which parses into the declarations
// the whole file has; the query does the same when its own parse is such
// an error (swallowed): it parses the lines before the cursor with the
// closers appended on rows after them, and the statements over the
// buffer's rows are the query. The closers' rows are dropped, and a
// statement reaching into them ends at the buffer's last row. When the
// query parse ends in a syntax error, the outline's closed source is
// parsed whole (its symbols are the outline's either way), and at a
// swallowed cursor its statements are the query, unless one reaches
// into the rows that source blanked beyond the query's (the comments
// between the declarations): then recoverQuery parses once more.

// swallowed reports whether f, the query parse of n lines of a Java
// buffer, is one syntax error around the cursor: its last top-level
// statement, the one the query target follows, is an Error starting on
// or above the first row of the innermost declaration of syms (the
// outline of the source with its brackets closed, rows clamped to the
// buffer) still open at the buffer's end, so that the cursor's method
// (or class, between methods) is inside the error. A syntax error of the
// cursor's own statement, inside the method's body, is a statement of
// that body and not top-level.
func swallowed(f *lang.File, syms []lang.Symbol, n int, language string) bool {
	if !endsInError(f, language) || n == 0 {
		return false
	}
	last := f.Stmts[len(f.Stmts)-1]
	inner := -1
	for i := range syms {
		if s := &syms[i]; s.EndRow >= n-1 && s.StartRow < n {
			inner = max(inner, s.StartRow)
		}
	}
	return inner >= 0 && last.StartRow <= inner
}

// endsInError reports whether the last top-level statement of f is a
// syntax error of a language of errorLanguages: whether f may be
// swallowed.
func endsInError(f *lang.File, language string) bool {
	return errorLanguages[language] && len(f.Stmts) > 0 && f.Stmts[len(f.Stmts)-1].Kind == lang.Error
}

// recoverQuery returns the query parse of the lines before the cursor
// with their open brackets closed (ccg.Closers), for a buffer whose own
// parse is swallowed: the parse of e's lines (the bounded source, when e
// is not nil) or of base. When a statement of the bounded parse reaches
// into a blanked body, base is parsed instead. closed is parseClosed of
// the lines done (the outline's source), which is not parsed again. It
// returns nil when no bracket is open, the source does not parse, or the
// closed source is swallowed too.
func recoverQuery(ctx context.Context, l *lang.Language, name string, base []string, e *elision, done []string, closed *lang.File, syms []lang.Symbol) *lang.File {
	parse := func(src []string) *lang.File {
		if slices.Equal(src, done) {
			return closed
		}
		return parseClosed(ctx, l, name, src)
	}
	src := base
	if e != nil {
		src = e.lines
	}
	r := parse(src)
	if r != nil && e != nil && e.spans(r.Stmts) {
		r = parse(base)
	}
	if r == nil || swallowed(r, syms, len(base), l.Name) {
		return nil
	}
	return r
}

// parseClosed parses lines with the closers of their open brackets
// appended and returns the parse over lines' rows: the closers' rows
// dropped, every statement and symbol row past the last clamped to it
// (the outline's rows as closedOutline gives them). It returns
// nil when no bracket is open or the source does not parse.
func parseClosed(ctx context.Context, l *lang.Language, name string, lines []string) *lang.File {
	closers := ccg.Closers(lines, l.Name)
	if closers == "" || len(lines) == 0 {
		return nil
	}
	f, err := l.Parse(ctx, name, source(lines, closers))
	if err != nil || len(f.Lines) < len(lines) {
		return nil
	}
	clampSymbols(f, len(lines))
	last := len(lines) - 1
	f.Lines = f.Lines[:len(lines):len(lines)]
	lang.Walk(f.Stmts, func(s *lang.Stmt) {
		s.StartRow, s.EndRow = min(s.StartRow, last), min(s.EndRow, last)
	})
	return f
}
