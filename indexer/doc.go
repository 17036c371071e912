// Package indexer builds a repository's index: it walks the source tree,
// decides which files belong in it, and feeds them to a db.Builder from a
// bounded pool of workers.
//
// A repository is untrusted input. The walk honours .gitignore files and
// leaves out version-control metadata, the index folder itself, vendored
// and generated trees, binary and non-UTF-8 files, files over a size limit,
// special files and symbolic-link loops; every file left out is counted
// under a reason in the Summary rather than failing the build, and files
// with syntax errors are indexed (the front ends recover). Parsing, graph
// building and slicing run in parallel, one parser per worker; unchanged
// files are recognised by content hash and not parsed again.
package indexer
