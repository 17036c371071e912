package golang

import (
	"strings"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/frontend"
)

// outliner records the symbols, imports and package of one file
// (lang.File.Symbols, Imports, Package) from its top-level declarations.
type outliner struct {
	t *frontend.Tree
	f *lang.File
	// syms collects the symbols, joined into f.Symbols at the end (or
	// left in their blocks, frontend.Symbols);
	// symbol k is syms.At(k-base).
	syms   frontend.Chunks[lang.Symbol]
	base   int
	blocks bool // leave the symbols in their blocks (frontend.Symbols)
}

// sym returns symbol k.
func (o *outliner) sym(k int) *lang.Symbol { return o.syms.At(k - o.base) }

// outline fills f's outline from the file node root.
func outline(t *frontend.Tree, root int32, f *lang.File, blocks bool) {
	o := newOutliner(t, f)
	o.blocks = blocks
	o.children(t.First(root), -1)
	o.finish()
}

// newOutliner returns an outliner of f over the records t holds (or
// will hold, a piece of the file at a time).
func newOutliner(t *frontend.Tree, f *lang.File) *outliner {
	return &outliner{t: t, f: f, base: len(f.Symbols)}
}

// finish joins the symbols into f.Symbols (or leaves them in their
// blocks, frontend.Symbols).
func (o *outliner) finish() { frontend.Symbols(o.f, &o.syms, o.blocks) }

// children outlines the declarations from first to last (to the end
// for -1), siblings linked by their next records: the file node's
// children, or those of them one piece of the file holds.
func (o *outliner) children(first, last int32) {
	t, f := o.t, o.f
	for c := first; c >= 0; c = t.Next(c) {
		o.declaration(c, f)
		if c == last {
			break
		}
	}
}

// declaration outlines the top-level declaration c.
func (o *outliner) declaration(c int32, f *lang.File) {
	t := o.t
	if t.Comment(c) {
		return
	}
	switch t.Kind(c) {
	case kPackage:
		if n := t.ChildOfKind(c, kPackageIdent); n >= 0 {
			f.Package = t.Text(n)
		}
	case kImportDecl:
		o.imports(c)
	case kFuncDecl, kMethodDecl:
		o.function(c)
	case kTypeDecl, kConstDecl, kVarDecl:
		o.decl(c)
	}
}

// imports records the specs of an import declaration: the path as
// Module, the explicit name (".", "_" or a name) as Alias.
func (o *outliner) imports(i int32) {
	t := o.t
	var spec func(c int32)
	spec = func(c int32) {
		switch t.Kind(c) {
		case kImportSpecList:
			for d := t.First(c); d >= 0; d = t.Next(d) {
				spec(d)
			}
		case kImportSpec:
			p := t.Child(c, fPath)
			if p < 0 {
				return
			}
			path := strings.Trim(t.Text(p), "\"`")
			if path == "" {
				return
			}
			imp := lang.Import{Row: t.StartRow(c), Module: path}
			if n := t.Child(c, fName); n >= 0 {
				imp.Alias = t.Text(n)
			}
			o.f.Imports = append(o.f.Imports, imp)
		}
	}
	for c := t.First(i); c >= 0; c = t.Next(c) {
		spec(c)
	}
}

// add appends a symbol whose definition spans node whole (its header
// ending at sigEnd) and is named by node name, and returns its index.
func (o *outliner) add(kind lang.SymbolKind, whole, name int32, sigEnd, parent int) int {
	t := o.t
	start := t.StartRow(whole)
	s := lang.Symbol{Kind: kind, Name: t.Text(name), Parent: parent,
		StartRow: start, EndRow: max(t.EndRow(whole), start),
		SigStart: start, NameRow: max(t.StartRow(name), start),
		DocRow: frontend.DocAbove(o.f.Lines, start)}
	s.SigEnd = min(max(sigEnd, s.NameRow), s.EndRow)
	s.NameRow = min(s.NameRow, s.SigEnd)
	return o.base + o.syms.Add(s)
}

// function records a function, or a method as a top-level symbol whose
// base is its receiver's type: the header through the result is its
// signature, the first result's type its Type.
func (o *outliner) function(i int32) {
	t := o.t
	name := t.Child(i, fName)
	if name < 0 || t.Missing(name) || t.Text(name) == "" {
		return
	}
	sigEnd := t.StartRow(i)
	recv := ""
	typ := ""
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if t.Field(c) == fBody {
			sigEnd = t.StartRow(c) // the row of the opening brace
			break
		}
		if t.Comment(c) {
			continue
		}
		sigEnd = max(sigEnd, t.EndRow(c))
		switch t.Field(c) {
		case fReceiver:
			recv = o.firstParamType(c)
		case fResult:
			typ = o.resultType(c)
		}
	}
	kind := lang.SymFunction
	if t.Kind(i) == kMethodDecl {
		kind = lang.SymMethod
	}
	k := o.add(kind, i, name, sigEnd, -1)
	o.sym(k).Type = typ
	if kind == lang.SymMethod && recv != "" {
		o.sym(k).Bases = []string{recv}
	}
}

// resultType is the type of the first result of a result node.
func (o *outliner) resultType(r int32) string {
	if o.t.Kind(r) == kParamList {
		return o.firstParamType(r)
	}
	return o.typeName(r)
}

// firstParamType is the type of the first parameter of a list.
func (o *outliner) firstParamType(list int32) string {
	t := o.t
	for c := t.First(list); c >= 0; c = t.Next(c) {
		if t.Kind(c) == kParamDecl {
			if ty := t.Child(c, fType); ty >= 0 {
				return o.typeName(ty)
			}
			return ""
		}
	}
	return ""
}

// typeName is the dotted name of a type node whose attributes are those
// of a named type: T, *T, pkg.T, T[A], (T); "" for other types (slices,
// maps, functions, channels: their elements' members are not theirs).
func (o *outliner) typeName(n int32) string {
	t := o.t
	for guard := 0; n >= 0 && guard < 8; guard++ {
		switch t.Type(n) {
		case "type_identifier", "identifier":
			return t.Text(n)
		case "qualified_type":
			txt := t.Text(n)
			if frontend.CleanPath(txt) {
				return txt
			}
			return ""
		case "pointer_type", "parenthesized_type":
			n = t.FirstNamed(n)
		case "generic_type":
			n = t.Child(n, fType)
		case "type_elem":
			if t.FirstNamed(n) != lastNamed(t, n) {
				return "" // a union of types
			}
			n = t.FirstNamed(n)
		default:
			return ""
		}
	}
	return ""
}

func lastNamed(t *frontend.Tree, i int32) int32 {
	last := int32(-1)
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if t.Named(c) && !t.Comment(c) {
			last = c
		}
	}
	return last
}

// decl records the specs of a type, const or var declaration, grouped
// or not: an ungrouped spec spans its whole declaration (and takes its
// doc comment), a grouped one its own rows.
func (o *outliner) decl(i int32) {
	t := o.t
	var specs []int32
	var add func(c int32)
	add = func(c int32) {
		switch t.Kind(c) {
		case kConstSpec, kVarSpec, kTypeSpec, kTypeAlias:
			specs = append(specs, c)
		case kVarSpecList:
			for d := t.First(c); d >= 0; d = t.Next(d) {
				add(d)
			}
		}
	}
	grouped := false
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if t.Kind(c) == kLParen || t.Kind(c) == kVarSpecList {
			grouped = true
		}
		add(c)
	}
	for _, s := range specs {
		whole := s
		if !grouped {
			whole = i
		}
		switch t.Kind(s) {
		case kTypeSpec, kTypeAlias:
			o.typeSpec(whole, s)
		default:
			o.valueSpec(whole, s, t.Kind(i) == kConstDecl)
		}
	}
}

// valueSpec records each name of a const or var spec, with the spec's
// type (or the type of a composite literal value) as Type.
func (o *outliner) valueSpec(whole, spec int32, isConst bool) {
	t := o.t
	kind := lang.SymVariable
	if isConst {
		kind = lang.SymConstant
	}
	typ := ""
	if ty := t.Child(spec, fType); ty >= 0 {
		typ = o.typeName(ty)
	} else if v := t.Child(spec, fValue); v >= 0 {
		typ = o.literalType(t.FirstNamed(v))
	}
	for c := t.First(spec); c >= 0; c = t.Next(c) {
		if t.Field(c) != fName || t.Text(c) == "_" || t.Missing(c) {
			continue
		}
		k := o.add(kind, whole, c, t.EndRow(whole), -1)
		o.sym(k).Type = typ
	}
}

// literalType is the type of a composite literal value, T{...} or
// &T{...}; "" for other values.
func (o *outliner) literalType(v int32) string {
	t := o.t
	if v < 0 {
		return ""
	}
	if t.Kind(v) == kUnary {
		v = t.FirstNamed(v)
		if v < 0 {
			return ""
		}
	}
	if t.Kind(v) == kComposite {
		if ty := t.Child(v, fType); ty >= 0 {
			return o.typeName(ty)
		}
	}
	return ""
}

// typeSpec records a type: a struct as a class with its fields (an
// embedded field is named by its type and is also a base), an interface
// with its methods (embedded interfaces are bases), an alias or a type
// defined by another named type with that type as its base.
func (o *outliner) typeSpec(whole, spec int32) {
	t := o.t
	name := t.Child(spec, fName)
	if name < 0 || t.Missing(name) || t.Text(name) == "" {
		return
	}
	ty := t.Child(spec, fType)
	kind := lang.SymClass
	sigEnd := t.EndRow(whole)
	var members int32 = -1
	if ty >= 0 {
		switch t.Kind(ty) {
		case kStructType:
			members = t.ChildOfKind(ty, kFieldDeclList)
		case kInterfaceType:
			kind, members = lang.SymInterface, ty
		}
	}
	if members >= 0 {
		sigEnd = t.StartRow(members)
		if brace := t.ChildOfKind(members, kLBrace); brace >= 0 {
			sigEnd = t.StartRow(brace)
		}
	}
	k := o.add(kind, whole, name, sigEnd, -1)
	if members < 0 {
		if ty >= 0 {
			if base := o.typeName(ty); base != "" {
				o.sym(k).Bases = []string{base}
			}
		}
		return
	}
	var bases []string
	for c := t.First(members); c >= 0; c = t.Next(c) {
		if !t.Named(c) || t.Comment(c) {
			continue
		}
		switch t.Kind(c) {
		case kFieldDecl:
			bases = o.field(c, k, bases)
		case kMethodElem:
			n := t.Child(c, fName)
			if n < 0 || t.Missing(n) {
				continue
			}
			m := o.add(lang.SymMethod, c, n, t.EndRow(c), k)
			if r := t.Child(c, fResult); r >= 0 {
				o.sym(m).Type = o.resultType(r)
			}
		default:
			if t.Type(c) == "type_elem" {
				if b := o.typeName(c); b != "" {
					bases = append(bases, b)
				}
			}
		}
	}
	o.sym(k).Bases = bases
}

// field records the names of a struct's field declaration as fields of
// parent; an embedded field is named by its type's last name and its
// type is appended to bases.
func (o *outliner) field(c int32, parent int, bases []string) []string {
	t := o.t
	ty := t.Child(c, fType)
	typ := ""
	if ty >= 0 {
		typ = o.typeName(ty)
	}
	named := false
	for d := t.First(c); d >= 0; d = t.Next(d) {
		if t.Field(d) != fName || t.Missing(d) {
			continue
		}
		named = true
		if t.Text(d) == "_" {
			continue
		}
		k := o.add(lang.SymField, c, d, t.EndRow(c), parent)
		o.sym(k).Type = typ
	}
	if named || ty < 0 || typ == "" {
		return bases
	}
	// An embedded field: named by the type's last name.
	n := ty
	for guard := 0; guard < 8 && n >= 0; guard++ {
		switch t.Type(n) {
		case "pointer_type":
			n = t.FirstNamed(n)
			continue
		case "generic_type":
			n = t.Child(n, fType)
			continue
		case "qualified_type":
			n = t.Child(n, fName)
			continue
		}
		break
	}
	if n >= 0 && t.Type(n) == "type_identifier" {
		k := o.add(lang.SymField, c, n, t.EndRow(c), parent)
		o.sym(k).Type = typ
	}
	return append(bases, typ)
}
