package tsflat

import (
	"context"

	sitter "github.com/smacker/go-tree-sitter"
)

// SyntaxParser runs tree-sitter alone: the syntax tree is built and freed.
// It is the parse floor that index build times are measured against, and
// satisfies lang.SyntaxParser.
type SyntaxParser struct{ ts *sitter.Parser }

// NewSyntaxParser returns a SyntaxParser for the grammar l.
func NewSyntaxParser(l *sitter.Language) SyntaxParser {
	ts := sitter.NewParser()
	ts.SetLanguage(l)
	return SyntaxParser{ts}
}

// ParseSyntax parses src and frees the tree.
func (p SyntaxParser) ParseSyntax(src []byte) error {
	tree, err := p.ts.ParseCtx(context.Background(), nil, src)
	if err != nil {
		p.ts.Reset()
		return err
	}
	tree.Close()
	return nil
}
