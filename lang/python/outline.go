package python

import (
	"strings"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/frontend"
)

// This file fills a File's Symbols and Imports (see the package comment,
// "Symbols and imports"). It walks statements only, never expressions but
// for the few nodes a definition's name, bases and types are read from, so
// it costs a small part of the statement mapping.

// scope is where a statement stands: the module, a class body, or a
// function body (a method's, when class >= 0).
type scope struct {
	kind   scopeKind
	class  int    // the enclosing class symbol, -1 for none
	self   string // a method's first parameter, "" for none
	method bool
}

type scopeKind uint8

const (
	inModule scopeKind = iota
	inClass
	inFunction
)

type outliner struct {
	b    *builder
	f    *lang.File
	seen map[nameKey]bool             // names recorded per enclosing symbol
	syms frontend.Chunks[lang.Symbol] // the symbols, joined into f.Symbols at the end (frontend.Symbols)
}

type nameKey struct {
	parent int
	name   string
}

// outline records the symbols and imports of the file whose flattened tree
// the builder holds.
func (b *builder) outline(f *lang.File) {
	if len(b.n) == 0 {
		return
	}
	o := b.newOutliner(f)
	o.statements(0, moduleScope)
	o.finish()
}

// moduleScope is the scope of a module's statements.
var moduleScope = scope{kind: inModule, class: -1}

// newOutliner returns an outliner of f, whose records the builder holds
// (or will hold, a piece at a time).
func (b *builder) newOutliner(f *lang.File) *outliner {
	return &outliner{b: b, f: f, seen: map[nameKey]bool{}}
}

// finish joins the symbols into f.Symbols (or leaves them in their
// blocks, frontend.Symbols).
func (o *outliner) finish() { frontend.Symbols(o.f, &o.syms, o.b.blocks) }

// children walks the statements from first to last, siblings linked by
// their next records: the children of one node, or those of them that a
// piece of the file holds.
func (o *outliner) children(first, last int32, sc scope) {
	b := o.b
	for c := first; c >= 0; c = b.next(c) {
		o.statement(c, sc)
		if c == last {
			break
		}
	}
}

// statements walks the statements held by node i (a module, a block, or
// an ERROR node error recovery left where statements stand).
func (o *outliner) statements(i int32, sc scope) {
	b := o.b
	for c := b.first(i); c >= 0; c = b.next(c) {
		o.statement(c, sc)
	}
}

func (o *outliner) statement(c int32, sc scope) {
	b := o.b
	if b.skip(c) {
		return
	}
	switch b.typ(c) {
	case ntBlock, ntModule, ntError:
		o.statements(c, sc)
	case ntImport, ntImportFrom:
		o.imports(c)
	case ntFunctionDef:
		o.function(c, -1, sc)
	case ntClassDef:
		o.class(c, -1, sc)
	case ntDecorated:
		for d := b.first(c); d >= 0; d = b.next(d) {
			switch b.typ(d) {
			case ntFunctionDef:
				o.function(d, c, sc)
			case ntClassDef:
				o.class(d, c, sc)
			}
		}
	case ntExpressionStatement:
		o.assignments(c, sc)
	case ntIf, ntFor, ntWhile, ntTry, ntWith, ntElif, ntElse, ntExcept, ntExceptGroup, ntFinally:
		// Definitions under a module- or class-level if, try or with
		// (platform variants, optional imports) are still the scope's.
		for d := b.first(c); d >= 0; d = b.next(d) {
			switch t := b.typ(d); {
			case t == ntBlock:
				o.statements(d, sc)
			case isClause(t):
				o.statement(d, sc)
			}
		}
	}
}

// child returns the first child of i filling field f, or -1.
func (o *outliner) child(i int32, f fieldID) int32 {
	b := o.b
	for c := b.first(i); c >= 0; c = b.next(c) {
		if b.field(c) == f && !b.skip(c) {
			return c
		}
	}
	return -1
}

// add records a symbol unless its scope already has one of that name (the
// first definition stands for the name) and returns its index, or -1.
func (o *outliner) add(s lang.Symbol) int {
	k := nameKey{s.Parent, s.Name}
	if s.Name == "" || o.seen[k] {
		return -1
	}
	o.seen[k] = true
	return o.syms.Add(s) + len(o.f.Symbols)
}

func (o *outliner) function(i, decorated int32, sc scope) {
	b := o.b
	name := o.child(i, fName)
	body := o.child(i, fBody)
	if name < 0 {
		return
	}
	start := i
	if decorated >= 0 {
		start = decorated
	}
	inner := scope{kind: inFunction, class: -1}
	if sc.kind == inClass {
		kind := lang.SymMethod
		n := b.text(name)
		if n == "__init__" {
			kind = lang.SymConstructor
		}
		static := false
		record := true
		if decorated >= 0 {
			for d := b.first(decorated); d >= 0; d = b.next(d) {
				if b.typ(d) != ntDecorator {
					continue
				}
				switch t := strings.TrimSpace(strings.TrimPrefix(b.text(d), "@")); {
				case t == "property" || strings.HasSuffix(t, "cached_property") || t == "abc.abstractproperty" || t == "abstractproperty":
					kind = lang.SymProperty
				case strings.HasSuffix(t, ".setter") || strings.HasSuffix(t, ".deleter") || strings.HasSuffix(t, ".getter"):
					record = false // another accessor of a property recorded already
				case t == "staticmethod":
					static = true
				}
			}
		}
		if record {
			o.add(o.symbol(kind, i, start, name, body, o.typeOf(o.child(i, fReturnType)), sc.class))
		}
		inner.class, inner.method = sc.class, true
		if !static {
			inner.self = o.firstParam(o.child(i, fParameters))
		}
	} else if sc.kind == inModule {
		o.add(o.symbol(lang.SymFunction, i, start, name, body, o.typeOf(o.child(i, fReturnType)), -1))
	}
	if body >= 0 {
		o.statements(body, inner)
	}
}

func (o *outliner) class(i, decorated int32, sc scope) {
	b := o.b
	name := o.child(i, fName)
	body := o.child(i, fBody)
	if name < 0 {
		return
	}
	if sc.kind == inFunction {
		// A class local to a function is no repository API; its
		// imports still count.
		if body >= 0 {
			o.statements(body, scope{kind: inFunction, class: -1})
		}
		return
	}
	start := i
	if decorated >= 0 {
		start = decorated
	}
	s := o.symbol(lang.SymClass, i, start, name, body, "", sc.class)
	if sup := o.child(i, fSuperclasses); sup >= 0 {
		for c := b.first(sup); c >= 0; c = b.next(c) {
			if base := o.dotted(c); base != "" {
				s.Bases = append(s.Bases, base)
			}
		}
	}
	idx := o.add(s)
	if idx < 0 || body < 0 {
		return
	}
	o.statements(body, scope{kind: inClass, class: idx})
}

// symbol fills in the rows of a def or class: decorated is the node its
// header starts at.
func (o *outliner) symbol(kind lang.SymbolKind, i, start, name, body int32, typ string, parent int) lang.Symbol {
	b := o.b
	end, _, _ := b.splitClause(i)
	s := lang.Symbol{Kind: kind, Name: b.text(name), Parent: parent,
		StartRow: b.startRow(start), EndRow: b.endRow(i),
		SigStart: b.startRow(start), SigEnd: end, NameRow: b.startRow(name), DocRow: -1, Type: typ}
	if body >= 0 {
		s.DocRow = o.docRow(body)
	}
	return s
}

// docRow returns the row of the first line of text of a body's docstring:
// a string standing as the body's first statement. -1 when there is none.
func (o *outliner) docRow(body int32) int {
	b := o.b
	for c := b.first(body); c >= 0; c = b.next(c) {
		if b.skip(c) {
			continue
		}
		if b.typ(c) != ntExpressionStatement {
			return -1
		}
		s := b.first(c)
		for s >= 0 && b.skip(s) {
			s = b.next(s)
		}
		if s < 0 || (b.typ(s) != ntString && b.typ(s) != ntConcatString) || b.next(s) >= 0 {
			return -1
		}
		for r := b.startRow(s); r <= b.endRow(s) && r < len(o.f.Lines); r++ {
			if lang.DocText(o.f.Lines[r]) != "" {
				return r
			}
		}
		return -1
	}
	return -1
}

// firstParam returns the name of the first parameter of a def (self or
// cls of a method), "" for none.
func (o *outliner) firstParam(params int32) string {
	b := o.b
	if params < 0 {
		return ""
	}
	for c := b.first(params); c >= 0; c = b.next(c) {
		switch b.typ(c) {
		case ntIdentifier:
			return b.text(c)
		case ntTypedParameter, ntDefaultParameter, ntTypedDefaultParameter:
			for d := b.first(c); d >= 0; d = b.next(d) {
				if b.typ(d) == ntIdentifier {
					return b.text(d)
				}
			}
			return ""
		case ntComment:
		default:
			if b.named(c) {
				return "" // *args, a separator: no receiver
			}
		}
	}
	return ""
}

// assignments records the names a module- or class-level assignment binds,
// and the attributes a method assigns through its receiver.
func (o *outliner) assignments(stmt int32, sc scope) {
	b := o.b
	for c := b.first(stmt); c >= 0; c = b.next(c) {
		if b.typ(c) == ntAssignment {
			o.assignment(stmt, c, sc)
		}
	}
}

func (o *outliner) assignment(stmt, i int32, sc scope) {
	b := o.b
	typ := o.typeOf(o.child(i, fType))
	if typ == "" {
		typ = o.constructed(o.child(i, fRight))
	}
	if left := o.child(i, fLeft); left >= 0 {
		o.targets(stmt, left, typ, sc)
	}
	if right := o.child(i, fRight); right >= 0 && b.typ(right) == ntAssignment {
		o.assignment(stmt, right, sc) // a = b = v
	}
}

// targets records the names an assignment target binds in scope sc.
func (o *outliner) targets(stmt, t int32, typ string, sc scope) {
	b := o.b
	switch b.typ(t) {
	case ntIdentifier:
		if sc.kind == inFunction {
			return
		}
		name := b.text(t)
		kind := lang.SymVariable
		if sc.kind == inClass {
			kind = lang.SymField
		}
		if constName(name) {
			kind = lang.SymConstant
		}
		o.add(o.valueSymbol(kind, stmt, t, name, typ, sc.class))
	case ntAttribute:
		if !sc.method || sc.self == "" {
			return
		}
		obj, attr := b.attributeParts(t)
		if obj < 0 || attr < 0 || b.typ(obj) != ntIdentifier || b.text(obj) != sc.self {
			return
		}
		o.add(o.valueSymbol(lang.SymField, stmt, attr, b.text(attr), typ, sc.class))
	case ntPatternList, ntTuplePattern, ntListPattern, ntTuple, ntList, ntParenthesized, ntExpressionList:
		for c := b.first(t); c >= 0; c = b.next(c) {
			o.targets(stmt, c, typ, sc)
		}
	}
}

func (o *outliner) valueSymbol(kind lang.SymbolKind, stmt, name int32, text, typ string, parent int) lang.Symbol {
	b := o.b
	return lang.Symbol{Kind: kind, Name: text, Parent: parent,
		StartRow: b.startRow(stmt), EndRow: b.endRow(stmt), SigStart: b.startRow(stmt), SigEnd: b.endRow(stmt),
		NameRow: b.startRow(name), DocRow: -1, Type: typ}
}

// constructed returns the class a value is made by, for a value that is a
// call of a capitalized name (x = Parser(...) gives Parser; a.Parser(...)
// gives a.Parser), "" otherwise: the type of an unannotated attribute.
func (o *outliner) constructed(v int32) string {
	if v < 0 || o.b.typ(v) != ntCall {
		return ""
	}
	fn := o.child(v, fFunction)
	if fn < 0 || !o.b.isChain(fn) {
		return ""
	}
	name := stripSpace(o.b.text(fn))
	last := name[strings.LastIndexByte(name, '.')+1:]
	if last == "" || last[0] < 'A' || last[0] > 'Z' || constName(last) {
		return ""
	}
	return name
}

// constName reports an ALL_CAPS name: a constant by convention.
func constName(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			letter = true
		case c == '_' || c >= '0' && c <= '9':
		default:
			return false
		}
	}
	return letter
}

// dotted returns the dotted name a base class expression names: a name or
// attribute chain, the value of a subscript (Generic[T] gives Generic), the
// function of a call; "" for anything else (keyword arguments, splats).
func (o *outliner) dotted(i int32) string {
	b := o.b
	switch b.typ(i) {
	case ntIdentifier, ntAttribute:
		if b.isChain(i) {
			return stripSpace(b.text(i))
		}
	case ntSubscript:
		if v := o.child(i, fValue); v >= 0 {
			return o.dotted(v)
		}
	case ntCall:
		if v := o.child(i, fFunction); v >= 0 {
			return o.dotted(v)
		}
	}
	return ""
}

// typeOf returns the class an annotation names (see typeName), "" for
// none.
func (o *outliner) typeOf(i int32) string {
	if i < 0 {
		return ""
	}
	return typeName(o.b.text(i))
}

// typeName reduces an annotation to the class it names: quotes and type
// arguments go, Optional[X], ClassVar[X], Final[X], Annotated[X, ...] and
// Type[X] give X, a union its first member other than None.
func typeName(t string) string {
	t = strings.Trim(stripSpace(t), `"'`)
	for range 4 {
		open := strings.IndexByte(t, '[')
		head := t
		if open >= 0 {
			head = t[:open]
		}
		if bar := strings.IndexByte(head, '|'); bar >= 0 {
			parts := strings.Split(t, "|")
			t = ""
			for _, p := range parts {
				if p != "None" {
					t = strings.Trim(p, `"'`)
					break
				}
			}
			continue
		}
		if open < 0 {
			break
		}
		switch head[strings.LastIndexByte(head, '.')+1:] {
		case "Optional", "ClassVar", "Final", "Annotated", "Type", "type":
			inner := t[open+1:]
			if end := strings.IndexAny(inner, ",]"); end >= 0 {
				inner = inner[:end]
			}
			t = strings.Trim(inner, `"'`)
			continue
		}
		t = head
		break
	}
	if !dottedIdent(t) {
		return ""
	}
	return t
}

// dottedIdent reports identifiers joined by dots.
func dottedIdent(s string) bool {
	if s == "" {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" {
			return false
		}
		for i, r := range part {
			if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80 || i > 0 && r >= '0' && r <= '9') {
				return false
			}
		}
	}
	return true
}

func stripSpace(s string) string {
	if !strings.ContainsAny(s, " \t\r\n\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' && c != '\\' {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// imports records the names an import statement brings in.
func (o *outliner) imports(i int32) {
	b := o.b
	row := b.startRow(i)
	module := ""
	from := b.typ(i) == ntImportFrom
	if from {
		m := o.child(i, fModuleName)
		if m < 0 {
			return
		}
		module = stripSpace(b.text(m))
	}
	for c := b.first(i); c >= 0; c = b.next(c) {
		if b.skip(c) {
			continue
		}
		var imp lang.Import
		switch {
		case b.typ(c) == ntWildcardImport && from:
			imp = lang.Import{Module: module, Name: "*"}
		case b.field(c) != fName:
			continue
		case b.typ(c) == ntDottedName:
			imp = o.imported(module, stripSpace(b.text(c)), "", from)
		case b.typ(c) == ntAliasedImport:
			name, alias := o.child(c, fName), o.child(c, fAlias)
			if name < 0 {
				continue
			}
			a := ""
			if alias >= 0 {
				a = b.text(alias)
			}
			imp = o.imported(module, stripSpace(b.text(name)), a, from)
		default:
			continue
		}
		imp.Row = row
		o.f.Imports = append(o.f.Imports, imp)
	}
}

func (o *outliner) imported(module, name, alias string, from bool) lang.Import {
	if from {
		return lang.Import{Module: module, Name: name, Alias: alias}
	}
	return lang.Import{Module: name, Alias: alias}
}
