package python

import "github.com/graphcoder/graphcoder/lang"

// isClause reports the node types that continue a compound statement
// after its first block.
func isClause(t nt) bool {
	switch t {
	case ntElif, ntElse, ntExcept, ntExceptGroup, ntFinally:
		return true
	}
	return false
}

// splitClause finds the header of a compound statement or clause: its
// children up to the ':' that opens the body (or, when error recovery lost
// the ':', up to the first block or following clause). It returns the
// header's last row, the first child after the ':' (where stray nodes may
// precede the body block; -1 when there is no ':') and the body block (-1
// when error recovery left none).
func (b *builder) splitClause(i int32) (end int, afterColon, body int32) {
	end = b.startRow(i)
	afterColon, body = -1, -1
	inHeader := true
	for c := b.first(i); c >= 0; c = b.next(c) {
		t := b.typ(c)
		if t == ntBlock {
			return end, afterColon, c
		}
		if isClause(t) {
			break
		}
		if !inHeader || b.skip(c) {
			continue
		}
		end = max(end, b.endRow(c))
		if t == ntColon {
			inHeader = false
			afterColon = b.next(c)
		}
	}
	return end, afterColon, -1
}

// isHeaderEnd reports the ':' that closes a header.
func (b *builder) isHeaderEnd(i int32) bool {
	return b.typ(i) == ntColon && !b.skip(i)
}

// bodyOf returns the body statements of clause i: the stray nodes that
// error recovery left between the ':' and the body block, then the block.
func (b *builder) bodyOf(afterColon, body int32, out []*lang.Stmt) []*lang.Stmt {
	if afterColon >= 0 {
		for c := afterColon; c >= 0 && c != body; c = b.next(c) {
			if t := b.typ(c); t == ntBlock || isClause(t) {
				break
			}
			out = b.stmt(c, out)
		}
	}
	if body >= 0 {
		out = b.block(body, out)
	}
	return out
}

// afterBody returns the first child of i after its body block: the first
// clause or stray node that follows the body.
func (b *builder) afterBody(i int32) int32 {
	for c := b.first(i); c >= 0; c = b.next(c) {
		t := b.typ(c)
		if t == ntBlock {
			return b.next(c)
		}
		if isClause(t) {
			return c
		}
	}
	return -1
}

// clause builds the header statement of clause node i and its body.
// decorated is the decorated_definition wrapping i, or -1: its decorators
// belong to the header, which then starts at the first decorator.
func (b *builder) clause(k lang.Kind, i, decorated int32) *lang.Stmt {
	end, afterColon, body := b.splitClause(i)
	start := i
	if decorated >= 0 {
		start = decorated
	}
	s := b.newStmt(k, i, b.startRow(start), end)
	if decorated >= 0 {
		for c := b.first(decorated); c >= 0 && c != i; c = b.next(c) {
			if b.typ(c) == ntDecorator {
				b.use(c)
			}
		}
	}
	b.headerNames(i)
	b.finish(s)
	s.Body = b.bodyOf(afterColon, body, nil)
	// A body that starts on the header's last row (`if x: return y`) is a
	// simple statement list that no later line continues.
	s.InlineBody = len(s.Body) > 0 && s.Body[0].StartRow == s.EndRow
	return s
}

func (b *builder) ifStmt(i int32) *lang.Stmt {
	s := b.clause(lang.If, i, -1)
	last := s // the clause that receives the next else link and stray nodes
	for c := b.afterBody(i); c >= 0; c = b.next(c) {
		switch b.typ(c) {
		case ntElif:
			e := b.clause(lang.If, c, -1)
			last.Clause().Else, last = e, e
		case ntElse:
			e := b.clause(lang.Else, c, -1)
			last.Clause().Else, last = e, e
		default:
			last.Body = b.stmt(c, last.Body)
		}
	}
	return s
}

func (b *builder) loop(i int32) *lang.Stmt {
	s := b.clause(lang.Loop, i, -1)
	last := s
	for c := b.afterBody(i); c >= 0; c = b.next(c) {
		if b.typ(c) == ntElse && s.Else() == nil {
			s.Clause().Else = b.clause(lang.Else, c, -1)
			last = s.Else()
			continue
		}
		last.Body = b.stmt(c, last.Body)
	}
	return s
}

func (b *builder) try(i int32) *lang.Stmt {
	s := b.clause(lang.Try, i, -1)
	last := s
	for c := b.afterBody(i); c >= 0; c = b.next(c) {
		switch b.typ(c) {
		case ntExcept, ntExceptGroup:
			h := b.clause(lang.Catch, c, -1)
			s.Clause().Handlers = append(s.Handlers(), h)
			last = h
		case ntElse:
			if s.Else() != nil {
				last.Body = b.stmt(c, last.Body)
				continue
			}
			s.Clause().Else = b.clause(lang.Else, c, -1)
			last = s.Else()
		case ntFinally:
			if s.Finally() != nil {
				last.Body = b.stmt(c, last.Body)
				continue
			}
			s.Clause().Finally = b.clause(lang.Finally, c, -1)
			last = s.Finally()
		default:
			last.Body = b.stmt(c, last.Body)
		}
	}
	return s
}

// match builds a Switch whose Cases are the case clauses. Anything else
// the parser left in the match block goes into the body of the preceding
// case (or of the Switch itself before the first case).
func (b *builder) match(i int32) *lang.Stmt {
	end, afterColon, body := b.splitClause(i)
	s := b.newStmt(lang.Switch, i, b.startRow(i), end)
	b.headerNames(i)
	b.finish(s)
	s.Body = b.bodyOf(afterColon, -1, nil) // strays before the cases
	if body < 0 {
		return s
	}
	var last *lang.Stmt
	for c := b.first(body); c >= 0; c = b.next(c) {
		if b.typ(c) == ntCaseClause {
			cs := b.clause(lang.Case, c, -1)
			s.Clause().Cases = append(s.Cases(), cs)
			last = cs
			if b.irrefutableCase(c) {
				s.Clause().Exhaustive = true
			}
			continue
		}
		if last != nil {
			last.Body = b.stmt(c, last.Body)
		} else {
			s.Body = b.stmt(c, s.Body)
		}
	}
	return s
}

func (b *builder) definition(i, decorated int32) *lang.Stmt {
	k := lang.Func
	if b.typ(i) == ntClassDef {
		k = lang.Class
	}
	return b.clause(k, i, decorated)
}

// decorated builds the definition inside a decorated_definition; its
// header starts at the first decorator.
func (b *builder) decorated(i int32) *lang.Stmt {
	for c := b.first(i); c >= 0; c = b.next(c) {
		if t := b.typ(c); t == ntFunctionDef || t == ntClassDef {
			return b.definition(c, i)
		}
	}
	// Decorators without a definition: error recovery only.
	s := b.newStmt(lang.Simple, i, b.startRow(i), b.endRow(i))
	b.use(i)
	return b.finish(s)
}
