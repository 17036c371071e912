package java

import (
	"context"
	"fmt"
	"slices"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/frontend"
	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

func init() {
	lang.Register(&lang.Language{
		Name:            "java",
		Extensions:      []string{".java"},
		CommentPrefix:   "//",
		Keywords:        keywords,
		NewParser:       func() lang.Parser { return NewParser() },
		NewSyntaxParser: func() lang.SyntaxParser { return tsflat.NewSyntaxParser(language) },
		Modules:         modules{},
		Scoping:         scoping,
		Signatures:      signatures,
	})
}

// signatures leave out of a header what does not say how the API is
// called: access, final, synchronized and the like (static and abstract
// do), marker annotations and the brace that opens the body.
var signatures = lang.Signatures{
	Modifiers:         []string{"public", "protected", "private", "final", "synchronized", "native", "strictfp", "transient", "volatile"},
	MarkerAnnotations: true,
	BodyOpen:          "{",
}

// keywords are Java's reserved words, its literals and the contextual
// keywords that read like identifiers (var, record, yield, ...).
var keywords = []string{
	"abstract", "assert", "boolean", "break", "byte", "case", "catch", "char",
	"class", "const", "continue", "default", "do", "double", "else", "enum",
	"extends", "final", "finally", "float", "for", "goto", "if", "implements",
	"import", "instanceof", "int", "interface", "long", "native", "new",
	"package", "private", "protected", "public", "return", "short", "static",
	"strictfp", "super", "switch", "synchronized", "this", "throw", "throws",
	"transient", "try", "void", "volatile", "while",
	"true", "false", "null",
	"var", "record", "yield", "sealed", "non-sealed", "permits", "when",
	"module", "open", "opens", "exports", "requires", "transitive", "uses",
	"provides", "to", "with",
}

// cut proposes where a large file may be parsed in pieces
// (tsflat.ParseFlat): between the members of a class body, or the
// statements of a block, whichever holds the most, at a line that starts
// with a name, '@' or '<' after a line ending in ';', '{' or '}' (not a
// clause that continues a statement; a switch's body is no container).
var cut = frontend.BlockCutter(frontend.Lexis{TextBlocks: true}, frontend.LineStarts(nil,
	[]string{"else", "catch", "finally", "while"}, ";{}"))

// Parser turns Java source into a statement tree. It keeps its tree-sitter
// parser and scratch buffers between files; it is not safe for concurrent
// use.
type Parser struct {
	ts   *sitter.Parser
	flat []tsflat.Node // the records, and the nodes made over them
	b    builder
}

// NewParser returns a Java parser.
func NewParser() *Parser {
	ts := sitter.NewParser()
	ts.SetLanguage(language)
	return &Parser{ts: ts}
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

// parse is Parse, with the symbols left in their blocks when blocks is
// set.
func (p *Parser) parse(ctx context.Context, path string, src []byte, blocks bool) (*lang.File, error) {
	// A pooled parser keeps no large buffer.
	defer func() { p.flat = tsflat.Keep(p.flat) }()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	src = lang.NormalizeCR(src)
	if err := lang.CheckLexemes(src); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err) // refused before its text and lines are made
	}
	text := string(src)
	f := &lang.File{Path: path, Language: "java", Lines: lang.SplitLines(text)}
	b := &p.b
	defer func() {
		// Drop references into the source so it can be collected with the File.
		clear(b.defs[:cap(b.defs)])
		clear(b.uses[:cap(b.uses)])
		clear(b.params[:cap(b.params)])
		// A walk stopped mid-way (a cancelled or misfit parse in
		// pieces) leaves its open statements and lambda parameters:
		// only the scratch stacks are kept.
		*b = builder{defs: b.defs[:0], uses: b.uses[:0], params: b.params[:0]}
	}()
	*b = builder{src: text, defs: b.defs[:0], uses: b.uses[:0], params: b.params[:0], container: -1}
	flat, pieced, err := p.parsePieces(ctx, src, f, b, blocks)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if pieced {
		b.n = nil // the last piece's nodes; the pieces have no syntax error
	} else if err := p.mapWhole(ctx, f, flat, src, text, blocks); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	f.Errors = b.errors
	if f.Errors > 0 {
		frontend.Monotone(f.Stmts)
	}
	for i := range b.n {
		if b.n[i].flags&nodeMissing != 0 {
			f.Errors++
		}
	}
	if err := lang.CheckStatements(f.Stmts, f.Lines); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return f, nil
}

// mapWhole makes f's outline and statements from the whole file's
// records flat (p.flat), leaving the nodes in p.b.
func (p *Parser) mapWhole(ctx context.Context, f *lang.File, flat []tsflat.Node, src []byte, text string, blocks bool) error {
	// The outline first, from the syntax records, which the statement
	// mapping's own nodes are then written over. The garbage of each
	// stage is collected (tsflat.CollectFrom) before the next: the
	// outline's before the nodes, the records' room that the nodes do
	// not take before the statement tree, the largest thing a parse
	// makes, is built.
	outline(f, flat, text, blocks)
	tsflat.Collect(len(src))
	nodes, err := flatten(ctx, flat, src, nil)
	flat = nil // written over
	if err != nil {
		return err
	}
	if len(src) >= tsflat.CollectFrom && cap(nodes)-len(nodes) > len(nodes)/4 {
		// Nodes are left out (the insides of types, literals and
		// annotations, comments): a large file's nodes are copied out of
		// the records' room when they fill less of it than four fifths.
		nodes = slices.Clone(nodes)
		p.flat = nil
		tsflat.Collect(len(src))
	}
	b := &p.b
	*b = builder{src: text, n: nodes, defs: b.defs[:0], uses: b.uses[:0], params: b.params[:0], container: -1}
	if len(nodes) > 0 {
		if nodes[0].kind == kError {
			f.Stmts = b.stmt(0, nil)
		} else {
			f.Stmts = b.body(0, false, nil)
		}
	}
	return nil
}

// Outline reads the outline of src alone (Package, Imports, Symbols and
// Lines; no statements): the syntax tree without the statement mapping.
func (p *Parser) Outline(ctx context.Context, path string, src []byte) (*lang.File, error) {
	defer func() { p.flat = tsflat.Keep(p.flat) }()
	src, flat, err := p.syntax(ctx, src)
	if err != nil {
		return nil, fmt.Errorf("outline %s: %w", path, err)
	}
	text := string(src)
	f := &lang.File{Path: path, Language: "java", Lines: lang.SplitLines(text)}
	outline(f, flat, text, false)
	return f, nil
}

// syntax checks src's size, parses it and flattens the syntax tree into
// p.flat (frontend.Parse); it returns src with its line ends normalised.
func (p *Parser) syntax(ctx context.Context, src []byte) ([]byte, []tsflat.Node, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	src = lang.NormalizeCR(src)
	flat, err := frontend.Parse(ctx, p.ts, src, tsflat.MaxParseMicros, cut, p.flat)
	p.flat = flat
	if err != nil {
		return nil, nil, err
	}
	return src, flat, nil
}
