// Package indexer builds a repository's index: it walks the source tree,
// decides which files belong in it, and feeds them to a db.Builder from a
// bounded pool of workers.
//
// It also owns the file policy every command shares, so that the build,
// the live index, completion, the evaluation and the file watcher never
// disagree about a file: Rules.Walk is the one walk of a repository
// (.gitignore files with git's semantics, see ignoreFile; skipped folders;
// the index folder; link loops; links leaving the repository), ReadFile
// and ReadRepoFile are the one way to read a source file (a regular file,
// within the size limit, text: no NUL byte anywhere, valid UTF-8; a FIFO or
// device is refused without being read), and RelPath is the one way to
// name a file inside the repository.
//
// A repository is untrusted input: every file left out is counted under a
// reason in the Summary rather than failing the build, and files with
// syntax errors are indexed (the front ends recover). Parsing, graph
// building and slicing run in parallel, one parser per worker; unchanged
// files are recognised by content hash and not parsed again. A damaged
// index is rebuilt from the sources (Summary.Repaired).
package indexer
