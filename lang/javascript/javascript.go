package javascript

import (
	tsjs "github.com/smacker/go-tree-sitter/javascript"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/ecma"
)

// extensions are the file name extensions handled as JavaScript: scripts
// and modules, CommonJS and ES modules, and JSX (which the grammar reads
// in every file).
var extensions = []string{".js", ".mjs", ".cjs", ".jsx"}

var grammar = ecma.NewGrammar(tsjs.GetLanguage())

func pick(string) *ecma.Grammar { return grammar }

func init() {
	lang.Register(&lang.Language{
		Name:            "javascript",
		Extensions:      extensions,
		CommentPrefix:   "//",
		Keywords:        ecma.Keywords,
		NewParser:       func() lang.Parser { return NewParser() },
		NewSyntaxParser: func() lang.SyntaxParser { return ecma.NewSyntaxParser(pick) },
		Modules:         ecma.Modules{},
		Scoping:         ecma.Scoping,
	})
}

// NewParser returns a JavaScript parser. It is not safe for concurrent use.
func NewParser() *ecma.Parser { return ecma.NewParser("javascript", pick) }
