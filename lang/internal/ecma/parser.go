package ecma

import (
	"context"
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/frontend"
	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

// Pick chooses the grammar of a file by its name ("" when unknown).
type Pick func(path string) *Grammar

// Parser turns the source of one language (JavaScript, or TypeScript and
// TSX) into statement trees, choosing the grammar by the file name. It
// keeps its tree-sitter parsers and scratch buffers between files; it is
// not safe for concurrent use.
type Parser struct {
	name string
	pick Pick
	ts   map[*Grammar]*sitter.Parser
	flat []tsflat.Node
	b    builder
}

// NewParser returns a parser for the language called name.
func NewParser(name string, pick Pick) *Parser {
	return &Parser{name: name, pick: pick, ts: make(map[*Grammar]*sitter.Parser, 2)}
}

func parserFor(m map[*Grammar]*sitter.Parser, g *Grammar) *sitter.Parser {
	ts := m[g]
	if ts == nil {
		ts = sitter.NewParser()
		ts.SetLanguage(g.g.Lang)
		m[g] = ts
	}
	return ts
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
	g := p.pick(path)
	p.b.blocks = blocks
	defer func() { p.flat = tsflat.Keep(p.flat) }() // a pooled parser keeps no large buffer
	p.b.f = &g.f
	f, flat, err := frontend.MapFile(ctx, parserFor(p.ts, g), g.g, p.name, path, src, p.flat, &p.b)
	p.flat = flat
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return f, nil
}

// Piece maps the statements first through last of a piece of the file
// (frontend.Mapper): a large file parsed in pieces is mapped piece by
// piece, so that only one piece's records live beside the statements
// (the records of the whole file are about as large as its statements).
func (b *builder) Piece(f *lang.File, t frontend.Tree, first, last int32) {
	b.t = t
	if b.o == nil {
		b.o = newOutliner(&b.t, b.f, f)
		b.o.blocks = b.blocks
	}
	b.o.children(first, last, -1, 0)
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
	outline(&b.t, b.f, 0, f, b.blocks)
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

// Outline reads the outline of src alone (lang.OutlineParser): its lines,
// imports and symbols as Parse records them, no statements.
func (p *Parser) Outline(ctx context.Context, path string, src []byte) (*lang.File, error) {
	g := p.pick(path)
	defer func() { p.flat = tsflat.Keep(p.flat) }()
	f, t, err := frontend.ParseFile(ctx, parserFor(p.ts, g), g.g, p.name, path, src, p.flat)
	p.flat = t.N
	if err != nil {
		return nil, fmt.Errorf("outline %s: %w", path, err)
	}
	if len(t.N) > 0 {
		outline(&t, &g.f, 0, f, false)
	}
	return f, nil
}

// SyntaxParser runs tree-sitter alone (the parse floor), choosing the
// grammar by the file name like Parser.
type SyntaxParser struct {
	pick Pick
	ts   map[*Grammar]*sitter.Parser
}

// NewSyntaxParser returns a SyntaxParser.
func NewSyntaxParser(pick Pick) *SyntaxParser {
	return &SyntaxParser{pick: pick, ts: make(map[*Grammar]*sitter.Parser, 2)}
}

// ParseSyntax parses src with the grammar of a file of unknown name.
func (p *SyntaxParser) ParseSyntax(src []byte) error { return p.ParseSyntaxPath("", src) }

// ParseSyntaxPath parses src with the grammar of the file at path and
// frees the tree.
func (p *SyntaxParser) ParseSyntaxPath(path string, src []byte) error {
	tree, err := tsflat.Parse(context.Background(), parserFor(p.ts, p.pick(path)), src, 0)
	if err != nil {
		return err
	}
	tree.Close()
	return nil
}
