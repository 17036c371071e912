package java

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/frontend"
	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

// This file fills a File's Symbols, Imports and Package (see the package
// comment, "Symbols and imports") from the whole syntax tree as tsflat
// copied it, before the statement mapping prunes types and comments. It
// visits the top level and type bodies only, skipping every method body,
// so it reads a small part of the tree.

// okind classifies the grammar symbols the outline reads.
type okind uint8

const (
	oOther okind = iota
	oError
	oPackage
	oImport
	oClass
	oInterface
	oEnum
	oRecord
	oAnnotationType
	oMethod
	oCtor
	oField
	oConstant // constant_declaration: an interface's fields
	oEnumConst
	oAnnotElem
	oBody // class_body, interface_body, annotation_type_body, enum_body_declarations
	oEnumBody
	oBlockComment
	oIdent
	oScoped
	oAsterisk
	oStatic
	oFinal
	oModifiers
	oBases // superclass, super_interfaces, extends_interfaces
	oTypeList
	oTypeIdent
	oScopedType
	oGenericType
	oDeclarator
	oParams
	oParam
	oPrimType // void, int, ... : a return type
	oKwType   // the class, interface, enum, record and @interface keywords
	oLBrace
	oRBrace
)

var okindByName = map[string]okind{
	"ERROR":                               oError,
	"package_declaration":                 oPackage,
	"import_declaration":                  oImport,
	"class_declaration":                   oClass,
	"interface_declaration":               oInterface,
	"enum_declaration":                    oEnum,
	"record_declaration":                  oRecord,
	"annotation_type_declaration":         oAnnotationType,
	"method_declaration":                  oMethod,
	"constructor_declaration":             oCtor,
	"compact_constructor_declaration":     oCtor,
	"field_declaration":                   oField,
	"constant_declaration":                oConstant,
	"enum_constant":                       oEnumConst,
	"annotation_type_element_declaration": oAnnotElem,
	"class_body":                          oBody,
	"interface_body":                      oBody,
	"annotation_type_body":                oBody,
	"enum_body_declarations":              oBody,
	"enum_body":                           oEnumBody,
	"block_comment":                       oBlockComment,
	"identifier":                          oIdent,
	"scoped_identifier":                   oScoped,
	"asterisk":                            oAsterisk,
	"static":                              oStatic,
	"final":                               oFinal,
	"modifiers":                           oModifiers,
	"superclass":                          oBases,
	"super_interfaces":                    oBases,
	"extends_interfaces":                  oBases,
	"type_list":                           oTypeList,
	"type_identifier":                     oTypeIdent,
	"scoped_type_identifier":              oScopedType,
	"generic_type":                        oGenericType,
	"variable_declarator":                 oDeclarator,
	"formal_parameters":                   oParams,
	"formal_parameter":                    oParam,
	"void_type":                           oPrimType,
	"integral_type":                       oPrimType,
	"floating_point_type":                 oPrimType,
	"boolean_type":                        oPrimType,
	"array_type":                          oPrimType,
	"class":                               oKwType,
	"interface":                           oKwType,
	"enum":                                oKwType,
	"record":                              oKwType,
	"@interface":                          oKwType,
	"{":                                   oLBrace,
	"}":                                   oRBrace,
}

// ofield names the grammar fields the outline reads.
type ofield uint8

const (
	ofNone ofield = iota
	ofName
	ofBody
	ofType
	ofDeclarator
	ofParameters
)

var (
	okinds  []okind  // by symbol
	ofields []ofield // by field id
)

func init() {
	l := java.GetLanguage() // this file's init may run before tree.go's
	n := l.SymbolCount()
	okinds = make([]okind, n)
	for i := uint32(0); i < n; i++ {
		okinds[i] = okindByName[l.SymbolName(sitter.Symbol(i))]
	}
	byName := map[string]ofield{"name": ofName, "body": ofBody, "type": ofType, "declarator": ofDeclarator, "parameters": ofParameters}
	for i := 1; ; i++ {
		name := l.FieldName(i)
		if name == "" {
			break
		}
		for len(ofields) <= i {
			ofields = append(ofields, ofNone)
		}
		ofields[i] = byName[name]
	}
}

type outliner struct {
	n   []tsflat.Node
	src string
	f   *lang.File
	// syms collects the symbols, joined into f.Symbols at the end;
	// symbol k is syms.At(k-base).
	syms frontend.Chunks[lang.Symbol]
	base int
	// container is the node whose children a file mapped piece by
	// piece divides (-1 otherwise): the walk of its children goes on at
	// the next piece's run (nextPiece) when it reaches the tail, from
	// index tail, or the container's end, of a piece but the last (whose
	// tail is -1).
	container, tail int32
	nextPiece       func() int32
}

func (o *outliner) kind(i int32) okind {
	s := o.n[i].Sym
	if s == tsflat.ErrorSymbol {
		return oError
	}
	if int(s) < len(okinds) {
		return okinds[s]
	}
	return oOther
}

func (o *outliner) field(i int32) ofield {
	if f := o.n[i].Field; int(f) < len(ofields) {
		return ofields[f]
	}
	return ofNone
}

func (o *outliner) first(i int32) int32 { return tsflat.FirstChild(o.n, i) }

func (o *outliner) next(i int32) int32 {
	if nx := o.n[i].Next; nx >= 0 && int(nx) < len(o.n) {
		return nx
	}
	return -1
}

func (o *outliner) text(i int32) string {
	n := &o.n[i]
	if n.EndByte > uint32(len(o.src)) || n.StartByte > n.EndByte {
		return ""
	}
	return o.src[n.StartByte:n.EndByte]
}

func (o *outliner) startRow(i int32) int { return o.clamp(int(o.n[i].StartRow)) }

// endRow is the last row holding text of i.
func (o *outliner) endRow(i int32) int {
	return o.clamp(tsflat.LastRow(&o.n[i], o.src))
}

func (o *outliner) clamp(r int) int {
	return max(min(r, len(o.f.Lines)-1), 0)
}

// child returns the first child of i in field f, or -1.
func (o *outliner) child(i int32, f ofield) int32 {
	for c := o.first(i); c >= 0; c = o.next(c) {
		if o.field(c) == f {
			return c
		}
	}
	return -1
}

// outline records the package, imports and symbols of f from the tsflat
// records of its syntax tree; with blocks set the symbols are left in
// f.SymbolBlocks (lang.BlocksParser).
func outline(f *lang.File, flat []tsflat.Node, src string, blocks bool) {
	if len(flat) == 0 || len(f.Lines) == 0 {
		return
	}
	o := &outliner{n: flat, src: src, f: f, base: len(f.Symbols), container: -1}
	o.members(0, -1, "")
	frontend.Symbols(f, &o.syms, blocks)
}

// members walks the children of a program, type body or ERROR node:
// package and imports at top level, type declarations and members.
// parent is the enclosing type symbol (-1 at top level), enum its name
// when it is an enum.
func (o *outliner) members(i int32, parent int, enum string) {
	doc := -1 // the doc row of the comment right before the next child
	for c := o.first(i); ; c = o.next(c) {
		for i == o.container && o.tail >= 0 && (c < 0 || c >= o.tail) {
			c = o.nextPiece() // the file is mapped piece by piece
		}
		if c < 0 {
			break
		}
		if o.kind(c) == oBlockComment {
			doc = o.docRow(c)
			continue
		}
		o.memberNode(c, parent, enum, doc)
		doc = -1
	}
}

// memberNode reads one child of a program or type body; doc is the doc
// row of the comment right before it (docRow), or -1.
func (o *outliner) memberNode(c int32, parent int, enum string, doc int) {
	switch o.kind(c) {
	case oError:
		o.recover(c, parent, enum, doc)
	case oPackage:
		if parent < 0 {
			o.f.Package = o.qualified(c)
		}
	case oImport:
		o.importDecl(c)
	case oClass, oInterface, oEnum, oRecord, oAnnotationType:
		o.typeDecl(c, parent, doc)
	case oBody, oEnumBody:
		o.members(c, parent, enum)
	case oMethod, oAnnotElem:
		if parent >= 0 {
			o.callable(lang.SymMethod, c, parent, doc)
		}
	case oCtor:
		if parent >= 0 {
			o.callable(lang.SymConstructor, c, parent, doc)
		}
	case oField, oConstant:
		if parent >= 0 {
			o.fields(c, parent, doc)
		}
	case oEnumConst:
		if parent >= 0 {
			o.enumConstant(c, parent, enum, doc)
		}
	}
}

// qualified returns the dotted name in a package or import declaration.
func (o *outliner) qualified(i int32) string {
	for c := o.first(i); c >= 0; c = o.next(c) {
		if k := o.kind(c); k == oScoped || k == oIdent {
			return stripSpace(o.text(c))
		}
	}
	return ""
}

// importDecl records `import a.b.C;` as module a.b, name C, and
// `import a.b.*;` as module a.b, name "*"; static imports likewise.
func (o *outliner) importDecl(i int32) {
	imp := lang.Import{Row: o.startRow(i)}
	full := ""
	wild := false
	for c := o.first(i); c >= 0; c = o.next(c) {
		switch o.kind(c) {
		case oStatic:
			imp.Static = true
		case oScoped, oIdent:
			full = stripSpace(o.text(c))
		case oAsterisk:
			wild = true
		}
	}
	if full == "" {
		return
	}
	if wild {
		imp.Module, imp.Name = full, "*"
	} else if dot := strings.LastIndexByte(full, '.'); dot >= 0 {
		imp.Module, imp.Name = full[:dot], full[dot+1:]
	} else {
		imp.Name = full
	}
	o.f.Imports = append(o.f.Imports, imp)
}

// docRow returns the row of the first line of text of a Javadoc comment
// (one that starts with "/**"); -1 for another comment, none, or a comment
// that starts with a block tag.
func (o *outliner) docRow(comment int32) int {
	if comment < 0 || !strings.HasPrefix(o.text(comment), "/**") {
		return -1
	}
	for r := o.startRow(comment); r <= o.endRow(comment); r++ {
		t := lang.DocText(o.f.Lines[r])
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "@") {
			return -1
		}
		return r
	}
	return -1
}

func (o *outliner) add(s lang.Symbol) int {
	if s.Name == "" {
		return -1
	}
	return o.base + o.syms.Add(s)
}

// header returns the last row of a declaration's header: the end of its
// last child before the body, or the whole declaration without a body.
func (o *outliner) header(i int32) (end int, body int32) {
	end = o.startRow(i)
	for c := o.first(i); c >= 0; c = o.next(c) {
		if o.field(c) == ofBody {
			return end, c
		}
		end = max(end, o.endRow(c))
	}
	return o.endRow(i), -1
}

func (o *outliner) typeDecl(i int32, parent int, doc int) {
	name := o.child(i, ofName)
	if name < 0 {
		return
	}
	kind := map[okind]lang.SymbolKind{oClass: lang.SymClass, oInterface: lang.SymInterface,
		oEnum: lang.SymEnum, oRecord: lang.SymRecord, oAnnotationType: lang.SymAnnotation}[o.kind(i)]
	end, body := o.header(i)
	s := lang.Symbol{Kind: kind, Name: o.text(name), Parent: parent,
		StartRow: o.startRow(i), EndRow: o.endRow(i), SigStart: o.startRow(i), SigEnd: end,
		NameRow: o.startRow(name), DocRow: doc}
	var params int32 = -1
	for c := o.first(i); c >= 0; c = o.next(c) {
		switch {
		case o.kind(c) == oBases:
			s.Bases = o.types(c, s.Bases)
		case o.kind(c) == oParams && kind == lang.SymRecord:
			params = c
		}
	}
	idx := o.add(s)
	if idx < 0 {
		return
	}
	if params >= 0 {
		// Record components are the record's fields.
		for c := o.first(params); c >= 0; c = o.next(c) {
			if o.kind(c) != oParam {
				continue
			}
			if pn := o.child(c, ofName); pn >= 0 {
				o.add(lang.Symbol{Kind: lang.SymField, Name: o.text(pn), Parent: idx,
					StartRow: o.startRow(c), EndRow: o.endRow(c), SigStart: o.startRow(c), SigEnd: o.endRow(c),
					NameRow: o.startRow(pn), DocRow: -1, Type: o.typeName(o.child(c, ofType))})
			}
		}
	}
	if body >= 0 {
		enum := ""
		if kind == lang.SymEnum {
			enum = s.Name
		}
		o.members(body, idx, enum)
	}
}

// types appends the type names under a superclass, super_interfaces or
// extends_interfaces node.
func (o *outliner) types(i int32, out []string) []string {
	for c := o.first(i); c >= 0; c = o.next(c) {
		switch o.kind(c) {
		case oTypeList:
			out = o.types(c, out)
		case oTypeIdent, oScopedType, oGenericType:
			if t := o.typeName(c); t != "" {
				out = append(out, t)
			}
		}
	}
	return out
}

// typeName returns the dotted name of a type node, type arguments and
// array dimensions dropped; "" for primitive types and none.
func (o *outliner) typeName(i int32) string {
	if i < 0 {
		return ""
	}
	switch o.kind(i) {
	case oTypeIdent, oScopedType:
		return stripSpace(o.text(i))
	case oGenericType:
		if c := o.first(i); c >= 0 {
			return o.typeName(c)
		}
		return ""
	}
	// array_type, annotated_type: the first type inside.
	for c := o.first(i); c >= 0; c = o.next(c) {
		switch o.kind(c) {
		case oTypeIdent, oScopedType, oGenericType:
			return o.typeName(c)
		}
	}
	return ""
}

func (o *outliner) callable(kind lang.SymbolKind, i int32, parent int, doc int) {
	name := o.child(i, ofName)
	if name < 0 {
		return
	}
	end, _ := o.header(i)
	o.add(lang.Symbol{Kind: kind, Name: o.text(name), Parent: parent,
		StartRow: o.startRow(i), EndRow: o.endRow(i), SigStart: o.startRow(i), SigEnd: end,
		NameRow: o.startRow(name), DocRow: doc, Type: o.typeName(o.child(i, ofType))})
}

// fields records one symbol per declarator of a field or interface
// constant declaration: a constant when static and final (every interface
// field is).
func (o *outliner) fields(i int32, parent int, doc int) {
	kind := lang.SymField
	if o.kind(i) == oConstant {
		kind = lang.SymConstant
	}
	typ := ""
	for c := o.first(i); c >= 0; c = o.next(c) {
		switch {
		case o.kind(c) == oModifiers:
			static, final := false, false
			for m := o.first(c); m >= 0; m = o.next(m) {
				switch o.kind(m) {
				case oStatic:
					static = true
				case oFinal:
					final = true
				}
			}
			if static && final {
				kind = lang.SymConstant
			}
		case o.field(c) == ofType:
			typ = o.typeName(c)
		}
	}
	docRow := doc
	for c := o.first(i); c >= 0; c = o.next(c) {
		if o.kind(c) != oDeclarator {
			continue
		}
		if name := o.child(c, ofName); name >= 0 {
			o.add(lang.Symbol{Kind: kind, Name: o.text(name), Parent: parent,
				StartRow: o.startRow(i), EndRow: o.endRow(i), SigStart: o.startRow(i), SigEnd: o.endRow(i),
				NameRow: o.startRow(name), DocRow: docRow, Type: typ})
		}
	}
}

// enumConstant records an enum constant; its signature ends before its
// class body, if any.
func (o *outliner) enumConstant(i int32, parent int, enum string, doc int) {
	name := o.child(i, ofName)
	if name < 0 {
		return
	}
	end, _ := o.header(i)
	o.add(lang.Symbol{Kind: lang.SymConstant, Name: o.text(name), Parent: parent,
		StartRow: o.startRow(i), EndRow: o.endRow(i), SigStart: o.startRow(i), SigEnd: end,
		NameRow: o.startRow(name), DocRow: doc, Type: enum})
}

func stripSpace(s string) string {
	if !strings.ContainsAny(s, " \t\r\n") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// recover reads the declarations an ERROR node holds. The prefix of a file
// being edited ends inside a class and a method, so tree-sitter leaves
// their headers as loose tokens in an ERROR node: `public class A {` is
// modifiers, a class keyword, a name and a brace; `void run() {` a type, a
// name, parameters and a brace. recover rebuilds the types and methods
// from such runs (their rows end where the node ends), and reads the
// complete declarations among them as members of the innermost open type.
func (o *outliner) recover(i int32, parent int, enum string, doc int) {
	types := []int{parent} // the open types, innermost last
	var braces []bool      // open braces: true for a type body
	var start, kw, name, typ int32 = -1, -1, -1, -1
	prev := doc // the doc row of the comment right before the next declaration
	var bases []string
	reset := func() { start, kw, name, typ, bases = -1, -1, -1, -1, nil }
	for c := o.first(i); c >= 0; c = o.next(c) {
		k := o.kind(c)
		top := types[len(types)-1]
		if start < 0 && k != oBlockComment {
			doc = prev
		}
		switch k {
		case oBlockComment:
			prev = o.docRow(c)
			continue
		case oModifiers:
			if start < 0 {
				start = c
			}
		case oKwType:
			if start < 0 {
				start = c
			}
			kw, name, typ = c, -1, -1
		case oIdent:
			if name < 0 && (kw >= 0 || typ >= 0) || name < 0 && top >= 0 && o.text(c) == o.syms.At(top-o.base).Name {
				name = c
				if start < 0 {
					start = c
				}
			} else {
				reset()
			}
		case oTypeIdent, oScopedType, oGenericType, oPrimType:
			if kw < 0 {
				typ, name = c, -1
				if start < 0 {
					start = c
				}
			}
		case oBases:
			bases = o.types(c, bases)
		case oParams:
			if kw < 0 && name >= 0 && top >= 0 {
				kind := lang.SymMethod
				if typ < 0 {
					kind = lang.SymConstructor
				}
				o.add(lang.Symbol{Kind: kind, Name: o.text(name), Parent: top,
					StartRow: o.startRow(start), EndRow: o.endRow(i), SigStart: o.startRow(start), SigEnd: o.endRow(c),
					NameRow: o.startRow(name), DocRow: doc, Type: o.typeName(typ)})
			}
			reset()
		case oLBrace:
			isType := kw >= 0 && name >= 0
			if isType {
				kind := map[string]lang.SymbolKind{"class": lang.SymClass, "interface": lang.SymInterface,
					"enum": lang.SymEnum, "record": lang.SymRecord, "@interface": lang.SymAnnotation}[o.text(kw)]
				idx := o.add(lang.Symbol{Kind: kind, Name: o.text(name), Parent: top,
					StartRow: o.startRow(start), EndRow: o.endRow(i), SigStart: o.startRow(start), SigEnd: o.startRow(c),
					NameRow: o.startRow(name), DocRow: doc, Bases: bases})
				if idx >= 0 {
					types = append(types, idx)
				} else {
					isType = false
				}
			}
			braces = append(braces, isType)
			reset()
		case oRBrace:
			if n := len(braces); n > 0 {
				if braces[n-1] && len(types) > 1 {
					types = types[:len(types)-1]
				}
				braces = braces[:n-1]
			}
			reset()
		case oError:
			o.recover(c, top, enum, doc)
			reset()
		default:
			o.memberNode(c, top, enum, doc)
			reset()
		}
		prev = -1
	}
}
