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
		outline(&t, 0, f)
	}
	return f, nil
}

// Parse parses src, the content of the file at path. Syntax errors do not
// fail the parse: they become Error statements counted in File.Errors. An
// error is returned only when ctx is done or tree-sitter gives up.
func (p *Parser) Parse(ctx context.Context, path string, src []byte) (*lang.File, error) {
	defer func() { p.flat = tsflat.Keep(p.flat) }() // a pooled parser keeps no large buffer
	b := &p.b
	b.errors = 0
	// A large file parsed in pieces is mapped piece by piece: only one
	// piece's records live beside the statements (the records of the
	// whole file are about as large as its statements).
	var o *outliner
	f, t, pieced, err := frontend.ParseFileRuns(ctx, p.ts, grammar, "go", path, src, p.flat, func(f *lang.File, t frontend.Tree, first, last int32) error {
		b.t = t
		if o == nil {
			o = newOutliner(&b.t, f)
		}
		o.children(first, last)
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
		outline(&b.t, 0, f)
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
