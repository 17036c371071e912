package golang

import (
	"strings"

	"github.com/graphcoder/graphcoder/lang/internal/frontend"
)

// def, use and param record a name for the statement being built; the
// blank identifier is no name.
func (b *builder) def(name string) {
	if name != "_" {
		b.names.Def(name)
	}
}

func (b *builder) use(name string) {
	if name != "_" {
		b.names.Use(name)
	}
}

func (b *builder) param(name string) {
	if name != "_" {
		b.names.Param(name)
	}
}

// simpleNames records what a simple statement (or a var or const spec)
// defines and reads.
func (b *builder) simpleNames(i int32) {
	t := &b.t
	switch t.Kind(i) {
	case kAssign:
		left, op, right := t.Child(i, fLeft), t.Child(i, fOperator), t.Child(i, fRight)
		compound := op >= 0 && t.Kind(op) != kAssignTok
		if left >= 0 {
			b.targets(left, compound)
		}
		if right >= 0 {
			b.collect(right)
		}
	case kShortVar, kReceive:
		b.assignLike(i)
	case kIncDec:
		for c := t.First(i); c >= 0; c = t.Next(c) {
			if t.Named(c) && !t.Comment(c) {
				b.target(c, true)
			}
		}
	case kVarSpec, kConstSpec:
		b.specNames(i)
	default:
		b.collectChildren(i)
	}
}

// assignLike reads `left := right` or `left = right` in a short variable
// declaration, a range clause or a receive clause: with := the names on
// the left are defined, with = they are assignment targets.
func (b *builder) assignLike(i int32) {
	t := &b.t
	left, right := t.Child(i, fLeft), t.Child(i, fRight)
	if left >= 0 {
		if t.ChildOfKind(i, kDefine) >= 0 {
			b.defineList(left)
		} else {
			b.targets(left, false)
		}
	}
	if right >= 0 {
		b.collect(right)
	}
}

// defineList defines the identifiers of an expression list.
func (b *builder) defineList(l int32) {
	t := &b.t
	if t.Kind(l) == kIdent {
		b.def(t.Text(l))
		return
	}
	for c := t.First(l); c >= 0; c = t.Next(c) {
		switch {
		case !t.Named(c) || t.Comment(c):
		case t.Kind(c) == kIdent:
			b.def(t.Text(c))
		default:
			b.collect(c)
		}
	}
}

// targets records each assignment target of an expression list.
func (b *builder) targets(l int32, alsoUse bool) {
	t := &b.t
	if t.Kind(l) != kExprList {
		b.target(l, alsoUse)
		return
	}
	for c := t.First(l); c >= 0; c = t.Next(c) {
		if t.Named(c) && !t.Comment(c) {
			b.target(c, alsoUse)
		}
	}
}

// target records one assignment target. x defines x; a.b defines a.b and
// reads a; a[i] and *p define and read a and p (weak updates: one element
// or the pointee changes, and reading the container keeps its earlier
// definitions connected). With alsoUse (op-assignment, ++, --) the target
// is read as well.
func (b *builder) target(i int32, alsoUse bool) {
	t := &b.t
	switch t.Kind(i) {
	case kIdent:
		b.def(t.Text(i))
		if alsoUse {
			b.use(t.Text(i))
		}
	case kSelector:
		p, ok := b.path(i)
		if !ok {
			b.collect(i)
			return
		}
		b.def(p)
		if alsoUse {
			b.names.UsePath(p)
		} else if dot := strings.LastIndexByte(p, '.'); dot >= 0 {
			b.names.UsePath(p[:dot])
		}
	case kIndex:
		base := t.Child(i, fOperand)
		for c := t.First(i); c >= 0; c = t.Next(c) {
			if !t.Named(c) || t.Comment(c) {
				continue
			}
			if c == base {
				if p, ok := b.path(c); ok {
					b.def(p)
					b.names.UsePath(p)
					continue
				}
			}
			b.collect(c)
		}
	case kUnary:
		if op := t.Child(i, fOperator); op >= 0 && t.Kind(op) == kStar {
			if x := t.Child(i, fOperand); x >= 0 {
				b.target(x, true)
				return
			}
		}
		b.collect(i)
	case kParen:
		if x := t.FirstNamed(i); x >= 0 {
			b.target(x, alsoUse)
		}
	default:
		b.collect(i)
	}
}

// path returns the access path named by expression i (x, a.b.c), or false
// when i is not a chain of names.
func (b *builder) path(i int32) (string, bool) {
	t := &b.t
	switch t.Kind(i) {
	case kIdent:
		s := t.Text(i)
		return s, s != "" && s != "_"
	case kSelector:
		op, f := t.Child(i, fOperand), t.Child(i, fField)
		if op < 0 || f < 0 || t.Text(f) == "" {
			return "", false
		}
		p, ok := b.path(op)
		if !ok {
			return "", false
		}
		// The source text is the path itself unless spaces, line breaks
		// or comments sit between the parts.
		if txt := t.Text(i); frontend.CleanPath(txt) {
			return txt, true
		}
		return p + "." + t.Text(f), true
	}
	return "", false
}

func (b *builder) collectChildren(i int32) {
	t := &b.t
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if t.Named(c) && !t.Comment(c) {
			b.collect(c)
		}
	}
}

// collect records the names expression i reads (and, for the few
// expressions that write, defines). Function literal bodies become nested
// blocks of the statement being built.
func (b *builder) collect(i int32) {
	t := &b.t
	switch t.Kind(i) {
	case kSkip, kBlank, kTypeIdent, kFieldIdent, kPackageIdent, kLabelName,
		kStructType, kInterfaceType, kMapType, kGenericType, kParamList:
	case kIdent:
		b.use(t.Text(i))
	case kSelector:
		if p, ok := b.path(i); ok {
			b.names.UsePath(p)
		} else if op := t.Child(i, fOperand); op >= 0 {
			// f().x reads what f() reads; the field of a computed value
			// is no variable.
			b.collect(op)
		}
	case kFuncLit:
		b.funcLit(i)
	case kComposite:
		b.composite(i)
	case kTypeAssert:
		if op := t.Child(i, fOperand); op >= 0 {
			b.collect(op)
		}
	case kTypeConv:
		// T(x) reads x; g[int](x), an instantiated generic function
		// called, also reads g.
		for c := t.First(i); c >= 0; c = t.Next(c) {
			if t.Field(c) == fType {
				if t.Kind(c) == kGenericType {
					if g := t.Child(c, fType); g >= 0 && t.Kind(g) == kTypeIdent {
						b.use(t.Text(g))
					}
				}
				continue
			}
			if t.Named(c) && !t.Comment(c) {
				b.collect(c)
			}
		}
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
			b.use(t.Text(c))
		case kError:
			b.errors++
			b.collectFlat(c)
		case kSkip:
		default:
			b.collectFlat(c)
		}
	}
}

// funcLit records a function literal's parameters and named results as
// Params of the statement holding it and its body as a nested block.
func (b *builder) funcLit(i int32) {
	t := &b.t
	for c := t.First(i); c >= 0; c = t.Next(c) {
		switch t.Field(c) {
		case fParameters, fResult:
			b.params(c)
		case fBody:
			saved := b.names.SaveInner()
			blk := b.body(c, nil)
			b.names.RestoreInner(saved)
			b.names.AddInner(blk)
		}
	}
}

// composite reads a composite literal. Its type is no read; a bare name
// before a colon is a field name, except in a map literal, whose keys are
// expressions.
func (b *builder) composite(i int32) {
	t := &b.t
	isMap := false
	if typ := t.Child(i, fType); typ >= 0 {
		isMap = t.Kind(typ) == kMapType
	}
	if body := t.Child(i, fBody); body >= 0 {
		b.literalValue(body, isMap)
	}
}

func (b *builder) literalValue(i int32, isMap bool) {
	t := &b.t
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if !t.Named(c) || t.Comment(c) {
			continue
		}
		switch t.Kind(c) {
		case kKeyedElement:
			first := true
			for d := t.First(c); d >= 0; d = t.Next(d) {
				if !t.Named(d) || t.Comment(d) {
					continue
				}
				if first && !isMap && b.fieldKey(d) {
					first = false
					continue
				}
				first = false
				b.element(d)
			}
		default:
			b.element(c)
		}
	}
}

// fieldKey reports a key that is a bare name.
func (b *builder) fieldKey(k int32) bool {
	t := &b.t
	if t.Kind(k) == kLiteralElement {
		k = t.FirstNamed(k)
	}
	return k >= 0 && (t.Kind(k) == kIdent || t.Kind(k) == kFieldIdent)
}

// element reads one element of a literal; a nested literal value (the
// type elided) is a struct, slice or map element whose keys are read as
// in a non-map literal.
func (b *builder) element(e int32) {
	t := &b.t
	if t.Kind(e) == kLiteralElement {
		if x := t.FirstNamed(e); x >= 0 {
			e = x
		} else {
			return
		}
	}
	if t.Kind(e) == kLiteralValue {
		b.literalValue(e, false)
		return
	}
	b.collect(e)
}
