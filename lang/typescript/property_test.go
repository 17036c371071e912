package typescript

import (
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/internal/realcode"
	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

func grammarOf(path string) *sitter.Language { return pick(path).Language() }

// TestEffectProperties parses a sample of the TypeScript sources of the
// npm package effect (300 files, 60 with -short, GRAPHCODER_SAMPLE=0 for
// all) and checks the row invariants and that every statement node maps
// to exactly one statement.
func TestEffectProperties(t *testing.T) {
	files := langtest.NPMFiles(t, "effect", "src", ".ts", ".tsx")
	files = realcode.Sample(files, langtest.SampleSize(300, 60))
	langtest.Properties(t, NewParser(), grammarOf, langtest.EcmaRule, files)
}

// TestQueryCoreProperties does the same on every source of
// @tanstack/query-core.
func TestQueryCoreProperties(t *testing.T) {
	files := langtest.NPMFiles(t, "@tanstack/query-core", "src", ".ts", ".tsx")
	langtest.Properties(t, NewParser(), grammarOf, langtest.EcmaRule, files)
}

// BenchmarkRatio measures the front end against tree-sitter's parse alone
// on a fixed sample of 100 effect sources.
func BenchmarkRatio(b *testing.B) {
	files := realcode.Sample(langtest.NPMFiles(b, "effect", "src", ".ts"), 100)
	langtest.BenchRatio(b, NewParser(), grammarOf, files)
}
