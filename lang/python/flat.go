package python

import (
	"fmt"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

// node is one syntax node copied out of the tree-sitter tree. Reading the
// tree node by node through cgo costs a call (and, with the smacker
// bindings, an allocation) per access; one flattening call per file keeps
// the front end within a small multiple of the parse itself.
type node struct {
	startByte, endByte       uint32
	startRow, endRow, endCol uint32
	parent, next             int32
	nchild                   uint32
	sym, field               uint16
	flags                    uint8
}

const (
	flagNamed   = tsflat.Named
	flagMissing = tsflat.Missing
	flagExtra   = tsflat.Extra
)

// flatScratch holds the records of tsflat between files.
var flatScratch = sync.Pool{New: func() any { return new([]tsflat.Node) }}

// flatten copies the tree under root into buf (grown as needed) and returns
// the records in pre-order; the root is record 0.
func flatten(root *sitter.Node, buf []node) ([]node, error) {
	scratch := flatScratch.Get().(*[]tsflat.Node)
	defer flatScratch.Put(scratch)
	flat, err := tsflat.Flatten(root, *scratch)
	*scratch = flat
	if err != nil {
		return buf[:0], fmt.Errorf("flatten syntax tree: %w", err)
	}
	if cap(buf) < len(flat) {
		buf = make([]node, len(flat))
	}
	buf = buf[:len(flat)]
	for i := range flat {
		f := &flat[i]
		buf[i] = node{
			startByte: f.StartByte, endByte: f.EndByte,
			startRow: f.StartRow, endRow: f.EndRow, endCol: f.EndCol,
			parent: f.Parent, next: f.Next, nchild: f.NChild,
			sym: f.Sym, field: f.Field,
			flags: f.Flags & (tsflat.Named | tsflat.Missing | tsflat.Extra),
		}
	}
	return buf, nil
}
