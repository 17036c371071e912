package typescript

import (
	"path/filepath"
	"strings"

	"github.com/smacker/go-tree-sitter/typescript/tsx"
	tsts "github.com/smacker/go-tree-sitter/typescript/typescript"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/ecma"
)

// extensions are the file name extensions handled as TypeScript: sources,
// ES and CommonJS modules, and TSX.
var extensions = []string{".ts", ".mts", ".cts", ".tsx"}

var (
	tsGrammar  = ecma.NewGrammar(tsts.GetLanguage())
	tsxGrammar = ecma.NewGrammar(tsx.GetLanguage())
)

// pick chooses the grammar by the file name: TSX for .tsx files, where
// `<T>x` is an element rather than a type assertion; TypeScript otherwise.
func pick(path string) *ecma.Grammar {
	if strings.EqualFold(filepath.Ext(path), ".tsx") {
		return tsxGrammar
	}
	return tsGrammar
}

func init() {
	lang.Register(&lang.Language{
		Name:            "typescript",
		Extensions:      extensions,
		CommentPrefix:   "//",
		Keywords:        ecma.Keywords,
		NewParser:       func() lang.Parser { return NewParser() },
		NewSyntaxParser: func() lang.SyntaxParser { return ecma.NewSyntaxParser(pick) },
		Modules:         ecma.Modules{},
		Scoping:         ecma.Scoping,
	})
}

// NewParser returns a TypeScript parser; it reads .tsx files with the TSX
// grammar. It is not safe for concurrent use.
func NewParser() *ecma.Parser { return ecma.NewParser("typescript", pick) }
