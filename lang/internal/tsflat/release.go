package tsflat

/*
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#define TSFLAT_TRIMS 1
static void tsflat_trim(void) { malloc_trim(0); }
#else
#define TSFLAT_TRIMS 0
static void tsflat_trim(void) {}
#endif
*/
import "C"

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// Close frees tree, the syntax tree of a source of size bytes, once its
// records are copied out. From CollectFrom bytes it also hands the C
// heap's free memory back to the system (glibc's malloc_trim): the tree
// lives in C memory, outside the Go heap, and is about fifty times its
// source (a 1 MB file's tree is 40 to 50 MB); glibc keeps what is freed
// for its next allocations, so without this the tree's memory stays in
// the process while the Go heap, which cannot reuse it, grows by the
// statements and the graph, and a process that once parsed a large file
// keeps its tree's size for good. Smaller trees are left to the
// allocator: their memory is reused by the next parse.
func Close(tree *sitter.Tree, size int) {
	tree.Close()
	if size >= CollectFrom {
		C.tsflat_trim()
	}
}

// trims reports whether Close hands free C memory back (glibc).
const trims = C.TSFLAT_TRIMS != 0

// trim hands the C heap's free memory back to the system (glibc).
func trim() { C.tsflat_trim() }
