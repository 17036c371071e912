package java

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

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// dump renders a statement tree as indented text: kind, grammar type,
// 1-based rows, label, flags, defs and uses, then the nested parts.
func dump(f *lang.File) string {
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

func TestGolden(t *testing.T) {
	fixtures, err := filepath.Glob("testdata/*.java")
	if err != nil {
		t.Fatal(err)
	}
	if len(fixtures) == 0 {
		t.Fatal("no fixtures in testdata")
	}
	p := NewParser()
	for _, fx := range fixtures {
		name := strings.TrimSuffix(filepath.Base(fx), ".java")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(fx)
			if err != nil {
				t.Fatal(err)
			}
			f, err := p.Parse(context.Background(), fx, src)
			if err != nil {
				t.Fatal(err)
			}
			checkInvariants(t, f)
			got := dump(f)
			golden := strings.TrimSuffix(fx, ".java") + ".golden"
			if *update {
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
