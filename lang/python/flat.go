package python

import (
	"context"
	"errors"
	"fmt"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

// node is one syntax node copied out of the tree-sitter tree. Reading the
// tree node by node through cgo costs a call (and, with the smacker
// bindings, an allocation) per access; one flattening call per file keeps
// the front end within a small multiple of the parse itself.
//
// It has the memory layout of tsflat.Node, so the records tsflat writes are
// used in place; the layout is checked at start-up.
type node struct {
	startByte, endByte uint32
	startRow, endRow   uint32
	next               int32
	sym                uint16
	field, flags       uint8
}

const (
	flagNamed   = tsflat.Named
	flagMissing = tsflat.Missing
	flagExtra   = tsflat.Extra
	flagChild   = tsflat.HasChild
)

// errLayout is set when node and tsflat.Node disagree in layout, which would
// make reading the records as nodes unsafe; Parse then refuses to run.
var errLayout = layoutError()

func layoutError() error {
	var n node
	var f tsflat.Node
	same := unsafe.Sizeof(n) == unsafe.Sizeof(f) &&
		unsafe.Alignof(n) == unsafe.Alignof(f) &&
		unsafe.Offsetof(n.startByte) == unsafe.Offsetof(f.StartByte) &&
		unsafe.Offsetof(n.endByte) == unsafe.Offsetof(f.EndByte) &&
		unsafe.Offsetof(n.startRow) == unsafe.Offsetof(f.StartRow) &&
		unsafe.Offsetof(n.endRow) == unsafe.Offsetof(f.EndRow) &&
		unsafe.Offsetof(n.next) == unsafe.Offsetof(f.Next) &&
		unsafe.Offsetof(n.sym) == unsafe.Offsetof(f.Sym) &&
		unsafe.Offsetof(n.field) == unsafe.Offsetof(f.Field) &&
		unsafe.Offsetof(n.flags) == unsafe.Offsetof(f.Flags)
	if !same {
		return errors.New("internal error: syntax node layout mismatch")
	}
	return nil
}

// flatten copies the tree under root into buf (grown as needed) and returns
// the records in pre-order; the root is record 0.
func flatten(root *sitter.Node, buf []node) ([]node, error) {
	if errLayout != nil {
		return buf[:0], errLayout
	}
	recs, err := tsflat.Flatten(root, records(buf[:0]))
	if err != nil {
		return buf[:0], fmt.Errorf("flatten syntax tree: %w", err)
	}
	return nodesOf(recs), nil
}

// records returns nodes, with their capacity, as the tsflat records they
// were written as.
func records(nodes []node) []tsflat.Node {
	return unsafe.Slice((*tsflat.Node)(unsafe.Pointer(unsafe.SliceData(nodes))), cap(nodes))[:len(nodes)]
}

// nodesOf returns recs, with their capacity, as nodes (records' inverse).
func nodesOf(recs []tsflat.Node) []node {
	return unsafe.Slice((*node)(unsafe.Pointer(unsafe.SliceData(recs))), cap(recs))[:len(recs)]
}

// parseFlat parses src with ts into buf (tsflat.ParseRuns), in pieces
// where cut finds them: each piece's records are handed to each, and
// then parseFlat reports true and the number of records of the file;
// otherwise it returns the file's records.
func parseFlat(ctx context.Context, ts *sitter.Parser, src []byte, buf []node, each func(piece []node, first, last int32) error) ([]node, bool, int, error) {
	if errLayout != nil {
		return buf[:0], false, 0, errLayout
	}
	recs, pieced, n, err := tsflat.ParseRuns(ctx, ts, src, tsflat.MaxParseMicros, cut, records(buf[:0]),
		func(piece []tsflat.Node, _, first, last int32) error { return each(nodesOf(piece), first, last) })
	return nodesOf(recs), pieced, n, err
}
