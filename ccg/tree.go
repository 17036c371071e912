package ccg

import (
	"runtime"

	"github.com/graphcoder/graphcoder/lang"
)

// none stands for an absent statement (a nil *lang.Stmt) in an idTree.
const none int32 = -1

// span is a range of idTree.lists (or of idTree.inners).
type span struct{ off, n int32 }

// idTree is the statement tree in vertex ids: what the control flow pass
// reads of each statement, beside the vertices. number makes it while it
// makes the vertices, so that the graph builder is done with the
// lang.Stmt tree (for a large file the largest thing live) before the
// control flow is built, and it needs no map from statement to vertex:
// about 13 bytes a vertex and 4 a list entry, where the map took 28 a
// statement beside the statements' 144.
type idTree struct {
	lists   []int32 // the ids of every statement list, each a span; none for a nil entry
	inners  []span  // the Inner blocks of a statement, each a span of lists
	body    []span  // per vertex: its Body
	clause  []int32 // per vertex: its index in clauses, or none
	clauses []clauseIDs
	inline  []bool // per vertex: lang.Stmt.InlineBody
}

// clauseIDs are lang.Clauses in vertex ids.
type clauseIDs struct {
	label                   string
	elseID, finally, cond   int32
	cases, handlers, inner  span // inner is a span of idTree.inners
	fallThrough, exhaustive bool
}

var noClauseIDs = clauseIDs{elseID: none, finally: none, cond: none}

func (t *idTree) list(s span) []int32 { return t.lists[s.off : s.off+s.n] }

func (t *idTree) of(v int32) *clauseIDs {
	if v < 0 || t.clause[v] < 0 {
		return &noClauseIDs
	}
	return &t.clauses[t.clause[v]]
}

func (t *idTree) bodyOf(v int32) []int32 {
	if v < 0 {
		return nil
	}
	return t.list(t.body[v])
}
func (t *idTree) label(v int32) string     { return t.of(v).label }
func (t *idTree) elseOf(v int32) int32     { return t.of(v).elseID }
func (t *idTree) finally(v int32) int32    { return t.of(v).finally }
func (t *idTree) cond(v int32) int32       { return t.of(v).cond }
func (t *idTree) cases(v int32) []int32    { return t.list(t.of(v).cases) }
func (t *idTree) handlers(v int32) []int32 { return t.list(t.of(v).handlers) }
func (t *idTree) fallThrough(v int32) bool { return t.of(v).fallThrough }
func (t *idTree) exhaustive(v int32) bool  { return t.of(v).exhaustive }

// inner returns the Inner blocks of v, as spans of lists.
func (t *idTree) inner(v int32) []span {
	s := t.of(v).inner
	return t.inners[s.off : s.off+s.n]
}

// number assigns vertex ids in lang.Walk pre-order, makes the vertices,
// recording each statement's scope, and the tree of their ids; it
// returns the span of stmts. With b.consume set, it lets go of each
// statement of stmts once numbered.
func (b *cfgBuilder) number(stmts []*lang.Stmt, scope int32) span {
	at := len(b.stack)
	for i, s := range stmts {
		id := b.number1(s, scope)
		b.stack = append(b.stack, id)
		if b.consume {
			stmts[i] = nil
		}
	}
	sp := span{int32(len(b.t.lists)), int32(len(b.stack) - at)}
	b.t.lists = append(b.t.lists, b.stack[at:]...)
	b.stack = b.stack[:at]
	return sp
}

func (b *cfgBuilder) number1(s *lang.Stmt, scope int32) int32 {
	if s == nil {
		return none
	}
	id := int32(len(b.nodes))
	if b.consume && len(b.nodes) == cap(b.nodes) {
		// The statements numbered so far are garbage but for the
		// ancestors of s: collected before the vertices grow to their
		// number, they make room for them.
		runtime.GC()
		b.nodes = append(make([]Node, 0, b.total), b.nodes...)
	}
	b.nodes = append(b.nodes, Node{Kind: s.Kind, StartRow: s.StartRow, EndRow: s.EndRow, Scope: scope})
	b.names = appendNames(b.names, &b.nodes[id], s.Defs(), s.Uses(), s.Params())
	t := &b.t
	t.body = append(t.body, span{})
	t.clause = append(t.clause, none)
	t.inline = append(t.inline, s.InlineBody)
	var c clauseIDs
	if in := s.Inner(); len(in) > 0 {
		// The blocks' spans are made before they are placed: a block's
		// own statements add Inner blocks of theirs on the way.
		blocks := make([]span, len(in))
		for i, block := range in {
			blocks[i] = b.number(block, id)
		}
		c.inner = span{int32(len(t.inners)), int32(len(blocks))}
		t.inners = append(t.inners, blocks...)
	}
	body := scope
	if s.Kind == lang.Func || s.Kind == lang.Class {
		body = id
	}
	t.body[id] = b.number(s.Body, body)
	c.cond = b.number1(s.Cond(), scope)
	c.cases = b.number(s.Cases(), scope)
	c.handlers = b.number(s.Handlers(), scope)
	c.elseID = b.number1(s.Else(), scope)
	c.finally = b.number1(s.Finally(), scope)
	c.label, c.fallThrough, c.exhaustive = s.Label(), s.FallThrough(), s.Exhaustive()
	if c.inner.n > 0 || c.cond != none || c.cases.n > 0 || c.handlers.n > 0 || c.elseID != none || c.finally != none ||
		c.label != "" || c.fallThrough || c.exhaustive {
		t.clause[id] = int32(len(t.clauses))
		t.clauses = append(t.clauses, c)
	}
	return id
}
