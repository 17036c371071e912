// Package engine is the small domain API over an index: open it once,
// answer completion requests, swap in a new snapshot after a rebuild.
//
// The command line, the editor server and the evaluation all go through
// Engine.Complete, so a cursor is turned into a query in exactly one way:
// the file as it is now (the saved file or an unsaved buffer, indexed or
// not) is cut before the cursor line, parsed, given a dummy target vertex
// after its last statement and sliced with the index's h and l; retrieval
// runs coarse to fine; the snippets feed the prompt and the model-free
// prediction. The parse is bounded by what the slice can reach: the
// bodies of the functions above the cursor's own, read from the indexed
// outline of the file, are blanked first, so that a request in a long
// file parses little more than its module-level statements, headers and
// the cursor's function, and gets the query the whole prefix gives
// (bounded.go, TestBoundedParseReal); a block comment the cursor is in
// is left out of the parse. A Java prefix that parses into one syntax
// error holding the cursor's method is parsed again with its open
// brackets closed, and the query is read from that (recover.go,
// Stats.Recovered).
//
// The same parse outlines the buffer, and with the outlines of every
// indexed file (package symtab, loaded with the index) the definition
// context (package defctx) picks the repository definitions the code at
// the cursor reads or probably calls; they reach the assembler as blocks
// of source prompt.Definition, and Result.Definitions says why each was
// chosen. The buffer's outline is layered over the index's, so nothing of
// the indexed file at or after the cursor is read. Optionally
// (Options.ImportBoost, off by default: measured in docs/EVAL.md) the
// candidates are re-ranked by the import graph, their scores multiplied
// by 1 + boost x the relation of their file to the buffer's.
//
// An Engine holds one immutable retrieve.Snapshot behind an atomic
// pointer. Complete loads the pointer once, so a request sees one
// consistent snapshot from start to end while Reload builds the next
// index beside it and swaps it in; any number of requests may run at once.
//
// The base is mapped from the generation's snapshot file when it has one
// (package snapfile). The kernel maps a file's pages in blocks of
// hundreds of kilobytes as a search touches them, so a server of a large
// index would end up with most of the file resident: a request that ends
// with the process's resident set over Options.ResidentBudget releases
// them but for the arrays every search reads through, and an idle engine
// releases them all (release.go; Options.KeepMapped), the page cache
// keeping them for the next request. Engine.MemoryLimit sizes the Go
// runtime's memory limit a server sets itself, from the index.
//
// Loading a large index takes seconds, too long for an editor's save, so
// Update does not reload: it reads only the changed files' records into a
// small delta index layered over the loaded base (whose versions of those
// files are masked out), their outlines into a symbol table over the
// base's, and swaps that in within milliseconds. When the
// delta has grown past Options.FoldAfter files, a new base is loaded in
// the background and swapped in with whatever changed meanwhile.
package engine
