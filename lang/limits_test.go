package lang

import (
	"errors"
	"strings"
	"testing"
)

// The statements of a file may span MaxTextPerByte times its size of
// lines, plus MaxTextFixed: many statements on one long line (minified
// code) are too large, however few lexemes the file has.
func TestCheckStatementsText(t *testing.T) {
	long := strings.Repeat("x", 1<<20)
	stmt := func(start, end int) *Stmt { return &Stmt{StartRow: start, EndRow: end} }
	many := func(n int, row int) []*Stmt {
		var out []*Stmt
		for range n {
			out = append(out, stmt(row, row))
		}
		return out
	}
	for _, tt := range []struct {
		name  string
		lines []string
		stmts []*Stmt
		large bool
	}{
		{"one statement a line", []string{"a", "b", "c"}, []*Stmt{stmt(0, 0), stmt(1, 1), stmt(2, 2)}, false},
		{"a statement over every line, nested ones", []string{long, "b", long}, []*Stmt{{StartRow: 0, EndRow: 2, Body: []*Stmt{stmt(0, 0), stmt(2, 2)}}}, false},
		{"8 statements on a line of 1 MiB", []string{long}, many(8, 0), false},
		{"13 statements on a line of 1 MiB", []string{long}, many(13, 0), true},
		{"statements out of the lines", []string{"a"}, []*Stmt{stmt(3, 5), stmt(-1, 0)}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckStatements(tt.stmts, tt.lines)
			if got := errors.Is(err, ErrTooLarge); got != tt.large || !tt.large && err != nil {
				t.Errorf("CheckStatements = %v, want too large: %v", err, tt.large)
			}
		})
	}
}
