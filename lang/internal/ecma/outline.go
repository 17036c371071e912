package ecma

import (
	"strings"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/frontend"
)

// outliner records the symbols and imports of one file (lang.File.Symbols,
// Imports) from its top-level statements and the bodies of its classes,
// interfaces, enums and namespaces.
type outliner struct {
	t *frontend.Tree
	f *fieldIDs
	o *lang.File
	// syms collects the symbols, joined into o.Symbols at the end (or
	// left in their blocks, frontend.Symbols);
	// symbol k is syms.At(k-base).
	syms   frontend.Chunks[lang.Symbol]
	base   int
	blocks bool // leave the symbols in their blocks (frontend.Symbols)
}

// sym returns symbol k.
func (o *outliner) sym(k int) *lang.Symbol { return o.syms.At(k - o.base) }

// nsyms returns the number of symbols so far.
func (o *outliner) nsyms() int { return o.base + o.syms.Len() }

// maxNamespaceDepth bounds the nesting of namespaces outlined.
const maxNamespaceDepth = 8

func outline(t *frontend.Tree, f *fieldIDs, root int32, file *lang.File, blocks bool) {
	o := newOutliner(t, f, file)
	o.blocks = blocks
	defer o.finish()
	if t.Kind(root) == kError {
		o.errorRegion(root) // the whole file is one region error recovery left
		return
	}
	o.statements(root, -1, 0)
}

// newOutliner returns an outliner of file over the records t holds (or
// will hold, a piece of the file at a time).
func newOutliner(t *frontend.Tree, f *fieldIDs, file *lang.File) *outliner {
	return &outliner{t: t, f: f, o: file, base: len(file.Symbols)}
}

// finish joins the symbols into the file's Symbols (or leaves them in
// their blocks, frontend.Symbols).
func (o *outliner) finish() { frontend.Symbols(o.o, &o.syms, o.blocks) }

// statements outlines the statements of a program or namespace body.
func (o *outliner) statements(body int32, parent, depth int) {
	o.children(o.t.First(body), -1, parent, depth)
}

// children outlines the statements from first to last (to the end for
// -1), siblings linked by their next records: the statements of a body,
// or those of the program one piece of the file holds.
func (o *outliner) children(first, last int32, parent, depth int) {
	t := o.t
	for c := first; c >= 0; c = t.Next(c) {
		o.statement(c, parent, depth)
		if c == last {
			break
		}
	}
}

// statement outlines statement c of a program or namespace body.
func (o *outliner) statement(c int32, parent, depth int) {
	t := o.t
	if !t.Named(c) || t.Comment(c) {
		return
	}
	first := o.nsyms()
	switch t.Kind(c) {
	case kImport:
		if parent < 0 {
			o.importStmt(c)
		}
	case kExport:
		o.exportStmt(c, parent, depth)
	case kError:
		if parent < 0 {
			o.errorRegion(c)
		}
	case kExprStmt:
		// Older grammars wrap `namespace N {}` in an expression.
		if n := t.FirstNamed(c); n >= 0 && t.Kind(n) == kNamespace {
			o.decl(c, n, parent, depth)
		}
	default:
		o.decl(c, c, parent, depth)
	}
	if parent < 0 && t.HasError(c) && t.Kind(c) != kError {
		o.rescan(c, first)
	}
}

// rescan outlines the declarations starting at column 0 inside statement
// c, which holds a syntax error: error recovery may have made one
// statement of a declaration and much of what follows it. The symbols
// from first on (c's own) end before the first declaration so found.
func (o *outliner) rescan(c int32, first int) {
	t := o.t
	lines := o.o.Lines
	from, to := t.StartRow(c)+1, min(t.EndRow(c), len(lines)-1)
	if to-from > maxRescanRows {
		to = from + maxRescanRows
	}
	at := -1
	for r := from; r <= to; r++ {
		if _, _, ok := declLine(lines[r]); ok {
			at = r
			break
		}
	}
	if at < 0 {
		return
	}
	end := at - 1 // before the found declaration and its comment
	for end > from {
		l := strings.TrimSpace(lines[end])
		if !strings.HasPrefix(l, "*") && !strings.HasPrefix(l, "/*") && !strings.HasPrefix(l, "//") {
			break
		}
		end--
	}
	for k := first; k < o.nsyms(); k++ {
		s := o.sym(k)
		if s.NameRow >= at {
			continue
		}
		s.EndRow = max(end, s.NameRow)
		s.SigEnd = min(s.SigEnd, s.EndRow)
	}
	// Keep the source order: c's symbols after the first found
	// declaration are dropped (they are found again by the scan, or lost
	// with their region).
	var keep []lang.Symbol
	for k := first; k < o.nsyms(); k++ {
		if s := o.sym(k); s.NameRow < at {
			keep = append(keep, *s)
		}
	}
	o.syms.Truncate(first - o.base)
	for _, s := range keep {
		o.syms.Add(s)
	}
	o.scanRows(at, t.EndRow(c))
}

// maxRescanRows bounds the rows of one statement rescanned.
const maxRescanRows = 1 << 16

// add appends a symbol spanning outer (the statement, its export and
// decorators included) named by node name, its header ending at sigEnd.
func (o *outliner) add(kind lang.SymbolKind, outer, name int32, start, sigEnd, parent int) int {
	t := o.t
	end := max(t.EndRow(outer), start)
	s := lang.Symbol{Kind: kind, Name: t.Text(name), Parent: parent, StartRow: start, EndRow: end,
		SigStart: start, NameRow: min(max(t.StartRow(name), start), end),
		DocRow: frontend.DocAbove(o.o.Lines, start)}
	s.SigEnd = min(max(sigEnd, s.NameRow), end)
	return o.base + o.syms.Add(s)
}

// named returns the name node of a declaration, -1 when it has none or
// it is not a plain name.
func (o *outliner) named(d int32) int32 {
	n := o.t.Child(d, o.f.name)
	if n < 0 || o.t.Missing(n) || o.t.Text(n) == "" {
		return -1
	}
	switch o.t.Kind(n) {
	case kIdent, kTypeIdent, kPropIdent, kPrivateProp:
		return n
	case kString:
		return -1
	}
	if o.t.Type(n) == "nested_identifier" {
		return -1
	}
	return n
}

// decl outlines declaration d written as statement outer (an export
// statement, an ambient declaration or d itself).
func (o *outliner) decl(outer, d int32, parent, depth int) int {
	t := o.t
	start := t.StartRow(outer)
	switch t.Kind(d) {
	case kFuncDecl, kFuncSig, kFuncExpr:
		n := o.named(d)
		if n < 0 {
			return -1
		}
		k := o.add(lang.SymFunction, outer, n, start, o.headerEnd(d), parent)
		o.sym(k).Type = o.annotation(t.Child(d, o.f.returnType))
		return k
	case kClassDecl, kClassExpr:
		n := o.named(d)
		if n < 0 {
			return -1
		}
		return o.class(outer, d, n, start, parent)
	case kInterface:
		n := o.named(d)
		if n < 0 {
			return -1
		}
		return o.iface(outer, d, n, start, parent)
	case kTypeAlias:
		n := o.named(d)
		if n < 0 {
			return -1
		}
		v := t.Child(d, o.f.value)
		if v >= 0 && t.Kind(v) == kInterfaceBody {
			// type T = { ... }: an interface by another name.
			return o.iface(outer, d, n, start, parent)
		}
		k := o.add(lang.SymClass, outer, n, start, t.EndRow(outer), parent)
		if b := o.typeName(v); b != "" {
			o.sym(k).Bases = []string{b}
		}
		return k
	case kEnum:
		return o.enum(outer, d, start, parent)
	case kNamespace:
		return o.namespace(outer, d, start, parent, depth)
	case kAmbient:
		if inner := t.FirstNamed(d); inner >= 0 {
			return o.decl(outer, inner, parent, depth)
		}
	case kVarDecl:
		o.variables(outer, d, start, parent)
	}
	return -1
}

// headerEnd is the last row of the header of a function-like node: the
// row of its body's opening brace, else its last row.
func (o *outliner) headerEnd(d int32) int {
	if body := o.t.Child(d, o.f.body); body >= 0 {
		return o.t.StartRow(body)
	}
	return o.t.EndRow(d)
}

// annotation is the type name of a type annotation node (`: T`).
func (o *outliner) annotation(a int32) string {
	if a < 0 {
		return ""
	}
	switch o.t.Type(a) {
	case "type_annotation", "opting_type_annotation", "omitting_type_annotation", "adding_type_annotation":
		return o.typeName(o.t.FirstNamed(a))
	}
	return o.typeName(a)
}

// typeName is the dotted name of a type node naming a type whose members
// are its own: T, ns.T, T<A>, also a class expression's name (Base,
// mixins.Base); "" for other types.
func (o *outliner) typeName(n int32) string {
	t := o.t
	for guard := 0; n >= 0 && guard < 8; guard++ {
		switch t.Type(n) {
		case "type_identifier", "identifier":
			return t.Text(n)
		case "nested_type_identifier", "member_expression", "nested_identifier":
			if txt := t.Text(n); frontend.CleanPath(txt) {
				return txt
			}
			return ""
		case "generic_type":
			n = t.Child(n, o.f.name)
			if n < 0 {
				return ""
			}
		case "parenthesized_type":
			n = t.FirstNamed(n)
		case "call_expression", "new_expression":
			return "" // a mixin: not a name
		default:
			return ""
		}
	}
	return ""
}

// class outlines a class with its members; its bases are the extended
// class and the implemented interfaces.
func (o *outliner) class(outer, d, name int32, start, parent int) int {
	t := o.t
	body := t.Child(d, o.f.body)
	sigEnd := t.EndRow(outer)
	if body >= 0 {
		sigEnd = t.StartRow(body)
	}
	k := o.add(lang.SymClass, outer, name, start, sigEnd, parent)
	var bases []string
	if h := t.ChildOfKind(d, kHeritage); h >= 0 {
		for c := t.First(h); c >= 0; c = t.Next(c) {
			if !t.Named(c) || t.Comment(c) {
				continue
			}
			switch t.Type(c) {
			case "extends_clause":
				if v := t.Child(c, o.f.value); v >= 0 {
					bases = appendName(bases, o.typeName(v))
				}
			case "implements_clause":
				for e := t.First(c); e >= 0; e = t.Next(e) {
					if t.Named(e) && !t.Comment(e) {
						bases = appendName(bases, o.typeName(e))
					}
				}
			default: // JavaScript: the superclass expression itself
				bases = appendName(bases, o.typeName(c))
			}
		}
	}
	o.sym(k).Bases = bases
	if body < 0 {
		return k
	}
	decoStart := -1
	for c := t.First(body); c >= 0; c = t.Next(c) {
		if !t.Named(c) || t.Comment(c) {
			continue
		}
		if t.Kind(c) == kDecorator {
			if decoStart < 0 {
				decoStart = t.StartRow(c)
			}
			continue
		}
		at := t.StartRow(c)
		if decoStart >= 0 {
			at = decoStart
		}
		decoStart = -1
		o.member(c, at, k)
	}
	return k
}

// errorRegion outlines what error recovery left of a region tree-sitter
// could not parse: the complete statements it holds; the declarations
// starting at column 0 of the rows between them (scanRows); and a class
// whose body is not closed, at the end of a file being edited (the
// tokens `class Name {` at the start of a row, followed by its members,
// the last of them cut: a name followed by its parameters is a method).
// Such a class ends before the next row that starts a declaration.
func (o *outliner) errorRegion(e int32) {
	t := o.t
	lines := o.o.Lines
	class := -1
	exportRow := -1
	var prev int32 = -1
	next := t.StartRow(e) // the first row not yet scanned for declarations
	closeClass := func(row int) {
		cs := o.sym(class)
		cs.EndRow = max(row-1, cs.SigEnd)
		for k := class + 1; k < o.nsyms(); k++ {
			ms := o.sym(k)
			ms.EndRow = max(min(ms.EndRow, cs.EndRow), ms.SigEnd)
		}
		class = -1
		next = row
	}
	for c := t.First(e); c >= 0; prev, c = c, t.Next(c) {
		if t.Comment(c) {
			continue
		}
		row := t.StartRow(c)
		if class >= 0 && row > o.sym(class).SigEnd && row < len(lines) {
			if _, _, ok := declLine(lines[row]); ok {
				closeClass(row)
			}
		}
		complete := t.Kind(c) == kImport || t.Kind(c) == kExport || o.isDecl(c)
		switch {
		case complete:
			if class >= 0 {
				closeClass(row)
			}
			o.scanRows(next, row-1)
			next = t.EndRow(c) + 1
			exportRow = -1
			switch t.Kind(c) {
			case kImport:
				o.importStmt(c)
			case kExport:
				o.exportStmt(c, -1, 0)
			default:
				o.decl(c, c, -1, 0)
			}
		case !t.Named(c):
			switch t.Text(c) {
			case "export":
				exportRow = row
			case "class":
				n := t.Next(c)
				start := row
				if exportRow >= 0 {
					start = exportRow
				}
				if class >= 0 || n < 0 || (t.Kind(n) != kIdent && t.Kind(n) != kTypeIdent) || start < next {
					continue
				}
				if k, name, ok := declLine(lines[start]); !ok || k != lang.SymClass || name != t.Text(n) {
					continue // not a class declared at the start of a row
				}
				o.scanRows(next, start-1)
				k := o.add(lang.SymClass, e, n, start, t.StartRow(n), -1)
				o.sym(k).SigStart = start
				class = k
				next = t.EndRow(e) + 1 // its rows are not scanned
			}
		case class >= 0 && (t.Kind(c) == kMethod || t.Kind(c) == kField || t.Kind(c) == kSignature):
			o.member(c, row, class)
		case class >= 0 && t.Kind(c) == kParams && prev >= 0 && (t.Kind(prev) == kPropIdent || t.Kind(prev) == kIdent):
			kind := lang.SymMethod
			if t.Text(prev) == "constructor" {
				kind = lang.SymConstructor
			}
			k := o.add(kind, e, prev, t.StartRow(prev), t.EndRow(c), class)
			o.sym(k).EndRow = o.sym(class).EndRow
		}
	}
	if class < 0 {
		o.scanRows(next, t.EndRow(e))
	}
}

// isDecl reports the nodes decl outlines.
func (o *outliner) isDecl(c int32) bool {
	switch o.t.Kind(c) {
	case kFuncDecl, kFuncSig, kClassDecl, kInterface, kTypeAlias, kEnum, kNamespace, kAmbient, kVarDecl:
		return true
	}
	return false
}

func appendName(out []string, n string) []string {
	if n != "" {
		out = append(out, n)
	}
	return out
}

// member outlines one member of a class or interface body: methods,
// accessors (properties), the constructor, fields and signatures.
func (o *outliner) member(c int32, start, parent int) {
	t := o.t
	switch t.Kind(c) {
	case kMethod, kSignature:
		n := o.named(c)
		if n < 0 {
			return
		}
		kind := lang.SymMethod
		switch t.Type(c) {
		case "property_signature":
			k := o.add(lang.SymField, c, n, start, t.EndRow(c), parent)
			o.sym(k).Type = o.annotation(t.Child(c, o.f.typ))
			return
		case "index_signature", "call_signature", "construct_signature":
			return
		}
		if t.Text(n) == "constructor" {
			kind = lang.SymConstructor
		}
		for e := t.First(c); e >= 0 && e != n; e = t.Next(e) {
			if tx := t.Text(e); !t.Named(e) && (tx == "get" || tx == "set") {
				kind = lang.SymProperty
			}
		}
		k := o.add(kind, c, n, start, o.headerEnd(c), parent)
		o.sym(k).Type = o.annotation(t.Child(c, o.f.returnType))
	case kField:
		n := t.Child(c, o.f.name)
		if n < 0 {
			n = t.Child(c, o.f.property) // JavaScript field_definition
		}
		if n < 0 || (t.Kind(n) != kPropIdent && t.Kind(n) != kPrivateProp) {
			return
		}
		k := o.add(lang.SymField, c, n, start, t.EndRow(c), parent)
		typ := o.annotation(t.Child(c, o.f.typ))
		if typ == "" {
			typ = o.newType(t.Child(c, o.f.value))
		}
		o.sym(k).Type = typ
		if v := t.Child(c, o.f.value); v >= 0 && (t.Kind(v) == kArrow || t.Kind(v) == kFuncExpr) {
			o.sym(k).Kind = lang.SymMethod
			o.sym(k).SigEnd = max(o.sym(k).NameRow, min(o.headerEnd(v), o.sym(k).EndRow))
			o.sym(k).Type = o.annotation(t.Child(v, o.f.returnType))
		}
	}
}

// newType is the class a value constructs (`new T(...)`), "" otherwise.
func (o *outliner) newType(v int32) string {
	if v < 0 || o.t.Type(v) != "new_expression" {
		return ""
	}
	return o.typeName(o.t.Child(v, o.f.constructor))
}

// iface outlines an interface (or an object type alias): property
// signatures are fields, method signatures methods; its bases are the
// interfaces it extends.
func (o *outliner) iface(outer, d, name int32, start, parent int) int {
	t := o.t
	body := t.Child(d, o.f.body)
	if body < 0 {
		body = t.Child(d, o.f.value)
	}
	sigEnd := t.EndRow(outer)
	if body >= 0 {
		sigEnd = t.StartRow(body)
	}
	k := o.add(lang.SymInterface, outer, name, start, sigEnd, parent)
	var bases []string
	if ext := childOfType(t, d, "extends_type_clause"); ext >= 0 {
		for e := t.First(ext); e >= 0; e = t.Next(e) {
			if t.Named(e) && !t.Comment(e) {
				bases = appendName(bases, o.typeName(e))
			}
		}
	}
	o.sym(k).Bases = bases
	if body < 0 {
		return k
	}
	for c := t.First(body); c >= 0; c = t.Next(c) {
		if t.Named(c) && !t.Comment(c) {
			o.member(c, t.StartRow(c), k)
		}
	}
	return k
}

func childOfType(t *frontend.Tree, i int32, typ string) int32 {
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if t.Type(c) == typ {
			return c
		}
	}
	return -1
}

// enum outlines an enum and its members (constants of the enum's type).
func (o *outliner) enum(outer, d int32, start, parent int) int {
	t := o.t
	n := o.named(d)
	if n < 0 {
		return -1
	}
	body := t.Child(d, o.f.body)
	sigEnd := t.EndRow(outer)
	if body >= 0 {
		sigEnd = t.StartRow(body)
	}
	k := o.add(lang.SymEnum, outer, n, start, sigEnd, parent)
	if body < 0 {
		return k
	}
	for c := t.First(body); c >= 0; c = t.Next(c) {
		if !t.Named(c) || t.Comment(c) {
			continue
		}
		m := c
		if t.Kind(c) == kEnumAssign {
			m = t.Child(c, o.f.name)
		}
		if m < 0 || t.Kind(m) != kPropIdent {
			continue
		}
		e := o.add(lang.SymConstant, c, m, t.StartRow(c), t.EndRow(c), k)
		o.sym(e).Type = t.Text(n)
	}
	return k
}

// namespace outlines a namespace as a class whose members are the
// declarations of its body (nested namespaces too, to a bound).
func (o *outliner) namespace(outer, d int32, start, parent, depth int) int {
	t := o.t
	n := t.Child(d, o.f.name)
	if n < 0 || t.Kind(n) == kString || depth >= maxNamespaceDepth {
		return -1 // `declare module "x" {}` describes another module
	}
	// namespace A.B {}: the namespace is A (B is its member).
	for t.Kind(n) == kNestedIdent || t.Type(n) == "nested_identifier" {
		f := t.FirstNamed(n)
		if f < 0 {
			return -1
		}
		n = f
	}
	body := t.Child(d, o.f.body)
	sigEnd := t.EndRow(outer)
	if body >= 0 {
		sigEnd = t.StartRow(body)
	}
	k := o.add(lang.SymClass, outer, n, start, sigEnd, parent)
	if body >= 0 {
		o.statements(body, k, depth+1)
	}
	return k
}

// variables outlines the declarators of a variable declaration that bind
// a plain name: a function or arrow value is a function (its header
// through the arrow is its signature), a const a constant, let and var
// variables; the type is the annotation or the class a `new` builds.
func (o *outliner) variables(outer, d int32, start, parent int) {
	t := o.t
	kind := lang.SymVariable
	if f := t.First(d); f >= 0 && t.Text(f) == "const" {
		kind = lang.SymConstant
	}
	for c := t.First(d); c >= 0; c = t.Next(c) {
		if t.Kind(c) != kDeclarator {
			continue
		}
		n := t.Child(c, o.f.name)
		v := t.Child(c, o.f.value)
		if mod := o.required(v); mod != "" && parent < 0 && n >= 0 {
			o.requireImport(t.StartRow(outer), mod, n)
			continue
		}
		if n < 0 || t.Kind(n) != kIdent || t.Missing(n) {
			continue
		}
		if v >= 0 && (t.Kind(v) == kArrow || t.Kind(v) == kFuncExpr) {
			k := o.add(lang.SymFunction, outer, n, start, o.headerEnd(v), parent)
			o.sym(k).Type = o.annotation(t.Child(v, o.f.returnType))
			continue
		}
		k := o.add(kind, outer, n, start, t.EndRow(outer), parent)
		typ := o.annotation(t.Child(c, o.f.typ))
		if typ == "" {
			typ = o.newType(v)
		}
		o.sym(k).Type = typ
	}
}

// required is the module a `require("m")` call reads, "" for any other
// value.
func (o *outliner) required(v int32) string {
	t := o.t
	if v < 0 || t.Type(v) != "call_expression" {
		return ""
	}
	fn := t.Child(v, o.f.function)
	if fn < 0 || t.Text(fn) != "require" {
		return ""
	}
	args := t.FirstNamed(v)
	for c := t.First(v); c >= 0; c = t.Next(c) {
		if t.Type(c) == "arguments" {
			args = c
		}
	}
	if s := t.FirstNamed(args); s >= 0 && t.Kind(s) == kString {
		return strings.Trim(t.Text(s), "\"'`")
	}
	return ""
}

// requireImport records `const x = require("m")` (the module bound to x)
// and `const { a, b: c } = require("m")` (named imports) as imports.
func (o *outliner) requireImport(row int, mod string, pattern int32) {
	t := o.t
	switch t.Kind(pattern) {
	case kIdent:
		o.imp(row, mod, "", t.Text(pattern))
	case kObjectPattern:
		for c := t.First(pattern); c >= 0; c = t.Next(c) {
			switch t.Kind(c) {
			case kShorthandPattern:
				o.imp(row, mod, t.Text(c), "")
			case kPairPattern:
				k, v := t.Child(c, o.f.key), t.Child(c, o.f.value)
				if k >= 0 && v >= 0 && t.Kind(v) == kIdent {
					o.imp(row, mod, t.Text(k), t.Text(v))
				}
			}
		}
	}
}

// specifier is the module an import or export statement reads from, ""
// when it names none.
func (o *outliner) specifier(i int32) string {
	s := o.t.Child(i, o.f.source)
	if s < 0 {
		return ""
	}
	return strings.Trim(o.t.Text(s), "\"'`")
}

// importStmt records the names an import brings in: the default import
// (Name "default"), a namespace import (the module itself, Alias its
// name), each named import; `import x = require("m")` binds x to the
// module; a bare `import "m"` brings in nothing but is recorded (Name and
// Alias empty) as a dependency.
func (o *outliner) importStmt(i int32) {
	t := o.t
	row := t.StartRow(i)
	mod := o.specifier(i)
	n := len(o.o.Imports)
	for c := t.First(i); c >= 0; c = t.Next(c) {
		switch t.Kind(c) {
		case kImportClause:
			for d := t.First(c); d >= 0; d = t.Next(d) {
				switch t.Kind(d) {
				case kIdent:
					o.imp(row, mod, "default", t.Text(d))
				case kNamespaceImport:
					if x := t.ChildOfKind(d, kIdent); x >= 0 {
						o.imp(row, mod, "", t.Text(x))
					}
				case kNamedImports:
					o.specs(d, row, mod, kImportSpec)
				}
			}
		case kRequireClause:
			x := t.ChildOfKind(c, kIdent)
			if s := t.ChildOfKind(c, kString); s >= 0 && x >= 0 {
				o.imp(row, strings.Trim(t.Text(s), "\"'`"), "", t.Text(x))
				return
			}
		}
	}
	if len(o.o.Imports) == n && mod != "" {
		o.imp(row, mod, "", "")
	}
}

func (o *outliner) imp(row int, mod, name, alias string) {
	if mod == "" && name == "" {
		return
	}
	if alias == name {
		alias = ""
	}
	o.o.Imports = append(o.o.Imports, lang.Import{Row: row, Module: mod, Name: name, Alias: alias})
}

// specs records the import or export specifiers of a list: name, and
// alias when renamed.
func (o *outliner) specs(list int32, row int, mod string, kind uint8) {
	t := o.t
	for e := t.First(list); e >= 0; e = t.Next(e) {
		if t.Kind(e) != kind {
			continue
		}
		n := t.Child(e, o.f.name)
		if n < 0 || t.Missing(n) {
			continue
		}
		alias := ""
		if a := t.Child(e, o.f.alias); a >= 0 {
			alias = t.Text(a)
		}
		o.imp(row, mod, strings.Trim(t.Text(n), "\"'"), alias)
	}
}

// exportStmt outlines an exported declaration, and records what an
// export makes a member of the file: a re-export (`export { a as b }
// from "m"`, `export * from "m"`, `export * as ns from "m"`) as an
// import of m; a default export or a local name exported under another
// name (`export default f`, `export { f as g }`) as an import of the
// file's own module (Module "") binding the exported name to the local
// one.
func (o *outliner) exportStmt(i int32, parent, depth int) {
	t := o.t
	row := t.StartRow(i)
	isDefault := false
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if !t.Named(c) && t.Text(c) == "default" {
			isDefault = true
		}
	}
	if d := t.Child(i, o.f.declaration); d >= 0 {
		if k := o.decl(i, d, parent, depth); k >= 0 && isDefault && parent < 0 {
			o.o.Imports = append(o.o.Imports, lang.Import{Row: row, Name: o.sym(k).Name, Alias: "default"})
		}
		return
	}
	if v := t.Child(i, o.f.value); v >= 0 {
		name := ""
		switch t.Kind(v) {
		case kFuncExpr, kClassExpr:
			if k := o.decl(i, v, parent, depth); k >= 0 {
				name = o.sym(k).Name
			}
		case kIdent:
			name = t.Text(v)
		}
		if isDefault && name != "" && parent < 0 {
			o.o.Imports = append(o.o.Imports, lang.Import{Row: row, Name: name, Alias: "default"})
		}
		return
	}
	if parent >= 0 {
		return
	}
	mod := o.specifier(i)
	star := false
	for c := t.First(i); c >= 0; c = t.Next(c) {
		switch {
		case t.Kind(c) == kExportClause:
			if mod != "" {
				o.specs(c, row, mod, kExportSpec)
				continue
			}
			for e := t.First(c); e >= 0; e = t.Next(e) {
				if t.Kind(e) != kExportSpec {
					continue
				}
				n, a := t.Child(e, o.f.name), t.Child(e, o.f.alias)
				if n >= 0 && a >= 0 && t.Text(n) != t.Text(a) {
					o.o.Imports = append(o.o.Imports, lang.Import{Row: row, Name: t.Text(n), Alias: t.Text(a)})
				}
			}
		case t.Type(c) == "namespace_export":
			if x := t.FirstNamed(c); x >= 0 && mod != "" {
				o.imp(row, mod, "", t.Text(x))
				star = false
				return
			}
		case !t.Named(c) && t.Text(c) == "*":
			star = true
		}
	}
	if star && mod != "" {
		o.imp(row, mod, "*", "")
	}
}

// scanRows outlines the declarations that start at column 0 of the rows
// from..to, which error recovery left as loose tokens: when tree-sitter
// cannot resynchronise after a syntax its grammar does not know, it may
// leave much of a file as such tokens (see the package documentation).
// A declaration is a row starting with `export`, `declare`, `const`,
// `function`, `class`, ... and a name; its signature runs to the row that
// opens its body or value (at most maxScanSig rows), and that is all of
// it: the members of a class so recovered are not outlined.
func (o *outliner) scanRows(from, to int) {
	lines := o.o.Lines
	to = min(to, len(lines)-1)
	for r := max(from, 0); r <= to; r++ {
		kind, name, ok := declLine(lines[r])
		if !ok {
			continue
		}
		end := r
		for k := r; k <= to && k < r+maxScanSig; k++ {
			end = k
			l := strings.TrimRight(lines[k], " \t")
			if strings.ContainsAny(l, "{=;") || strings.HasSuffix(l, ">") {
				break
			}
		}
		o.syms.Add(lang.Symbol{Kind: kind, Name: name, Parent: -1,
			StartRow: r, EndRow: end, SigStart: r, SigEnd: end, NameRow: r, DocRow: frontend.DocAbove(lines, r)})
		r = end
	}
}

// maxScanSig bounds the rows of a signature scanRows reads.
const maxScanSig = 4

// declLine reads a top-level declaration's kind and name from the start
// of a line: `export const name`, `export declare function name`,
// `class Name`, `export type Name`, ... A const or let whose line holds an
// arrow or a function is a function.
func declLine(line string) (lang.SymbolKind, string, bool) {
	if line == "" || line[0] == ' ' || line[0] == '\t' {
		return 0, "", false
	}
	words := strings.Fields(line)
	i := 0
	for i < len(words) {
		switch words[i] {
		case "export", "default", "declare", "async", "abstract":
			i++
			continue
		}
		break
	}
	if i+1 >= len(words) {
		return 0, "", false
	}
	var kind lang.SymbolKind
	switch strings.TrimSuffix(words[i], "*") {
	case "function":
		kind = lang.SymFunction
	case "const":
		kind = lang.SymConstant
	case "let", "var":
		kind = lang.SymVariable
	case "class", "type", "namespace":
		kind = lang.SymClass
	case "interface":
		kind = lang.SymInterface
	case "enum":
		kind = lang.SymEnum
	default:
		return 0, "", false
	}
	w := strings.TrimPrefix(words[i+1], "*")
	n := 0
	for n < len(w) && (w[n] == '_' || w[n] == '$' || w[n] >= 'a' && w[n] <= 'z' || w[n] >= 'A' && w[n] <= 'Z' || n > 0 && w[n] >= '0' && w[n] <= '9') {
		n++
	}
	if n == 0 {
		return 0, "", false
	}
	name := w[:n]
	if kind == lang.SymConstant || kind == lang.SymVariable {
		if at := strings.Index(line, name); at >= 0 {
			rest := line[at+len(name):]
			if strings.Contains(rest, "=>") || strings.Contains(rest, "function") {
				kind = lang.SymFunction
			}
		}
	}
	return kind, name, true
}
