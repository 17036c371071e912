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
	g := p.pick(path)
	defer func() { p.flat = tsflat.Keep(p.flat) }() // a pooled parser keeps no large buffer
	b := &p.b
	b.f = &g.f
	b.errors = 0
	// A large file parsed in pieces is mapped piece by piece: only one
	// piece's records live beside the statements (the records of the
	// whole file are about as large as its statements).
	var o *outliner
	f, t, pieced, err := frontend.ParseFileRuns(ctx, parserFor(p.ts, g), g.g, p.name, path, src, p.flat, func(f *lang.File, t frontend.Tree, first, last int32) error {
		b.t = t
		if o == nil {
			o = newOutliner(&b.t, b.f, f)
		}
		o.children(first, last, -1, 0)
		for c := first; c >= 0; c = b.t.Next(c) {
			f.Stmts = b.stmt(c, f.Stmts)
			if c == last {
				break
			}
		}
		b.t = frontend.Tree{}
		return nil
	})
	p.flat = t.N
	if err != nil {
		b.names.Reset()
		b.t = frontend.Tree{}
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if pieced {
		if o != nil {
			tsflat.Collect(len(t.Src)) // the pieces' garbage, before the symbols are joined
			o.finish()
		}
	} else if len(t.N) > 0 {
		// Parsed whole (or a piece did not fit): what the pieces before
		// made is made again from the file's records.
		f.Stmts, f.Symbols, f.Imports, f.Package = nil, nil, nil, ""
		b.names.Reset()
		b.t, b.errors = t, 0
		// The outline first, its garbage collected before the statement
		// tree, the largest thing a parse makes, is built.
		outline(&b.t, b.f, 0, f)
		tsflat.Collect(len(t.Src))
		if b.t.Kind(0) == kError {
			f.Stmts = b.stmt(0, nil)
		} else {
			f.Stmts = b.body(0, nil)
		}
	}
	f.Errors = b.errors + b.t.MissingCount()
	if f.Errors > 0 {
		frontend.Monotone(f.Stmts)
	}
	// Drop references into the source so it can be collected with the File.
	b.names.Reset()
	b.t = frontend.Tree{}
	if err := lang.CheckStatements(f.Stmts, f.Lines); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return f, nil
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
		outline(&t, &g.f, 0, f)
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
