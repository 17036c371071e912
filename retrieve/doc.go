// Package retrieve finds the indexed statements whose code context graph
// slices best match a cursor's, coarse to fine (spec section 4).
//
// An Index is built once from the database records (Builder) and then
// only read, so any number of searches can run on it at once. It maps
// every file's local token vocabulary onto global integer ids and keeps
// everything in a few flat arenas, compact enough that an opened index
// holds less than three times its size on disk:
//
//   - each entry's key token set is split in two: the tokens held by the
//     most keys (DefaultMaskWords x 64 of them) are bits of a per-entry
//     mask; every other token has a postings list of the entries holding
//     it, delta-encoded as varints;
//   - statements' token sets and entries' slice statements are varint
//     deltas; a slice's edges and hops are not stored but derived from
//     the file's edge union (a slice of package slice is that union
//     induced on its statements, minus the DD and CD edges into its
//     target), checked at build time, with the rare slice that does not
//     follow the rule stored as given;
//   - each file's source is kept compressed in frames of a few KiB cut at
//     line ends (source.go), so that a query decompresses only the frames
//     of the windows it returns, not their whole files.
//
// The coarse stage is exact: the Jaccard similarity of the query's key
// set against every entry. Walking the postings of the query's rarer
// tokens counts their share of |A n B| per entry; a pass over the entries
// in id order adds the popcount of the entry's mask against the query's
// and keeps the top k in a heap (ties broken by entry id), with |A u B| =
// |A| + |B| - |A n B|. The Jaccard ranking gives the next most frequent
// tokens (up to 128, those whose postings are longest) bits of a second
// mask, stored in the snapshot file beside the first (xmask.go), so that its
// walk leaves out the longest lists it would read: on a large index most
// of the bytes of a walk. The walk keeps no list of the entries it
// touches, only each block's largest count. The pass reads a few bytes per
// entry, cheaper than walking the long postings of frequent tokens, and
// skips the groups of 4 blocks and the blocks of 16 entries whose bound
// cannot beat the heap's worst (blocks.go: the union of their masks, their
// largest count and their smallest key length bound their entries), the
// entries of the largest counts scored first so that the bound is tight
// from the start; inside a block that passes, an entry is scored only when
// its own count plus the query bits of the block's unions can beat the
// heap. Entries sharing nothing (similarity 0) are never
// returned. A query whose rarer postings are long (a key of hundreds of
// tokens) walks them rarest first, bounds the k-th similarity from the
// counts of the shortest eighth, and then counts and scans only the
// entries whose key length can still reach it (sizefilter.go). When that
// window's guess allows it, the rest of the walk reads only the postings
// of the entries of long keys, kept apart by bands of key lengths and
// stored in the snapshot file (longpost.go), and the scan's k-th then
// proves that no shorter entry can enter the top k, or the walk goes on
// with what the proof still needs. When a core is free the walk is split
// by entry range over two goroutines (splitwalk.go), and on an index of
// millions of entries so is the scan, by halves of the blocks, each half
// with its own heap that reads the other's worst (splitscan.go). In an
// index of several languages the scans of
// Jaccard and BM25 leave out the blocks holding no entry of the query's
// language (langblocks.go), whose entries the language filter would
// drop one by one.
//
// An entry whose key (its tokens and their term frequencies, in the same
// language) repeats an earlier entry's scores as that one against every
// query, so the builder leaves such copies out of the postings, masks and
// tf columns and chains them to the first entry of their key (dups.go):
// every ranking offers an entry's chain after it, each copy under its own
// checks, and the lists stay exactly those of the index without chains.
// A quarter of the JDK's entries are copies, and more than half of a
// corpus holding a tree twice, whose second copy's blocks the scans then
// skip whole.
//
// The leak rule keeps a completion honest inside an indexed file: an entry
// of the query's own file is dropped when its value window (10 lines
// around its statement) or any statement of its slice reaches the cursor
// line or beyond, since it would show the code being predicted.
//
// The coarse stage is one of several coarse signals behind one seam, the
// Ranker: Jaccard (the above), BM25 over the key token multisets (a
// token's term frequency is the number of slice statements holding it, so
// a rare repository identifier counts for more than self or return; it
// walks and ranks a region of entries at a time, so that its per-search
// state does not grow with the index; see bm25.go) and, when the index carries embeddings of the entries' slices,
// dense inner products (dense.go). Every ranker is exact under the same
// leak rule, language filter, snapshot merge, budget and Stats, so their
// lists can be fused, and a faster search can replace a scan as long as
// the brute-force property tests still hold. Mode hybrid (spec section 9) runs the rankers at once,
// each for its top Options.PerRanker, fuses their lists by reciprocal rank
// fusion (FuseRRF) and hands the fused top Options.Pool to the fine stage;
// mode bm25 is BM25 alone. Jaccard and BM25 both walk the postings of the
// query's rarer tokens, the largest cost of either. When the hybrid
// searches under way leave no core idle, hybrid walks them once for both
// (Snapshot.rankJaccardBM25) and then runs their scans side by side, the
// least CPU time; otherwise each ranker runs whole on its own core, the
// least wall time (Options.Walk). The lists are those of the two rankers
// either way. BM25, the slower of the two on long queries, walks each
// region's lists on two goroutines once a core is free (bm25split.go: in
// a lone hybrid request, once its Jaccard ranking is done), the helper
// walking the next region's lists while the caller ranks one, the sums
// being integers that do not depend on who added which list.
// BM25Params.Terms can cap a long query to its terms of largest idf
// (bm25terms.go): BM25 over fewer, rarer terms ranks several times faster
// on long queries, but the evaluation lost a little at every cap tried,
// so the default scores every term.
//
// The fine stage scores candidates with the subgraph edit distance of
// package sed, in parallel, and ranks by distance ascending, coarse
// score descending. In mode coarse2fine it re-ranks the Jaccard top
// Options.Pool (default: the top k, the paper's stage). Modes coarse and
// bm25 skip it; mode fine applies it to every entry. A time budget ends
// the coarse rankers or the fine stage early with what was ranked or
// scored so far; a cancelled context ends the search with an error.
//
// A Snapshot layers a small delta Index of changed files over a large
// base Index whose versions of those files are masked out; each part is
// searched exactly and the top k merged by (similarity, entry id), so a
// Snapshot ranks as one Index of its live files would. It lets a
// long-running server show a saved file within milliseconds without
// rebuilding the base.
//
// Predict turns the best candidate into a completion without a model: the
// statement that stands where the query's dummy target does, renamed
// through the vertex alignment (see Predict for the exact rule). Vote lets
// the best few candidates vote instead, weighted by rank.
package retrieve
