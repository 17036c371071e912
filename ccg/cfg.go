package ccg

import (
	"strings"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/token"
)

// frameKind says which jumps a frame of the jump-target stack catches.
type frameKind uint8

const (
	loopFrame   frameKind = iota // catches break and continue
	switchFrame                  // catches unlabeled break (Java switch)
	labelFrame                   // catches break with its label
	tryFrame                     // catches return and raise
)

// frame is one enclosing construct that a jump may target.
type frame struct {
	kind   frameKind
	labels [2]string // loop: its own label and that of a labeled statement wrapping it
	cont   int32     // loop: continue target
	breaks []int32   // statements that break to just after this construct

	catching  bool    // try: the body has handlers (raise reaches them)
	catchAll  bool    // try: one handler catches every exception
	finally   bool    // try: there is a finally clause
	toFinally []int32 // try: return/raise statements routed through finally
}

func (f *frame) named(label string) bool {
	return label != "" && (f.labels[0] == label || f.labels[1] == label)
}

// cfgBuilder builds the control flow graph of every scope of a file. It
// walks the statement tree once, threading the "frontier" (the vertices
// whose normal completion flows into the next statement) through each
// block.
type cfgBuilder struct {
	lines []string
	nodes []Node
	names []string // the vertices' names (Graph.names)
	t     idTree   // the statement tree in vertex ids
	stack []int32  // number's scratch
	// consume is set when number takes the statement tree apart as it
	// goes (BuildConsuming) and total is then the number of statements.
	consume bool
	total   int
	python  bool
	// ecma is set for JavaScript and TypeScript, whose catch clauses
	// catch every exception.
	ecma bool

	from, to []int32 // CF edges
	exits    []int32 // vertices flowing to their scope's virtual exit
	frames   []frame

	// chain and after are Graph.enclosing and Graph.after: after holds
	// a key for every construct to record, filled in by stmt.
	chain []link
	after map[int32][]int32

	// pendingLoop is the first statement of a labeled With's body (or
	// none) and pendingLabel that label: a loop found there also answers
	// to it.
	pendingLoop  int32
	pendingLabel string

	// labels maps the labels of the current scope to their labeled
	// statements, and gotos holds the scope's goto statements, wired to
	// their targets when the scope is complete.
	labels map[string]int32
	gotos  []jump
}

// jump is a goto statement and the label it names.
type jump struct {
	id    int32
	label string
}

func (b *cfgBuilder) edge(from, to int32) {
	b.from = append(b.from, from)
	b.to = append(b.to, to)
}

func (b *cfgBuilder) connect(preds []int32, to int32) {
	for _, p := range preds {
		b.edge(p, to)
	}
}

// top builds the CFG of the file's top level and, through it, of every
// nested scope.
func (b *cfgBuilder) top(stmts []int32) {
	end := b.block(stmts, nil)
	b.exits = append(b.exits, end...)
	b.resolveGotos()
}

// enter builds the CFG of a nested scope (a Func/Class body or an Inner
// block) whose entry is the statement header.
func (b *cfgBuilder) enter(stmts []int32, header int32) {
	saved, savedLabels, savedGotos := b.frames, b.labels, b.gotos
	b.frames = b.frames[len(b.frames):len(b.frames)]
	b.labels, b.gotos = nil, nil
	end := b.block(stmts, []int32{header})
	for _, x := range end {
		if x != header {
			b.exits = append(b.exits, x)
		}
	}
	b.resolveGotos()
	b.frames, b.labels, b.gotos = saved, savedLabels, savedGotos
}

// resolveGotos wires every goto of the scope just built to its labeled
// statement. A goto whose label is not in the scope (broken code) leaves
// the scope, like a stray break.
func (b *cfgBuilder) resolveGotos() {
	for _, g := range b.gotos {
		if to, ok := b.labels[g.label]; ok {
			b.edge(g.id, to)
		} else {
			b.exits = append(b.exits, g.id)
		}
	}
}

func (b *cfgBuilder) block(stmts []int32, preds []int32) []int32 {
	for _, s := range stmts {
		preds = b.stmt(s, preds)
	}
	return preds
}

// merge returns a new slice holding a followed by c, so frontiers are never
// shared between branches.
func merge(a, c []int32) []int32 {
	out := make([]int32, 0, len(a)+len(c))
	return append(append(out, a...), c...)
}

func one(id int32) []int32 { return []int32{id} }

// stmt wires statement s after preds and returns the frontier after it,
// recording it when AppendTarget may need it.
func (b *cfgBuilder) stmt(s int32, preds []int32) []int32 {
	out := b.flow(s, preds)
	if s != none && b.after != nil && b.hasAfter(s) {
		b.after[s] = merge(out, nil)
	}
	return out
}

func (b *cfgBuilder) hasAfter(id int32) bool {
	_, ok := b.after[id]
	return ok
}

// flow is stmt without the recording.
func (b *cfgBuilder) flow(s int32, preds []int32) []int32 {
	if s == none {
		return preds
	}
	id, t := s, &b.t
	b.connect(preds, id)
	for _, in := range t.inner(s) {
		b.enter(t.list(in), id)
	}
	switch b.nodes[s].Kind {
	case lang.Func, lang.Class:
		b.enter(t.bodyOf(s), id)
		return one(id)
	case lang.Return:
		b.leave(id, false)
		return nil
	case lang.Raise:
		b.leave(id, true)
		return nil
	case lang.Break:
		b.brk(id, t.label(s))
		return nil
	case lang.Continue:
		b.cont(id, t.label(s))
		return nil
	case lang.Goto:
		b.gotos = append(b.gotos, jump{id, t.label(s)})
		return nil
	case lang.If:
		out := b.block(t.bodyOf(s), one(id))
		if t.elseOf(s) != none {
			return merge(out, b.stmt(t.elseOf(s), one(id)))
		}
		return merge(out, one(id))
	case lang.Loop:
		return b.loop(s, id)
	case lang.Do:
		return b.do(s, id)
	case lang.Try:
		return b.try(s, id)
	case lang.Switch:
		return b.swtch(s, id)
	case lang.With:
		label, body := t.label(s), t.bodyOf(s)
		if label == "" {
			return b.block(body, one(id))
		}
		if _, dup := b.labels[label]; !dup {
			if b.labels == nil {
				b.labels = make(map[string]int32)
			}
			b.labels[label] = id
		}
		b.frames = append(b.frames, frame{kind: labelFrame, labels: [2]string{label}})
		if len(body) > 0 {
			b.pendingLoop, b.pendingLabel = body[0], label
		}
		end := b.block(body, one(id))
		f := b.pop()
		return merge(end, f.breaks)
	default:
		// Simple, Error, and clause headers met outside their parent: a
		// header followed by its block, if any.
		if body := t.bodyOf(s); len(body) > 0 {
			return b.block(body, one(id))
		}
		return one(id)
	}
}

func (b *cfgBuilder) pop() frame {
	f := b.frames[len(b.frames)-1]
	b.frames = b.frames[:len(b.frames)-1]
	return f
}

// loopFrame pushes the frame of loop s, taking over the label of a labeled
// statement that wraps it.
func (b *cfgBuilder) pushLoop(s int32, cont int32) {
	f := frame{kind: loopFrame, cont: cont, labels: [2]string{b.t.label(s)}}
	if b.pendingLoop == s {
		f.labels[1] = b.pendingLabel
	}
	b.pendingLoop = none
	b.frames = append(b.frames, f)
}

func (b *cfgBuilder) loop(s int32, id int32) []int32 {
	t := &b.t
	b.pushLoop(s, id)
	end := b.block(t.bodyOf(s), one(id))
	b.connect(end, id) // back edge
	f := b.pop()
	var out []int32
	if b.constTrue(s) {
		// while True / for (;;): the header never falls out; a loop else is dead.
		b.stmt(t.elseOf(s), nil)
	} else if t.elseOf(s) != none {
		out = b.stmt(t.elseOf(s), one(id))
	} else {
		out = one(id)
	}
	return merge(out, f.breaks)
}

func (b *cfgBuilder) do(s int32, id int32) []int32 {
	t := &b.t
	cond := id
	if t.cond(s) != none {
		cond = t.cond(s)
	}
	b.pushLoop(s, cond)
	body := t.bodyOf(s)
	end := b.block(body, one(id))
	f := b.pop()
	if t.cond(s) == none {
		b.connect(end, id)
		return merge(one(id), f.breaks)
	}
	out := b.stmt(t.cond(s), end)
	first := id
	if len(body) > 0 {
		first = max(body[0], 0) // a nil statement was vertex 0
	}
	b.edge(cond, first) // back edge
	if b.constTrue(t.cond(s)) {
		out = nil
	}
	return merge(out, f.breaks)
}

func (b *cfgBuilder) try(s int32, id int32) []int32 {
	t := &b.t
	fin := t.finally(s) != none
	handlers, body := t.handlers(s), t.bodyOf(s)
	b.frames = append(b.frames, frame{kind: tryFrame, catching: len(handlers) > 0, catchAll: b.catchesAll(handlers), finally: fin})
	end := b.block(body, one(id))
	bodyFrame := b.pop()

	// Every statement of the body may raise into each handler.
	raisers := b.sameScope(body, nil)
	if len(raisers) == 0 {
		raisers = one(id)
	}
	if fin {
		b.frames = append(b.frames, frame{kind: tryFrame, finally: true})
	}
	var handled []int32
	for _, h := range handlers {
		handled = merge(handled, b.stmt(h, raisers))
	}
	if t.elseOf(s) != none {
		end = b.stmt(t.elseOf(s), end)
	}
	normal := merge(end, handled)
	if !fin {
		return normal
	}
	clauseFrame := b.pop()
	preds := merge(normal, merge(bodyFrame.toFinally, clauseFrame.toFinally))
	abrupt := len(bodyFrame.toFinally)+len(clauseFrame.toFinally) > 0
	if len(handlers) == 0 && len(body) > 0 {
		// Nothing catches: an exception anywhere in the body runs finally.
		preds = merge(preds, raisers)
		abrupt = true
	}
	out := b.stmt(t.finally(s), preds)
	if abrupt {
		// After an abrupt entry, finally completes abruptly too.
		for _, x := range out {
			b.leave(x, false)
		}
	}
	return out
}

// sameScope appends to out the ids of stmts and of everything nested in
// them that belongs to the same scope.
func (b *cfgBuilder) sameScope(stmts []int32, out []int32) []int32 {
	for _, s := range stmts {
		out = b.sameScope1(s, out)
	}
	return out
}

func (b *cfgBuilder) sameScope1(s int32, out []int32) []int32 {
	if s == none {
		return out
	}
	t := &b.t
	out = append(out, s)
	if k := b.nodes[s].Kind; k != lang.Func && k != lang.Class {
		out = b.sameScope(t.bodyOf(s), out)
	}
	out = b.sameScope1(t.cond(s), out)
	out = b.sameScope(t.cases(s), out)
	out = b.sameScope(t.handlers(s), out)
	out = b.sameScope1(t.elseOf(s), out)
	return b.sameScope1(t.finally(s), out)
}

func (b *cfgBuilder) swtch(s int32, id int32) []int32 {
	t := &b.t
	// A Python break inside match leaves the enclosing loop, not the match.
	catches := !b.python
	if catches {
		b.frames = append(b.frames, frame{kind: switchFrame})
	}
	// Statements that error recovery left before the first case run
	// before the cases are chosen: header -> them -> each case.
	entry := b.block(t.bodyOf(s), one(id))
	var out, fall []int32
	cases := t.cases(s)
	for i, c := range cases {
		cid := c
		b.connect(entry, cid)
		for _, in := range t.inner(c) {
			b.enter(t.list(in), cid)
		}
		var end []int32
		if body := t.bodyOf(c); len(body) == 0 {
			end = merge(one(cid), fall)
		} else {
			// Fall-through enters the case's first body statement.
			b.connect(fall, max(body[0], 0)) // a nil statement was vertex 0
			end = b.block(body, one(cid))
		}
		if (t.fallThrough(s) || t.fallThrough(c)) && i < len(cases)-1 {
			fall = end
		} else {
			out = merge(out, end)
			fall = nil
		}
	}
	if !t.exhaustive(s) || len(cases) == 0 {
		out = merge(out, entry)
	}
	if catches {
		f := b.pop()
		out = merge(out, f.breaks)
	}
	return out
}

// leave routes a return (or, with raise set, a raise) out of the current
// scope: through the innermost finally that intercepts it, or to the
// scope's virtual exit. A raise inside a try with handlers reaches them
// (the try adds those edges) and, since no handler may match, also goes
// on to the finally or further out, unless a handler catches everything.
func (b *cfgBuilder) leave(id int32, raise bool) {
	for i := len(b.frames) - 1; i >= 0; i-- {
		f := &b.frames[i]
		if f.kind != tryFrame {
			continue
		}
		if raise && f.catchAll {
			return
		}
		if f.finally {
			f.toFinally = append(f.toFinally, id)
			return
		}
	}
	b.exits = append(b.exits, id)
}

func (b *cfgBuilder) brk(id int32, label string) {
	for i := len(b.frames) - 1; i >= 0; i-- {
		f := &b.frames[i]
		if (label == "" && (f.kind == loopFrame || f.kind == switchFrame)) || f.named(label) {
			f.breaks = append(f.breaks, id)
			return
		}
	}
	b.exits = append(b.exits, id) // stray break: leaves the scope
}

func (b *cfgBuilder) cont(id int32, label string) {
	for i := len(b.frames) - 1; i >= 0; i-- {
		f := &b.frames[i]
		if f.kind == loopFrame && (label == "" || f.named(label)) {
			b.edge(id, f.cont)
			return
		}
	}
	b.exits = append(b.exits, id) // stray continue: leaves the scope
}

// catchesAll reports whether one of the handlers catches every exception:
// a bare Python `except:`, `except BaseException`, a Java
// `catch (Throwable ...)`, or any JavaScript or TypeScript catch clause.
func (b *cfgBuilder) catchesAll(handlers []int32) bool {
	if b.ecma {
		return len(handlers) > 0
	}
	for _, h := range handlers {
		if h == none {
			continue
		}
		row := b.nodes[h].StartRow
		if row < 0 || row >= len(b.lines) {
			continue
		}
		t := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\t' || r == '\r' {
				return -1
			}
			return r
		}, b.lines[row])
		t = strings.TrimPrefix(t, "}")
		switch {
		case strings.HasPrefix(t, "except:"),
			strings.HasPrefix(t, "exceptBaseException:"),
			strings.HasPrefix(t, "exceptBaseExceptionas"),
			strings.HasPrefix(t, "catch(Throwable"),
			strings.HasPrefix(t, "catch(finalThrowable"),
			strings.HasPrefix(t, "catch(java.lang.Throwable"):
			return true
		}
	}
	return false
}

// constTrue reports whether a loop header or do-while condition has a
// literal true condition (Python `while True:`/`while 1:`, Java and
// JavaScript `while (true)` and `for (;;)`, Go `for {`): such a loop is
// left only by a jump.
func (b *cfgBuilder) constTrue(s int32) bool {
	if s == none || b.nodes[s].StartRow < 0 || b.nodes[s].StartRow >= len(b.lines) {
		return false
	}
	t := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\r' {
			return -1
		}
		return r
	}, b.lines[b.nodes[s].StartRow])
	t = strings.TrimPrefix(t, "}")
	// Skip a label ("outer:") in front of the loop keyword.
	if i := strings.IndexByte(t, ':'); i > 0 && token.IsIdent(t[:i]) && (strings.HasPrefix(t[i+1:], "while(") || strings.HasPrefix(t[i+1:], "for")) {
		t = t[i+1:]
	}
	for _, p := range [...]string{"whileTrue:", "while(True):", "while1:", "while(true)", "for(;;)", "for{"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}
