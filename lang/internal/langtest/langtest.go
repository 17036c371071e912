// Package langtest holds the checks and the golden text format that the
// tests of the Go, JavaScript and TypeScript front ends share.
package langtest

import (
	"context"
	"fmt"
	goldenfile "github.com/graphcoder/graphcoder/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/lang"
)

// Update is the -update flag of the golden tests (the one of package
// golden).
var Update = goldenfile.Update

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
	fmt.Fprintf(sb, "%s%s %s %d-%d", ind, s.Kind, s.Type(), s.StartRow+1, s.EndRow+1)
	if s.Label() != "" {
		fmt.Fprintf(sb, " label=%s", s.Label())
	}
	if s.FallThrough() {
		sb.WriteString(" fallthrough")
	}
	if s.Exhaustive() {
		sb.WriteString(" exhaustive")
	}
	if s.InlineBody {
		sb.WriteString(" inline")
	}
	if len(s.Defs()) > 0 {
		fmt.Fprintf(sb, " defs=[%s]", strings.Join(s.Defs(), " "))
	}
	if len(s.Params()) > 0 {
		fmt.Fprintf(sb, " params=[%s]", strings.Join(s.Params(), " "))
	}
	if len(s.Uses()) > 0 {
		fmt.Fprintf(sb, " uses=[%s]", strings.Join(s.Uses(), " "))
	}
	sb.WriteByte('\n')
	part := func(name string, stmts []*lang.Stmt) {
		if len(stmts) == 0 {
			return
		}
		fmt.Fprintf(sb, "%s  %s:\n", ind, name)
		dumpList(sb, stmts, depth+2)
	}
	for _, in := range s.Inner() {
		part("inner", in)
	}
	part("body", s.Body)
	if s.Cond() != nil {
		part("cond", []*lang.Stmt{s.Cond()})
	}
	part("cases", s.Cases())
	part("handlers", s.Handlers())
	if s.Else() != nil {
		part("else", []*lang.Stmt{s.Else()})
	}
	if s.Finally() != nil {
		part("finally", []*lang.Stmt{s.Finally()})
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
		errs = append(errs, fmt.Sprintf("%s %s %d-%d: %s", s.Kind, s.Type(), s.StartRow+1, s.EndRow+1, fmt.Sprintf(format, args...)))
	}
	var prev *lang.Stmt
	lang.Walk(f.Stmts, func(s *lang.Stmt) {
		if s.StartRow < 0 || s.EndRow >= len(f.Lines) || s.StartRow > s.EndRow {
			bad(s, "rows out of range (%d lines)", len(f.Lines))
		}
		if prev != nil && prev.EndRow > s.StartRow {
			bad(s, "starts before the previous statement %s %s %d-%d ends", prev.Kind, prev.Type(), prev.StartRow+1, prev.EndRow+1)
		}
		prev = s
		if s.Type() == "" {
			bad(s, "no type")
		}
		for _, names := range [][]string{s.Defs(), s.Uses(), s.Params()} {
			for i, n := range names {
				if n == "" || (i > 0 && names[i-1] >= n) {
					bad(s, "names not a sorted set: %q", names)
					break
				}
			}
		}
		if s.Cond() != nil && (s.Kind != lang.Do || s.Cond().Kind != lang.DoCond) {
			bad(s, "Cond on a %s", s.Kind)
		}
		if len(s.Cases()) > 0 && s.Kind != lang.Switch {
			bad(s, "Cases on a %s", s.Kind)
		}
		for _, c := range s.Cases() {
			if c.Kind != lang.Case {
				bad(s, "case of kind %s", c.Kind)
			}
		}
		if len(s.Handlers()) > 0 && s.Kind != lang.Try {
			bad(s, "Handlers on a %s", s.Kind)
		}
		for _, h := range s.Handlers() {
			if h.Kind != lang.Catch {
				bad(s, "handler of kind %s", h.Kind)
			}
		}
		if s.Finally() != nil && (s.Kind != lang.Try || s.Finally().Kind != lang.Finally) {
			bad(s, "Finally on a %s", s.Kind)
		}
		if s.Else() != nil && s.Kind == lang.If && s.Else().Kind != lang.Else && s.Else().Kind != lang.If {
			bad(s, "else of kind %s", s.Else().Kind)
		}
		for _, in := range s.Inner() {
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
			golden := strings.TrimSuffix(strings.TrimSuffix(fx, ".txt"), filepath.Ext(strings.TrimSuffix(fx, ".txt"))) + ".golden"
			goldenfile.CheckFile(t, golden, Dump(f))
		})
	}
}

// CountStmts counts the statements of a tree.
func CountStmts(stmts []*lang.Stmt) int {
	n := 0
	lang.Walk(stmts, func(*lang.Stmt) { n++ })
	return n
}

// BadInput is one malformed source and what parsing it must give.
type BadInput struct {
	Name      string
	Src       string
	MinErrors int // at least this many syntax errors
	Stmts     int // this many statements; -1 for any number
}

// CheckBadInput parses each input with p as the file name path: the parse
// must succeed, keep the row invariants, count the syntax errors, and
// strip carriage returns from the lines, and outline within the contract
// of lang.Symbol.
func CheckBadInput(t *testing.T, p lang.Parser, path string, tests []BadInput) {
	for _, tt := range tests {
		t.Run(tt.Name, func(t *testing.T) {
			f, err := p.Parse(context.Background(), path, []byte(tt.Src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			CheckInvariants(t, f)
			CheckSymbols(t, f)
			if f.Errors < tt.MinErrors {
				t.Errorf("Errors = %d, want at least %d", f.Errors, tt.MinErrors)
			}
			if tt.MinErrors == 0 && f.Errors != 0 {
				t.Errorf("Errors = %d, want 0:\n%s", f.Errors, Dump(f))
			}
			if n := CountStmts(f.Stmts); tt.Stmts >= 0 && n != tt.Stmts {
				t.Errorf("%d statements, want %d:\n%s", n, tt.Stmts, Dump(f))
			}
			for _, l := range f.Lines {
				if strings.HasSuffix(l, "\r") {
					t.Errorf("line keeps its \\r: %q", l)
				}
			}
		})
	}
}

// CheckDeep parses src, nested depth levels deep by its author, and checks
// the invariants and that the statement tree is at least minDepth deep.
func CheckDeep(t *testing.T, p lang.Parser, path, src string, minDepth int) {
	t.Helper()
	f, err := p.Parse(context.Background(), path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	CheckInvariants(t, f)
	maxDepth := 0
	var walk func(stmts []*lang.Stmt, d int)
	walk = func(stmts []*lang.Stmt, d int) {
		maxDepth = max(maxDepth, d)
		for _, s := range stmts {
			walk(s.Body, d+1)
			walk(s.Cases(), d+1)
			for _, in := range s.Inner() {
				walk(in, d+1)
			}
			if s.Else() != nil {
				walk([]*lang.Stmt{s.Else()}, d+1)
			}
		}
	}
	walk(f.Stmts, 0)
	if maxDepth < minDepth {
		t.Errorf("statement tree depth %d, want at least %d", maxDepth, minDepth)
	}
}

// Fuzz runs the fuzz target every front end shares: any input parses
// without error and keeps the row invariants. Seeds are the files of
// testdata matching patterns and extra.
func Fuzz(f *testing.F, p lang.Parser, path string, patterns []string, extra ...string) {
	var fixtures []string
	for _, pat := range patterns {
		m, _ := filepath.Glob(filepath.Join("testdata", pat))
		fixtures = append(fixtures, m...)
	}
	for _, fx := range fixtures {
		if src, err := os.ReadFile(fx); err == nil {
			f.Add(src)
		}
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := p.Parse(context.Background(), path, src)
		if err != nil {
			t.Fatal(err)
		}
		if errs := RowErrors(file); len(errs) > 0 {
			t.Fatalf("%s\n%s", strings.Join(errs, "\n"), Dump(file))
		}
	})
}

// racingContext is cancelled at the instant a parse runs: Done has fired
// but Err is not yet observed by the caller's check.
type racingContext struct{ context.Context }

func (racingContext) Done() <-chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// soonContext has a deadline a millisecond away but never reports itself
// done, so only the deadline itself can stop a parse.
type soonContext struct{ context.Context }

func (soonContext) Deadline() (time.Time, bool) { return time.Now().Add(time.Millisecond), true }

// CheckCancel checks that a cancelled context fails a parse, that a
// context cancelled while a parse runs never breaks the parser for the next
// call, and that a deadline bounds the parse of big, a large source.
func CheckCancel(t *testing.T, p lang.Parser, path string, big []byte) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Parse(ctx, path, big); err == nil {
		t.Error("no error from a cancelled context")
	}
	for i := 0; i < 20; i++ {
		_, _ = p.Parse(racingContext{context.Background()}, path, big)
	}
	if _, err := p.Parse(context.Background(), path, big); err != nil {
		t.Fatalf("parse after cancelled contexts: %v", err)
	}
	start := time.Now()
	if _, err := p.Parse(soonContext{context.Background()}, path, big); err == nil {
		t.Logf("parsed %d bytes within a millisecond", len(big))
	} else if d := time.Since(start); d > time.Second {
		t.Errorf("parse stopped after %v, want about a millisecond", d)
	}
	if _, err := p.Parse(context.Background(), path, []byte("\n")); err != nil {
		t.Fatalf("parse after a deadline: %v", err)
	}
}
