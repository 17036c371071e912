package java

import (
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/frontend"
)

// builder maps the flat syntax tree of one file onto lang statements.
type builder struct {
	src    string // the whole source; names are substrings of it
	n      []node
	errors int

	// Scratch stacks for the statement being built. A statement records
	// their lengths when it starts (a frame) and cuts them back when it
	// ends, so nested statements simply push above it.
	defs, uses []string
	// params collects the names bound only inside the scope the statement
	// opens (its Params): method parameters, record components, lambda
	// parameters.
	params []string
	inner  [][]*lang.Stmt
	// shadow holds the parameters of the lambda expression bodies being
	// read: those names are not uses of the enclosing statement.
	shadow []string

	// container is the node whose children a file mapped piece by
	// piece divides (-1 otherwise): the walk of its children goes on at
	// the next piece's run (nextPiece) when it reaches the tail, from
	// index tail, or the container's end, of a piece but the last (whose
	// tail is -1).
	container, tail int32
	nextPiece       func() int32
}

type frame struct {
	defs, uses, params int
	inner              [][]*lang.Stmt
	shadow             []string
}

func (b *builder) open() frame {
	f := frame{defs: len(b.defs), uses: len(b.uses), params: len(b.params), inner: b.inner, shadow: b.shadow}
	b.inner, b.shadow = nil, nil
	return f
}

// close fills in the names and nested blocks collected since f and trims
// the statement's rows so they end before its first nested statement.
func (b *builder) close(s *lang.Stmt, f frame) *lang.Stmt {
	frontend.SetNames(s, b.defs[f.defs:], b.params[f.params:], b.uses[f.uses:])
	b.defs, b.uses, b.params = b.defs[:f.defs], b.uses[:f.uses], b.params[:f.params]
	if len(b.inner) > 0 {
		s.Clause().Inner = b.inner
		if first := s.Inner()[0][0].StartRow; first <= s.EndRow {
			s.EndRow = max(s.StartRow, first-1)
		}
	}
	b.inner, b.shadow = f.inner, f.shadow
	return s
}

func (b *builder) text(i int32) string { return b.src[b.n[i].start:b.n[i].end] }

// first returns the first child of node i, or -1: the node after it when
// it has children.
func (b *builder) first(i int32) int32 {
	if b.n[i].flags&nodeHasChild != 0 && int(i)+1 < len(b.n) {
		return i + 1
	}
	return -1
}

func (b *builder) name(i int32) string { return symbolOf(b.n[i].sym).name }

func (b *builder) named(i int32) bool { return symbolOf(b.n[i].sym).named }

func (b *builder) newStmt(k lang.Kind, i int32, endRow int32) *lang.Stmt {
	return lang.NewStmt(k, b.name(i), int(b.n[i].startRow), int(max(endRow, b.n[i].startRow)))
}

// body appends the statements held by container i (a block, class body,
// switch group, ...) to out. members selects class-body rules, where a bare
// block is an instance initializer rather than an inlined block.
func (b *builder) body(i int32, members bool, out []*lang.Stmt) []*lang.Stmt {
	for c := b.first(i); ; c = b.n[c].next {
		for i == b.container && b.tail >= 0 && (c < 0 || c >= b.tail) {
			c = b.nextPiece()
		}
		if c < 0 {
			break
		}
		switch b.n[c].kind {
		case kBlock:
			if members {
				s := b.newStmt(lang.Func, c, b.n[c].startRow)
				f := b.open()
				b.close(s, f)
				s.Body = b.body(c, false, nil)
				out = append(out, s)
				continue
			}
		case kEnumBodyDecls, kModuleBody:
			out = b.body(c, members, out)
			continue
		}
		out = b.stmt(c, out)
	}
	return out
}

// stmt appends the statement(s) of node i to out: none for tokens, the
// inlined contents for a bare block, one Stmt otherwise.
func (b *builder) stmt(i int32, out []*lang.Stmt) []*lang.Stmt {
	n := &b.n[i]
	switch n.kind {
	case kBlock:
		return b.body(i, false, out)
	case kClassBody, kEnumBody, kEnumBodyDecls, kModuleBody:
		return b.body(i, true, out)
	case kError:
		b.errors++
		return append(out, lang.NewStmt(lang.Error, "ERROR", int(n.startRow), int(n.endRow)))
	case kComment:
		return out
	case kExprStmt:
		if c := b.firstNamed(i); c >= 0 && b.n[c].kind == kSwitch {
			return append(out, b.switchStmt(c))
		}
		return append(out, b.simple(lang.Simple, i))
	case kSwitch:
		return append(out, b.switchStmt(i))
	case kReturn:
		return append(out, b.simple(lang.Return, i))
	case kThrow:
		return append(out, b.simple(lang.Raise, i))
	case kYield:
		return append(out, b.simple(lang.Break, i))
	case kBreak, kContinue:
		k := lang.Break
		if n.kind == kContinue {
			k = lang.Continue
		}
		s := b.newStmt(k, i, n.endRow)
		for c := b.first(i); c >= 0; c = b.n[c].next {
			if b.n[c].kind == kIdent {
				s.Clause().Label = b.text(c)
			}
		}
		return append(out, s)
	case kImport:
		return append(out, b.importStmt(i))
	case kPackage:
		return append(out, b.newStmt(lang.Simple, i, n.endRow))
	case kExplicitCtor:
		s := b.newStmt(lang.Simple, i, n.endRow)
		f := b.open()
		for c := b.first(i); c >= 0; c = b.n[c].next {
			if k := b.n[c].kind; k != kThis && k != kSuper {
				b.collect(c)
			}
		}
		return append(out, b.close(s, f))
	case kIf:
		return append(out, b.ifStmt(i))
	case kWhileStmt, kFor, kForEach:
		return append(out, b.loop(i))
	case kDo:
		return append(out, b.doStmt(i))
	case kTry:
		return append(out, b.tryStmt(i))
	case kSync:
		return append(out, b.header(lang.With, i, false))
	case kLabeled:
		return append(out, b.labeled(i))
	case kClass, kModule:
		return append(out, b.header(lang.Class, i, true))
	case kMethod, kCtor, kCompactCtor:
		return append(out, b.header(lang.Func, i, false))
	case kStaticInit:
		s := b.newStmt(lang.Func, i, n.startRow)
		for c := b.first(i); c >= 0; c = b.n[c].next {
			if b.n[c].kind == kBlock {
				s.EndRow = int(b.n[c].startRow)
				s.Body = b.body(c, false, nil)
			}
		}
		return append(out, s)
	}
	if !b.named(i) {
		return out // punctuation, keywords, empty statements
	}
	// Field and local declarations, enum constants, annotation elements,
	// assert, module
	// directives and anything the grammar may add later.
	return append(out, b.simple(lang.Simple, i))
}

// simple builds a statement of kind k from node i, reading names from all
// of its children.
func (b *builder) simple(k lang.Kind, i int32) *lang.Stmt {
	s := b.newStmt(k, i, b.n[i].endRow)
	f := b.open()
	if b.n[i].kind == kEnumConst {
		b.enumConstant(i)
	} else {
		b.collectChildren(i)
	}
	return b.close(s, f)
}

// enumConstant defines the name of an enum constant or annotation element
// and reads its arguments or default value.
func (b *builder) enumConstant(i int32) {
	named := false
	for c := b.first(i); c >= 0; c = b.n[c].next {
		switch b.n[c].kind {
		case kIdent:
			if !named {
				b.def(b.text(c))
				named = true
			} else {
				b.use(b.text(c))
			}
		case kClassBody:
			b.innerBlock(c, true)
		default:
			b.collect(c)
		}
	}
}

// importStmt defines the imported simple name (List for java.util.List);
// wildcard imports define nothing.
func (b *builder) importStmt(i int32) *lang.Stmt {
	s := b.newStmt(lang.Simple, i, b.n[i].endRow)
	var last string
	for c := b.first(i); c >= 0; c = b.n[c].next {
		switch b.n[c].kind {
		case kAsterisk:
			return s
		case kIdent:
			last = b.text(c)
		case kScopedIdent:
			last = b.lastIdent(c)
		}
	}
	if last != "" {
		frontend.SetDefs(s, last)
	}
	return s
}

func (b *builder) lastIdent(i int32) string {
	var last string
	for c := b.first(i); c >= 0; c = b.n[c].next {
		if b.n[c].kind == kIdent {
			last = b.text(c)
		}
	}
	return last
}

func (b *builder) firstNamed(i int32) int32 {
	for c := b.first(i); c >= 0; c = b.n[c].next {
		if b.named(c) {
			return c
		}
	}
	return -1
}

// header builds a class, method, constructor or synchronized header: its
// rows run from the node's start (annotations and modifiers included) to the
// end of the last child before the body; the body holds its statements.
func (b *builder) header(k lang.Kind, i int32, members bool) *lang.Stmt {
	n := &b.n[i]
	s := b.newStmt(k, i, n.startRow)
	f := b.open()
	end := n.startRow
	var bodyNode int32 = -1
	nameSeen := false
	for c := b.first(i); c >= 0; c = b.n[c].next {
		cn := &b.n[c]
		switch cn.kind {
		case kBlock, kClassBody, kEnumBody, kModuleBody:
			bodyNode = c
		case kIdent:
			// The declared name of a class or method; in a module
			// declaration the name is a scoped identifier and stays out.
			if k != lang.With && !nameSeen {
				b.def(b.text(c))
				nameSeen = true
			}
		case kParams:
			b.formalParams(c)
		default:
			if k == lang.With {
				b.collect(c)
			}
		}
		if bodyNode >= 0 {
			break
		}
		end = max(end, cn.endRow)
	}
	s.EndRow = int(end)
	b.close(s, f)
	if bodyNode >= 0 {
		s.Body = b.body(bodyNode, k == lang.Class, nil)
	}
	return s
}

// formalParams records the names of formal or inferred parameters (and
// record components) as Params of the statement being built.
func (b *builder) formalParams(i int32) {
	for c := b.first(i); c >= 0; c = b.n[c].next {
		switch b.n[c].kind {
		case kIdent:
			b.param(b.text(c))
		case kParam:
			for d := b.first(c); d >= 0; d = b.n[d].next {
				switch b.n[d].kind {
				case kIdent:
					b.param(b.text(d))
				case kDeclarator:
					// A spread parameter: T... name.
					for e := b.first(d); e >= 0; e = b.n[e].next {
						if b.n[e].kind == kIdent {
							b.param(b.text(e))
							break
						}
					}
				}
			}
		}
	}
}

func (b *builder) ifStmt(i int32) *lang.Stmt {
	n := &b.n[i]
	s := b.newStmt(lang.If, i, n.startRow)
	f := b.open()
	var cons, alt, elseTok int32 = -1, -1, -1
	condSeen := false
	for c := b.first(i); c >= 0; c = b.n[c].next {
		switch {
		case b.n[c].kind == kElse:
			elseTok = c
		case !b.named(c):
		case !condSeen:
			condSeen = true
			s.EndRow = int(b.n[c].endRow)
			b.collect(c)
		case elseTok < 0:
			cons = c
		default:
			alt = c
		}
	}
	b.close(s, f)
	if cons >= 0 {
		s.Body = b.stmt(cons, nil)
		s.InlineBody = b.braceless(cons)
	}
	if alt >= 0 {
		if b.n[alt].kind == kIf {
			s.Clause().Else = b.ifStmt(alt)
		} else {
			e := lang.NewStmt(lang.Else, "else", int(b.n[elseTok].startRow), int(b.n[elseTok].startRow))
			e.Body = b.stmt(alt, nil)
			e.InlineBody = b.braceless(alt)
			s.Clause().Else = e
		}
	}
	return s
}

// loop builds while, for and enhanced-for headers: every child but the
// body is header, so init declarators, updates and the enhanced-for
// variable are defined on the header.
func (b *builder) loop(i int32) *lang.Stmt {
	n := &b.n[i]
	s := b.newStmt(lang.Loop, i, n.startRow)
	f := b.open()
	end := n.startRow
	var bodyNode int32 = -1
	colonSeen := false
	for c := b.first(i); c >= 0; c = b.n[c].next {
		cn := &b.n[c]
		if n.kind == kWhileStmt && cn.kind == kParenExpr {
			end = max(end, cn.endRow)
			b.collect(c)
			bodyNode = cn.next
			break
		}
		if cn.kind == kRParen {
			end = max(end, cn.endRow)
			bodyNode = cn.next
			break
		}
		end = max(end, cn.endRow)
		switch {
		case n.kind == kForEach && cn.kind == kColon:
			colonSeen = true
		case n.kind == kForEach && !colonSeen && cn.kind == kIdent:
			b.def(b.text(c))
		default:
			b.collect(c)
		}
	}
	s.EndRow = int(end)
	b.close(s, f)
	if bodyNode >= 0 {
		s.Body = b.stmt(bodyNode, nil)
		s.InlineBody = b.braceless(bodyNode)
	}
	return s
}

// braceless reports whether body node i is a single statement rather than
// a block: nothing written after it belongs to the construct it ends.
// Error regions do not count, since their extent is a guess.
func (b *builder) braceless(i int32) bool {
	switch b.n[i].kind {
	case kBlock, kError, kComment:
		return false
	}
	return b.named(i)
}

func (b *builder) doStmt(i int32) *lang.Stmt {
	n := &b.n[i]
	s := b.newStmt(lang.Do, i, n.startRow)
	var cond *lang.Stmt
	var f frame
	for c := b.first(i); c >= 0; c = b.n[c].next {
		cn := &b.n[c]
		switch {
		case cn.kind == kWhile:
			cond = lang.NewStmt(lang.DoCond, "while", int(cn.startRow), int(n.endRow))
			f = b.open()
		case cond != nil:
			b.collect(c)
		case b.named(c):
			s.Body = b.stmt(c, s.Body)
		}
	}
	if cond != nil {
		s.Clause().Cond = b.close(cond, f)
	}
	return s
}

func (b *builder) labeled(i int32) *lang.Stmt {
	n := &b.n[i]
	s := b.newStmt(lang.With, i, n.startRow)
	for c := b.first(i); c >= 0; c = b.n[c].next {
		cn := &b.n[c]
		switch {
		case s.Label() == "" && cn.kind == kIdent:
			s.Clause().Label = b.text(c)
		case cn.kind == kColon:
			s.EndRow = int(cn.endRow)
		case b.named(c):
			s.Body = b.stmt(c, s.Body)
			s.InlineBody = b.braceless(c)
		}
	}
	if len(s.Body) > 0 {
		if k := s.Body[0].Kind; k == lang.Loop || k == lang.Do {
			s.Body[0].Clause().Label = s.Label()
		}
	}
	return s
}

func (b *builder) tryStmt(i int32) *lang.Stmt {
	n := &b.n[i]
	s := b.newStmt(lang.Try, i, n.startRow)
	f := b.open()
	for c := b.first(i); c >= 0; c = b.n[c].next {
		if b.n[c].kind == kResourceSpec {
			s.EndRow = int(b.n[c].endRow)
			b.resources(c)
		}
	}
	b.close(s, f)
	for c := b.first(i); c >= 0; c = b.n[c].next {
		cn := &b.n[c]
		switch cn.kind {
		case kBlock:
			s.Body = b.body(c, false, s.Body)
		case kCatch:
			s.Clause().Handlers = append(s.Handlers(), b.catchClause(c))
		case kFinally:
			fs := b.newStmt(lang.Finally, c, cn.startRow)
			for d := b.first(c); d >= 0; d = b.n[d].next {
				if b.n[d].kind == kBlock {
					fs.Body = b.body(d, false, nil)
				}
			}
			s.Clause().Finally = fs
		}
	}
	return s
}

// resources defines declared resources and uses referenced ones.
func (b *builder) resources(i int32) {
	for c := b.first(i); c >= 0; c = b.n[c].next {
		if b.n[c].kind != kResource {
			continue
		}
		assign := false
		for d := b.first(c); d >= 0; d = b.n[d].next {
			if b.n[d].kind == kAssign {
				assign = true
			}
		}
		for d := b.first(c); d >= 0; d = b.n[d].next {
			if assign && b.n[d].kind == kIdent {
				b.def(b.text(d))
				assign = false // only the name before '=' is defined
				continue
			}
			b.collect(d)
		}
	}
}

func (b *builder) catchClause(i int32) *lang.Stmt {
	n := &b.n[i]
	s := b.newStmt(lang.Catch, i, n.startRow)
	f := b.open()
	for c := b.first(i); c >= 0; c = b.n[c].next {
		cn := &b.n[c]
		switch cn.kind {
		case kCatchParam:
			for d := b.first(c); d >= 0; d = b.n[d].next {
				if b.n[d].kind == kIdent {
					b.def(b.text(d))
				}
			}
		case kRParen:
			s.EndRow = int(cn.endRow)
		case kBlock:
			b.close(s, f)
			s.Body = b.body(c, false, nil)
			return s
		}
	}
	return b.close(s, f)
}

// switchStmt builds a switch statement or expression: the header covers
// the rows through the selector, each case group or rule is a Case.
func (b *builder) switchStmt(i int32) *lang.Stmt {
	n := &b.n[i]
	s := b.newStmt(lang.Switch, i, n.startRow)
	f := b.open()
	var block int32 = -1
	for c := b.first(i); c >= 0; c = b.n[c].next {
		if b.n[c].kind == kSwitchBlock {
			block = c
			break
		}
		s.EndRow = int(max(int32(s.EndRow), b.n[c].endRow))
		b.collect(c)
	}
	b.close(s, f)
	if block < 0 {
		return s
	}
	for c := b.first(block); c >= 0; c = b.n[c].next {
		switch b.n[c].kind {
		case kSwitchGroup:
			s.Clause().FallThrough = true
			s.Clause().Cases = append(s.Cases(), b.caseStmt(c, s))
		case kSwitchRule:
			s.Clause().Cases = append(s.Cases(), b.caseStmt(c, s))
		case kError:
			// A broken case: keep it as an error case so its rows stay
			// part of the switch.
			b.errors++
			cs := lang.NewStmt(lang.Case, "ERROR", int(b.n[c].startRow), int(b.n[c].endRow))
			s.Clause().Cases = append(s.Cases(), cs)
		}
	}
	return s
}

func (b *builder) caseStmt(i int32, sw *lang.Stmt) *lang.Stmt {
	n := &b.n[i]
	s := b.newStmt(lang.Case, i, n.startRow)
	f := b.open()
	c := b.first(i)
	for ; c >= 0; c = b.n[c].next {
		cn := &b.n[c]
		if cn.kind == kSwitchLabel {
			for d := b.first(c); d >= 0; d = b.n[d].next {
				switch {
				case b.n[d].kind == kDefault:
					sw.Clause().Exhaustive = true
				case b.n[d].kind == kIdent && b.text(d) == "default":
					// The grammar reads `case null, default` as a name.
					sw.Clause().Exhaustive = true
				default:
					b.collect(d)
				}
			}
		} else if cn.kind != kColon && cn.kind != kArrow {
			break
		}
		s.EndRow = int(max(int32(s.EndRow), cn.endRow))
	}
	b.close(s, f)
	for ; c >= 0; c = b.n[c].next {
		s.Body = b.stmt(c, s.Body)
	}
	return s
}

// innerBlock adds the statements of a body nested in an expression (a
// lambda block, an anonymous class body) as a block of the statement being
// built.
func (b *builder) innerBlock(i int32, members bool) {
	saved := b.inner
	b.inner = nil
	blk := b.body(i, members, nil)
	b.inner = saved
	if len(blk) > 0 {
		b.inner = append(b.inner, blk)
	}
}
