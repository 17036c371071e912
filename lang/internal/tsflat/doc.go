// Package tsflat copies a tree-sitter syntax tree into a flat Go slice with
// one cgo call per tree.
//
// The smacker bindings answer every question about a node (its symbol, its
// rows, its next sibling) with a cgo call, and hand out a Go object per node
// they return. A front end that walks a whole file that way spends more time
// crossing into C than tree-sitter spends parsing. Flatten instead walks the
// tree in C with a tree cursor and writes one fixed-size record per node, in
// pre-order, into Go memory; the front ends then run on plain slices.
//
// The records are the largest thing a parse holds beside the statement
// tree (a 1 MB file has about half a million), so a record keeps only what
// cannot be derived: 24 bytes, no columns, child counts or parents. The
// package also holds the rules every front end follows to bound a file's
// memory: a pooled parser keeps no large buffer (Keep), and a large file's
// garbage is collected between the stages of its parse (Collect). A large
// file is parsed in pieces (ParseFlat), and a front end that maps the
// children of the file's root one by one takes the pieces as they come
// (ParseRuns) instead of their joined records, so that only one piece's
// records live beside the statements made of them; a front end that
// maps the children of a container below the root (Java's class bodies
// and blocks) takes them the same way with the piece's head and tail
// (ParsePieces).
//
// Copying a record costs about as much as a front end's reading it, and
// some subtrees no front end reads: the escape sequences and fragments
// inside a Java string literal are two thirds of the records of a
// generated resource bundle. A front end registers such symbols (Prune),
// and a whole parse leaves their nodes' children out unless they hold a
// syntax error; the count a parse reports includes them, so the limits
// on a tree's size are those of the whole tree.
//
// The C side declares the few tree-sitter entry points it uses rather than
// including the runtime's headers; the runtime itself is compiled and linked
// by github.com/smacker/go-tree-sitter. The layout of a record is checked
// against the Go type at start-up, and a mismatch makes Flatten return an
// error instead of writing memory it does not own.
package tsflat
