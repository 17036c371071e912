package python

// This file computes the defs and uses of a statement from its syntax
// nodes. Every function adds to the builder's scratch lists for the
// statement being built.

// use records every identifier read in the expression i.
func (b *builder) use(i int32) {
	switch b.typ(i) {
	case ntIdentifier:
		b.addUse(b.text(i))
	case ntAttribute:
		b.pathUses(i)
	case ntKeywordArgument:
		// f(name=value): the keyword names a parameter, not a variable.
		for c := b.first(i); c >= 0; c = b.next(c) {
			if b.field(c) != fName {
				b.use(c)
			}
		}
	case ntNamedExpression:
		b.walrus(i)
	case ntLambda:
		b.lambda(i)
	case ntListComp, ntSetComp, ntDictComp, ntGenerator:
		b.comprehension(i)
	case ntComment:
	default:
		b.useChildren(i)
	}
}

func (b *builder) useChildren(i int32) {
	for c := b.first(i); c >= 0; c = b.next(c) {
		b.use(c)
	}
}

// pathUses records the uses of an access path: for a.b.c the uses a, a.b
// and a.b.c. It returns true, leaving the path in b.path, when i is a chain
// of identifiers whose root is not a locally bound name. Otherwise it has
// walked i as a plain expression (f().x uses f only) and returns false.
func (b *builder) pathUses(i int32) bool {
	switch b.typ(i) {
	case ntIdentifier:
		name := b.text(i)
		if b.isBound(name) {
			return false
		}
		b.addUse(name)
		b.path = append(b.path[:0], name...)
		return true
	case ntAttribute:
		obj, attr := b.attributeParts(i)
		if obj < 0 || attr < 0 {
			b.useChildren(i) // error recovery lost a part
			return false
		}
		if !b.pathUses(obj) {
			return false
		}
		b.path = append(b.path, '.')
		b.path = append(b.path, b.src[b.n[attr].startByte:b.n[attr].endByte]...)
		b.addUse(b.internBytes(b.path))
		return true
	}
	b.use(i)
	return false
}

// attributeParts returns the object and attribute children of an
// attribute node, or -1 when error recovery lost one.
func (b *builder) attributeParts(i int32) (obj, attr int32) {
	obj, attr = -1, -1
	for c := b.first(i); c >= 0; c = b.next(c) {
		switch b.field(c) {
		case fObject:
			obj = c
		case fAttribute:
			if b.typ(c) == ntIdentifier && !b.skip(c) {
				attr = c
			}
		}
	}
	return obj, attr
}

// target records the defs of an assignment target (and the uses it
// implies): x defines x; a.b.c defines a.b.c and uses a and a.b; a[i]
// defines a and uses a and i (a weak update: the old value of a lives on
// through the use), and so do a[i][j] and a[i].x; tuples, lists and
// starred targets define each element.
func (b *builder) target(i int32) {
	switch b.typ(i) {
	case ntIdentifier:
		b.addDef(b.text(i))
	case ntAttribute:
		obj, attr := b.attributeParts(i)
		if obj < 0 || attr < 0 {
			b.useChildren(i)
			return
		}
		if !b.isChain(obj) {
			b.addDef(b.rootPath(obj))
			return
		}
		if b.pathUses(obj) {
			b.path = append(b.path, '.')
			b.path = append(b.path, b.src[b.n[attr].startByte:b.n[attr].endByte]...)
			b.addDef(b.internBytes(b.path))
		}
	case ntSubscript:
		b.addDef(b.rootPath(i))
	case ntPatternList, ntTuplePattern, ntListPattern, ntTuple, ntList,
		ntParenthesized, ntExpressionList, ntListSplatPattern, ntListSplat,
		ntAsPatternTarget:
		for c := b.first(i); c >= 0; c = b.next(c) {
			b.target(c)
		}
	case ntComment:
	default:
		b.use(i)
	}
}

// isChain reports an access path: identifiers joined by attribute access.
func (b *builder) isChain(i int32) bool {
	for {
		switch b.typ(i) {
		case ntIdentifier:
			return true
		case ntAttribute:
			obj, attr := b.attributeParts(i)
			if obj < 0 || attr < 0 {
				return false
			}
			i = obj
		default:
			return false
		}
	}
}

// rootPath records the uses of the object of a subscript or attribute
// target and returns the access path that the assignment mutates: a for
// a[i][j] and a[i].x, a.b for a.b[i], "" for f()[i].
func (b *builder) rootPath(i int32) string {
	switch b.typ(i) {
	case ntSubscript:
		root := ""
		for c := b.first(i); c >= 0; c = b.next(c) {
			if b.field(c) == fValue {
				root = b.rootPath(c)
				continue
			}
			b.use(c)
		}
		return root
	case ntIdentifier, ntAttribute:
		if b.isChain(i) {
			if b.pathUses(i) {
				return b.internBytes(b.path)
			}
			return ""
		}
		if obj, _ := b.attributeParts(i); obj >= 0 {
			return b.rootPath(obj)
		}
	}
	b.use(i)
	return ""
}

func (b *builder) assignment(i int32) {
	for c := b.first(i); c >= 0; c = b.next(c) {
		switch b.field(c) {
		case fLeft:
			b.target(c)
		case fRight:
			switch b.typ(c) {
			case ntAssignment: // a = b = c
				b.assignment(c)
			case ntAugAssignment:
				b.augAssignment(c)
			default:
				b.use(c)
			}
		default:
			b.use(c) // the annotation of x: T = v
		}
	}
}

// augAssignment: x += v defines x and uses x and v.
func (b *builder) augAssignment(i int32) {
	for c := b.first(i); c >= 0; c = b.next(c) {
		if b.field(c) == fLeft {
			b.target(c)
		}
		b.use(c)
	}
}

// walrus: (n := v) defines n in the enclosing function, also from inside
// a comprehension; inside a lambda it binds a lambda-local name.
func (b *builder) walrus(i int32) {
	for c := b.first(i); c >= 0; c = b.next(c) {
		if b.field(c) == fName {
			if b.inLambda > 0 {
				b.bound = append(b.bound, b.text(c))
			} else {
				b.addDef(b.text(c))
			}
			continue
		}
		b.use(c)
	}
}

// lambda: default values are uses; the body is walked with the parameters
// bound, so that reading them is not a use.
func (b *builder) lambda(i int32) {
	mark := len(b.bound)
	var body int32 = -1
	for c := b.first(i); c >= 0; c = b.next(c) {
		switch b.field(c) {
		case fParameters:
			b.params(c, true)
		case fBody:
			body = c
		}
	}
	if body >= 0 {
		b.inLambda++
		b.use(body)
		b.inLambda--
	}
	b.bound = b.bound[:mark]
}

// comprehension walks [body for t in it if cond ...]: the first iterable
// is evaluated outside; everything else sees the loop targets bound.
func (b *builder) comprehension(i int32) {
	mark := len(b.bound)
	firstClause := int32(-1)
	for c := b.first(i); c >= 0; c = b.next(c) {
		if b.typ(c) != ntForIn {
			continue
		}
		if firstClause < 0 {
			firstClause = c
			for cc := b.first(c); cc >= 0; cc = b.next(cc) {
				if b.field(cc) == fRight {
					b.use(cc)
				}
			}
		}
		for cc := b.first(c); cc >= 0; cc = b.next(cc) {
			if b.field(cc) == fLeft {
				b.bind(cc)
			}
		}
	}
	for c := b.first(i); c >= 0; c = b.next(c) {
		if b.typ(c) != ntForIn {
			b.use(c)
			continue
		}
		if c == firstClause {
			continue
		}
		for cc := b.first(c); cc >= 0; cc = b.next(cc) {
			if b.field(cc) == fRight {
				b.use(cc)
			}
		}
	}
	b.bound = b.bound[:mark]
}

// bind adds every identifier of a target pattern to the bound names.
func (b *builder) bind(i int32) {
	if b.typ(i) == ntIdentifier {
		b.bound = append(b.bound, b.text(i))
		return
	}
	for c := b.first(i); c >= 0; c = b.next(c) {
		b.bind(c)
	}
}

// params handles a def's or a lambda's parameter list. For a def the
// parameter names are the header's Params, bound only inside its body; for
// a lambda (local) they are bound names of the expression. Defaults and
// annotations are uses either way.
func (b *builder) params(i int32, local bool) {
	for c := b.first(i); c >= 0; c = b.next(c) {
		b.param(c, local)
	}
}

func (b *builder) param(i int32, local bool) {
	switch b.typ(i) {
	case ntIdentifier:
		if local {
			b.bound = append(b.bound, b.text(i))
		} else {
			b.addParam(b.text(i))
		}
	case ntListSplatPattern, ntDictSplatPattern, ntTuplePattern, ntParenthesized:
		for c := b.first(i); c >= 0; c = b.next(c) {
			b.param(c, local)
		}
	case ntTypedParameter, ntDefaultParameter, ntTypedDefaultParameter:
		for c := b.first(i); c >= 0; c = b.next(c) {
			switch f := b.field(c); {
			case f == fType || f == fValue:
				b.use(c)
			case f == fName || b.named(c):
				b.param(c, local)
			}
		}
	case ntComment:
	default:
		// Separators (*, /) and error nodes: only their identifiers matter.
		if b.named(i) {
			b.use(i)
		}
	}
}

// headerNames records the defs and uses of the header children of the
// compound statement or clause i.
func (b *builder) headerNames(i int32) {
	owner := b.typ(i)
	seenAs := false // except E, e / except E as e
	for c := b.first(i); c >= 0; c = b.next(c) {
		t := b.typ(c)
		if t == ntBlock || isClause(t) || b.isHeaderEnd(c) {
			return
		}
		switch owner {
		case ntFor:
			if b.field(c) == fLeft {
				b.target(c)
				continue
			}
		case ntWith:
			b.withItems(c)
			continue
		case ntExcept, ntExceptGroup:
			switch {
			case t == ntAs || t == ntComma:
				seenAs = true
			case t == ntAsPattern:
				b.asPattern(c)
			case seenAs:
				b.target(c)
			default:
				b.use(c)
			}
			continue
		case ntCaseClause:
			if t == ntCasePattern {
				b.pattern(c)
				continue
			}
		case ntFunctionDef, ntClassDef:
			switch b.field(c) {
			case fName:
				b.addDef(b.text(c))
				continue
			case fParameters:
				b.params(c, false)
				continue
			case fTypeParameters:
				for tp := b.first(c); tp >= 0; tp = b.next(tp) {
					if b.named(tp) {
						b.addParam(b.typeParamName(tp))
					}
				}
				continue
			}
		}
		b.use(c)
	}
}

// withItems handles the with_clause and with_item nodes of a with header.
func (b *builder) withItems(i int32) {
	switch b.typ(i) {
	case ntWithClause, ntWithItem:
		for c := b.first(i); c >= 0; c = b.next(c) {
			b.withItems(c)
		}
	case ntAsPattern:
		b.asPattern(i)
	default:
		b.use(i)
	}
}

// asPattern handles `expr as target` in with and except headers.
func (b *builder) asPattern(i int32) {
	seenAs := false
	for c := b.first(i); c >= 0; c = b.next(c) {
		switch t := b.typ(c); {
		case t == ntAs:
			seenAs = true
		case b.field(c) == fAlias || t == ntAsPatternTarget || seenAs:
			b.target(c)
		default:
			b.use(c)
		}
	}
}

// pattern records the names bound (defs) and the values read (uses) by a
// match-case pattern: captures, `as` names, *rest and **rest bind; dotted
// value patterns and class names are read; keyword names of a class
// pattern are neither.
func (b *builder) pattern(i int32) {
	switch b.typ(i) {
	case ntIdentifier:
		b.addDef(b.text(i))
	case ntDottedName:
		if c := b.first(i); c >= 0 && b.next(c) < 0 && b.typ(c) == ntIdentifier {
			b.addDef(b.text(c)) // a bare name is a capture
			return
		}
		b.dottedUses(i)
	case ntCasePattern, ntUnionPattern, ntListPattern, ntTuplePattern, ntSplatPattern, ntAsPattern:
		for c := b.first(i); c >= 0; c = b.next(c) {
			if b.typ(c) == ntAsPatternTarget {
				b.target(c)
				continue
			}
			b.pattern(c)
		}
	case ntDictPattern:
		for c := b.first(i); c >= 0; c = b.next(c) {
			if b.field(c) == fKey {
				b.dottedUses(c)
				continue
			}
			b.pattern(c)
		}
	case ntKeywordPattern:
		keyword := true
		for c := b.first(i); c >= 0; c = b.next(c) {
			if keyword && b.typ(c) == ntIdentifier {
				keyword = false
				continue
			}
			b.pattern(c)
		}
	case ntClassPattern:
		for c := b.first(i); c >= 0; c = b.next(c) {
			if b.typ(c) == ntDottedName {
				b.dottedUses(c)
				continue
			}
			b.pattern(c)
		}
	case ntComment:
	default:
		b.use(i) // literals, and identifiers inside error nodes
	}
}

// dottedUses records a.b.c in a pattern (a value pattern or class name)
// as the uses a, a.b and a.b.c. Other nodes are walked as expressions.
func (b *builder) dottedUses(i int32) {
	if b.typ(i) != ntDottedName {
		b.use(i)
		return
	}
	b.path = b.path[:0]
	for c := b.first(i); c >= 0; c = b.next(c) {
		if b.typ(c) != ntIdentifier {
			continue
		}
		if len(b.path) > 0 {
			b.path = append(b.path, '.')
		}
		b.path = append(b.path, b.src[b.n[c].startByte:b.n[c].endByte]...)
		b.addUse(b.internBytes(b.path))
	}
}

// irrefutableCase reports a case clause that matches every subject: a
// single irrefutable pattern (`_`, a bare capture, or an `as`, group or
// union pattern containing one) without a guard.
func (b *builder) irrefutableCase(i int32) bool {
	patterns := 0
	pat := int32(-1)
	for c := b.first(i); c >= 0; c = b.next(c) {
		switch {
		case b.field(c) == fGuard:
			return false
		case b.typ(c) == ntCasePattern:
			patterns++
			pat = c
		case b.typ(c) == ntComma:
			return false // case a, b: an open sequence pattern
		}
	}
	return patterns == 1 && b.irrefutable(pat)
}

func (b *builder) irrefutable(i int32) bool {
	switch b.typ(i) {
	case ntUnderscore:
		return true
	case ntDottedName:
		c := b.first(i)
		return c >= 0 && b.next(c) < 0 && b.typ(c) == ntIdentifier
	case ntCasePattern, ntAsPattern, ntTuplePattern:
		// A case or as pattern is irrefutable when its (first) pattern
		// is; a parenthesized group (one element, no comma) too.
		var inner int32 = -1
		for c := b.first(i); c >= 0; c = b.next(c) {
			switch t := b.typ(c); {
			case t == ntComma:
				return false
			case t == ntUnderscore:
				return true
			case b.named(c) && t != ntComment && inner < 0:
				inner = c
			}
		}
		return inner >= 0 && b.irrefutable(inner)
	case ntUnionPattern:
		for c := b.first(i); c >= 0; c = b.next(c) {
			if b.named(c) && b.irrefutable(c) {
				return true
			}
		}
	}
	return false
}
