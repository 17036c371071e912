package langtest

import (
	"fmt"
	"slices"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang"
)

// Visit is what a coverage rule sees of a syntax node: the node, the field
// it fills in its parent, and its parent.
type Visit struct {
	Node, Parent *sitter.Node
	Field        string
}

// Rule decides, independently of a front end's own walk, which statement a
// syntax node must become: when count is set, exactly one Stmt of type typ
// starting on row. descend says whether the node's children are visited.
type Rule func(v Visit) (typ string, row int, count, descend bool)

type typeRow struct {
	typ string
	row int
}

// CoverageErrors checks that the statements the rule expects of the
// syntax tree under root are exactly the statements of f (by type and
// start row, counted), leaving out Else and DoCond headers and error
// statements, which have no node of their own type.
func CoverageErrors(root *sitter.Node, f *lang.File, rule Rule) []string {
	want := map[typeRow]int{}
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	var visit func(parent *sitter.Node)
	visit = func(parent *sitter.Node) {
		n := c.CurrentNode()
		if !n.IsNamed() {
			return // a token: never a statement, and it has no children
		}
		typ, row, count, descend := rule(Visit{Node: n, Parent: parent, Field: c.CurrentFieldName()})
		if count {
			want[typeRow{typ, row}]++
		}
		if descend && c.GoToFirstChild() {
			for {
				visit(n)
				if !c.GoToNextSibling() {
					break
				}
			}
			c.GoToParent()
		}
	}
	visit(nil)

	got := map[typeRow]int{}
	lang.Walk(f.Stmts, func(s *lang.Stmt) {
		switch s.Kind {
		case lang.Error, lang.Else, lang.DoCond:
			return
		}
		if s.Type() != "ERROR" {
			got[typeRow{s.Type(), s.StartRow}]++
		}
	})
	var errs []string
	for k, w := range want {
		if got[k] != w {
			errs = append(errs, fmt.Sprintf("%s at line %d: %d syntax nodes, %d statements", k.typ, k.row+1, w, got[k]))
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			errs = append(errs, fmt.Sprintf("%s at line %d: %d statements, no syntax node", k.typ, k.row+1, g))
		}
	}
	slices.Sort(errs)
	return errs
}

// HasChild reports whether n has a child of type typ.
func HasChild(n *sitter.Node, typ string) bool {
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.Child(i).Type() == typ {
			return true
		}
	}
	return false
}
