package golang

import (
	"strings"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/frontend"
	"github.com/graphcoder/graphcoder/token"
)

// builder maps the syntax tree of one file onto lang statements.
type builder struct {
	t      frontend.Tree
	names  frontend.Names
	errors int
	o      *outliner // of the file mapped piece by piece
	blocks bool      // leave the symbols in File.SymbolBlocks
}

func (b *builder) newStmt(k lang.Kind, i int32, endRow int) *lang.Stmt {
	start := b.t.StartRow(i)
	return lang.NewStmt(k, b.t.Type(i), start, max(endRow, start))
}

// body appends the statements held by container i (a file, a block, the
// rest of a case clause) to out.
func (b *builder) body(i int32, out []*lang.Stmt) []*lang.Stmt {
	for c := b.t.First(i); c >= 0; c = b.t.Next(c) {
		out = b.stmt(c, out)
	}
	return out
}

// stmt appends the statement(s) of node i to out: none for tokens,
// comments and empty statements, the contents of a bare block, one Stmt
// (or one per spec of a grouped declaration) otherwise.
func (b *builder) stmt(i int32, out []*lang.Stmt) []*lang.Stmt {
	t := &b.t
	if !t.Named(i) || t.Comment(i) {
		return out
	}
	switch t.Kind(i) {
	case kError:
		return append(out, b.errorStmt(i))
	case kBlock:
		return b.body(i, out)
	case kEmpty, kSkip:
		return out
	case kPackage:
		return append(out, b.newStmt(lang.Simple, i, t.EndRow(i)))
	case kImportDecl:
		return b.importDecl(i, out)
	case kConstDecl, kVarDecl, kTypeDecl:
		return b.decl(i, out)
	case kFuncDecl, kMethodDecl:
		return append(out, b.funcDecl(i))
	case kReturn:
		return append(out, b.simple(lang.Return, i))
	case kBreak, kContinue, kGoto:
		return append(out, b.jump(i))
	case kLabeled:
		return append(out, b.labeled(i))
	case kIf:
		return append(out, b.ifStmt(i))
	case kFor:
		return append(out, b.loop(i))
	case kExprSwitch, kTypeSwitch, kSelect:
		return append(out, b.switchStmt(i))
	}
	// Expression, assignment, short variable declaration, inc/dec, send,
	// go, defer and fallthrough statements, and anything the grammar may
	// add later.
	return append(out, b.simple(lang.Simple, i))
}

// simple builds a statement of kind k from node i.
func (b *builder) simple(k lang.Kind, i int32) *lang.Stmt {
	s := b.newStmt(k, i, b.t.EndRow(i))
	m := b.names.Open()
	b.simpleNames(i)
	return b.names.Close(s, m)
}

// errorStmt is one Error statement over an ERROR node in statement
// position; the names in it are uses, so that a half-written line still
// links to the definitions it mentions.
func (b *builder) errorStmt(i int32) *lang.Stmt {
	b.errors++
	s := b.newStmt(lang.Error, i, b.t.EndRow(i))
	m := b.names.Open()
	b.collectFlat(i)
	return b.names.Close(s, m)
}

func (b *builder) jump(i int32) *lang.Stmt {
	k := lang.Break
	switch b.t.Kind(i) {
	case kContinue:
		k = lang.Continue
	case kGoto:
		k = lang.Goto
	}
	s := b.newStmt(k, i, b.t.EndRow(i))
	if l := b.t.ChildOfKind(i, kLabelName); l >= 0 {
		s.Clause().Label = b.t.Text(l)
	}
	return s
}

// importDecl adds one statement per import spec of a grouped import, or
// one for an ungrouped one.
func (b *builder) importDecl(i int32, out []*lang.Stmt) []*lang.Stmt {
	t := &b.t
	if list := t.ChildOfKind(i, kImportSpecList); list >= 0 {
		for c := t.First(list); c >= 0; c = t.Next(c) {
			switch t.Kind(c) {
			case kImportSpec:
				out = append(out, b.importSpec(c, c))
			case kError:
				out = append(out, b.errorStmt(c))
			}
		}
		return out
	}
	if spec := t.ChildOfKind(i, kImportSpec); spec >= 0 {
		return append(out, b.importSpec(i, spec))
	}
	return append(out, b.simple(lang.Simple, i))
}

// importSpec defines the name an import binds: its explicit name, or the
// package name guessed from the path; `_` and `.` imports define nothing.
func (b *builder) importSpec(stmt, spec int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Simple, stmt, t.EndRow(stmt))
	name := ""
	if n := t.Child(spec, fName); n >= 0 {
		if t.Kind(n) == kPackageIdent {
			name = t.Text(n)
		}
	} else if p := t.Child(spec, fPath); p >= 0 {
		name = packageName(t.Text(p))
	}
	if name != "" {
		frontend.SetDefs(s, name)
	}
	return s
}

// packageName guesses the name of the package imported as the quoted
// path lit: its last element, without a major version element (v2) or a
// dotted suffix (yaml.v3), and after its last '-' (go-isatty, go-tree-sitter
// import as isatty and sitter by convention). It returns "" when the
// result is not an identifier.
func packageName(lit string) string {
	p := strings.Trim(lit, "\"`")
	elems := strings.Split(p, "/")
	last := elems[len(elems)-1]
	if len(elems) > 1 && isMajorVersion(last) {
		last = elems[len(elems)-2]
	}
	if dot := strings.IndexByte(last, '.'); dot >= 0 {
		last = last[:dot]
	}
	if dash := strings.LastIndexByte(last, '-'); dash >= 0 {
		last = last[dash+1:]
	}
	if !token.IsIdent(last) {
		return ""
	}
	return last
}

func isMajorVersion(e string) bool {
	if len(e) < 2 || e[0] != 'v' {
		return false
	}
	for _, c := range e[1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// decl maps a const, var or type declaration: one statement for an
// ungrouped declaration (of the declaration's type), one per spec for a
// grouped one (of the spec's type). A type whose underlying type is a
// struct or interface is a Class with one statement per field or method.
func (b *builder) decl(i int32, out []*lang.Stmt) []*lang.Stmt {
	t := &b.t
	grouped := false
	var specs [8]int32
	spec := specs[:0]
	var add func(c int32)
	add = func(c int32) {
		switch t.Kind(c) {
		case kConstSpec, kVarSpec, kTypeSpec, kTypeAlias, kError:
			spec = append(spec, c)
		case kVarSpecList:
			grouped = true
			for d := t.First(c); d >= 0; d = t.Next(d) {
				add(d)
			}
		case kLParen:
			grouped = true
		}
	}
	for c := t.First(i); c >= 0; c = t.Next(c) {
		add(c)
	}
	if !grouped {
		if len(spec) == 1 && t.Kind(spec[0]) != kError {
			return append(out, b.spec(i, spec[0]))
		}
		return append(out, b.simple(lang.Simple, i)) // malformed
	}
	for _, c := range spec {
		if t.Kind(c) == kError {
			out = append(out, b.errorStmt(c))
		} else {
			out = append(out, b.spec(c, c))
		}
	}
	return out
}

// spec builds the statement of one spec; stmt is the node whose rows and
// type the statement takes (the spec itself, or its ungrouped declaration).
func (b *builder) spec(stmt, spec int32) *lang.Stmt {
	t := &b.t
	if t.Kind(spec) == kTypeSpec {
		if typ := t.Child(spec, fType); typ >= 0 && (t.Kind(typ) == kStructType || t.Kind(typ) == kInterfaceType) {
			return b.typeClass(stmt, spec, typ)
		}
	}
	s := b.newStmt(lang.Simple, stmt, t.EndRow(stmt))
	m := b.names.Open()
	b.specNames(spec)
	return b.names.Close(s, m)
}

// specNames defines the names of a const, var or type spec and reads its
// values.
func (b *builder) specNames(spec int32) {
	t := &b.t
	for c := t.First(spec); c >= 0; c = t.Next(c) {
		switch t.Field(c) {
		case fName:
			b.def(t.Text(c))
		case fType:
		case fTypeParams:
			b.typeParams(c)
		default:
			if t.Named(c) {
				b.collect(c)
			}
		}
	}
}

// typeClass maps a struct or interface type declaration: a Class header
// through the opening brace, with a Simple statement per field, method or
// type element.
func (b *builder) typeClass(stmt, spec, typ int32) *lang.Stmt {
	t := &b.t
	members := typ
	if t.Kind(typ) == kStructType {
		members = t.ChildOfKind(typ, kFieldDeclList)
	}
	end := t.StartRow(typ)
	if members >= 0 {
		if brace := t.ChildOfKind(members, kLBrace); brace >= 0 {
			end = t.StartRow(brace)
		}
	}
	s := b.newStmt(lang.Class, stmt, end)
	m := b.names.Open()
	b.specNames(spec)
	b.names.Close(s, m)
	if members < 0 {
		return s
	}
	for c := t.First(members); c >= 0; c = t.Next(c) {
		if !t.Named(c) || t.Comment(c) {
			continue
		}
		if t.Kind(c) == kError {
			s.Body = append(s.Body, b.errorStmt(c))
			continue
		}
		ms := b.newStmt(lang.Simple, c, t.EndRow(c))
		mm := b.names.Open()
		for d := t.First(c); d >= 0; d = t.Next(d) {
			if t.Field(d) == fName {
				b.def(t.Text(d))
			}
		}
		s.Body = append(s.Body, b.names.Close(ms, mm))
	}
	return s
}

// funcDecl maps a function or method declaration: a Func header through
// its result list, whose Params are the receiver, type parameters,
// parameters and named results.
func (b *builder) funcDecl(i int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Func, i, t.StartRow(i))
	m := b.names.Open()
	end := s.StartRow
	var body int32 = -1
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if t.Field(c) == fBody {
			body = c
			break
		}
		if t.Comment(c) {
			continue
		}
		end = max(end, t.EndRow(c))
		switch t.Field(c) {
		case fName:
			b.def(t.Text(c))
		case fTypeParams:
			b.typeParams(c)
		case fReceiver, fParameters, fResult:
			b.params(c)
		default:
			if t.Kind(c) == kError {
				b.collect(c)
			}
		}
	}
	s.EndRow = end
	b.names.Close(s, m)
	if body >= 0 {
		s.Body = b.body(body, nil)
	}
	return s
}

// params records the names of a parameter list as Params.
func (b *builder) params(list int32) {
	t := &b.t
	if t.Kind(list) != kParamList {
		return // an unnamed single result type
	}
	for c := t.First(list); c >= 0; c = t.Next(c) {
		if t.Kind(c) != kParamDecl {
			continue
		}
		for d := t.First(c); d >= 0; d = t.Next(d) {
			if t.Field(d) == fName {
				b.param(t.Text(d))
			}
		}
	}
}

func (b *builder) typeParams(list int32) {
	t := &b.t
	for c := t.First(list); c >= 0; c = t.Next(c) {
		if t.Kind(c) != kTypeParamDecl {
			continue
		}
		for d := t.First(c); d >= 0; d = t.Next(d) {
			if t.Field(d) == fName {
				b.param(t.Text(d))
			}
		}
	}
}

// ifStmt maps if/else: the header runs through the condition and defines
// what its init statement declares; else-if chains nest as Else.
func (b *builder) ifStmt(i int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.If, i, t.StartRow(i))
	m := b.names.Open()
	end := s.StartRow
	var cons, alt, elseTok int32 = -1, -1, -1
	for c := t.First(i); c >= 0; c = t.Next(c) {
		switch {
		case t.Field(c) == fConsequence:
			cons = c
		case t.Field(c) == fAlternative:
			alt = c
		case t.Kind(c) == kElse:
			elseTok = c
		case cons >= 0 || t.Comment(c) || !t.Named(c):
		case t.Field(c) == fInitializer:
			end = max(end, t.EndRow(c))
			b.simpleNames(c)
		default:
			end = max(end, t.EndRow(c))
			b.collect(c)
		}
	}
	s.EndRow = end
	b.names.Close(s, m)
	if cons >= 0 {
		s.Body = b.stmt(cons, nil)
	}
	if alt >= 0 {
		if t.Kind(alt) == kIf {
			s.Clause().Else = b.ifStmt(alt)
		} else {
			row := t.StartRow(alt)
			if elseTok >= 0 {
				row = t.StartRow(elseTok)
			}
			e := lang.NewStmt(lang.Else, "else", row, row)
			e.Body = b.stmt(alt, nil)
			s.Clause().Else = e
		}
	}
	return s
}

// loop maps every form of for: the header runs through the clause and
// holds the init and post statements, the range variables and the
// condition.
func (b *builder) loop(i int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Loop, i, t.StartRow(i))
	m := b.names.Open()
	end := s.StartRow
	var body int32 = -1
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if t.Field(c) == fBody {
			body = c
			break
		}
		if !t.Named(c) || t.Comment(c) {
			continue
		}
		end = max(end, t.EndRow(c))
		switch t.Kind(c) {
		case kForClause:
			for d := t.First(c); d >= 0; d = t.Next(d) {
				switch {
				case !t.Named(d) || t.Comment(d):
				case t.Field(d) == fInitializer || t.Field(d) == fUpdate:
					b.simpleNames(d)
				default:
					b.collect(d)
				}
			}
		case kRangeClause:
			b.assignLike(c)
		default:
			b.collect(c)
		}
	}
	s.EndRow = end
	b.names.Close(s, m)
	if body >= 0 {
		s.Body = b.stmt(body, nil)
	}
	return s
}

// switchStmt maps expression and type switches and select: the header
// runs to the opening brace; each clause is a Case. A default clause makes
// the switch Exhaustive, and so is every select, which blocks until one of
// its clauses runs.
func (b *builder) switchStmt(i int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Switch, i, t.StartRow(i))
	if t.Kind(i) == kSelect {
		s.Clause().Exhaustive = true
	}
	m := b.names.Open()
	end := s.StartRow
	c := t.First(i)
	for ; c >= 0; c = t.Next(c) {
		if t.Kind(c) == kLBrace {
			break
		}
		if t.Comment(c) {
			continue
		}
		end = max(end, t.EndRow(c))
		switch {
		case !t.Named(c):
		case t.Field(c) == fInitializer:
			b.simpleNames(c)
		case t.Field(c) == fAlias:
			b.defineList(c)
		default:
			b.collect(c)
		}
	}
	s.EndRow = end
	b.names.Close(s, m)
	for ; c >= 0; c = t.Next(c) {
		switch t.Kind(c) {
		case kExprCase, kTypeCase, kCommCase, kDefaultCase:
			s.Clause().Cases = append(s.Cases(), b.caseStmt(c, s))
		case kError:
			// A broken clause: an Error case keeps its rows in the switch.
			es := b.errorStmt(c)
			es.Kind = lang.Case
			s.Clause().Cases = append(s.Cases(), es)
		}
	}
	return s
}

// caseStmt maps one clause: the header runs through its colon; a clause
// whose last statement is fallthrough falls into the next one.
func (b *builder) caseStmt(i int32, sw *lang.Stmt) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.Case, i, t.StartRow(i))
	if t.Kind(i) == kDefaultCase {
		sw.Clause().Exhaustive = true
	}
	m := b.names.Open()
	end := s.StartRow
	c := t.First(i)
	for ; c >= 0; c = t.Next(c) {
		if t.Comment(c) {
			continue
		}
		end = max(end, t.EndRow(c))
		if t.Kind(c) == kColon {
			c = t.Next(c)
			break
		}
		switch {
		case !t.Named(c), t.Field(c) == fType:
		case t.Field(c) == fCommunication:
			b.simpleNames(c)
		default:
			b.collect(c)
		}
	}
	s.EndRow = end
	b.names.Close(s, m)
	var last int32 = -1
	for ; c >= 0; c = t.Next(c) {
		if t.Named(c) && !t.Comment(c) {
			last = c
		}
		s.Body = b.stmt(c, s.Body)
	}
	if last >= 0 && t.Kind(last) == kFallthrough {
		s.Clause().FallThrough = true
	}
	return s
}

// labeled maps a labeled statement to a With carrying the label, with the
// statement as its body; a labeled loop carries the label too, so that
// both break and continue find it.
func (b *builder) labeled(i int32) *lang.Stmt {
	t := &b.t
	s := b.newStmt(lang.With, i, t.StartRow(i))
	for c := t.First(i); c >= 0; c = t.Next(c) {
		switch {
		case t.Kind(c) == kLabelName && s.Label() == "":
			s.Clause().Label = t.Text(c)
		case t.Kind(c) == kColon:
			s.EndRow = t.EndRow(c)
		default:
			s.Body = b.stmt(c, s.Body)
		}
	}
	if len(s.Body) > 0 && s.Body[0].Kind == lang.Loop {
		s.Body[0].Clause().Label = s.Label()
	}
	return s
}
