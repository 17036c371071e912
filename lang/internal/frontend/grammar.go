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

// parseFileRuns is ParseFile for a front end that maps a large file
// piece by piece (tsflat.ParseRuns), so that one piece's records live at
// a time beside the statements made of them: when the file is parsed in
// pieces of its root's children, each is called for every piece with
// the file, the piece's tree (its records valid only during the call)
// and the first and last child of the root the piece holds, and
// parseFileRuns returns true and a tree without records. Otherwise it
// returns the whole file's tree, as ParseFile does, and false: then what
// each made of the pieces before must be made again from that tree. The
// pieces have no syntax error.
func parseFileRuns(ctx context.Context, ts *sitter.Parser, g *Grammar, language, path string, src []byte, buf []tsflat.Node,
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

// Mapper is a front end's making of a file's outline and statements
// from its records, which MapFile runs over the whole file's tree or,
// for a file parsed in pieces, over one piece's at a time.
type Mapper interface {
	// Piece maps the children first through last of the root of piece
	// t (its records valid only during the call) into f, after what it
	// made of the pieces before.
	Piece(f *lang.File, t Tree, first, last int32)
	// Whole maps the whole file's tree t into f.
	Whole(f *lang.File, t Tree)
	// Finish ends the mapping of f (joins what the pieces made) and
	// returns the count of error regions it found.
	Finish(f *lang.File) int
	// Reset forgets the file: what was made of it so far and every
	// reference into its source.
	Reset()
}

// MapFile parses src (parseFileRuns) and makes its File with m, piece by
// piece when the file is parsed in pieces of its root's children, from
// the whole file's tree otherwise. It returns the records' buffer to
// reuse, also with an error. m is reset before and after.
func MapFile(ctx context.Context, ts *sitter.Parser, g *Grammar, language, path string, src []byte, buf []tsflat.Node, m Mapper) (*lang.File, []tsflat.Node, error) {
	m.Reset()
	defer m.Reset() // drop references into the source so it can be collected with the File
	f, t, pieced, err := parseFileRuns(ctx, ts, g, language, path, src, buf, func(f *lang.File, t Tree, first, last int32) error {
		m.Piece(f, t, first, last)
		return nil
	})
	if err != nil {
		return nil, t.N, err
	}
	if pieced {
		tsflat.Collect(len(t.Src)) // the pieces' garbage, before the symbols are joined
	} else {
		// Parsed whole (or a piece did not fit): what the pieces before
		// made is thrown away and made again from the file's records.
		f.Stmts, f.Symbols, f.SymbolBlocks, f.Imports, f.Package = nil, nil, nil, nil, ""
		m.Reset()
		if len(t.N) > 0 {
			m.Whole(f, t)
		}
	}
	f.Errors = m.Finish(f) + t.MissingCount()
	if f.Errors > 0 {
		Monotone(f.Stmts)
	}
	if err := lang.CheckStatements(f.Stmts, f.Lines); err != nil {
		return nil, t.N, err
	}
	return f, t.N, nil
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
	nodes, n, err := tsflat.ParseFlat(ctx, ts, src, maxMicros, cut, buf)
	if err == nil {
		err = lang.CheckSyntaxNodes(n)
	}
	if err != nil {
		return nodes, err
	}
	return nodes, ctx.Err()
}
