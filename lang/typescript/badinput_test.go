package typescript

import (
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
