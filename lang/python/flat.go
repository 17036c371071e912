package python

/*
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>

// The tree-sitter runtime is linked in by github.com/smacker/go-tree-sitter;
// these declarations mirror the handful of its C API entry points used to
// copy a syntax tree into Go memory in one call.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } gc_ts_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } gc_ts_cursor;
typedef struct { uint32_t row, column; } gc_ts_point;

extern gc_ts_cursor ts_tree_cursor_new(gc_ts_node);
extern void ts_tree_cursor_delete(gc_ts_cursor *);
extern gc_ts_node ts_tree_cursor_current_node(const gc_ts_cursor *);
extern uint16_t ts_tree_cursor_current_field_id(const gc_ts_cursor *);
extern bool ts_tree_cursor_goto_first_child(gc_ts_cursor *);
extern bool ts_tree_cursor_goto_next_sibling(gc_ts_cursor *);
extern bool ts_tree_cursor_goto_parent(gc_ts_cursor *);
extern uint32_t ts_node_descendant_count(gc_ts_node);
extern uint16_t ts_node_symbol(gc_ts_node);
extern uint32_t ts_node_start_byte(gc_ts_node);
extern uint32_t ts_node_end_byte(gc_ts_node);
extern gc_ts_point ts_node_start_point(gc_ts_node);
extern gc_ts_point ts_node_end_point(gc_ts_node);
extern bool ts_node_is_named(gc_ts_node);
extern bool ts_node_is_missing(gc_ts_node);
extern bool ts_node_is_extra(gc_ts_node);

// gc_rec is one syntax node in pre-order; it must match type node in Go.
typedef struct {
	uint32_t start_byte, end_byte;
	uint32_t start_row, end_row, end_col;
	int32_t parent, next;
	uint32_t nchild;
	uint16_t sym, field;
	uint8_t flags;
} gc_rec;

static size_t gc_rec_flags_offset(void) { return offsetof(gc_rec, flags); }

enum { GC_NAMED = 1, GC_MISSING = 2, GC_EXTRA = 4 };

static void gc_fill(gc_rec *r, const gc_ts_cursor *c, int32_t parent) {
	gc_ts_node n = ts_tree_cursor_current_node(c);
	gc_ts_point s = ts_node_start_point(n), e = ts_node_end_point(n);
	r->start_byte = ts_node_start_byte(n);
	r->end_byte = ts_node_end_byte(n);
	r->start_row = s.row;
	r->end_row = e.row;
	r->end_col = e.column;
	r->parent = parent;
	r->next = -1;
	r->nchild = 0;
	r->sym = ts_node_symbol(n);
	r->field = ts_tree_cursor_current_field_id(c);
	r->flags = (ts_node_is_named(n) ? GC_NAMED : 0) |
		(ts_node_is_missing(n) ? GC_MISSING : 0) |
		(ts_node_is_extra(n) ? GC_EXTRA : 0);
}

static uint32_t gc_count(gc_ts_node *root) { return ts_node_descendant_count(*root); }

// gc_flatten writes the subtree of root in pre-order into out (at most cap
// records) and returns the number written. It walks with a cursor, so it
// needs no recursion however deep the tree.
static uint32_t gc_flatten(gc_ts_node *root, gc_rec *out, uint32_t cap) {
	if (cap == 0) return 0;
	gc_ts_cursor c = ts_tree_cursor_new(*root);
	uint32_t n = 1;
	int32_t cur = 0;
	gc_fill(&out[0], &c, -1);
	while (n < cap) {
		if (ts_tree_cursor_goto_first_child(&c)) {
			gc_fill(&out[n], &c, cur);
			out[cur].nchild++;
			cur = (int32_t)n++;
			continue;
		}
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) {
				int32_t parent = out[cur].parent;
				gc_fill(&out[n], &c, parent);
				out[parent].nchild++;
				out[cur].next = (int32_t)n;
				cur = (int32_t)n++;
				break;
			}
			if (!ts_tree_cursor_goto_parent(&c)) goto done;
			cur = out[cur].parent;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	return n;
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
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
	flagNamed   = 1
	flagMissing = 2
	flagExtra   = 4
)

// errLayout is set when the Go and C views of a record disagree, which
// would make flattening unsafe; Parse then refuses to run.
var errLayout error

func init() {
	if unsafe.Sizeof(node{}) != C.sizeof_gc_rec ||
		unsafe.Offsetof(node{}.flags) != uintptr(C.gc_rec_flags_offset()) {
		errLayout = fmt.Errorf("internal error: syntax node layout mismatch")
	}
}

// sitterNode mirrors the layout of sitter.Node, whose first field is the C
// TSNode value.
type sitterNode struct {
	c C.gc_ts_node
}

// flatten copies the tree under root into buf (grown as needed) and returns
// the records in pre-order; the root is record 0.
func flatten(root *sitter.Node, buf []node) ([]node, error) {
	if errLayout != nil {
		return buf[:0], errLayout
	}
	if root == nil {
		return buf[:0], fmt.Errorf("no syntax tree")
	}
	rootNode := (*sitterNode)(unsafe.Pointer(root)).c // a copy: C memory only
	tsn := &rootNode
	want := int(C.gc_count(tsn))
	if cap(buf) < want {
		buf = make([]node, want)
	}
	buf = buf[:want]
	if want == 0 {
		return buf, nil
	}
	n := C.gc_flatten(tsn, (*C.gc_rec)(unsafe.Pointer(&buf[0])), C.uint32_t(want))
	return buf[:n], nil
}
