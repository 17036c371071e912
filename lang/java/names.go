package java

import (
	"strings"

	"github.com/graphcoder/graphcoder/lang"
)

// def records a name written by the statement being built.
func (b *builder) def(name string) {
	if name != "" && !b.shadowed(name) {
		b.defs = append(b.defs, name)
	}
}

// param records a name bound only inside the scope the statement being
// built opens.
func (b *builder) param(name string) {
	if name != "" && !b.shadowed(name) {
		b.params = append(b.params, name)
	}
}

// use records a name read by the statement being built.
func (b *builder) use(name string) {
	if name != "" && !b.shadowed(name) {
		b.uses = append(b.uses, name)
	}
}

// usePath records an access path and every prefix of it: reading this.x.y
// reads this.x.y, this.x and this.
func (b *builder) usePath(p string) {
	if b.shadowed(root(p)) {
		return
	}
	for {
		b.uses = append(b.uses, p)
		dot := strings.LastIndexByte(p, '.')
		if dot < 0 {
			return
		}
		p = p[:dot]
	}
}

func root(p string) string {
	if dot := strings.IndexByte(p, '.'); dot >= 0 {
		return p[:dot]
	}
	return p
}

func (b *builder) shadowed(name string) bool {
	for _, s := range b.shadow {
		if s == name {
			return true
		}
	}
	return false
}

// path returns the access path named by expression i (x, this, a.b.c,
// Outer.this.x), or false when i is not a plain chain of names.
func (b *builder) path(i int32) (string, bool) {
	n := &b.n[i]
	switch n.kind {
	case kIdent, kThis, kSuper:
		t := b.text(i)
		return t, t != "" // a name inserted by error recovery is empty
	case kFieldAccess:
		obj := b.first(i)
		if obj < 0 {
			return "", false
		}
		dot := b.n[obj].next
		if dot < 0 || b.n[dot].kind != kDot {
			return "", false
		}
		field := b.n[dot].next
		if field < 0 || b.n[field].next >= 0 {
			return "", false
		}
		if k := b.n[field].kind; (k != kIdent && k != kThis && k != kSuper) || b.n[field].start == b.n[field].end {
			return "", false
		}
		p, ok := b.path(obj)
		if !ok {
			return "", false
		}
		// The source text is the path itself unless spaces or comments
		// sit between the parts; reuse it rather than build a new string.
		if t := b.text(i); cleanPath(t) {
			return t, true
		}
		return p + "." + b.text(field), true
	}
	return "", false
}

func cleanPath(t string) bool {
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case ' ', '\t', '\n', '\r', '\f', '/', '<', '>':
			return false
		}
	}
	return true
}

// collectChildren collects names from every child of i.
func (b *builder) collectChildren(i int32) {
	for c := b.first(i); c >= 0; c = b.n[c].next {
		b.collect(c)
	}
}

// collect records the names that expression (or declaration part) i
// writes and reads. Nested bodies (lambda blocks, anonymous classes,
// switch expressions) become blocks of their own.
func (b *builder) collect(i int32) {
	n := &b.n[i]
	switch n.kind {
	case kSkip, kComment:
	case kIdent, kThis, kSuper:
		b.use(b.text(i))
	case kFieldAccess:
		if p, ok := b.path(i); ok {
			b.usePath(p)
		} else if b.first(i) >= 0 {
			// f().x reads what f() reads; the field of a computed
			// object is no name of its own.
			b.collect(b.first(i))
		}
	case kCall:
		b.call(i)
	case kMethodRef:
		if obj := b.first(i); obj >= 0 {
			if p, ok := b.path(obj); ok {
				b.usePath(p)
			} else {
				b.collect(obj)
			}
		}
	case kAssignExpr:
		left := b.first(i)
		if left < 0 {
			return
		}
		op := b.n[left].next
		compound := op >= 0 && b.n[op].kind == kCompound
		b.target(left, compound)
		if op >= 0 {
			for c := b.n[op].next; c >= 0; c = b.n[c].next {
				b.collect(c)
			}
		}
	case kUpdateExpr:
		for c := b.first(i); c >= 0; c = b.n[c].next {
			if b.n[c].kind != kIncDec {
				b.target(c, true)
			}
		}
	case kDeclarator:
		b.declarator(i)
	case kLambda:
		b.lambda(i)
	case kNew:
		for c := b.first(i); c >= 0; c = b.n[c].next {
			if b.n[c].kind == kClassBody {
				b.innerBlock(c, true)
			} else {
				b.collect(c)
			}
		}
	case kInstanceof:
		first := true
		for c := b.first(i); c >= 0; c = b.n[c].next {
			switch {
			case first:
				b.collect(c)
				first = false
			case b.n[c].kind == kIdent:
				b.def(b.text(c)) // the pattern variable of `x instanceof T v`
			default:
				b.collect(c)
			}
		}
	case kTypePattern, kRecordComponent:
		for c := b.first(i); c >= 0; c = b.n[c].next {
			if b.n[c].kind == kIdent {
				b.def(b.text(c))
			} else {
				b.collect(c)
			}
		}
	case kRecordPattern:
		// The first child names the record type; the rest binds.
		if b.first(i) >= 0 {
			for c := b.n[b.first(i)].next; c >= 0; c = b.n[c].next {
				b.collect(c)
			}
		}
	case kSwitch:
		sw := b.switchStmt(i)
		b.inner = append(b.inner, []*lang.Stmt{sw})
	case kError:
		b.errors++
		b.collectFlat(i)
	case kParams:
		b.formalParams(i)
	default:
		b.collectChildren(i)
	}
}

// collectFlat reads every name inside a syntax error that sits within an
// expression, without building nested statements.
func (b *builder) collectFlat(i int32) {
	for c := b.first(i); c >= 0; c = b.n[c].next {
		switch b.n[c].kind {
		case kIdent, kThis, kSuper:
			b.use(b.text(c))
		case kError:
			b.errors++
			b.collectFlat(c)
		default:
			b.collectFlat(c)
		}
	}
}

// call reads a method invocation: obj.m(a) uses obj, obj.m and a; m(a)
// uses m and a; f().m() uses what f() uses.
func (b *builder) call(i int32) {
	// parts are the children before the arguments, without dots and type
	// arguments: [m], [obj m] or [obj super m]. The object is read before
	// the arguments so nested blocks stay in source order.
	var parts [4]int32
	np := 0
	var args int32 = -1
	for c := b.first(i); c >= 0; c = b.n[c].next {
		switch b.n[c].kind {
		case kArgs:
			args = c
		case kDot, kSkip:
		default:
			if np < len(parts) {
				parts[np] = c
				np++
			} else {
				args = c // malformed: read it like an argument
			}
		}
	}
	b.callee(parts[:np])
	if args >= 0 {
		b.collectChildren(args)
	}
}

// callee reads the method named by parts.
func (b *builder) callee(parts []int32) {
	if len(parts) == 0 {
		return
	}
	name := parts[len(parts)-1]
	if b.n[name].kind != kIdent || b.n[name].start == b.n[name].end {
		for _, c := range parts {
			b.collect(c)
		}
		return
	}
	if len(parts) == 1 {
		b.use(b.text(name))
		return
	}
	obj := parts[:len(parts)-1]
	p, ok := b.path(obj[0])
	for _, c := range obj[1:] {
		if k := b.n[c].kind; ok && (k == kIdent || k == kThis || k == kSuper) && b.n[c].start < b.n[c].end {
			p += "." + b.text(c)
		} else {
			ok = false
		}
	}
	if !ok {
		for _, c := range obj {
			b.collect(c)
		}
		return
	}
	b.usePath(p)
	if !b.shadowed(root(p)) {
		if t := b.src[b.n[obj[0]].start:b.n[name].end]; cleanPath(t) {
			b.uses = append(b.uses, t)
		} else {
			b.uses = append(b.uses, p+"."+b.text(name))
		}
	}
}

// target records the left side of an assignment or the operand of ++/--.
// x defines x; this.x defines this.x and reads this; a[i] defines a and
// reads a and i (a weak update: the rest of the array survives). With
// alsoUse (compound assignment, ++, --) the target is read as well.
func (b *builder) target(i int32, alsoUse bool) {
	n := &b.n[i]
	switch n.kind {
	case kParenExpr:
		for c := b.first(i); c >= 0; c = b.n[c].next {
			if b.named(c) {
				b.target(c, alsoUse)
			}
		}
	case kIdent:
		b.def(b.text(i))
		if alsoUse {
			b.use(b.text(i))
		}
	case kFieldAccess:
		p, ok := b.path(i)
		if !ok {
			b.collect(i)
			return
		}
		b.def(p)
		if alsoUse {
			b.usePath(p)
		} else if dot := strings.LastIndexByte(p, '.'); dot >= 0 {
			b.usePath(p[:dot])
		}
	case kArrayAccess:
		arr := b.first(i)
		if arr < 0 {
			return
		}
		if p, ok := b.path(arr); ok {
			b.def(p)
			b.usePath(p)
		} else {
			b.collect(arr)
		}
		for c := b.n[arr].next; c >= 0; c = b.n[c].next {
			b.collect(c)
		}
	default:
		b.collect(i)
	}
}

// declarator defines a variable and reads its initializer.
func (b *builder) declarator(i int32) {
	named := false
	for c := b.first(i); c >= 0; c = b.n[c].next {
		if !named && b.n[c].kind == kIdent {
			b.def(b.text(c))
			named = true
			continue
		}
		b.collect(c)
	}
}

// lambda records its parameters as Params of the enclosing statement, so
// they reach the statement's nested blocks only. A block body becomes a
// nested block; an expression body is read with the parameters hidden,
// since they are not the enclosing statement's variables.
func (b *builder) lambda(i int32) {
	mark := len(b.params)
	for c := b.first(i); c >= 0; c = b.n[c].next {
		switch b.n[c].kind {
		case kIdent, kParams:
			if b.n[c].kind == kIdent {
				b.param(b.text(c))
			} else {
				b.formalParams(c)
			}
		case kArrow:
		case kBlock:
			b.innerBlock(c, false)
		default:
			saved := len(b.shadow)
			b.shadow = append(b.shadow, b.params[mark:]...)
			b.collect(c)
			b.shadow = b.shadow[:saved]
		}
	}
}
