package frontend

import (
	"slices"
	"strings"

	"github.com/graphcoder/graphcoder/lang"
)

// Names collects what the statement being built defines, uses and binds
// for the scope it opens, and the blocks nested in its expressions.
// Statements nest (an if's header is complete before its body is built,
// but a statement holding a function literal builds the literal's body
// while it is still open), so each statement takes a Mark when it starts
// and Close cuts the scratch space back to it.
type Names struct {
	defs, uses, params []string
	inner              [][]*lang.Stmt
	// shadow holds the parameters of the function expressions whose
	// expression bodies are being read: those names are not the enclosing
	// statement's variables.
	shadow []string
}

// Mark is the state of Names when a statement started.
type Mark struct {
	defs, uses, params int
	inner              [][]*lang.Stmt
	shadow             []string
}

// Open starts a statement.
func (n *Names) Open() Mark {
	m := Mark{len(n.defs), len(n.uses), len(n.params), n.inner, n.shadow}
	n.inner, n.shadow = nil, nil
	return m
}

// Close fills in the names and nested blocks collected since m and trims
// the statement's rows so they end before its first nested statement (but
// cover at least its first row). It returns s.
func (n *Names) Close(s *lang.Stmt, m Mark) *lang.Stmt {
	SetNames(s, n.defs[m.defs:], n.params[m.params:], n.uses[m.uses:])
	n.defs, n.uses, n.params = n.defs[:m.defs], n.uses[:m.uses], n.params[:m.params]
	if len(n.inner) > 0 {
		s.Clause().Inner = n.inner
		if first := s.Inner()[0][0].StartRow; first <= s.EndRow {
			s.EndRow = max(s.StartRow, first-1)
		}
	}
	n.inner, n.shadow = m.inner, m.shadow
	return s
}

// Reset drops every reference into a source.
func (n *Names) Reset() {
	clear(n.defs[:cap(n.defs)])
	clear(n.uses[:cap(n.uses)])
	clear(n.params[:cap(n.params)])
	clear(n.shadow[:cap(n.shadow)])
	*n = Names{defs: n.defs[:0], uses: n.uses[:0], params: n.params[:0], shadow: n.shadow[:0]}
}

// Def records a name the statement writes.
func (n *Names) Def(name string) {
	if name != "" && !n.Shadowed(Root(name)) {
		n.defs = append(n.defs, name)
	}
}

// Use records a name the statement reads.
func (n *Names) Use(name string) {
	if name != "" && !n.Shadowed(name) {
		n.uses = append(n.uses, name)
	}
}

// UsePath records a read of an access path and of every prefix of it:
// reading this.x.y reads this.x.y, this.x and this.
func (n *Names) UsePath(p string) {
	if p == "" || n.Shadowed(Root(p)) {
		return
	}
	for {
		n.uses = append(n.uses, p)
		dot := strings.LastIndexByte(p, '.')
		if dot < 0 {
			return
		}
		p = p[:dot]
	}
}

// Param records a name bound only inside the scope the statement opens.
func (n *Names) Param(name string) {
	if name != "" {
		n.params = append(n.params, name)
	}
}

// NumParams is the number of parameters recorded so far, for Shadow.
func (n *Names) NumParams() int { return len(n.params) }

// Shadow hides the parameters recorded since NumParams returned from: the
// names read next belong to a function expression's body. It returns the
// value to hand to Unshadow.
func (n *Names) Shadow(from int) int {
	saved := len(n.shadow)
	n.shadow = append(n.shadow, n.params[from:]...)
	return saved
}

// Unshadow ends what Shadow started.
func (n *Names) Unshadow(saved int) { n.shadow = n.shadow[:saved] }

// Shadowed reports a name hidden by Shadow.
func (n *Names) Shadowed(name string) bool {
	for _, s := range n.shadow {
		if s == name {
			return true
		}
	}
	return false
}

// AddInner adds a block nested in the statement's expression; empty
// blocks are left out.
func (n *Names) AddInner(blk []*lang.Stmt) {
	if len(blk) > 0 {
		n.inner = append(n.inner, blk)
	}
}

// SaveInner sets the statement's nested blocks aside while a nested block
// is built, and RestoreInner puts them back.
func (n *Names) SaveInner() [][]*lang.Stmt {
	saved := n.inner
	n.inner = nil
	return saved
}

// RestoreInner ends what SaveInner started.
func (n *Names) RestoreInner(saved [][]*lang.Stmt) { n.inner = saved }

// Root is the first name of an access path.
func Root(p string) string {
	if dot := strings.IndexByte(p, '.'); dot >= 0 {
		return p[:dot]
	}
	return p
}

// SetNames sets the names of s from scratch lists it sorts and
// deduplicates in place (lang.Stmt.SetNames copies them).
func SetNames(s *lang.Stmt, defs, params, uses []string) {
	s.SetNames(sortedSet(defs), sortedSet(params), sortedSet(uses))
}

// sortedSet sorts xs and drops its duplicates in place.
func sortedSet(xs []string) []string {
	slices.Sort(xs)
	return slices.Compact(xs)
}

// SetDefs sets the definitions of s to the one name def (none when def
// is ""), keeping its parameters and uses.
func SetDefs(s *lang.Stmt, def string) {
	one := [1]string{def}
	defs := one[:]
	if def == "" {
		defs = nil
	}
	s.SetNames(defs, s.Params(), s.Uses())
}
