// Package frontend holds what the tree-sitter front ends share on top of
// the tree copy of package tsflat: a grammar's symbols resolved once to the
// front end's own small kinds, navigation over the copied records, the
// scratch sets of names a statement defines, uses and binds for its scope
// (the Go, JavaScript and TypeScript front ends), and the sorted name sets
// and row repair after error recovery (those and Java).
//
// A front end keeps its own mapping from grammar nodes to statements; this
// package knows nothing of any language. Names are substrings of one
// string copy of the source, so a parse allocates per statement, not per
// name.
package frontend
