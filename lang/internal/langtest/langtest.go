// Package langtest holds the checks and the golden text format that the
// tests of the Go, JavaScript and TypeScript front ends share.
package langtest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
)

// Update is the -update flag of the golden tests.
var Update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Dump renders a statement tree as indented text: kind, grammar type,
// 1-based rows, label, flags, defs, params and uses, then the nested parts.
func Dump(f *lang.File) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "errors=%d\n", f.Errors)
	dumpList(&sb, f.Stmts, 0)
	return sb.String()
}

func dumpList(sb *strings.Builder, stmts []*lang.Stmt, depth int) {
	for _, s := range stmts {
		dumpStmt(sb, s, depth)
	}
}

func dumpStmt(sb *strings.Builder, s *lang.Stmt, depth int) {
	ind := strings.Repeat("  ", depth)
	fmt.Fprintf(sb, "%s%s %s %d-%d", ind, s.Kind, s.Type, s.StartRow+1, s.EndRow+1)
	if s.Label != "" {
		fmt.Fprintf(sb, " label=%s", s.Label)
	}
	if s.FallThrough {
		sb.WriteString(" fallthrough")
	}
	if s.Exhaustive {
		sb.WriteString(" exhaustive")
	}
	if s.InlineBody {
		sb.WriteString(" inline")
	}
	if len(s.Defs) > 0 {
		fmt.Fprintf(sb, " defs=[%s]", strings.Join(s.Defs, " "))
	}
	if len(s.Params) > 0 {
		fmt.Fprintf(sb, " params=[%s]", strings.Join(s.Params, " "))
	}
	if len(s.Uses) > 0 {
		fmt.Fprintf(sb, " uses=[%s]", strings.Join(s.Uses, " "))
	}
	sb.WriteByte('\n')
	part := func(name string, stmts []*lang.Stmt) {
		if len(stmts) == 0 {
			return
		}
		fmt.Fprintf(sb, "%s  %s:\n", ind, name)
		dumpList(sb, stmts, depth+2)
	}
	for _, in := range s.Inner {
		part("inner", in)
	}
	part("body", s.Body)
	if s.Cond != nil {
		part("cond", []*lang.Stmt{s.Cond})
	}
	part("cases", s.Cases)
	part("handlers", s.Handlers)
	if s.Else != nil {
		part("else", []*lang.Stmt{s.Else})
	}
	if s.Finally != nil {
		part("finally", []*lang.Stmt{s.Finally})
	}
}

// RowErrors checks the invariants every front end's statement tree keeps
// and returns the violations:
//   - every statement has 0 <= StartRow <= EndRow < len(Lines) and a type;
//   - listed in lang.Walk order (source pre-order), each statement starts
//     on or after the row where the previous one ends, so two statements
//     share a row only when one ends and the next begins on it;
//   - Defs, Uses and Params are sorted sets without empty names;
//   - kind-specific parts only appear on the kinds that own them, and
//     nested blocks are never empty.
func RowErrors(f *lang.File) []string {
	var errs []string
	bad := func(s *lang.Stmt, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s %s %d-%d: %s", s.Kind, s.Type, s.StartRow+1, s.EndRow+1, fmt.Sprintf(format, args...)))
	}
	var prev *lang.Stmt
	lang.Walk(f.Stmts, func(s *lang.Stmt) {
		if s.StartRow < 0 || s.EndRow >= len(f.Lines) || s.StartRow > s.EndRow {
			bad(s, "rows out of range (%d lines)", len(f.Lines))
		}
		if prev != nil && prev.EndRow > s.StartRow {
			bad(s, "starts before the previous statement %s %s %d-%d ends", prev.Kind, prev.Type, prev.StartRow+1, prev.EndRow+1)
		}
		prev = s
		if s.Type == "" {
			bad(s, "no type")
		}
		for _, names := range [][]string{s.Defs, s.Uses, s.Params} {
			for i, n := range names {
				if n == "" || (i > 0 && names[i-1] >= n) {
					bad(s, "names not a sorted set: %q", names)
					break
				}
			}
		}
		if s.Cond != nil && (s.Kind != lang.Do || s.Cond.Kind != lang.DoCond) {
			bad(s, "Cond on a %s", s.Kind)
		}
		if len(s.Cases) > 0 && s.Kind != lang.Switch {
			bad(s, "Cases on a %s", s.Kind)
		}
		for _, c := range s.Cases {
			if c.Kind != lang.Case {
				bad(s, "case of kind %s", c.Kind)
			}
		}
		if len(s.Handlers) > 0 && s.Kind != lang.Try {
			bad(s, "Handlers on a %s", s.Kind)
		}
		for _, h := range s.Handlers {
			if h.Kind != lang.Catch {
				bad(s, "handler of kind %s", h.Kind)
			}
		}
		if s.Finally != nil && (s.Kind != lang.Try || s.Finally.Kind != lang.Finally) {
			bad(s, "Finally on a %s", s.Kind)
		}
		if s.Else != nil && s.Kind == lang.If && s.Else.Kind != lang.Else && s.Else.Kind != lang.If {
			bad(s, "else of kind %s", s.Else.Kind)
		}
		for _, in := range s.Inner {
			if len(in) == 0 {
				bad(s, "empty inner block")
			}
		}
	})
	return errs
}

// CheckInvariants reports the RowErrors of f as test errors.
func CheckInvariants(t testing.TB, f *lang.File) {
	t.Helper()
	errs := RowErrors(f)
	for i, e := range errs {
		if i == 10 {
			t.Errorf("%s: ... %d more", f.Path, len(errs)-10)
			break
		}
		t.Errorf("%s: %s", f.Path, e)
	}
}

// Golden parses every file of testdata matching pattern with p and
// compares the Dump of its statement tree with the .golden file next to
// it (rewritten with -update).
func Golden(t *testing.T, p lang.Parser, pattern string) {
	fixtures, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil {
		t.Fatal(err)
	}
	if len(fixtures) == 0 {
		t.Fatalf("no fixtures matching testdata/%s", pattern)
	}
	for _, fx := range fixtures {
		name := filepath.Base(fx)
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(fx)
			if err != nil {
				t.Fatal(err)
			}
			f, err := p.Parse(context.Background(), fx, src)
			if err != nil {
				t.Fatal(err)
			}
			CheckInvariants(t, f)
			got := Dump(f)
			golden := strings.TrimSuffix(strings.TrimSuffix(fx, ".txt"), filepath.Ext(strings.TrimSuffix(fx, ".txt"))) + ".golden"
			if *Update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("statement tree differs from %s (run go test -update and review the diff):\n%s", golden, got)
			}
		})
	}
}

// CountStmts counts the statements of a tree.
func CountStmts(stmts []*lang.Stmt) int {
	n := 0
	lang.Walk(stmts, func(*lang.Stmt) { n++ })
	return n
}
