// Package retrieve finds the indexed statements whose code context graph
// slices best match a cursor's, coarse to fine (spec section 4).
//
// An Index is built once from the database records (Builder) and then
// only read, so any number of searches can run on it at once. It maps
// every file's local token vocabulary onto global integer ids, keeps each
// entry's key token set as a sorted []uint32 in one arena, and an inverted
// index from token to entries.
//
// The coarse stage is exact: the Jaccard similarity of the query's key
// set against every entry. Walking the postings of the query's tokens
// counts |A n B| for each entry sharing a token in a reused counter array,
// and |A u B| = |A| + |B| - |A n B| follows, so entries sharing nothing
// (similarity 0) are never touched and never returned. The top k are kept
// in a heap, ties broken by entry id.
//
// The leak rule keeps a completion honest inside an indexed file: an entry
// of the query's own file is dropped when its value window (10 lines
// around its statement) or any statement of its slice reaches the cursor
// line or beyond, since it would show the code being predicted.
//
// The fine stage scores candidates with the subgraph edit distance of
// package sed, in parallel, and ranks by distance ascending, coarse
// similarity descending. Mode coarse skips it; mode fine applies it to
// every entry. A time budget ends the fine stage early with the scored
// candidates first; a cancelled context ends the search with an error.
//
// Predict turns the best candidate into a completion without a model: the
// statement that stands where the query's dummy target does, renamed
// through the vertex alignment (see Predict for the exact rule).
package retrieve
