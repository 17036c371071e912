package frontend

import (
	"context"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

// Grammar is a tree-sitter grammar with every symbol resolved to a front
// end's kind, so a walk never compares type names.
type Grammar struct {
	Lang    *sitter.Language
	kinds   []uint8
	names   []string
	named   []bool
	fields  map[string]uint16
	errKind uint8
	// Cut proposes where a large file may be parsed in pieces
	// (tsflat.ParseFlat); nil parses every file whole.
	Cut tsflat.Cutter
}

// NewGrammar resolves the symbols of l: a symbol named in kinds gets that
// kind, every other symbol kind 0; ERROR nodes get errKind.
func NewGrammar(l *sitter.Language, kinds map[string]uint8, errKind uint8) *Grammar {
	n := l.SymbolCount()
	g := &Grammar{Lang: l, kinds: make([]uint8, n), names: make([]string, n), named: make([]bool, n),
		fields: make(map[string]uint16), errKind: errKind}
	for i := uint32(0); i < n; i++ {
		name := l.SymbolName(sitter.Symbol(i))
		g.names[i] = name
		g.named[i] = l.SymbolType(sitter.Symbol(i)) == sitter.SymbolTypeRegular
		// An anonymous token may share its name with a named node ("type",
		// "import"); only named symbols take a named node's kind, unless the
		// token itself is listed as a quoted name.
		if g.named[i] {
			g.kinds[i] = kinds[name]
		} else {
			g.kinds[i] = kinds["'"+name]
		}
	}
	for id := 1; id < 1<<16; id++ {
		name := l.FieldName(id)
		if name == "" {
			break
		}
		g.fields[name] = uint16(id)
	}
	return g
}

// Field returns the id of the field called name, or 0 when the grammar has
// no such field (0 is never a node's field id when it fills one).
func (g *Grammar) Field(name string) uint16 {
	if id, ok := g.fields[name]; ok {
		return id
	}
	return 0xFFFF // matches no node
}

// Kind returns the kind of grammar symbol sym.
func (g *Grammar) Kind(sym uint16) uint8 {
	if sym == tsflat.ErrorSymbol {
		return g.errKind
	}
	if int(sym) < len(g.kinds) {
		return g.kinds[sym]
	}
	return 0
}

// Name returns the grammar's name of symbol sym.
func (g *Grammar) Name(sym uint16) string {
	if sym == tsflat.ErrorSymbol {
		return "ERROR"
	}
	if int(sym) < len(g.names) {
		return g.names[sym]
	}
	return ""
}

// ParseFile normalises the line ends of src, the content of the file at
// path in language, and parses it with ts into buf (Parse): the File with
// its lines, and the tree g reads over the records. The tree's records
// are buf's, to keep for the next parse, on error too.
func ParseFile(ctx context.Context, ts *sitter.Parser, g *Grammar, language, path string, src []byte, buf []tsflat.Node) (*lang.File, Tree, error) {
	src = lang.NormalizeCR(src)
	flat, err := Parse(ctx, ts, src, tsflat.MaxParseMicros, g.Cut, buf)
	if err != nil {
		return nil, Tree{N: flat}, err
	}
	text := string(src)
	return &lang.File{Path: path, Language: language, Lines: lang.SplitLines(text)}, Tree{G: g, N: flat, Src: text}, nil
}

// ParseFileRuns is ParseFile for a front end that maps a large file
// piece by piece (tsflat.ParseRuns), so that one piece's records live at
// a time beside the statements made of them: when the file is parsed in
// pieces of its root's children, each is called for every piece with
// the file, the piece's tree (its records valid only during the call)
// and the first and last child of the root the piece holds, and
// ParseFileRuns returns true and a tree without records. Otherwise it
// returns the whole file's tree, as ParseFile does, and false: then what
// each made of the pieces before must be made again from that tree. The
// pieces have no syntax error.
func ParseFileRuns(ctx context.Context, ts *sitter.Parser, g *Grammar, language, path string, src []byte, buf []tsflat.Node,
	each func(f *lang.File, t Tree, first, last int32) error) (*lang.File, Tree, bool, error) {
	src = lang.NormalizeCR(src)
	if err := lang.CheckLexemes(src); err != nil {
		return nil, Tree{N: buf[:0]}, false, err
	}
	text := string(src)
	f := &lang.File{Path: path, Language: language, Lines: lang.SplitLines(text)}
	flat, pieced, n, err := tsflat.ParseRuns(ctx, ts, src, tsflat.MaxParseMicros, g.Cut, buf, func(piece []tsflat.Node, _, first, last int32) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return each(f, Tree{G: g, N: piece, Src: text}, first, last)
	})
	if err == nil {
		err = lang.CheckSyntaxNodes(n)
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, Tree{N: flat}, false, err
	}
	if pieced {
		return f, Tree{G: g, N: flat[:0], Src: text}, true, nil
	}
	return f, Tree{G: g, N: flat, Src: text}, false, nil
}

// Parse parses src with ts (see tsflat.Parse for the time bound and why
// ctx is not handed to tree-sitter) and copies the tree into buf, in
// pieces where cut finds them (tsflat.ParseFlat). A
// source over lang.MaxLexemes (checked before the parse) or a tree over
// lang.MaxSyntaxNodes is lang.ErrTooLarge.
func Parse(ctx context.Context, ts *sitter.Parser, src []byte, maxMicros int64, cut tsflat.Cutter, buf []tsflat.Node) ([]tsflat.Node, error) {
	if err := lang.CheckLexemes(src); err != nil {
		return buf[:0], err
	}
	nodes, err := tsflat.ParseFlat(ctx, ts, src, maxMicros, cut, buf)
	if err == nil {
		err = lang.CheckSyntaxNodes(len(nodes))
	}
	if err != nil {
		return nodes, err
	}
	return nodes, ctx.Err()
}
