package lang

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/graphcoder/graphcoder/token"
)

// Kind is the control-flow role of a statement. Front ends map every
// language construct onto one of these; the graph builder knows nothing else.
type Kind uint8

const (
	// Simple is a statement with plain sequential flow: expression
	// statements, assignments, imports, declarations, pass, assert, ...
	Simple Kind = iota
	// Return leaves the enclosing function (Python return, Java return).
	Return
	// Raise leaves the enclosing function or jumps to a handler (raise, throw).
	Raise
	// Break leaves the innermost loop or switch, or the labeled statement
	// named by Label.
	Break
	// Continue jumps to the header of the innermost loop, or of the loop
	// labeled Label.
	Continue
	// If is a condition header: Body is the then-branch; Else is nil, an
	// Else statement, or another If (Python elif, Java else-if chain).
	If
	// Else is an else header (if/else, loop/else, try/else): Body is its block.
	Else
	// Loop is a pre-tested loop header (for, while, enhanced for). Body is
	// the loop body; Else is Python's loop else clause.
	Loop
	// Do is a post-tested loop (Java do/while): the header is the `do` row,
	// Body the loop body, Cond the trailing `while (...)` vertex.
	Do
	// DoCond is the condition vertex at the end of a Do loop.
	DoCond
	// Try is a try header: Body is the protected block, Handlers the
	// except/catch clauses, Else the try-else, Finally the finally clause.
	Try
	// Catch is an except/catch header with its handler block in Body.
	Catch
	// Finally is a finally header with its block in Body.
	Finally
	// With is a header whose body always runs once: Python with, Java
	// synchronized, Java labeled statements (Label set) and bare blocks.
	With
	// Switch is a multi-way branch (Python match, Java switch): Cases holds
	// the Case headers in source order. Body holds the statements error
	// recovery left before the first case, if any; they run after the
	// header and before the cases are chosen.
	Switch
	// Case is one case pattern/label group (or default) with its block in Body.
	Case
	// Func is a function, method, constructor, lambda with a block body or
	// initializer header. It is a plain statement of its enclosing scope and
	// the entry of its own scope, whose statements are in Body.
	Func
	// Class is a class/interface/enum/record header; like Func it opens a
	// scope whose statements are in Body.
	Class
	// Error is a syntax error region recovered by the parser.
	Error
	// Goto jumps to the statement labeled Label in the same scope (Go
	// goto): the labeled statement is a With carrying that label.
	Goto
)

var kindNames = [...]string{
	Simple: "simple", Return: "return", Raise: "raise", Break: "break",
	Continue: "continue", If: "if", Else: "else", Loop: "loop", Do: "do",
	DoCond: "do_cond", Try: "try", Catch: "catch", Finally: "finally",
	With: "with", Switch: "switch", Case: "case", Func: "func",
	Class: "class", Error: "error", Goto: "goto",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Stmt is one statement of a file: the future CCG vertex. Its rows cover
// only the statement's own header rows, never the rows of a nested body.
//
// A large file has tens of thousands of statements, all live at once
// beside the syntax records while the tree is built, so a Stmt holds
// inline only what every statement has (80 bytes);
// the parts only some statements have (labels, else, handlers, finally, a
// do's condition, cases, inner blocks) are behind one pointer, read
// through the methods of the same names and written through Clause. The
// grammar type is a small id into one table of the process (Type,
// SetType), and the three name lists share one slice (Defs, Params,
// Uses, written together by SetNames). A copy of a Stmt shares its
// clauses, among them the cuts of a list of 65,535 names or more: names
// set on one copy then misread the other's, so a statement is made by
// NewStmt and shared by pointer, never copied.
type Stmt struct {
	Kind Kind
	// InlineBody marks a header whose Body cannot be continued by the
	// next line: a Java brace-less body (`if (x) throw e;`, `else y();`,
	// `while (c) step();`, a labeled non-block statement) or a Python body
	// written on the header's own row (`if x: return y`, `else: z()`,
	// `def f(): pass`). A statement written after such a body follows the
	// whole construct, in the header's block; the graph builder uses this
	// to place the query target. Front ends set it because only they see
	// braces and rows; it says nothing about control flow.
	InlineBody bool
	// typ is the id of the grammar's node type in typeNames.
	typ uint16
	// names holds Defs, then Params, then Uses; nDefs and nParams cut it
	// (manyNames for both: the cuts are in the clauses).
	nDefs, nParams uint16
	// StartRow and EndRow are 0-based, inclusive.
	StartRow, EndRow int
	names            []string

	Body []*Stmt
	// clauses is nil for a statement that has none of them.
	clauses *Clauses
}

// NewStmt returns a statement of kind k and grammar type typ covering
// rows start to end.
func NewStmt(k Kind, typ string, start, end int) *Stmt {
	s := &Stmt{Kind: k, StartRow: start, EndRow: end}
	s.SetType(typ)
	return s
}

// Clauses are the parts of a statement that only some statements have.
type Clauses struct {
	// Label names the target of a labeled Break/Continue or of a Goto, or
	// the label a labeled statement (With) or loop carries.
	Label string

	Else     *Stmt   // If, Loop, Try
	Handlers []*Stmt // Try: Catch headers
	Finally  *Stmt   // Try
	Cond     *Stmt   // Do: the trailing DoCond vertex
	Cases    []*Stmt // Switch: Case headers
	// Inner holds statement blocks nested inside this statement's
	// expression: Java lambda block bodies, anonymous class bodies, switch
	// expression blocks. Each is a scope of its own whose entry is this
	// statement.
	Inner [][]*Stmt
	// FallThrough marks a Switch whose case blocks fall into the next one
	// when they end normally (Java classic switch, JavaScript switch), or a
	// single Case whose block does (a Go case ending in fallthrough, whose
	// fallthrough statement is then the block's last, plain statement).
	FallThrough bool
	// Exhaustive marks a Switch whose cases cover every value (a default
	// case, or Python's irrefutable pattern): no edge from the header past it.
	Exhaustive bool

	// nDefs and nParams cut Stmt.names when their lists are too long for
	// the Stmt's own counts.
	nDefs, nParams uint32
}

// Clause returns the clauses of s for writing, made on first use.
func (s *Stmt) Clause() *Clauses {
	if s.clauses == nil {
		s.clauses = &Clauses{}
	}
	return s.clauses
}

// noClauses stands for the clauses of a statement that has none; it is
// only read.
var noClauses Clauses

// clause returns the clauses of s for reading.
func (s *Stmt) clause() *Clauses {
	if s.clauses == nil {
		return &noClauses
	}
	return s.clauses
}

// Label returns Clauses.Label, "" when s has no clauses.
func (s *Stmt) Label() string { return s.clause().Label }

// Else returns Clauses.Else.
func (s *Stmt) Else() *Stmt { return s.clause().Else }

// Handlers returns Clauses.Handlers.
func (s *Stmt) Handlers() []*Stmt { return s.clause().Handlers }

// Finally returns Clauses.Finally.
func (s *Stmt) Finally() *Stmt { return s.clause().Finally }

// Cond returns Clauses.Cond.
func (s *Stmt) Cond() *Stmt { return s.clause().Cond }

// Cases returns Clauses.Cases.
func (s *Stmt) Cases() []*Stmt { return s.clause().Cases }

// Inner returns Clauses.Inner.
func (s *Stmt) Inner() [][]*Stmt { return s.clause().Inner }

// FallThrough returns Clauses.FallThrough.
func (s *Stmt) FallThrough() bool { return s.clause().FallThrough }

// Exhaustive returns Clauses.Exhaustive.
func (s *Stmt) Exhaustive() bool { return s.clause().Exhaustive }

// Defs returns the access paths written in the statement's own rows,
// sorted and without duplicates.
func (s *Stmt) Defs() []string {
	d, _ := s.cuts()
	return s.names[:d:d]
}

// Params returns the names the statement binds only inside the scope it
// opens, sorted and without duplicates: they reach the statements of its
// Body (Func, Class) or Inner blocks, never the statements after it in
// the enclosing scope, and they kill no definition there. They are:
//   - function, method, constructor parameters and type parameters, on
//     the Func header (the function's own name is a Def);
//   - Python class type parameters and Java record components, on the
//     Class header;
//   - Java lambda parameters, Go function literal parameters and the
//     parameters of JavaScript and TypeScript function expressions and
//     arrow functions, on the statement holding the function (they reach
//     every Inner block of that statement; an expression body has no
//     block, and its parameters are then bound nowhere else).
//
// Names bound by a clause whose block is part of the same scope stay in
// Defs, because that block is no scope of its own: catch and except
// parameters (on Catch), loop variables (on Loop), try resources (on Try)
// and pattern variables. They reach the block and may flow on past it,
// which is harmless: past its block such a name is either unbound (Python
// deletes an except alias) or a new variable that a later declaration
// defines anew.
func (s *Stmt) Params() []string {
	d, p := s.cuts()
	return s.names[d:p:p]
}

// Uses returns the access paths read in the statement's own rows, sorted
// and without duplicates.
func (s *Stmt) Uses() []string {
	_, p := s.cuts()
	return s.names[p:]
}

// manyNames in Stmt.nDefs and Stmt.nParams says a list is too long for
// them: the cuts are Clauses.nDefs and Clauses.nParams.
const manyNames = math.MaxUint16

// cuts returns where the statement's Params and Uses start in names.
func (s *Stmt) cuts() (params, uses int) {
	if s.nDefs == manyNames {
		c := s.clause()
		return int(c.nDefs), int(c.nDefs + c.nParams)
	}
	return int(s.nDefs), int(s.nDefs) + int(s.nParams)
}

// SetNames sets Defs, Params and Uses, each sorted and without
// duplicates, copying them into one slice; the arguments may be scratch
// space the caller reuses.
func (s *Stmt) SetNames(defs, params, uses []string) {
	n := len(defs) + len(params) + len(uses)
	if n == 0 {
		s.names, s.nDefs, s.nParams = nil, 0, 0
		return
	}
	names := make([]string, 0, n)
	names = append(names, defs...)
	names = append(names, params...)
	s.names = append(names, uses...)
	if len(defs) < manyNames && len(params) < manyNames {
		s.nDefs, s.nParams = uint16(len(defs)), uint16(len(params))
		return
	}
	// A list this long (a statement of tens of thousands of names) keeps
	// its cuts with the statement's rare parts.
	c := s.Clause()
	s.nDefs, s.nParams, c.nDefs, c.nParams = manyNames, manyNames, uint32(len(defs)), uint32(len(params))
}

// Type returns the grammar's node type of the statement, for display and
// debugging.
func (s *Stmt) Type() string {
	if t := typeNames.table.Load(); t != nil && int(s.typ) < len(t.list) {
		return t.list[s.typ]
	}
	return ""
}

// SetType sets the grammar's node type of the statement. Types are few
// (the node types of the grammars), so each is kept once in a table of
// the process and the statement holds its index; should the table ever
// fill, further types read as "".
func (s *Stmt) SetType(t string) {
	if tt := typeNames.table.Load(); tt != nil {
		if id, ok := tt.ids[t]; ok {
			s.typ = id
			return
		}
	}
	s.typ = internType(t)
}

// typeNames is the table of grammar types behind Stmt.Type: read without
// a lock through one pointer, grown under mu by copying. The map and the
// list are published together, so an id a reader finds in the map is
// always in the list that came with it.
var typeNames struct {
	mu    sync.Mutex
	table atomic.Pointer[typeTable]
}

// typeTable maps the interned types to their ids and back; it is never
// written once published.
type typeTable struct {
	ids  map[string]uint16
	list []string
}

func internType(t string) uint16 {
	typeNames.mu.Lock()
	defer typeNames.mu.Unlock()
	old := &typeTable{ids: map[string]uint16{"": 0}, list: []string{""}}
	if p := typeNames.table.Load(); p != nil {
		old = p
	}
	if id, ok := old.ids[t]; ok {
		return id
	}
	if len(old.list) > math.MaxUint16 {
		return 0
	}
	ids := maps.Clone(old.ids)
	id := uint16(len(old.list))
	ids[t] = id
	typeNames.table.Store(&typeTable{ids: ids, list: append(slices.Clip(old.list), strings.Clone(t))})
	return id
}

// File is a parsed source file: its top-level statements as a tree.
type File struct {
	Path     string
	Language string
	// Lines are the source's lines as SplitLines splits them (no
	// terminators); statement rows index them.
	Lines []string
	Stmts []*Stmt
	// Errors counts recovered syntax error regions.
	Errors int

	// Symbols are the file's definitions in source order, Imports the
	// names its import statements bring in, Package its declared package
	// (Java; Go: the package clause's name; "" where the language has
	// none). Front ends whose Language
	// has Modules fill them (see ModuleSystem and the package comment).
	Symbols []Symbol
	Imports []Import
	Package string
	// SymbolBlocks hold the symbols instead of Symbols (nil then) in a
	// File from Language.ParseBlocks whose front end is a BlocksParser:
	// in source order, in the blocks the outline collected them in, with
	// Parent counting across the blocks as in Symbols.
	SymbolBlocks [][]Symbol
}

// NumSymbols returns the number of the file's symbols, in Symbols or in
// SymbolBlocks.
func (f *File) NumSymbols() int {
	n := len(f.Symbols)
	for _, b := range f.SymbolBlocks {
		n += len(b)
	}
	return n
}

// Text returns the source lines of s joined by '\n'.
func (f *File) Text(s *Stmt) string {
	if s.StartRow < 0 || s.EndRow >= len(f.Lines) || s.StartRow > s.EndRow {
		return ""
	}
	return strings.Join(f.Lines[s.StartRow:s.EndRow+1], "\n")
}

// Walk calls fn for every statement of the tree in source (pre-)order:
// a header before its body, bodies before else/handlers/finally.
func Walk(stmts []*Stmt, fn func(*Stmt)) {
	for _, s := range stmts {
		walk1(s, fn)
	}
}

func walk1(s *Stmt, fn func(*Stmt)) {
	if s == nil {
		return
	}
	fn(s)
	c := s.clause()
	for _, in := range c.Inner {
		Walk(in, fn)
	}
	Walk(s.Body, fn)
	walk1(c.Cond, fn)
	Walk(c.Cases, fn)
	Walk(c.Handlers, fn)
	walk1(c.Else, fn)
	walk1(c.Finally, fn)
}

// Limits of one file, checked by the front ends so that the memory a file
// takes is bounded whatever it holds: the largest files of the Python
// standard library and the JDK have about 6,000 statements and, at 1 MiB,
// would have fewer than 400,000 syntax nodes. A file over either limit is
// ErrTooLarge (generated or minified code, not worth indexing).
const (
	MaxSyntaxNodes = 1 << 20
	MaxStatements  = 1 << 16
	// MaxLexemes bounds the lexemes (token.Count) of a file, checked
	// before it is parsed: a syntax tree has about two nodes per lexeme,
	// and the parse is where a file's memory peaks.
	MaxLexemes = MaxSyntaxNodes / 2
	// MaxTextPerByte and MaxTextFixed bound the text a file's statements
	// span, the bytes of the lines of each statement added up over its
	// statements (CheckStatements): an index entry holds the tokens of
	// its statement's lines, so a file whose statements share long lines
	// (minified code: every statement on the one line of the whole file)
	// costs its size times its statements - an 874 KB bundle of 15,026
	// statements spans 13 GB, its blob holds 160 MB. Real files span
	// about their size once: at most 20 times in a file of 543 bytes,
	// 9.5 times in one of 5 KB, at most 1.1 times in a file of 256 KiB or
	// more, of 10,000 files of the Python standard library, java.base, Go
	// and npm packages.
	MaxTextPerByte = 8
	MaxTextFixed   = 4 << 20
)

// ErrTooLarge reports a file over a limit of what graphcoder reads.
var ErrTooLarge = errors.New("file is too large")

// CheckLexemes returns ErrTooLarge when src has more than MaxLexemes
// lexemes. It costs a scan of src, far less than a parse.
func CheckLexemes(src []byte) error {
	if len(src) <= MaxLexemes {
		return nil // fewer bytes than the limit: fewer lexemes too
	}
	// src is only read meanwhile: no copy of it.
	if n := token.Count(unsafe.String(unsafe.SliceData(src), len(src))); n > MaxLexemes {
		return fmt.Errorf("%w: %d lexemes, the limit is %d", ErrTooLarge, n, MaxLexemes)
	}
	return nil
}

// CheckSyntaxNodes returns ErrTooLarge when a syntax tree of n nodes is
// over MaxSyntaxNodes.
func CheckSyntaxNodes(n int) error {
	if n > MaxSyntaxNodes {
		return fmt.Errorf("%w: %d syntax nodes, the limit is %d", ErrTooLarge, n, MaxSyntaxNodes)
	}
	return nil
}

// CheckStatements returns ErrTooLarge when stmts, the statements of a
// file of lines, holds more than MaxStatements statements or spans more
// than MaxTextPerByte times the file's size plus MaxTextFixed bytes of
// lines.
func CheckStatements(stmts []*Stmt, lines []string) error {
	size := 0
	for _, l := range lines {
		size += len(l) + 1
	}
	limit := MaxTextPerByte*size + MaxTextFixed
	// The statements, and the text they span counted up to the limit (a
	// statement's rows are few: a compound statement's are its header's).
	n, text := 0, 0
	Walk(stmts, func(s *Stmt) {
		n++
		if s.StartRow < 0 || s.EndRow >= len(lines) {
			return
		}
		for r := s.StartRow; r <= s.EndRow && text <= limit; r++ {
			text += len(lines[r]) + 1
		}
	})
	if n > MaxStatements {
		return fmt.Errorf("%w: %d statements, the limit is %d", ErrTooLarge, n, MaxStatements)
	}
	if text > limit {
		return fmt.Errorf("%w: its statements span more than %d bytes of lines (minified code?)", ErrTooLarge, limit)
	}
	return nil
}

// Parser turns source into a File. Implementations are not safe for
// concurrent use; create one per goroutine.
type Parser interface {
	Parse(ctx context.Context, path string, src []byte) (*File, error)
}

// OutlineParser is a Parser that also reads a file's outline alone: its
// Lines, Package, Imports and Symbols, no statements, for less than a
// whole parse.
type OutlineParser interface {
	Outline(ctx context.Context, path string, src []byte) (*File, error)
}

// BlocksParser is a Parser that can leave a file's symbols in the blocks
// its outline collected them in (File.SymbolBlocks) rather than join them
// into File.Symbols: for a caller that reads them once in order, as the
// index's outline encoding does. A large file's symbols are then never in
// the heap twice (the blocks and their joined copy, at the end of the
// parse, when the statement tree is whole beside them).
type BlocksParser interface {
	ParseBlocks(ctx context.Context, path string, src []byte) (*File, error)
}

// SyntaxParser runs the tree-sitter parse alone, building and freeing the
// syntax tree: the floor that index build times are measured against.
type SyntaxParser interface {
	ParseSyntax(src []byte) error
}

// PathSyntaxParser is a SyntaxParser whose grammar depends on the file's
// name (TypeScript reads .tsx files with the TSX grammar). The parse floor
// calls ParseSyntaxPath when a syntax parser has it.
type PathSyntaxParser interface {
	ParseSyntaxPath(path string, src []byte) error
}

// Language describes one supported language.
type Language struct {
	Name            string
	Extensions      []string
	CommentPrefix   string
	Keywords        []string
	NewParser       func() Parser
	NewSyntaxParser func() SyntaxParser
	// Modules resolves the language's imports to repository files; nil
	// for a front end that records no symbols.
	Modules ModuleSystem
	// Scoping says how names reach class members (see Scoping).
	Scoping Scoping
	// Signatures says how definition blocks write header rows shorter
	// (see Signatures).
	Signatures Signatures

	// Parsers are costly to create and not safe for concurrent use: one
	// pool per language serves every caller.
	parsers, syntaxParsers sync.Pool
}

// Parse parses src, the content of the file at path, with a parser from
// the language's pool.
func (l *Language) Parse(ctx context.Context, path string, src []byte) (*File, error) {
	p := l.parser()
	f, err := p.Parse(ctx, path, src)
	l.parsers.Put(p) // not reached after a panic: that parser is dropped
	return f, err
}

// ParseBlocks is Parse, but with a front end that is a BlocksParser the
// symbols are left in File.SymbolBlocks (see BlocksParser).
func (l *Language) ParseBlocks(ctx context.Context, path string, src []byte) (*File, error) {
	return l.parseWith(ctx, path, src, func(p Parser) parseFunc {
		if bp, ok := p.(BlocksParser); ok {
			return bp.ParseBlocks
		}
		return p.Parse
	})
}

// Outline returns the outline of src, the content of the file at path
// (Lines, Package, Imports and Symbols as Parse gives them; the
// statements only when the parser cannot read the outline alone, see
// OutlineParser), with a parser from the language's pool.
func (l *Language) Outline(ctx context.Context, path string, src []byte) (*File, error) {
	return l.parseWith(ctx, path, src, func(p Parser) parseFunc {
		if op, ok := p.(OutlineParser); ok {
			return op.Outline
		}
		return p.Parse
	})
}

type parseFunc = func(ctx context.Context, path string, src []byte) (*File, error)

// parseWith calls the method of a parser from the language's pool that
// pick chooses, and puts the parser back as Parse does.
func (l *Language) parseWith(ctx context.Context, path string, src []byte, pick func(Parser) parseFunc) (*File, error) {
	p := l.parser()
	f, err := pick(p)(ctx, path, src)
	l.parsers.Put(p) // as in Parse
	return f, err
}

// parser returns a parser from the language's pool, a new one when the
// pool is empty.
func (l *Language) parser() Parser {
	if p, ok := l.parsers.Get().(Parser); ok {
		return p
	}
	return l.NewParser()
}

// ParseSyntax runs the tree-sitter parse alone on src, the content of the
// file at path, with a syntax parser from the language's pool (through
// ParseSyntaxPath when it has one); it fails when the language has none.
func (l *Language) ParseSyntax(path string, src []byte) error {
	if l.NewSyntaxParser == nil {
		return fmt.Errorf("language %s has no syntax parser", l.Name)
	}
	p, _ := l.syntaxParsers.Get().(SyntaxParser)
	if p == nil {
		p = l.NewSyntaxParser()
	}
	var err error
	if pp, ok := p.(PathSyntaxParser); ok {
		err = pp.ParseSyntaxPath(path, src)
	} else {
		err = p.ParseSyntax(src)
	}
	l.syntaxParsers.Put(p)
	return err
}

var registry []*Language

// Register makes a language available to ForPath and ByName. Front-end
// packages call it from init.
func Register(l *Language) { registry = append(registry, l) }

// ForPath returns the language of a file by its extension, or nil.
func ForPath(path string) *Language {
	ext := strings.ToLower(filepath.Ext(path))
	for _, l := range registry {
		for _, e := range l.Extensions {
			if e == ext {
				return l
			}
		}
	}
	return nil
}

// ByName returns the language called name, or nil.
func ByName(name string) *Language {
	for _, l := range registry {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// Languages lists the registered languages.
func Languages() []*Language { return registry }
