package ecma

import (
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/frontend"
)

// builder maps the syntax tree of one file onto lang statements.
type builder struct {
	t      frontend.Tree
	f      *fieldIDs
	names  frontend.Names
	errors int
	o      *outliner // of the file mapped piece by piece
	blocks bool      // leave the symbols in File.SymbolBlocks
}

// newStmt starts a statement of kind k with the grammar type of node i,
// on the rows of node at (a wrapper such as an export statement, or i
// itself) through endRow.
func (b *builder) newStmt(k lang.Kind, i, at int32, endRow int) *lang.Stmt {
	start := b.t.StartRow(at)
	return lang.NewStmt(k, b.t.Type(i), start, max(endRow, start))
}

// body appends the statements held by container i to out.
func (b *builder) body(i int32, out []*lang.Stmt) []*lang.Stmt {
	for c := b.t.First(i); c >= 0; c = b.t.Next(c) {
		out = b.stmt(c, out)
	}
	return out
}

// stmt appends the statement of node i to out: none for tokens, comments
// and empty statements, the contents of a bare block, one Stmt otherwise.
func (b *builder) stmt(i int32, out []*lang.Stmt) []*lang.Stmt {
	t := &b.t
	if !t.Named(i) || t.Comment(i) {
		return out
	}
	switch t.Kind(i) {
	case kError:
		return b.errorRegion(i, out)
	case kBlock:
		return b.body(i, out)
	case kEmpty, kHashBang, kSkip:
		return out
	case kExprStmt:
		if x := t.FirstNamed(i); x >= 0 && t.Kind(x) == kNamespace {
			return append(out, b.namespace(i, x))
		}
	case kReturn:
		return append(out, b.simple(lang.Return, i))
	case kThrow:
		return append(out, b.simple(lang.Raise, i))
	case kBreak, kContinue:
		return append(out, b.jump(i))
	case kIf:
		return append(out, b.ifStmt(i))
	case kFor, kForIn, kWhileStmt:
		return append(out, b.loop(i))
	case kDo:
		return append(out, b.doStmt(i))
	case kSwitch:
		return append(out, b.switchStmt(i))
	case kTry:
		return append(out, b.tryStmt(i))
	case kLabeled:
		return append(out, b.labeled(i))
	case kWith:
		return append(out, b.with(i))
	case kImport:
		return append(out, b.importStmt(i))
	case kExport:
		return append(out, b.exportStmt(i))
	default:
		if s := b.decl(i, i); s != nil {
			return append(out, s)
		}
	}
	// Expression statements, debugger, and anything the grammar may add.
	return append(out, b.simple(lang.Simple, i))
}

// simple builds a statement of kind k from node i, reading names from all
// of its children.
func (b *builder) simple(k lang.Kind, i int32) *lang.Stmt {
	s := b.newStmt(k, i, i, b.t.EndRow(i))
	m := b.names.Open()
	b.collectChildren(i)
	return b.names.Close(s, m)
}

// statementKinds are the kinds of complete statements, which an ERROR
// node may hold when tree-sitter failed to resynchronise.
var statementKinds = [...]bool{
	kExprStmt: true, kVarDecl: true, kFuncDecl: true, kFuncSig: true,
	kClassDecl: true, kInterface: true, kTypeAlias: true, kEnum: true,
	kNamespace: true, kAmbient: true, kImport: true, kImportAlias: true,
	kExport: true, kIf: true, kFor: true, kForIn: true, kWhileStmt: true,
	kDo: true, kSwitch: true, kTry: true, kLabeled: true, kBreak: true,
	kContinue: true, kReturn: true, kThrow: true, kWith: true,
}

func (b *builder) isStatement(i int32) bool {
	k := b.t.Kind(i)
	return int(k) < len(statementKinds) && statementKinds[k]
}

// errorRegion maps an ERROR node in statement position: one Error
// statement over its rows. When tree-sitter fails to resynchronise after
// a syntax it does not know, it can wrap most of a file in one ERROR node
// whose children are complete statements (TypeScript's variance
// annotations, `interface A<out T>`, turn a 12,000-line module into one).
// Such a node is transparent: its complete statements are mapped as
// usual, and each run of other nodes between them becomes one Error
// statement.
func (b *builder) errorRegion(i int32, out []*lang.Stmt) []*lang.Stmt {
	t := &b.t
	transparent := false
	for c := t.First(i); c >= 0 && !transparent; c = t.Next(c) {
		transparent = b.isStatement(c)
	}
	if !transparent {
		return append(out, b.errorStmt(i))
	}
	b.errors++
	var run []int32
	flush := func() {
		if len(run) == 0 {
			return
		}
		s := lang.NewStmt(lang.Error, "ERROR", t.StartRow(run[0]), t.EndRow(run[len(run)-1]))
		s.EndRow = max(s.EndRow, s.StartRow)
		m := b.names.Open()
		for _, c := range run {
			switch t.Kind(c) {
			case kIdent:
				b.names.Use(t.Text(c))
			case kError:
				b.errors++
				b.collectFlat(c)
			default:
				b.collectFlat(c)
			}
		}
		out = append(out, b.names.Close(s, m))
		run = run[:0]
	}
	for c := t.First(i); c >= 0; c = t.Next(c) {
		switch {
		case t.Comment(c):
		case b.isStatement(c):
			flush()
			out = b.stmt(c, out)
		default:
			run = append(run, c)
		}
	}
	flush()
	return out
}

// errorStmt is one Error statement over an ERROR node in statement
// position; the names in it are uses.
func (b *builder) errorStmt(i int32) *lang.Stmt {
	b.errors++
	s := b.newStmt(lang.Error, i, i, b.t.EndRow(i))
	m := b.names.Open()
	b.collectFlat(i)
	return b.names.Close(s, m)
}

func (b *builder) jump(i int32) *lang.Stmt {
	k := lang.Break
	if b.t.Kind(i) == kContinue {
		k = lang.Continue
	}
	s := b.newStmt(k, i, i, b.t.EndRow(i))
	if l := b.t.Child(i, b.f.label); l >= 0 {
		s.Clause().Label = b.t.Text(l)
	}
	return s
}

// decl builds the statement of declaration d, written at outer (d itself,
// or the export or declare statement around it), or returns nil when d is
// no declaration.
func (b *builder) decl(outer, d int32) *lang.Stmt {
	t := &b.t
	switch t.Kind(d) {
	case kVarDecl:
		return b.varDecl(outer, d)
	case kFuncDecl:
		return b.funcDecl(outer, d)
	case kClassDecl:
		return b.classDecl(outer, d)
	case kInterface:
		return b.interfaceDecl(outer, d)
	case kEnum:
		return b.enumDecl(outer, d)
	case kNamespace:
		return b.namespace(outer, d)
	case kFuncSig, kTypeAlias:
		// An overload signature or a type alias: declarations that only
		// define their name.
		s := b.newStmt(lang.Simple, d, outer, t.EndRow(outer))
		m := b.names.Open()
		b.wrapperNames(outer, d)
		if n := t.Child(d, b.f.name); n >= 0 {
			b.names.Def(t.Text(n))
		}
		return b.names.Close(s, m)
	case kImportAlias:
		s := b.newStmt(lang.Simple, d, outer, t.EndRow(outer))
		m := b.names.Open()
		named := false
		for c := t.First(d); c >= 0; c = t.Next(c) {
			switch {
			case !named && t.Kind(c) == kIdent:
				b.names.Def(t.Text(c))
				named = true
			case t.Named(c) && !t.Comment(c):
				b.collect(c)
			}
		}
		return b.names.Close(s, m)
	case kAmbient:
		inner := t.FirstNamed(d)
		if inner < 0 {
			return nil
		}
		if t.Kind(inner) == kBlock {
			// declare global { ... }
			s := b.newStmt(lang.Class, d, outer, t.StartRow(inner))
			s.Body = b.body(inner, nil)
			return s
		}
		if s := b.decl(outer, inner); s != nil {
			return s
		}
		s := b.newStmt(lang.Simple, inner, outer, t.EndRow(outer))
		m := b.names.Open()
		b.collectChildren(inner)
		return b.names.Close(s, m)
	}
	return nil
}

// wrapperNames reads the decorators of the export statements between
// outer and the declaration d (`@dec export class A {}`).
func (b *builder) wrapperNames(outer, d int32) {
	t := &b.t
	// The records hold no parents: the chain from outer down to d (each
	// level's last child starting at or before d), visited from d up.
	var chain []int32
	for n := outer; n != d; {
		c := t.First(n)
		if c < 0 || c > d {
			return
		}
		for nx := t.Next(c); nx >= 0 && nx <= d; nx = t.Next(c) {
			c = nx
		}
		chain = append(chain, c)
		n = c
	}
	for j := len(chain) - 1; j >= 0; j-- {
		n, p := chain[j], outer
		if j > 0 {
			p = chain[j-1]
		}
		for c := t.First(p); c >= 0; c = t.Next(c) {
			if c != n && t.Kind(c) == kDecorator {
				b.collect(c)
			}
		}
	}
}

// varDecl maps a var, let or const declaration. One that declares a
// single name bound to a function with a block body (`const f = (x) => {
// ... }`, the usual way to write a function in modern code) is a Func
// defining that name, like a function declaration; any other is Simple.
func (b *builder) varDecl(outer, d int32) *lang.Stmt {
	t := &b.t
	var decl int32 = -1
	n := 0
	for c := t.First(d); c >= 0; c = t.Next(c) {
		if t.Kind(c) == kDeclarator {
			decl = c
			n++
		}
	}
	if n == 1 {
		name, val := t.Child(decl, b.f.name), t.Child(decl, b.f.value)
		if name >= 0 && t.Kind(name) == kIdent && val >= 0 && (t.Kind(val) == kArrow || t.Kind(val) == kFuncExpr) {
			if body := t.Child(val, b.f.body); body >= 0 && t.Kind(body) == kBlock {
				s := b.newStmt(lang.Func, d, outer, t.StartRow(outer))
				m := b.names.Open()
				b.wrapperNames(outer, d)
				b.names.Def(t.Text(name))
				s.EndRow = max(s.EndRow, b.funcHeader(val))
				b.names.Close(s, m)
				s.Body = b.body(body, nil)
				return s
			}
		}
	}
	s := b.newStmt(lang.Simple, d, outer, t.EndRow(outer))
	m := b.names.Open()
	b.wrapperNames(outer, d)
	b.declarators(d)
	return b.names.Close(s, m)
}

// declarators defines the names of the declarators of d and reads their
// initializers.
func (b *builder) declarators(d int32) {
	t := &b.t
	for c := t.First(d); c >= 0; c = t.Next(c) {
		if t.Kind(c) != kDeclarator {
			if t.Kind(c) == kError {
				b.collect(c)
			}
			continue
		}
		for e := t.First(c); e >= 0; e = t.Next(e) {
			switch {
			case t.Field(e) == b.f.name:
				b.bind(e, false)
			case t.Named(e) && !t.Comment(e):
				b.collect(e)
			}
		}
	}
}

// funcHeader records the parameters of a function node (declaration,
// expression, arrow, method) as Params, and its name when it is bound only
// inside (a named function expression), and returns the last row before
// its body.
func (b *builder) funcHeader(fn int32) int {
	t := &b.t
	end := t.StartRow(fn)
	for c := t.First(fn); c >= 0; c = t.Next(c) {
		if t.Field(c) == b.f.body {
			break
		}
		if t.Comment(c) {
			continue
		}
		end = max(end, t.EndRow(c))
		switch {
		case t.Field(c) == b.f.parameters:
			b.params(c)
		case t.Field(c) == b.f.parameter:
			b.names.Param(t.Text(c))
		case t.Field(c) == b.f.name && t.Kind(fn) == kFuncExpr:
			b.names.Param(t.Text(c))
		case t.Kind(c) == kDecorator, t.Kind(c) == kComputedName:
			b.collect(c)
		}
	}
	return end
}

// funcDecl maps a function or generator declaration (and an exported
// default function): a Func through its return type.
func (b *builder) funcDecl(outer, d int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Func, d, outer, t.StartRow(outer))
	m := b.names.Open()
	b.wrapperNames(outer, d)
	if n := t.Child(d, b.f.name); n >= 0 {
		b.names.Def(t.Text(n))
	}
	// The name is a Def above; funcHeader would bind it again.
	body := b.headerNames(s, d, func(c int32) {
		if t.Field(c) == b.f.parameters {
			b.params(c)
		}
	})
	b.names.Close(s, m)
	if body >= 0 {
		s.Body = b.body(body, nil)
	}
	return s
}

// params records formal parameters as Params: every name a parameter
// pattern binds. Default values are read. A TypeScript parameter property
// (`constructor(private x: T)`) also defines this.x.
func (b *builder) params(list int32) {
	t := &b.t
	for c := t.First(list); c >= 0; c = t.Next(c) {
		if !t.Named(c) || t.Comment(c) {
			continue
		}
		if t.Kind(c) != kParam {
			b.bind(c, true)
			continue
		}
		property := false
		for d := t.First(c); d >= 0; d = t.Next(d) {
			switch {
			case t.Kind(d) == kAccessibility:
				property = true
			case t.Field(d) == b.f.pattern:
				b.bind(d, true)
				if property && t.Kind(d) == kIdent {
					b.names.Def("this." + t.Text(d))
				}
			case t.Field(d) == b.f.value, t.Kind(d) == kDecorator:
				b.collect(d)
			}
		}
	}
}

// bind records the names a binding pattern binds, as Params or (with
// asParam false) as Defs: identifiers, object and array destructuring with
// defaults and rest elements. Default values and computed keys are read.
// In a destructuring assignment a pattern element may be any assignment
// target (`[this.a, b[i]] = xs`).
func (b *builder) bind(p int32, asParam bool) {
	t := &b.t
	switch t.Kind(p) {
	case kIdent, kShorthandPattern:
		if asParam {
			b.names.Param(t.Text(p))
		} else {
			b.names.Def(t.Text(p))
		}
	case kThis, kSkip, kPropIdent:
	case kAssignPattern, kObjAssignPattern:
		if l := t.Child(p, b.f.left); l >= 0 {
			b.bind(l, asParam)
		}
		if r := t.Child(p, b.f.right); r >= 0 {
			b.collect(r)
		}
	case kPairPattern:
		for c := t.First(p); c >= 0; c = t.Next(c) {
			switch {
			case t.Field(c) == b.f.key:
				if t.Kind(c) == kComputedName {
					b.collect(c)
				}
			case t.Field(c) == b.f.value:
				b.bind(c, asParam)
			}
		}
	case kObjectPattern, kArrayPattern, kRestPattern:
		for c := t.First(p); c >= 0; c = t.Next(c) {
			if t.Named(c) && !t.Comment(c) {
				b.bind(c, asParam)
			}
		}
	case kParam:
		if x := t.Child(p, b.f.pattern); x >= 0 {
			b.bind(x, asParam)
		}
	default:
		if asParam {
			b.collect(p)
		} else {
			b.target(p, false)
		}
	}
}

// classDecl maps a class declaration or expression written at outer: a
// Class through its heritage, with its members in Body.
func (b *builder) classDecl(outer, d int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Class, d, outer, t.StartRow(outer))
	m := b.names.Open()
	b.wrapperNames(outer, d)
	body := b.headerNames(s, d, func(c int32) {
		switch {
		case t.Field(c) == b.f.name:
			b.names.Def(t.Text(c))
		case t.Kind(c) == kHeritage:
			b.heritage(c)
		case t.Kind(c) == kDecorator:
			b.collect(c)
		}
	})
	b.names.Close(s, m)
	if body >= 0 {
		s.Body = b.members(body)
	}
	return s
}

// heritage reads the superclass expression; implemented interfaces are
// types.
func (b *builder) heritage(h int32) {
	t := &b.t
	for c := t.First(h); c >= 0; c = t.Next(c) {
		switch {
		case !t.Named(c) || t.Comment(c):
		case t.Kind(c) == kExtends:
			for d := t.First(c); d >= 0; d = t.Next(d) {
				if t.Field(d) == b.f.value {
					b.collect(d)
				}
			}
		default:
			b.collect(c)
		}
	}
}

// members maps a class body: methods and static blocks are Func, fields
// and signatures Simple. Decorators written before a member (TypeScript)
// belong to it.
func (b *builder) members(body int32) []*lang.Stmt {
	t := &b.t
	var out []*lang.Stmt
	var decos []int32
	for c := t.First(body); c >= 0; c = t.Next(c) {
		if !t.Named(c) || t.Comment(c) {
			continue
		}
		var s *lang.Stmt
		switch t.Kind(c) {
		case kDecorator:
			decos = append(decos, c)
			continue
		case kMethod:
			s = b.method(c, decos)
		case kField:
			s = b.field(c, decos)
		case kStaticBlock:
			s = b.newStmt(lang.Func, c, c, t.StartRow(c))
			if blk := t.Child(c, b.f.body); blk >= 0 {
				s.EndRow = max(s.EndRow, t.StartRow(blk))
				s.Body = b.body(blk, nil)
			}
		case kSignature:
			s = b.signature(c)
		case kError:
			s = b.errorStmt(c)
		default:
			s = b.simple(lang.Simple, c)
		}
		decos = nil
		out = append(out, s)
	}
	return out
}

// memberName defines the name of a class member (def), or reads it when
// it is computed.
func (b *builder) memberName(n int32, def func(string)) {
	t := &b.t
	switch t.Kind(n) {
	case kPropIdent, kPrivateProp, kIdent:
		def(t.Text(n))
	case kComputedName:
		b.collect(n)
	}
}

// method maps a method, accessor or constructor: a Func defining its name.
func (b *builder) method(c int32, decos []int32) *lang.Stmt {
	t := &b.t
	at := c
	if len(decos) > 0 {
		at = decos[0]
	}
	s := b.newStmt(lang.Func, c, at, t.StartRow(c))
	m := b.names.Open()
	for _, d := range decos {
		b.collect(d)
	}
	if n := t.Child(c, b.f.name); n >= 0 {
		b.memberName(n, b.names.Def)
	}
	s.EndRow = max(s.EndRow, b.funcHeader(c))
	b.names.Close(s, m)
	if body := t.Child(c, b.f.body); body >= 0 {
		s.Body = b.body(body, nil)
	}
	return s
}

// field maps a class field: it defines the access path this.x that it
// initializes and reads its initializer.
func (b *builder) field(c int32, decos []int32) *lang.Stmt {
	t := &b.t
	at := c
	if len(decos) > 0 {
		at = decos[0]
	}
	s := b.newStmt(lang.Simple, c, at, t.EndRow(c))
	m := b.names.Open()
	for _, d := range decos {
		b.collect(d)
	}
	for d := t.First(c); d >= 0; d = t.Next(d) {
		switch {
		case !t.Named(d) || t.Comment(d):
		case t.Field(d) == b.f.name || t.Field(d) == b.f.property:
			b.memberName(d, func(name string) { b.names.Def("this." + name) })
		default:
			b.collect(d)
		}
	}
	return b.names.Close(s, m)
}

// signature maps a method or property signature (interfaces, abstract
// methods): a Simple statement defining the member's name.
func (b *builder) signature(c int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Simple, c, c, t.EndRow(c))
	if n := t.Child(c, b.f.name); n >= 0 && (t.Kind(n) == kPropIdent || t.Kind(n) == kPrivateProp) {
		frontend.SetDefs(s, t.Text(n))
	}
	return s
}

// nameOf returns a header reader that defines the declaration's name on
// s, for declarations that read nothing else.
func (b *builder) nameOf(s *lang.Stmt) func(c int32) {
	return func(c int32) {
		if b.t.Field(c) == b.f.name {
			frontend.SetDefs(s, b.t.Text(c))
		}
	}
}

// interfaceDecl maps an interface: a Class with one statement per member.
func (b *builder) interfaceDecl(outer, d int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Class, d, outer, t.StartRow(outer))
	body := b.headerNames(s, d, b.nameOf(s))
	if body < 0 {
		return s
	}
	for c := t.First(body); c >= 0; c = t.Next(c) {
		switch {
		case !t.Named(c) || t.Comment(c):
		case t.Kind(c) == kSignature:
			s.Body = append(s.Body, b.signature(c))
		case t.Kind(c) == kError:
			s.Body = append(s.Body, b.errorStmt(c))
		default:
			s.Body = append(s.Body, b.simple(lang.Simple, c))
		}
	}
	return s
}

// enumDecl maps an enum: a Class with one statement per member, defining
// the member's name and reading its initializer.
func (b *builder) enumDecl(outer, d int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Class, d, outer, t.StartRow(outer))
	body := b.headerNames(s, d, b.nameOf(s))
	if body < 0 {
		return s
	}
	for c := t.First(body); c >= 0; c = t.Next(c) {
		if !t.Named(c) || t.Comment(c) {
			continue
		}
		ms := b.newStmt(lang.Simple, c, c, t.EndRow(c))
		m := b.names.Open()
		switch t.Kind(c) {
		case kPropIdent:
			b.names.Def(t.Text(c))
		case kEnumAssign:
			for e := t.First(c); e >= 0; e = t.Next(e) {
				switch {
				case t.Field(e) == b.f.name:
					if t.Kind(e) == kPropIdent {
						b.names.Def(t.Text(e))
					}
				case t.Named(e) && !t.Comment(e):
					b.collect(e)
				}
			}
		case kError:
			b.errors++
			b.collectFlat(c)
			ms.Kind = lang.Error
		}
		s.Body = append(s.Body, b.names.Close(ms, m))
	}
	return s
}

// namespace maps a TypeScript namespace or module declaration: a Class
// defining the namespace's first name, with its statements in Body.
func (b *builder) namespace(outer, d int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Class, d, outer, t.StartRow(outer))
	body := b.headerNames(s, d, func(c int32) {
		if t.Field(c) == b.f.name {
			n := c
			for n >= 0 && t.Kind(n) == kNestedIdent {
				n = t.FirstNamed(n)
			}
			if n >= 0 && t.Kind(n) == kIdent {
				frontend.SetDefs(s, t.Text(n))
			}
		}
	})
	if body >= 0 {
		s.Body = b.body(body, nil)
	}
	return s
}

// importStmt defines the names an import binds: the default import, the
// namespace import, each named import (its alias if it has one), or the
// name of `import x = require(...)`. A bare `import "m"` binds nothing.
func (b *builder) importStmt(i int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Simple, i, i, t.EndRow(i))
	m := b.names.Open()
	for c := t.First(i); c >= 0; c = t.Next(c) {
		switch t.Kind(c) {
		case kImportClause:
			for d := t.First(c); d >= 0; d = t.Next(d) {
				switch t.Kind(d) {
				case kIdent:
					b.names.Def(t.Text(d))
				case kNamespaceImport:
					if x := t.ChildOfKind(d, kIdent); x >= 0 {
						b.names.Def(t.Text(x))
					}
				case kNamedImports:
					for e := t.First(d); e >= 0; e = t.Next(e) {
						if t.Kind(e) != kImportSpec {
							continue
						}
						n := t.Child(e, b.f.alias)
						if n < 0 {
							n = t.Child(e, b.f.name)
						}
						if n >= 0 && t.Kind(n) == kIdent {
							b.names.Def(t.Text(n))
						}
					}
				}
			}
		case kRequireClause:
			if x := t.ChildOfKind(c, kIdent); x >= 0 {
				b.names.Def(t.Text(x))
			}
		case kError:
			b.collect(c)
		}
	}
	return b.names.Close(s, m)
}

// exportStmt maps an export: an exported declaration is that declaration
// (its rows start at export); `export default function` and `export
// default class` are Func and Class; other exports are Simple statements
// reading the local names they export (none for a re-export from another
// module).
func (b *builder) exportStmt(i int32) *lang.Stmt {
	t := &b.t
	if d := t.Child(i, b.f.declaration); d >= 0 {
		if s := b.decl(i, d); s != nil {
			return s
		}
	}
	if v := t.Child(i, b.f.value); v >= 0 {
		switch t.Kind(v) {
		case kFuncExpr:
			if body := t.Child(v, b.f.body); body >= 0 && t.Kind(body) == kBlock {
				return b.funcDecl(i, v)
			}
		case kClassExpr:
			return b.classDecl(i, v)
		}
	}
	s := b.newStmt(lang.Simple, i, i, t.EndRow(i))
	m := b.names.Open()
	if t.Child(i, b.f.source) < 0 {
		for c := t.First(i); c >= 0; c = t.Next(c) {
			switch {
			case !t.Named(c) || t.Comment(c):
			case t.Kind(c) == kExportClause:
				for d := t.First(c); d >= 0; d = t.Next(d) {
					if t.Kind(d) != kExportSpec {
						continue
					}
					if n := t.Child(d, b.f.name); n >= 0 && t.Kind(n) == kIdent {
						b.names.Use(t.Text(n))
					}
				}
			default:
				b.collect(c)
			}
		}
	}
	return b.names.Close(s, m)
}

// braceless reports whether body node i is a single statement rather than
// a block: nothing written after it belongs to the construct it ends.
// Error regions do not count, since their extent is a guess.
func (b *builder) braceless(i int32) bool {
	switch b.t.Kind(i) {
	case kBlock, kError:
		return false
	}
	return b.t.Named(i) && !b.t.Comment(i)
}

func (b *builder) ifStmt(i int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.If, i, i, t.StartRow(i))
	m := b.names.Open()
	if c := t.Child(i, b.f.condition); c >= 0 {
		s.EndRow = max(s.EndRow, t.EndRow(c))
		b.collect(c)
	}
	b.names.Close(s, m)
	if cons := t.Child(i, b.f.consequence); cons >= 0 {
		s.Body = b.stmt(cons, nil)
		s.InlineBody = b.braceless(cons)
	}
	if alt := t.Child(i, b.f.alternative); alt >= 0 {
		inner := t.FirstNamed(alt)
		if inner >= 0 && t.Kind(inner) == kIf {
			s.Clause().Else = b.ifStmt(inner)
		} else {
			row := t.StartRow(alt)
			e := lang.NewStmt(lang.Else, "else", row, row)
			if inner >= 0 {
				e.Body = b.stmt(inner, nil)
				e.InlineBody = b.braceless(inner)
			}
			s.Clause().Else = e
		}
	}
	return s
}

// loop maps for, for-in, for-of, for await and while: the header runs
// through the closing parenthesis and holds the initializer, condition and
// increment, or the loop variable and the iterated value.
func (b *builder) loop(i int32) *lang.Stmt {
	t := &b.t
	return b.header(lang.Loop, i, true, func(c int32) {
		switch {
		case t.Field(c) == b.f.initializer && t.Kind(c) == kVarDecl:
			b.declarators(c)
		case t.Field(c) == b.f.left:
			b.bind(c, false)
		default:
			b.collect(c)
		}
	})
}

// headerNames extends s over the rows of the children of d before its
// body, calls read for each named child there, and returns the body, or
// -1 when d has none.
func (b *builder) headerNames(s *lang.Stmt, d int32, read func(c int32)) int32 {
	t := &b.t
	for c := t.First(d); c >= 0; c = t.Next(c) {
		if t.Field(c) == b.f.body {
			return c
		}
		if t.Comment(c) {
			continue
		}
		s.EndRow = max(s.EndRow, t.EndRow(c))
		if t.Named(c) {
			read(c)
		}
	}
	return -1
}

// header builds a compound statement of kind k from node i: a header over
// the rows of every child before the body, whose names read collects for
// each named child there, then the body (InlineBody, with inline set, when
// it is a single statement).
func (b *builder) header(k lang.Kind, i int32, inline bool, read func(c int32)) *lang.Stmt {
	t := &b.t
	s := b.newStmt(k, i, i, t.StartRow(i))
	m := b.names.Open()
	body := b.headerNames(s, i, read)
	b.names.Close(s, m)
	if body >= 0 {
		s.Body = b.stmt(body, nil)
		s.InlineBody = inline && b.braceless(body)
	}
	return s
}

func (b *builder) doStmt(i int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Do, i, i, t.StartRow(i))
	if body := t.Child(i, b.f.body); body >= 0 {
		s.Body = b.stmt(body, nil)
	}
	if w := t.ChildOfKind(i, kWhile); w >= 0 {
		cond := lang.NewStmt(lang.DoCond, "while", t.StartRow(w), max(t.StartRow(w), t.EndRow(i)))
		m := b.names.Open()
		if c := t.Child(i, b.f.condition); c >= 0 {
			b.collect(c)
		}
		s.Clause().Cond = b.names.Close(cond, m)
	}
	return s
}

// switchStmt maps a switch: its cases fall through (FallThrough), and a
// default case makes it Exhaustive.
func (b *builder) switchStmt(i int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Switch, i, i, t.StartRow(i))
	s.Clause().FallThrough = true
	m := b.names.Open()
	if v := t.Child(i, b.f.value); v >= 0 {
		s.EndRow = max(s.EndRow, t.EndRow(v))
		b.collect(v)
	}
	b.names.Close(s, m)
	body := t.Child(i, b.f.body)
	if body < 0 {
		return s
	}
	for c := t.First(body); c >= 0; c = t.Next(c) {
		switch t.Kind(c) {
		case kCase, kDefault:
			s.Clause().Cases = append(s.Cases(), b.caseStmt(c, s))
		case kError:
			es := b.errorStmt(c)
			es.Kind = lang.Case
			s.Clause().Cases = append(s.Cases(), es)
		}
	}
	return s
}

// caseStmt maps one case: the header runs through its colon.
func (b *builder) caseStmt(i int32, sw *lang.Stmt) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Case, i, i, t.StartRow(i))
	if t.Kind(i) == kDefault {
		sw.Clause().Exhaustive = true
	}
	m := b.names.Open()
	c := t.First(i)
	for ; c >= 0; c = t.Next(c) {
		if t.Comment(c) {
			continue
		}
		s.EndRow = max(s.EndRow, t.EndRow(c))
		if t.Kind(c) == kColon {
			c = t.Next(c)
			break
		}
		if t.Named(c) {
			b.collect(c)
		}
	}
	b.names.Close(s, m)
	for ; c >= 0; c = t.Next(c) {
		s.Body = b.stmt(c, s.Body)
	}
	return s
}

func (b *builder) tryStmt(i int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Try, i, i, t.StartRow(i))
	for c := t.First(i); c >= 0; c = t.Next(c) {
		switch t.Field(c) {
		case b.f.body:
			s.Body = b.stmt(c, nil)
		case b.f.handler:
			s.Clause().Handlers = append(s.Handlers(), b.catchClause(c))
		case b.f.finalizer:
			fs := b.newStmt(lang.Finally, c, c, t.StartRow(c))
			if blk := t.Child(c, b.f.body); blk >= 0 {
				fs.Body = b.stmt(blk, nil)
			}
			s.Clause().Finally = fs
		}
	}
	return s
}

// catchClause maps a catch clause: a Catch through its parameter, which it
// defines (a destructuring pattern defines its names).
func (b *builder) catchClause(i int32) *lang.Stmt {
	return b.header(lang.Catch, i, false, func(c int32) {
		if b.t.Field(c) == b.f.parameter {
			b.bind(c, false)
		}
	})
}

// labeled maps a labeled statement to a With carrying the label, with the
// statement as its body; a labeled loop carries the label too.
func (b *builder) labeled(i int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.With, i, i, t.StartRow(i))
	if l := t.Child(i, b.f.label); l >= 0 {
		s.Clause().Label = t.Text(l)
	}
	if colon := t.ChildOfKind(i, kColon); colon >= 0 {
		s.EndRow = max(s.EndRow, t.EndRow(colon))
	}
	if body := t.Child(i, b.f.body); body >= 0 {
		s.Body = b.stmt(body, nil)
		s.InlineBody = b.braceless(body)
	}
	if len(s.Body) > 0 {
		if k := s.Body[0].Kind; k == lang.Loop || k == lang.Do {
			s.Body[0].Clause().Label = s.Label()
		}
	}
	return s
}

// with maps JavaScript's with statement: a With reading its object.
func (b *builder) with(i int32) *lang.Stmt {
	return b.header(lang.With, i, true, b.collect)
}
