package python

import (
	"context"
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/frontend"
	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

// keywords are Python's keywords followed by its soft keywords (the
// contents of keyword.kwlist and keyword.softkwlist).
var keywords = []string{
	"False", "None", "True", "and", "as", "assert", "async", "await", "break",
	"class", "continue", "def", "del", "elif", "else", "except", "finally",
	"for", "from", "global", "if", "import", "in", "is", "lambda", "nonlocal",
	"not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
	"_", "case", "match", "type",
}

// extensions are the file name extensions handled as Python: sources,
// Windows scripts and type stubs (stubs are Python syntax, and their
// signatures are useful context for completion).
var extensions = []string{".py", ".pyw", ".pyi"}

func init() {
	lang.Register(&lang.Language{
		Name:            "python",
		Extensions:      extensions,
		CommentPrefix:   "#",
		Keywords:        keywords,
		NewParser:       func() lang.Parser { return NewParser() },
		NewSyntaxParser: func() lang.SyntaxParser { return tsflat.NewSyntaxParser(py.lang) },
		Modules:         modules{},
		Scoping:         scoping,
	})
}

// Parser turns Python source into a lang.File. It reuses its buffers
// between calls and is not safe for concurrent use.
type Parser struct {
	ts    *sitter.Parser
	nodes []node
	b     builder
}

// NewParser returns a Parser ready for use.
func NewParser() *Parser {
	ts := sitter.NewParser()
	ts.SetLanguage(py.lang)
	return &Parser{ts: ts, b: builder{g: py, intern: map[string]string{}}}
}

// Parse parses src, the contents of the file at path. Syntax errors do not
// make it fail: they become Error statements counted in File.Errors. It
// fails only when the context is cancelled or the parser gives up.
func (p *Parser) Parse(ctx context.Context, path string, src []byte) (*lang.File, error) {
	return p.parse(ctx, path, src, false)
}

// ParseBlocks is Parse with the symbols left in File.SymbolBlocks
// (lang.BlocksParser).
func (p *Parser) ParseBlocks(ctx context.Context, path string, src []byte) (*lang.File, error) {
	return p.parse(ctx, path, src, true)
}

func (p *Parser) parse(ctx context.Context, path string, src []byte, blocks bool) (*lang.File, error) {
	defer func() { p.nodes = tsflat.Keep(p.nodes) }() // a pooled parser keeps no large buffer
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if err := lang.CheckLexemes(src); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	src = lang.NormalizeCR(src)
	f := &lang.File{Path: path, Language: "python", Lines: lang.SplitLines(src)}
	b := &p.b
	b.reset(nil, src, len(f.Lines))
	b.blocks = blocks
	defer b.reset(nil, nil, 0) // drop references to the file
	// A large file parsed in pieces is mapped piece by piece: its
	// outline and statements are made from each piece's records, so
	// that only one piece's records live beside the statement tree
	// (the records of a whole file are about as large as its
	// statements). The pieces have no syntax error (tsflat.ParseRuns).
	var o *outliner
	each := func(piece []node, first, last int32) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		b.n = piece
		// Text is interned per piece: a name shared by two pieces is
		// then held twice, but the table stays a piece's size, where a
		// whole file's names grew it to several times their own size.
		clear(b.intern)
		if o == nil {
			o = b.newOutliner(f)
		}
		o.children(first, last, moduleScope)
		for c := first; c >= 0; c = b.next(c) {
			f.Stmts = b.stmt(c, f.Stmts)
			if c == last {
				break
			}
		}
		b.n = nil
		return nil
	}
	nodes, pieced, n, err := parseFlat(ctx, p.ts, src, p.nodes, each)
	p.nodes = nodes
	if err == nil {
		err = lang.CheckSyntaxNodes(n)
	}
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	if pieced {
		if o != nil {
			// The outline's name sets and the pieces' garbage are
			// collected before its symbols are joined.
			o.seen = nil
			tsflat.Collect(len(src))
			o.finish()
		}
	} else {
		// Parsed whole (or a piece did not fit): what the pieces before
		// made is made again from the file's records.
		f.Stmts, f.Imports, f.Symbols, f.SymbolBlocks = nil, nil, nil, nil
		b.reset(nodes, src, len(f.Lines))
		if len(nodes) > 0 {
			f.Errors = b.countErrors()
			// The outline first, while the heap holds little but the
			// syntax records; the two walks share nothing but interned text.
			// Its garbage (name sets, the symbols' blocks) is collected
			// before the statement tree, the largest thing a parse makes,
			// is built (tsflat.CollectFrom).
			b.outline(f)
			tsflat.Collect(len(src))
			f.Stmts = b.block(0, nil)
		}
	}
	if err := lang.CheckStatements(f.Stmts, f.Lines); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return f, nil
}

// builder turns the flattened syntax tree of one file into statements.
type builder struct {
	g       *grammar
	n       []node
	src     []byte
	lastRow int
	intern  map[string]string
	// blocks leaves the outline's symbols in File.SymbolBlocks.
	blocks bool

	// Scratch state for the statement being built.
	defs, uses []string
	// paramNames are the names a def or class header binds only inside its
	// body (parameters and type parameters): the statement's Params.
	paramNames []string
	// bound holds the names bound by enclosing lambdas and comprehensions:
	// reading them is not a use of an outer variable.
	bound []string
	// inLambda is >0 while walking a lambda body, where a walrus binds a
	// lambda-local name.
	inLambda int
	path     []byte
}

func (b *builder) reset(nodes []node, src []byte, lines int) {
	b.n, b.src, b.lastRow = nodes, src, lines-1
	if len(b.intern) > tsflat.KeepBuffer {
		b.intern = map[string]string{} // clear would keep the buckets
	}
	clear(b.intern)
	b.defs, b.uses, b.bound, b.paramNames = b.defs[:0], b.uses[:0], b.bound[:0], b.paramNames[:0]
	b.inLambda = 0
}

// Tree navigation over the pre-order records.

func (b *builder) first(i int32) int32 {
	if j := i + 1; b.n[i].flags&flagChild != 0 && int(j) < len(b.n) {
		return j
	}
	return -1
}

func (b *builder) next(i int32) int32 { return b.n[i].next }

func (b *builder) typ(i int32) nt { return b.g.typeOf(&b.n[i]) }

func (b *builder) field(i int32) fieldID { return b.g.fieldOf(&b.n[i]) }

func (b *builder) named(i int32) bool { return b.n[i].flags&flagNamed != 0 }

// skip reports nodes that never carry code: comments and zero-width nodes
// that the parser inserted for a missing token.
func (b *builder) skip(i int32) bool {
	n := &b.n[i]
	return n.flags&flagMissing != 0 || n.startByte == n.endByte || b.g.typeOf(n) == ntComment
}

func (b *builder) startRow(i int32) int { return b.clamp(int(b.n[i].startRow)) }

// endRow is the last row holding text of i: a node that ends at column 0
// (right after a newline) ends on the previous row.
func (b *builder) endRow(i int32) int {
	n := &b.n[i]
	r := int(n.endRow)
	if n.endRow > n.startRow && n.endByte > 0 && int(n.endByte) <= len(b.src) && b.src[n.endByte-1] == '\n' {
		r--
	}
	return b.clamp(r)
}

func (b *builder) clamp(r int) int {
	if r > b.lastRow {
		r = b.lastRow
	}
	if r < 0 {
		r = 0
	}
	return r
}

// text returns the interned source text of i.
func (b *builder) text(i int32) string {
	n := &b.n[i]
	if n.endByte > uint32(len(b.src)) || n.startByte > n.endByte {
		return ""
	}
	return b.internBytes(b.src[n.startByte:n.endByte])
}

func (b *builder) internBytes(s []byte) string {
	if v, ok := b.intern[string(s)]; ok {
		return v
	}
	v := string(s)
	b.intern[v] = v
	return v
}

// countErrors counts the syntax error regions: the ERROR nodes (except
// those inside an ERROR node that becomes one Error statement) and the
// tokens the parser had to insert (MISSING nodes) outside them.
func (b *builder) countErrors() int {
	if !b.hasError() {
		return 0
	}
	// inErr marks the nodes inside an opaque ERROR node.
	inErr := make([]bool, len(b.n))
	opaque := make(map[int32]bool)
	parents := tsflat.Parents(records(b.n), nil)
	count := 0
	for i := range b.n {
		n := &b.n[i]
		if p := parents[i]; p >= 0 && (inErr[p] || opaque[p]) {
			inErr[i] = true
			continue
		}
		if n.sym == errorSymbol {
			count++
			if !b.transparent(int32(i)) {
				opaque[int32(i)] = true
			}
		} else if n.flags&flagMissing != 0 {
			count++
		}
	}
	return count
}

func (b *builder) hasError() bool {
	for i := range b.n {
		if b.n[i].sym == errorSymbol || b.n[i].flags&flagMissing != 0 {
			return true
		}
	}
	return false
}

// newStmt starts a statement and resets the def/use scratch state.
func (b *builder) newStmt(k lang.Kind, i int32, start, end int) *lang.Stmt {
	b.defs, b.uses, b.bound, b.paramNames = b.defs[:0], b.uses[:0], b.bound[:0], b.paramNames[:0]
	b.inLambda = 0
	if end < start {
		end = start
	}
	return lang.NewStmt(k, b.g.typeName(&b.n[i]), start, end)
}

// finish stores the collected defs and uses, sorted and deduplicated.
func (b *builder) finish(s *lang.Stmt) *lang.Stmt {
	frontend.SetNames(s, b.defs, b.paramNames, b.uses)
	return s
}

func (b *builder) addDef(name string) {
	if name != "" {
		b.defs = append(b.defs, name)
	}
}

func (b *builder) addParam(name string) {
	if name != "" {
		b.paramNames = append(b.paramNames, name)
	}
}

func (b *builder) addUse(name string) {
	if name != "" && !b.isBound(name) {
		b.uses = append(b.uses, name)
	}
}

func (b *builder) isBound(name string) bool {
	for j := len(b.bound) - 1; j >= 0; j-- {
		if b.bound[j] == name {
			return true
		}
	}
	return false
}

// block returns the statements of the children of a module or block node,
// appended to out.
func (b *builder) block(i int32, out []*lang.Stmt) []*lang.Stmt {
	for c := b.first(i); c >= 0; c = b.next(c) {
		out = b.stmt(c, out)
	}
	return out
}

// stmt appends the statement(s) of node i to out.
func (b *builder) stmt(i int32, out []*lang.Stmt) []*lang.Stmt {
	if b.skip(i) {
		return out
	}
	switch t := b.typ(i); t {
	case ntError:
		if b.transparent(i) {
			return b.errorContents(i, out)
		}
		return append(out, b.errorStmt(i))
	case ntBlock, ntModule:
		return b.block(i, out)
	case ntExpressionStatement, ntImport, ntFutureImport, ntImportFrom, ntPrint,
		ntAssert, ntReturn, ntDelete, ntRaise, ntPass, ntBreak, ntContinue,
		ntGlobal, ntNonlocal, ntExec, ntTypeAlias:
		return append(out, b.simple(i, t))
	case ntIf:
		return append(out, b.ifStmt(i))
	case ntFor, ntWhile:
		return append(out, b.loop(i))
	case ntTry:
		return append(out, b.try(i))
	case ntWith:
		return append(out, b.clause(lang.With, i, i))
	case ntMatch:
		return append(out, b.match(i))
	case ntFunctionDef, ntClassDef:
		return append(out, b.definition(i, i))
	case ntDecorated:
		return append(out, b.decorated(i))
	case ntElif, ntElse, ntExcept, ntExceptGroup, ntFinally, ntCaseClause:
		// A clause without its statement only survives error recovery:
		// keep its header and body as a block that runs once.
		return append(out, b.clause(lang.With, i, i))
	}
	if !b.named(i) {
		return out
	}
	// Any other named node standing as a statement (error recovery can
	// produce bare expressions) is a simple statement.
	s := b.newStmt(lang.Simple, i, b.startRow(i), b.endRow(i))
	b.use(i)
	return append(out, b.finish(s))
}

// isStatement reports the node types that stand for whole statements (or
// blocks of them).
func isStatement(t nt) bool {
	switch t {
	case ntExpressionStatement, ntImport, ntFutureImport, ntImportFrom, ntPrint,
		ntAssert, ntReturn, ntDelete, ntRaise, ntPass, ntBreak, ntContinue,
		ntGlobal, ntNonlocal, ntExec, ntTypeAlias, ntIf, ntFor, ntWhile, ntTry,
		ntWith, ntMatch, ntFunctionDef, ntClassDef, ntDecorated, ntBlock:
		return true
	}
	return false
}

// transparent reports an ERROR node that holds complete statements. When
// tree-sitter cannot resynchronise it may wrap most of a file in one such
// node (test_compile.py of the standard library becomes a single ERROR
// around 1,776 lines of well-formed classes and functions): its statements
// are kept, and only the pieces between them become Error statements.
func (b *builder) transparent(i int32) bool {
	for c := b.first(i); c >= 0; c = b.next(c) {
		if isStatement(b.typ(c)) && !b.skip(c) {
			return true
		}
	}
	return false
}

// errorContents appends the statements of a transparent ERROR node, and
// one Error statement for each run of the other nodes between them.
func (b *builder) errorContents(i int32, out []*lang.Stmt) []*lang.Stmt {
	runStart, runEnd := int32(-1), int32(-1)
	flush := func() {
		if runStart < 0 {
			return
		}
		s := b.newStmt(lang.Error, i, b.startRow(runStart), b.endRow(runEnd))
		for c := runStart; c >= 0; c = b.next(c) {
			b.use(c)
			if c == runEnd {
				break
			}
		}
		out = append(out, b.finish(s))
		runStart, runEnd = -1, -1
	}
	for c := b.first(i); c >= 0; c = b.next(c) {
		if b.skip(c) {
			continue
		}
		t := b.typ(c)
		switch {
		case isStatement(t):
			flush()
			out = b.stmt(c, out)
		case t == ntError && b.transparent(c):
			flush()
			out = b.errorContents(c, out)
		default:
			if runStart < 0 {
				runStart = c
			}
			runEnd = c
		}
	}
	flush()
	return out
}

// errorStmt covers a syntax error region. It defines nothing; every
// identifier inside is a use, so that a half-written statement (as at a
// completion cursor) still links to the definitions it mentions.
func (b *builder) errorStmt(i int32) *lang.Stmt {
	s := b.newStmt(lang.Error, i, b.startRow(i), b.endRow(i))
	b.use(i)
	return b.finish(s)
}

var simpleKinds = map[nt]lang.Kind{
	ntReturn: lang.Return, ntRaise: lang.Raise, ntBreak: lang.Break, ntContinue: lang.Continue,
}

func (b *builder) simple(i int32, t nt) *lang.Stmt {
	s := b.newStmt(simpleKinds[t], i, b.startRow(i), b.endRow(i))
	switch t {
	case ntExpressionStatement:
		for c := b.first(i); c >= 0; c = b.next(c) {
			b.expressionStatement(c)
		}
	case ntImport, ntFutureImport, ntImportFrom:
		b.imports(i)
	case ntGlobal, ntNonlocal:
		for c := b.first(i); c >= 0; c = b.next(c) {
			if b.typ(c) == ntIdentifier {
				b.addDef(b.text(c))
			}
		}
	case ntDelete:
		// del x unbinds x: recorded as a def (it kills earlier
		// definitions) and a use (the name must be bound).
		for c := b.first(i); c >= 0; c = b.next(c) {
			b.deletion(c)
		}
	case ntTypeAlias:
		b.typeAlias(i)
	default:
		b.use(i)
	}
	return b.finish(s)
}

func (b *builder) expressionStatement(i int32) {
	switch b.typ(i) {
	case ntAssignment:
		b.assignment(i)
	case ntAugAssignment:
		b.augAssignment(i)
	default:
		b.use(i)
	}
}

func (b *builder) deletion(i int32) {
	switch b.typ(i) {
	case ntExpressionList, ntTuple, ntList, ntParenthesized:
		for c := b.first(i); c >= 0; c = b.next(c) {
			b.deletion(c)
		}
	default:
		if b.named(i) {
			b.target(i)
			b.use(i)
		}
	}
}

func (b *builder) typeAlias(i int32) {
	seenName := false
	for c := b.first(i); c >= 0; c = b.next(c) {
		if b.typ(c) == ntType && !seenName {
			seenName = true
			b.addDef(b.typeParamName(c))
			continue
		}
		b.use(c)
	}
}

// typeParamName returns the name a type alias or type parameter
// introduces: the first identifier of the node (X in `X`, `X[T]`, `*Ts`),
// or "".
func (b *builder) typeParamName(i int32) string {
	for c := i; c >= 0; c = b.first(c) {
		if b.typ(c) == ntIdentifier {
			return b.text(c)
		}
	}
	return ""
}

// imports defines the names an import binds: `import a.b` binds a,
// `import a.b as c` and `from m import x as c` bind c, `from m import x`
// binds x, and `from m import *` binds nothing knowable.
func (b *builder) imports(i int32) {
	for c := b.first(i); c >= 0; c = b.next(c) {
		if b.field(c) != fName {
			continue
		}
		switch b.typ(c) {
		case ntDottedName:
			if id := b.first(c); id >= 0 && b.typ(id) == ntIdentifier {
				b.addDef(b.text(id))
			}
		case ntAliasedImport:
			for a := b.first(c); a >= 0; a = b.next(a) {
				if b.field(a) == fAlias {
					b.addDef(b.text(a))
				}
			}
		case ntIdentifier:
			b.addDef(b.text(c))
		}
	}
}
