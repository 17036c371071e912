package ccg

import (
	"slices"
	"strings"

	"github.com/graphcoder/graphcoder/lang"
)

// via is how a statement of the enclosing chain (Graph.enclosing) is held
// by the next one up.
type via uint8

const (
	viaTop    via = iota // a top-level statement
	viaBody              // a statement of its parent's block (braced or indented)
	viaInline            // the statement of an inline body that ends its construct
	viaInner             // a statement of one of its parent's Inner blocks
	viaCase              // a Case of its parent Switch
	viaClause            // an Else, Catch, Finally or DoCond clause, or the If of an else-if
)

// link is one statement of the enclosing chain.
type link struct {
	id  int32
	via via
}

// lastStmt returns the last statement in source order among the first n
// vertices that are not dummies: the largest StartRow, then the largest
// id (the innermost of the statements starting on that row), or -1.
func lastStmt(nodes []Node) int32 {
	last := int32(-1)
	for i := range nodes {
		if !nodes[i].Dummy && (last < 0 || nodes[i].StartRow >= nodes[last].StartRow) {
			last = int32(i)
		}
	}
	return last
}

// enclose records in b.chain the statements enclosing the file's last
// statement, innermost first (the last statement itself, then the
// statement holding it, up to the top level), and registers in b.after
// the constructs the query target may follow, so that the CFG pass
// records the frontier leaving each. It costs a scan of the vertices and
// a descent along one path of the tree.
func (b *cfgBuilder) enclose(stmts []int32) {
	last := lastStmt(b.nodes)
	if last < 0 {
		return
	}
	t := &b.t
	var (
		path     = make([]link, 0, 16) // outermost first
		next     = none
		nextVia  via
		parent   = none // the statement holding cur
		cur      = none
		pickable = func(s int32, v via) {
			if s != none && s <= last {
				next, nextVia = s, v
			}
		}
	)
	for _, s := range stmts {
		pickable(s, viaTop)
	}
	for next != none {
		parent, cur = cur, next
		path = append(path, link{cur, nextVia})
		if cur == last {
			break
		}
		next = none
		for _, in := range t.inner(cur) {
			for _, s := range t.list(in) {
				pickable(s, viaInner)
			}
		}
		body := viaBody
		if b.endsConstruct(cur, parent) {
			body = viaInline
		}
		for _, s := range t.bodyOf(cur) {
			pickable(s, body)
		}
		pickable(t.cond(cur), viaClause)
		for _, s := range t.cases(cur) {
			pickable(s, viaCase)
		}
		for _, s := range t.handlers(cur) {
			pickable(s, viaClause)
		}
		pickable(t.elseOf(cur), viaClause)
		pickable(t.finally(cur), viaClause)
	}
	slices.Reverse(path)
	b.chain = path
	if b.after == nil {
		b.after = make(map[int32][]int32, len(path))
	}
	for i := range path {
		b.after[path[constructOf(path, i)].id] = nil
	}
}

// endsConstruct reports whether s has an inline body whose end ends the
// construct s belongs to (parent holds s, none at the top level): the
// body of an if, loop, with, function or class, or of an else of an if or
// loop. A try clause or case does not count, since a further clause may
// follow it.
func (b *cfgBuilder) endsConstruct(s, parent int32) bool {
	if !b.t.inline[s] {
		return false
	}
	switch b.nodes[s].Kind {
	case lang.If, lang.Loop, lang.With, lang.Func, lang.Class:
		return true
	case lang.Else:
		return parent != none && (b.nodes[parent].Kind == lang.If || b.nodes[parent].Kind == lang.Loop)
	}
	return false
}

// constructOf returns the index in chain of the construct that chain[i]
// is part of: itself, or for a clause (else, else-if, catch, finally, the
// condition of a do loop) or a case, the statement owning it, up to the
// first if of an if/else chain.
func constructOf(chain []link, i int) int {
	for i+1 < len(chain) && (chain[i].via == viaClause || chain[i].via == viaCase) {
		i++
	}
	return i
}

// AppendTarget adds the query-side target: a Dummy vertex on the row after
// the last statement, standing for the statement written next. The last
// statement is the last in source order (largest StartRow, then largest
// id). The target goes where the index has the statement written after
// it, so that its slice compares with theirs: in some scope, with CF
// edges from the vertices that flow into it (DD and CD edges into a
// target are never part of a slice, so it has none).
//
//   - When the last statement opens a block that is still open at the end
//     of the context (a `void f() {`, `if (x) {`, `def f():` or
//     `run(() -> {` with nothing after it), the target is the first
//     statement of that block: CF edge from the header, and the header's
//     own scope for a function or class (or a brace-opening statement
//     holding an Inner block), the header's scope otherwise.
//   - Otherwise the target follows a construct: at first the last
//     statement's (the statement itself, or the whole if/else chain, try,
//     switch or do loop a clause or case ends), then, in turn, each
//     construct that ends with the one before: one whose inline body the
//     last construct is (lang.Stmt.InlineBody: `if (c) throw e;`, `while
//     x: step()`, so a Java brace-less body or a Python body on its
//     header's row), and, in the brace languages (Java, Go, JavaScript,
//     TypeScript), one whose block the lines after the last statement
//     close: lines holding only closing braces (`}`, `};`, `})`, `});`,
//     `}()`, several of them, with blank and comment lines between), or
//     the closing brace on the last statement's own row (`int size() {
//     return n; }`). The target is in the scope of the construct it
//     follows, with CF edges from every vertex whose normal completion
//     leaves it, as the CFG has them into the statement after it: for an
//     if without else, the header and the end of its body; for a loop, its
//     header and its breaks; for a try, the ends of its body and handlers
//     or of its finally block; for a function or class, which is a plain
//     statement of its enclosing scope, the header itself. A construct
//     nothing leaves normally (an if whose branches all return) gives an
//     edge from its header.
//   - A line such as `} else {` or `} catch (E e) {` is a statement of its
//     own (an Else or Catch header opening a block), so a context ending
//     there puts the target in that block. A `}` that closes a bare block
//     (`{ ... }` inside a body, which the front ends flatten) or a braced
//     case body ends no construct: the target follows the statement
//     before it in the same block.
//   - In Python a context ending in an indented body cannot say whether
//     the next line dedents, so after a body on its own rows the target
//     stays in that body; only inline bodies are left.
//
// When the brace structure cannot be read (a line after the last
// statement holds code the parser made no statement of, such as an
// annotation or half an expression), the target is placed as in Python.
// It returns the new id. On an empty graph the target has no edge.
func (g *Graph) AppendTarget() int32 {
	last, row := lastStmt(g.Nodes), 0
	for i := range g.Nodes {
		if !g.Nodes[i].Dummy {
			row = max(row, g.Nodes[i].EndRow+1)
		}
	}
	id := int32(len(g.Nodes))
	scope := int32(NoScope)
	var preds []int32
	if last >= 0 {
		scope, preds = g.place(last)
	}
	g.Nodes = append(g.Nodes, Node{Kind: lang.Simple, StartRow: row, EndRow: row, Scope: scope, Dummy: true})
	for _, p := range preds {
		g.Edges = append(g.Edges, Edge{From: p, To: id, Type: CF})
	}
	slices.SortFunc(g.Edges, compareEdges)
	g.Edges = slices.Compact(g.Edges)
	g.index()
	return id
}

// place returns the scope and CF predecessors of the target written after
// the last statement (see AppendTarget).
func (g *Graph) place(last int32) (int32, []int32) {
	n := &g.Nodes[last]
	ch := g.enclosing
	if len(ch) == 0 || ch[0].id != last {
		// Not a graph Build made: no chain to follow.
		if g.opensBody(last) {
			return last, []int32{last}
		}
		return n.Scope, []int32{last}
	}
	br, dep := g.depths(ch)
	// h is the statement whose block may be open: the last statement, or
	// with braces to read, the header whose inline body it ends (a parse
	// of `for (...) {` at the end may hold the brace in an error body).
	h := 0
	var inside bool
	if br != nil {
		for h+1 < len(ch) && ch[h].via == viaInline {
			h++
		}
		inside = br.end[len(br.end)-1] >= blockDepth(g, ch, dep, h)
	} else {
		inside = header(n.Kind) || g.opensBody(last)
	}
	if inside {
		v := ch[h].id
		hn := &g.Nodes[v]
		scope := hn.Scope
		switch hn.Kind {
		case lang.Func, lang.Class:
			scope = v
		case lang.Simple, lang.Return, lang.Raise:
			// A statement whose own rows open a brace (`run(() -> {`):
			// the next statement is the first of its Inner block.
			if br != nil && hn.EndRow >= br.from && hn.EndRow-br.from < len(br.end) && br.end[hn.EndRow-br.from] > dep[h] {
				scope = v
			}
		}
		return scope, []int32{v}
	}
	i := constructOf(ch, 0)
	for i+1 < len(ch) {
		if v := ch[i].via; v != viaInline {
			if br == nil || (v != viaBody && v != viaInner) || br.end[len(br.end)-1] >= blockDepth(g, ch, dep, i+1) {
				break
			}
		}
		i = constructOf(ch, i+1)
	}
	c := ch[i].id
	preds := g.after[c]
	if len(preds) == 0 {
		preds = []int32{c}
	}
	return g.Nodes[c].Scope, preds
}

// depths reads the brace structure of the rows from the outermost
// statement of chain to the end of a brace-language context and returns
// it with the depth each chain statement stands at. It returns nil for
// Python, and when a row after the last statement holds code.
func (g *Graph) depths(ch []link) (*brackets, []int32) {
	if g.Language == "python" || len(g.Lines) == 0 {
		return nil, nil
	}
	from := g.Nodes[ch[len(ch)-1].id].StartRow
	for _, l := range ch {
		if r := g.Nodes[l.id].StartRow; r < from || r >= len(g.Lines) {
			return nil, nil
		}
	}
	br := lexBrackets(g.Lines, from, g.Language)
	if br.code > g.Nodes[ch[0].id].EndRow || len(br.end) == 0 {
		return nil, nil
	}
	dep := make([]int32, len(ch))
	for i := len(ch) - 1; i >= 0; i-- {
		row := g.Nodes[ch[i].id].StartRow
		if i == len(ch)-1 || row != g.Nodes[ch[i+1].id].StartRow {
			dep[i] = br.start[row-from]
			continue
		}
		// A statement on its parent's row stands where the parent's
		// block (or the parent itself, for a clause) does.
		switch ch[i].via {
		case viaBody:
			dep[i] = blockDepth(g, ch, dep, i+1)
		case viaInner, viaCase:
			dep[i] = dep[i+1] + 1
		default:
			dep[i] = dep[i+1]
		}
	}
	return br, dep
}

// blockDepth is the depth of the statements of chain[j]'s block: one
// brace deeper than chain[j], except for a case, whose statements stand
// with it inside the switch's braces.
func blockDepth(g *Graph, ch []link, dep []int32, j int) int32 {
	if g.Nodes[ch[j].id].Kind == lang.Case {
		return dep[j]
	}
	return dep[j] + 1
}

// header reports whether a statement of kind k heads a compound statement
// whose block follows its rows.
func header(k lang.Kind) bool {
	switch k {
	case lang.If, lang.Else, lang.Loop, lang.Do, lang.Try, lang.Catch, lang.Finally, lang.With, lang.Switch, lang.Case:
		return true
	}
	return false
}

// opensBody reports whether vertex v is a function or class header whose
// body the next statement starts: not a declaration ending in ';' (a Java
// abstract or interface method), which has no body.
func (g *Graph) opensBody(v int32) bool {
	n := &g.Nodes[v]
	if n.Kind != lang.Func && n.Kind != lang.Class {
		return false
	}
	if n.EndRow >= 0 && n.EndRow < len(g.Lines) {
		return !strings.HasSuffix(strings.TrimSpace(g.Lines[n.EndRow]), ";")
	}
	return true
}
