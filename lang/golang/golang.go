package golang

import (
	"context"
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/frontend"
	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

func init() {
	lang.Register(&lang.Language{
		Name:            "go",
		Extensions:      []string{".go"},
		CommentPrefix:   "//",
		Keywords:        keywords,
		NewParser:       func() lang.Parser { return NewParser() },
		NewSyntaxParser: func() lang.SyntaxParser { return tsflat.NewSyntaxParser(grammar.Lang) },
		Modules:         modules{},
		Scoping:         scoping,
	})
}

// keywords are Go's 25 keywords. The predeclared identifiers (true, nil,
// iota, int, len, ...) are names that a program may redefine, not keywords.
var keywords = []string{
	"break", "case", "chan", "const", "continue", "default", "defer", "else",
	"fallthrough", "for", "func", "go", "goto", "if", "import", "interface",
	"map", "package", "range", "return", "select", "struct", "switch", "type",
	"var",
}

// Parser turns Go source into a statement tree. It keeps its tree-sitter
// parser and scratch buffers between files; it is not safe for concurrent
// use.
type Parser struct {
	ts   *sitter.Parser
	flat []tsflat.Node
	b    builder
}

// NewParser returns a Go parser.
func NewParser() *Parser {
	ts := sitter.NewParser()
	ts.SetLanguage(grammar.Lang)
	return &Parser{ts: ts}
}

// Outline reads the outline of src alone (lang.OutlineParser): its lines,
// package, imports and symbols as Parse records them, no statements.
func (p *Parser) Outline(ctx context.Context, path string, src []byte) (*lang.File, error) {
	defer func() { p.flat = tsflat.Keep(p.flat) }()
	f, t, err := frontend.ParseFile(ctx, p.ts, grammar, "go", path, src, p.flat)
	p.flat = t.N
	if err != nil {
		return nil, fmt.Errorf("outline %s: %w", path, err)
	}
	if len(t.N) > 0 {
		outline(&t, 0, f, false)
	}
	return f, nil
}

// Parse parses src, the content of the file at path. Syntax errors do not
// fail the parse: they become Error statements counted in File.Errors. An
// error is returned only when ctx is done or tree-sitter gives up.
func (p *Parser) Parse(ctx context.Context, path string, src []byte) (*lang.File, error) {
	return p.parse(ctx, path, src, false)
}

// ParseBlocks is Parse with the symbols left in File.SymbolBlocks
// (lang.BlocksParser).
func (p *Parser) ParseBlocks(ctx context.Context, path string, src []byte) (*lang.File, error) {
	return p.parse(ctx, path, src, true)
}

func (p *Parser) parse(ctx context.Context, path string, src []byte, blocks bool) (*lang.File, error) {
	p.b.blocks = blocks
	defer func() { p.flat = tsflat.Keep(p.flat) }() // a pooled parser keeps no large buffer
	f, flat, err := frontend.MapFile(ctx, p.ts, grammar, "go", path, src, p.flat, &p.b)
	p.flat = flat
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return f, nil
}

// Piece maps the declarations first through last of a piece of the
// file (frontend.Mapper): a large file parsed in pieces is mapped piece
// by piece, so that only one piece's records live beside the statements
// (the records of the whole file are about as large as its statements).
func (b *builder) Piece(f *lang.File, t frontend.Tree, first, last int32) {
	b.t = t
	if b.o == nil {
		b.o = newOutliner(&b.t, f)
		b.o.blocks = b.blocks
	}
	b.o.children(first, last)
	for c := first; c >= 0; c = b.t.Next(c) {
		f.Stmts = b.stmt(c, f.Stmts)
		if c == last {
			break
		}
	}
	b.t = frontend.Tree{}
}

// Whole maps the whole file's tree t (frontend.Mapper).
func (b *builder) Whole(f *lang.File, t frontend.Tree) {
	b.t = t
	// The outline first, its garbage collected before the statement
	// tree, the largest thing a parse makes, is built.
	outline(&b.t, 0, f, b.blocks)
	tsflat.Collect(len(t.Src))
	if b.t.Kind(0) == kError {
		f.Stmts = b.stmt(0, nil)
	} else {
		f.Stmts = b.body(0, nil)
	}
}

// Finish ends the symbols of the pieces (joined, or left in their blocks
// for ParseBlocks: frontend.Symbols) and returns the count of error
// regions (frontend.Mapper).
func (b *builder) Finish(*lang.File) int {
	if b.o != nil {
		b.o.finish()
	}
	return b.errors
}

// Reset forgets the file (frontend.Mapper).
func (b *builder) Reset() {
	b.names.Reset()
	b.t, b.o, b.errors = frontend.Tree{}, nil, 0
}
