// Package db stores a repository's GraphCoder database: for every
// statement of every indexed file, the CCG slice that serves as its
// retrieval key and the source it is a value window of (spec section 3).
//
// The store is Badger (an embedded LSM key/value store) with ZSTD block
// compression. Its layout is chosen so that the three things an index must
// do are cheap and safe:
//
//   - Loading is fast: everything retrieval needs for one file is a single
//     compact binary blob, decoded with a handful of allocations. Nothing is
//     stored per entry that can be derived: an entry's key tokens are the
//     union of its slice statements' tokens minus the target's, and its value
//     window is cut from the file's lines at read time.
//   - Rebuilding is incremental: blobs are addressed by the hash of the
//     file's content (and the parameters that shaped them), so a file that
//     did not change is neither parsed nor written again, and two files with
//     the same content share one blob. An incremental build
//     (BuildOptions.Incremental) starts from the published manifest and
//     only adds or removes the paths it is given, so an editor's saved
//     file is published without walking or hashing the repository.
//   - Publishing is atomic: a build writes its new blobs and a complete
//     manifest for a new generation, and only then flips one key to point at
//     it. A reader follows only that key, so it never sees a half-written
//     index, and a build killed at any moment leaves the previous
//     generation whole. Unreferenced generations and blobs are collected
//     after the flip.
//
// The index is also a cache of what the sources give, kept on disks that
// fill up, by processes that get killed, in files that get damaged, so:
//
//   - A reader never writes. Badger replays a killed writer's write-ahead
//     logs only read-write, so a read-only Open reads such an index
//     through a private folder of links in which each log is a copy of its
//     valid prefix (wal.go); the last published generation is then as
//     visible as after a clean close.
//   - Damage is ErrCorrupt, never a panic or a missing key taken for an
//     absent file: every block read is checksummed, the tables the
//     MANIFEST lists are opened in the caller's goroutine before Badger
//     opens them in its own (where a truncated table would panic beyond
//     recovery), calls into the store recover, and a blob listed in the
//     manifest but unreadable is damage. A reader leaves a damaged blob's
//     file out (Snapshot.ForEachIntact); a full build (BuildOptions.Verify)
//     writes it again, and indexer.Build rebuilds an index Badger cannot
//     open.
//   - A full disk is ErrNoSpace: Badger writes through memory-mapped files,
//     where running out of space is a fatal signal rather than an error,
//     so writers keep OpenOptions.MinFree free (checked before opening and
//     before every new blob, the manifest and the switch) and stop short.
//
// # Layout (SchemaVersion 5)
//
// Keys are byte strings; <gen> is a generation number as 16 lower-case hex
// digits (so keys sort by generation); integers inside values are unsigned
// LEB128 varints ("uv") unless said otherwise; "zz" is a zig-zag signed
// varint; strings are uv length + bytes.
//
//	meta/schema        decimal SchemaVersion; Open refuses any other value
//	meta/current       8-byte big-endian number of the published generation
//	meta/dirty         present while a build may have left unreferenced
//	                   blobs (set before its first blob write, cleared once
//	                   collection is done); the next build then scans all
//	                   blobs, otherwise the stored blobs are exactly the
//	                   current manifest's
//	g/<gen>/meta       JSON GenMeta: generation, tokenizer, h, l, analysis,
//	                   root, created, totals, number of manifest chunks
//	g/<gen>/m/<n>      manifest chunk n (8 hex digits), at most ~1 MiB:
//	                   repeated { path, sha256[32], language, uv lines,
//	                   uv statements, uv blob bytes }, paths sorted
//	f/<sha256><tag>    file blob; sha256 is the 32 raw bytes of the file
//	                   content's hash, tag is
//	                   "/<language>/<tokenizer>/<h>/<l>/a<analysis>" where
//	                   analysis is the AnalysisVersion of the front ends
//	                   and graph builder that produced it. The entry's user
//	                   meta byte says how the value holds the blob: 1, a
//	                   zstd frame of it (what builds write; from 1 KiB it
//	                   lives in the value log, out of the tables, see
//	                   stored.go); 0, the blob as is
//	v/<sha256><tag>\x00<model>
//	                   optional: the dense vectors of the entries of blob
//	                   f/<sha256><tag> computed by the embeddings model
//	                   named <model> (embed.Embedder.Name), written by
//	                   DB.Embed after the generation is published and
//	                   collected with their blob
//
// A file blob is:
//
//	language           string
//	source             uv line count, then string: the lines joined by '\n'
//	vocab              uv count, uv total bytes, count x uv length, bytes:
//	                   the file's distinct tokens; a token id is an index here
//	statements         uv count, uv total token ids, then per statement
//	                   (one per CCG vertex, in vertex-id order):
//	                   kind byte, zz start row delta from the previous
//	                   statement's start, uv end-start, uv n, n token ids
//	                   sorted, as deltas from the previous (the first from 0)
//	defs               uv count, uv total bytes, count x uv length, bytes:
//	                   the distinct names the statements define; then
//	                   uv total defs, and per statement (in vertex-id
//	                   order) uv n, n name indexes in the front end's order
//	params             the same layout as defs, for the parameters each
//	                   statement binds in the scope it opens
//	outline            uv section bytes, then the file's outline as its
//	                   front end recorded it (lang.File): string package;
//	                   uv symbol count, per symbol: kind byte, string
//	                   name, uv parent+1 (0: top level; a parent comes
//	                   first), zz start row delta from the previous
//	                   symbol's start, uv end-start, uv signature
//	                   start-start, uv signature end-signature start, uv
//	                   name row-signature start, uv doc row (0: none, else
//	                   zz(doc row-start)+1), string type, uv n, n strings
//	                   bases; uv import count, per import: zz row delta
//	                   from the previous import's, string module, string
//	                   name, string alias, flags byte (1: static). Every
//	                   row lies inside the file.
//	entries            uv count, uv total nodes, uv total edges, then per
//	                   entry (one per statement): uv target statement,
//	                   uv n, n zz slice statement ids in slice (source) order,
//	                   each a delta from the previous (the first from the
//	                   target), n hop bytes, uv m, m edges as uv from,
//	                   uv to<<2|type (from and to index the slice's nodes)
//	crc32              4 bytes little endian, Castagnoli, of all the above
//
// A vector record is:
//
//	uv dim, uv n       n = the blob's entries; dim 0 when none has a vector
//	n x vector         4-byte little-endian float32 scale (0: no vector),
//	                   then dim int8 values (zero without a vector): the
//	                   embedding of the entry's slice text scaled to unit
//	                   length is scale x values (embed.Quantize)
//	crc32              4 bytes little endian, Castagnoli, of all the above
//
// A blob or vector record whose checksum or structure is wrong is refused
// with an error, never trusted. SchemaVersion changes whenever any of this changes; an
// index of another version must be rebuilt.
package db
