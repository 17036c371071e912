package tsflat

/*
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

// Mirrors of the tree-sitter runtime's TSNode, TSTreeCursor and TSPoint, and
// the entry points used below; the runtime is linked in by the smacker
// bindings.
typedef struct { uint32_t context[4]; const void *id; const void *tree; } tsflat_node;
typedef struct { const void *tree; const void *id; uint32_t context[3]; } tsflat_cursor;
typedef struct { uint32_t row, column; } tsflat_point;

extern tsflat_cursor ts_tree_cursor_new(tsflat_node);
extern void ts_tree_cursor_delete(tsflat_cursor *);
extern tsflat_node ts_tree_cursor_current_node(const tsflat_cursor *);
extern uint16_t ts_tree_cursor_current_field_id(const tsflat_cursor *);
extern bool ts_tree_cursor_goto_first_child(tsflat_cursor *);
extern bool ts_tree_cursor_goto_next_sibling(tsflat_cursor *);
extern bool ts_tree_cursor_goto_parent(tsflat_cursor *);
extern uint32_t ts_node_descendant_count(tsflat_node);
extern uint16_t ts_node_symbol(tsflat_node);
extern uint32_t ts_node_start_byte(tsflat_node);
extern uint32_t ts_node_end_byte(tsflat_node);
extern tsflat_point ts_node_start_point(tsflat_node);
extern tsflat_point ts_node_end_point(tsflat_node);
extern bool ts_node_is_named(tsflat_node);
extern bool ts_node_is_missing(tsflat_node);
extern bool ts_node_is_extra(tsflat_node);
extern bool ts_node_has_error(tsflat_node);

// tsflat_rec is one node in pre-order; it must match type Node in Go.
typedef struct {
	uint32_t start_byte, end_byte;
	uint32_t start_row, end_row;
	int32_t next;
	uint16_t sym;
	uint8_t field, flags;
} tsflat_rec;

enum { TSFLAT_NAMED = 1, TSFLAT_MISSING = 2, TSFLAT_EXTRA = 4, TSFLAT_HAS_ERROR = 8, TSFLAT_HAS_CHILD = 16 };

extern const void *ts_tree_language(const void *);
extern uint32_t ts_language_field_count(const void *);

// tsflat_offsets reports the offset of every field, for the layout check.
static void tsflat_offsets(size_t *out) {
	out[0] = offsetof(tsflat_rec, start_byte);
	out[1] = offsetof(tsflat_rec, end_byte);
	out[2] = offsetof(tsflat_rec, start_row);
	out[3] = offsetof(tsflat_rec, end_row);
	out[4] = offsetof(tsflat_rec, next);
	out[5] = offsetof(tsflat_rec, sym);
	out[6] = offsetof(tsflat_rec, field);
	out[7] = offsetof(tsflat_rec, flags);
}

static void tsflat_fill(tsflat_rec *r, const tsflat_cursor *c) {
	tsflat_node n = ts_tree_cursor_current_node(c);
	tsflat_point s = ts_node_start_point(n), e = ts_node_end_point(n);
	r->start_byte = ts_node_start_byte(n);
	r->end_byte = ts_node_end_byte(n);
	r->start_row = s.row;
	r->end_row = e.row;
	r->next = -1;
	r->sym = ts_node_symbol(n);
	r->field = (uint8_t)ts_tree_cursor_current_field_id(c);
	r->flags = (ts_node_is_named(n) ? TSFLAT_NAMED : 0) |
		(ts_node_is_missing(n) ? TSFLAT_MISSING : 0) |
		(ts_node_is_extra(n) ? TSFLAT_EXTRA : 0) |
		(ts_node_has_error(n) ? TSFLAT_HAS_ERROR : 0);
}

static uint32_t tsflat_count(tsflat_node *root) { return ts_node_descendant_count(*root); }

// tsflat_language returns root's grammar.
static const void *tsflat_language(tsflat_node *root) { return ts_tree_language(root->tree); }

// tsflat_fields returns the number of fields of root's grammar.
static uint32_t tsflat_fields(tsflat_node *root) {
	return ts_language_field_count(ts_tree_language(root->tree));
}

// tsflat_walk writes the subtree of root in pre-order into out (at most cap
// records) and returns the number written, or 0 when it cannot allocate
// its stack. It walks with a cursor, so it needs no recursion however deep
// the tree; the stack holds the last record written at each depth, to
// link it to its next sibling. The children of a node whose symbol s has
// prune[s] set (s < nprune) and that holds no syntax error are not
// written (the node's record keeps TSFLAT_HAS_CHILD clear); *pruned
// counts them.
static uint32_t tsflat_walk(tsflat_node *root, tsflat_rec *out, uint32_t cap,
		const uint8_t *prune, uint32_t nprune, uint32_t *pruned) {
	if (cap == 0) return 0;
	uint32_t depth = 0, room = 64;
	int32_t *last = malloc(room * sizeof *last);
	if (last == NULL) return 0;
	tsflat_cursor c = ts_tree_cursor_new(*root);
	uint32_t n = 1;
	tsflat_fill(&out[0], &c);
	last[0] = 0;
	*pruned = 0;
	while (n < cap) {
		const tsflat_rec *cur = &out[last[depth]];
		if (cur->sym < nprune && prune[cur->sym] && !(cur->flags & TSFLAT_HAS_ERROR)) {
			*pruned += ts_node_descendant_count(ts_tree_cursor_current_node(&c)) - 1;
		} else if (ts_tree_cursor_goto_first_child(&c)) {
			if (depth + 1 == room) {
				int32_t *grown = realloc(last, 2 * room * sizeof *last);
				if (grown == NULL) {
					n = 0;
					goto done;
				}
				last = grown;
				room *= 2;
			}
			out[last[depth]].flags |= TSFLAT_HAS_CHILD;
			tsflat_fill(&out[n], &c);
			last[++depth] = (int32_t)n++;
			continue;
		}
		for (;;) {
			if (ts_tree_cursor_goto_next_sibling(&c)) {
				tsflat_fill(&out[n], &c);
				out[last[depth]].next = (int32_t)n;
				last[depth] = (int32_t)n++;
				break;
			}
			if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) goto done;
			depth--;
		}
	}
done:
	ts_tree_cursor_delete(&c);
	free(last);
	return n;
}
*/
import "C"

import (
	"errors"
	"math"
	"slices"
	"sync/atomic"
	"unsafe"

	sitter "github.com/smacker/go-tree-sitter"
)

// Node is one syntax node copied out of a tree-sitter tree. Rows are
// 0-based. Its first child, if it has one, is the record right after it
// (FirstChild). A record is 24 bytes: a large file has several hundred
// thousand, so it holds what the front ends read and nothing they can
// derive (columns, child counts and parents; see FirstChild, LastRow and
// Parents).
type Node struct {
	StartByte, EndByte uint32
	StartRow, EndRow   uint32
	Next               int32  // index of the next sibling, -1 for the last child
	Sym                uint16 // the grammar symbol, after aliasing; 0xFFFF for ERROR
	Field              uint8  // the field the node fills in its parent, 0 for none
	Flags              uint8
}

// FirstChild returns the index of the first child of record i of recs,
// or -1: the record after i when i has children.
func FirstChild(recs []Node, i int32) int32 {
	if j := i + 1; recs[i].Flags&HasChild != 0 && int(j) < len(recs) {
		return j
	}
	return -1
}

// Parents returns the index of the parent of every record of recs, -1
// for the root, in dst (grown as needed): the records do not hold it,
// and few walks need it.
func Parents(recs []Node, dst []int32) []int32 {
	dst = slices.Grow(dst[:0], len(recs))[:len(recs)]
	if len(recs) == 0 {
		return dst
	}
	// stack holds the ancestors of the record being visited, innermost last.
	stack := make([]int32, 0, 64)
	dst[0] = -1
	for i := range recs {
		if i > 0 {
			dst[i] = stack[len(stack)-1]
		}
		if recs[i].Flags&HasChild != 0 && i+1 < len(recs) {
			stack = append(stack, int32(i))
			continue
		}
		// The last record of a subtree: climb past every ancestor whose
		// last child this was.
		for j := int32(i); len(stack) > 0 && recs[j].Next < 0; {
			j = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
	}
	return dst
}

// LastRow returns the last row holding a byte of n, whose tree was
// parsed from src: a node that ends right after a newline (at column 0)
// ends on the row before. Tree-sitter starts a row after every '\n' and
// nothing else, so the byte before the end tells the column 0.
func LastRow[S ~string | ~[]byte](n *Node, src S) int {
	r := int(n.EndRow)
	if n.EndRow > n.StartRow && n.EndByte > 0 && int(n.EndByte) <= len(src) && src[n.EndByte-1] == '\n' {
		r--
	}
	return r
}

// Flags of a Node.
const (
	Named    = 1 << iota // a named node, not an anonymous token
	Missing              // a zero-width token inserted by error recovery
	Extra                // a node outside the grammar's structure, such as a comment
	HasError             // the subtree holds a syntax error or a missing token
	HasChild             // the node has children: its first is the next record
)

// ErrorSymbol is the symbol of an ERROR node.
const ErrorSymbol = 0xFFFF

var (
	errLayout = layoutError()
	errNoTree = errors.New("no syntax tree")
	errFields = errors.New("internal error: a grammar with more than 255 fields")
)

// layoutError reports whether Go and C disagree about the record layout, in
// which case flattening would write outside the records.
func layoutError() error {
	var n Node
	want := [...]uintptr{
		unsafe.Offsetof(n.StartByte), unsafe.Offsetof(n.EndByte),
		unsafe.Offsetof(n.StartRow), unsafe.Offsetof(n.EndRow),
		unsafe.Offsetof(n.Next),
		unsafe.Offsetof(n.Sym), unsafe.Offsetof(n.Field),
		unsafe.Offsetof(n.Flags),
	}
	var got [len(want)]C.size_t
	C.tsflat_offsets(&got[0])
	if unsafe.Sizeof(n) != C.sizeof_tsflat_rec {
		return errors.New("internal error: syntax node record size mismatch")
	}
	for i := range want {
		if uintptr(got[i]) != want[i] {
			return errors.New("internal error: syntax node record layout mismatch")
		}
	}
	return nil
}

// sitterNode mirrors the layout of sitter.Node, whose first field is the C
// TSNode value.
type sitterNode struct {
	c C.tsflat_node
}

// Flatten copies the tree under root into buf (grown as needed) and returns
// the records in pre-order, the root first. The tree must stay open during
// the call; the records do not refer to it afterwards.
func Flatten(root *sitter.Node, buf []Node) ([]Node, error) {
	recs, _, err := flattenPruned(root, buf, nil)
	return recs, err
}

// prunes maps a grammar (its C pointer) to the symbols Prune registered
// for it, by symbol; written only by Prune, at a front end's init.
var prunes atomic.Pointer[map[unsafe.Pointer][]uint8]

// sitterLanguage mirrors the layout of sitter.Language, to reach the
// grammar's C pointer.
type sitterLanguage struct{ ptr unsafe.Pointer }

// Prune makes the whole parses of grammar l (parseWhole, as ParseFlat,
// ParseRuns and ParsePieces make them below PieceFrom or when a piece does
// not fit) leave out the children of the nodes of the symbols named,
// unless such a node holds a syntax error: for a front end that never
// reads them. Most of the records of a generated resource bundle are the
// escape sequences and fragments inside its string literals, and
// flattening a record costs about as much as the front end's reading it.
// The number of records the parse reports (the syntax node limit,
// lang.CheckSyntaxNodes) counts them still. It is meant for a front
// end's init; it does nothing when the binding's layout is not the
// expected one.
func Prune(l *sitter.Language, names ...string) {
	if unsafe.Sizeof(sitter.Language{}) != unsafe.Sizeof(sitterLanguage{}) {
		return
	}
	key := (*sitterLanguage)(unsafe.Pointer(l)).ptr
	table := make([]uint8, l.SymbolCount())
	for i := range table {
		name := l.SymbolName(sitter.Symbol(i))
		for _, want := range names {
			if name == want {
				table[i] = 1
			}
		}
	}
	for {
		old := prunes.Load()
		next := map[unsafe.Pointer][]uint8{key: table}
		if old != nil {
			for k, v := range *old {
				if k != key {
					next[k] = v
				}
			}
		}
		if prunes.CompareAndSwap(old, &next) {
			return
		}
	}
}

// pruneOf returns the symbols Prune registered for root's grammar, nil
// for none.
func pruneOf(root *sitter.Node) []uint8 {
	m := prunes.Load()
	if m == nil || root == nil {
		return nil
	}
	rootNode := (*sitterNode)(unsafe.Pointer(root)).c
	return (*m)[unsafe.Pointer(C.tsflat_language(&rootNode))]
}

// flattenPruned is Flatten without the children of the nodes prune
// marks (by symbol) that hold no syntax error (Prune), and returns the
// number of records Flatten would have written too.
func flattenPruned(root *sitter.Node, buf []Node, prune []uint8) ([]Node, int, error) {
	if errLayout != nil {
		return buf[:0], 0, errLayout
	}
	if root == nil {
		return buf[:0], 0, errNoTree
	}
	rootNode := (*sitterNode)(unsafe.Pointer(root)).c // a copy: C memory only
	if C.tsflat_fields(&rootNode) > math.MaxUint8 {
		return buf[:0], 0, errFields
	}
	want := int(C.tsflat_count(&rootNode))
	if cap(buf) < want {
		buf = make([]Node, want)
	}
	buf = buf[:want]
	if want == 0 {
		return buf, 0, nil
	}
	var p *C.uint8_t
	if len(prune) > 0 {
		p = (*C.uint8_t)(unsafe.Pointer(&prune[0]))
	}
	var pruned C.uint32_t
	n := C.tsflat_walk(&rootNode, (*C.tsflat_rec)(unsafe.Pointer(&buf[0])), C.uint32_t(want), p, C.uint32_t(len(prune)), &pruned)
	if n == 0 {
		return buf[:0], 0, errors.New("flatten syntax tree: out of memory")
	}
	return buf[:n], int(n) + int(pruned), nil
}
