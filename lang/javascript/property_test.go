package javascript

import (
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/internal/realcode"
	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

// TestSvelteProperties parses the JavaScript sources of the npm package
// svelte (every file; 100 with -short) and checks the row invariants and
// that every statement node maps to exactly one statement.
func TestSvelteProperties(t *testing.T) {
	files := langtest.NPMFiles(t, "svelte", "src", ".js", ".mjs", ".cjs", ".jsx")
	files = realcode.Sample(files, langtest.SampleSize(0, 100))
	langtest.Properties(t, NewParser(), func(string) *sitter.Language { return grammar.Language() }, langtest.EcmaRule, files)
}

// BenchmarkRatio measures the front end against tree-sitter's parse alone
// on a fixed sample of 100 svelte sources.
func BenchmarkRatio(b *testing.B) {
	files := realcode.Sample(langtest.NPMFiles(b, "svelte", "src", ".js"), 100)
	langtest.BenchRatio(b, NewParser(), func(string) *sitter.Language { return grammar.Language() }, files)
}
