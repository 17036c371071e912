package typescript

import (
	"fmt"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

// TestRobustness runs the bad-input, deep nesting, large file,
// cancellation and registration checks JavaScript and TypeScript share.
func TestRobustness(t *testing.T) {
	langtest.CheckEcma(t, func() lang.Parser { return NewParser() }, "typescript", ".ts", extensions)
}

// FuzzParse feeds mutated source to the front end: it must not fail, hang
// or break the row invariants.
func FuzzParse(f *testing.F) {
	langtest.Fuzz(f, NewParser(), "fuzz.ts", []string{"*.ts", "*.tsx"}, langtest.EcmaFuzzSeeds...)
}

// TestManyMembers: a class of 5,000 methods and 5,000 fields, an
// interface of 5,000 members and an enum of 5,000 constants outline whole.
func TestManyMembers(t *testing.T) {
	var b strings.Builder
	b.WriteString("export class Big {\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "  f%d: number = 0;\n  m%d(x: number): Big { return this; }\n", i, i)
	}
	b.WriteString("}\nexport interface Wide {\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "  p%d: string;\n", i)
	}
	b.WriteString("}\nexport enum E {\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "  C%d,\n", i)
	}
	b.WriteString("}\n")
	langtest.CheckManyMembers(t, NewParser(), "big.ts", []byte(b.String()), 20003)
}
