package frontend

import (
	"github.com/graphcoder/graphcoder/lang"
)

// Monotone restores the row order of statements after error recovery has
// produced odd shapes (a missing token placed late, a label whose colon
// comes after its statement): in lang.Walk order each statement must start
// on or after the row where the previous one ends. It first shortens the
// earlier statement, then, if that is not enough, moves the later one
// down. Well-formed code never needs it.
func Monotone(stmts []*lang.Stmt) {
	var prev *lang.Stmt
	lang.Walk(stmts, func(s *lang.Stmt) {
		if prev != nil && prev.EndRow > s.StartRow {
			prev.EndRow = max(prev.StartRow, s.StartRow)
			if prev.EndRow > s.StartRow {
				s.StartRow = prev.EndRow
				s.EndRow = max(s.EndRow, s.StartRow)
			}
		}
		prev = s
	})
}

// CleanPath reports whether source text t spells an access path with
// nothing between its parts (no space, comment, type arguments or
// optional-chaining mark), so that it can serve as the path itself.
func CleanPath(t string) bool {
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case ' ', '\t', '\n', '\r', '\f', '/', '<', '>', '?', '!', '(', ')', '[', ']':
			return false
		}
	}
	return true
}
