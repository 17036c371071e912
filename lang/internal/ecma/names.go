package ecma

import (
	"strings"

	"github.com/graphcoder/graphcoder/lang/internal/frontend"
)

func (b *builder) collectChildren(i int32) {
	t := &b.t
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if t.Named(c) && !t.Comment(c) {
			b.collect(c)
		}
	}
}

// collect records the names expression i reads (and, for assignments and
// updates, writes). Function bodies, class bodies and object literal
// methods nested in the expression become blocks of the statement being
// built.
func (b *builder) collect(i int32) {
	t := &b.t
	switch t.Kind(i) {
	case kSkip, kPropIdent, kPrivateProp, kTypeIdent, kString, kJSXClose, kAccessibility:
	case kIdent:
		b.names.Use(t.Text(i))
	case kThis:
		b.names.Use("this")
	case kSuper:
		b.names.Use("super")
	case kShorthandProp:
		b.names.Use(t.Text(i)) // {x} reads x
	case kMember, kNestedIdent:
		if p, ok := b.path(i); ok {
			b.names.UsePath(p)
		} else if obj := t.Child(i, b.f.object); obj >= 0 {
			// f().x reads what f() reads; the property of a computed
			// value is no variable.
			b.collect(obj)
		}
	case kArrow, kFuncExpr, kMethod:
		b.funcExpr(i)
	case kClassExpr:
		b.classExpr(i)
	case kAssignExpr:
		if l := t.Child(i, b.f.left); l >= 0 {
			b.target(l, false)
		}
		if r := t.Child(i, b.f.right); r >= 0 {
			b.collect(r)
		}
	case kAugAssign:
		if l := t.Child(i, b.f.left); l >= 0 {
			b.target(l, true)
		}
		if r := t.Child(i, b.f.right); r >= 0 {
			b.collect(r)
		}
	case kUpdate:
		if a := t.Child(i, b.f.argument); a >= 0 {
			b.target(a, true)
		}
	case kJSXOpen:
		b.jsxTag(i)
	case kError:
		b.errors++
		b.collectFlat(i)
	default:
		b.collectChildren(i)
	}
}

// collectFlat reads every identifier inside a syntax error, without
// building nested statements.
func (b *builder) collectFlat(i int32) {
	t := &b.t
	for c := t.First(i); c >= 0; c = t.Next(c) {
		switch t.Kind(c) {
		case kIdent:
			b.names.Use(t.Text(c))
		case kError:
			b.errors++
			b.collectFlat(c)
		case kSkip:
		default:
			b.collectFlat(c)
		}
	}
}

// path returns the access path named by expression i (x, this.a.b,
// a?.b, a!.b), or false when i is not a chain of names.
func (b *builder) path(i int32) (string, bool) {
	t := &b.t
	switch t.Kind(i) {
	case kIdent:
		s := t.Text(i)
		return s, s != ""
	case kThis:
		return "this", true
	case kSuper:
		return "super", true
	case kNonNull:
		if x := t.FirstNamed(i); x >= 0 {
			return b.path(x)
		}
	case kMember, kNestedIdent:
		obj, prop := t.Child(i, b.f.object), t.Child(i, b.f.property)
		if obj < 0 || prop < 0 {
			return "", false
		}
		if k := t.Kind(prop); (k != kPropIdent && k != kPrivateProp && k != kIdent) || t.Text(prop) == "" {
			return "", false
		}
		p, ok := b.path(obj)
		if !ok {
			return "", false
		}
		// The source text is the path itself unless spaces, line breaks,
		// comments or optional-chaining marks sit between the parts.
		if txt := t.Text(i); frontend.CleanPath(txt) {
			return txt, true
		}
		return p + "." + t.Text(prop), true
	}
	return "", false
}

// target records an assignment target. x defines x; this.x defines this.x
// and reads this; a[i] defines a and reads a and i (a weak update: the
// rest of the object survives). With alsoUse (compound assignment, ++,
// --) the target is read as well. Destructuring patterns define their
// names.
func (b *builder) target(i int32, alsoUse bool) {
	t := &b.t
	switch t.Kind(i) {
	case kIdent:
		b.names.Def(t.Text(i))
		if alsoUse {
			b.names.Use(t.Text(i))
		}
	case kMember:
		p, ok := b.path(i)
		if !ok {
			b.collect(i)
			return
		}
		b.names.Def(p)
		if alsoUse {
			b.names.UsePath(p)
		} else if dot := strings.LastIndexByte(p, '.'); dot >= 0 {
			b.names.UsePath(p[:dot])
		}
	case kSubscript:
		obj := t.Child(i, b.f.object)
		for c := t.First(i); c >= 0; c = t.Next(c) {
			if !t.Named(c) || t.Comment(c) {
				continue
			}
			if c == obj {
				if p, ok := b.path(c); ok {
					b.names.Def(p)
					b.names.UsePath(p)
					continue
				}
			}
			b.collect(c)
		}
	case kParen, kNonNull, kAs:
		if x := t.FirstNamed(i); x >= 0 {
			b.target(x, alsoUse)
		}
	case kObjectPattern, kArrayPattern:
		b.bind(i, false)
	default:
		b.collect(i)
	}
}

// funcExpr records a function expression, arrow function or object
// literal method: its parameters (and the name of a named function
// expression, bound only inside it) are Params of the statement holding
// it, and a block body is a nested block. An expression body is read with
// the parameters hidden, since they are not the holder's variables.
func (b *builder) funcExpr(i int32) {
	t := &b.t
	mark := b.names.NumParams()
	if t.Kind(i) == kMethod {
		if n := t.Child(i, b.f.name); n >= 0 && t.Kind(n) == kComputedName {
			b.collect(n)
		}
	}
	b.funcHeader(i)
	body := t.Child(i, b.f.body)
	if body < 0 {
		return
	}
	if t.Kind(body) == kBlock {
		saved := b.names.SaveInner()
		blk := b.body(body, nil)
		b.names.RestoreInner(saved)
		b.names.AddInner(blk)
		return
	}
	saved := b.names.Shadow(mark)
	b.collect(body)
	b.names.Unshadow(saved)
}

// classExpr records a class expression: its name is bound inside it, its
// superclass is read, and its members are a nested block.
func (b *builder) classExpr(i int32) {
	t := &b.t
	for c := t.First(i); c >= 0; c = t.Next(c) {
		switch {
		case t.Field(c) == b.f.name:
			b.names.Param(t.Text(c))
		case t.Kind(c) == kHeritage:
			b.heritage(c)
		case t.Kind(c) == kDecorator:
			b.collect(c)
		case t.Field(c) == b.f.body:
			saved := b.names.SaveInner()
			blk := b.members(c)
			b.names.RestoreInner(saved)
			b.names.AddInner(blk)
		}
	}
}

// jsxTag reads a JSX opening or self-closing tag: a component name
// (capitalised, or a member path such as Foo.Bar) is a use, an intrinsic
// element name (div) and attribute names are not; attribute values and
// spread attributes are read.
func (b *builder) jsxTag(i int32) {
	t := &b.t
	for c := t.First(i); c >= 0; c = t.Next(c) {
		switch {
		case !t.Named(c) || t.Comment(c):
		case t.Field(c) == b.f.name:
			switch t.Kind(c) {
			case kIdent:
				if name := t.Text(c); name != "" && name[0] >= 'A' && name[0] <= 'Z' {
					b.names.Use(name)
				}
			case kMember, kNestedIdent:
				b.collect(c)
			}
		default:
			b.collect(c)
		}
	}
}
