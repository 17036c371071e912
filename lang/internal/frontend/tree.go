package frontend

import "github.com/graphcoder/graphcoder/lang/internal/tsflat"

// Tree is one parsed file: its records in pre-order and its source.
type Tree struct {
	G   *Grammar
	N   []tsflat.Node
	Src string
}

// Kind is the front end's kind of node i.
func (t *Tree) Kind(i int32) uint8 { return t.G.Kind(t.N[i].Sym) }

// Type is the grammar's name of node i.
func (t *Tree) Type(i int32) string { return t.G.Name(t.N[i].Sym) }

// First returns the first child of i, or -1.
func (t *Tree) First(i int32) int32 { return tsflat.FirstChild(t.N, i) }

// Next returns the next sibling of i, or -1.
func (t *Tree) Next(i int32) int32 {
	nx := t.N[i].Next
	if int(nx) >= len(t.N) {
		return -1
	}
	return nx
}

// Field is the id of the field node i fills in its parent, 0 for none.
func (t *Tree) Field(i int32) uint16 { return uint16(t.N[i].Field) }

// Named reports a named node (not an anonymous token).
func (t *Tree) Named(i int32) bool { return t.N[i].Flags&tsflat.Named != 0 }

// Comment reports a comment: a node outside the grammar's structure
// (tree-sitter marks ERROR nodes as such too; they are not comments).
func (t *Tree) Comment(i int32) bool {
	return t.N[i].Flags&tsflat.Extra != 0 && t.N[i].Sym != tsflat.ErrorSymbol
}

// Missing reports a zero-width token that error recovery inserted.
func (t *Tree) Missing(i int32) bool { return t.N[i].Flags&tsflat.Missing != 0 }

// HasError reports a subtree holding a syntax error or a missing token.
func (t *Tree) HasError(i int32) bool { return t.N[i].Flags&tsflat.HasError != 0 }

// Text returns the source of node i.
func (t *Tree) Text(i int32) string {
	n := &t.N[i]
	if n.EndByte > uint32(len(t.Src)) || n.StartByte > n.EndByte {
		return ""
	}
	return t.Src[n.StartByte:n.EndByte]
}

// StartRow is the 0-based row where node i starts.
func (t *Tree) StartRow(i int32) int { return int(t.N[i].StartRow) }

// EndRow is the last row holding a byte of node i: a node that ends at
// column 0 (after a newline) ends on the row before.
func (t *Tree) EndRow(i int32) int { return tsflat.LastRow(&t.N[i], t.Src) }

// Child returns the first child of i filling field f, or -1.
func (t *Tree) Child(i int32, f uint16) int32 {
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if uint16(t.N[c].Field) == f {
			return c
		}
	}
	return -1
}

// ChildOfKind returns the first child of i of kind k, or -1.
func (t *Tree) ChildOfKind(i int32, k uint8) int32 {
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if t.Kind(c) == k {
			return c
		}
	}
	return -1
}

// FirstNamed returns the first named child of i that is not a comment, or -1.
func (t *Tree) FirstNamed(i int32) int32 {
	for c := t.First(i); c >= 0; c = t.Next(c) {
		if t.Named(c) && !t.Comment(c) {
			return c
		}
	}
	return -1
}

// MissingCount counts the tokens error recovery inserted.
func (t *Tree) MissingCount() int {
	if len(t.N) == 0 || t.N[0].Flags&tsflat.HasError == 0 {
		return 0
	}
	n := 0
	for i := range t.N {
		if t.N[i].Flags&tsflat.Missing != 0 {
			n++
		}
	}
	return n
}
