package retrieve

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/internal/mapfile"
	"github.com/graphcoder/graphcoder/slice"
)

// Tokenizer splits statement text into tokens. Any token.Tokenizer fits.
type Tokenizer interface {
	Name() string
	Split(dst []string, text string) []string
}

// File is one indexed file in the form the index is built from: the
// database record of a file, with token ids local to the file, and the
// embeddings of its entries when it has them (Vectors: one per entry, or
// none at all; an entry whose vector is empty has none, see dense.go).
type File = db.FileRecord

// Stmt is one statement of a File (Kind is not used).
type Stmt = db.StmtRecord

// Entry is the database key of one statement: the slice taken with that
// statement standing in as the target.
type Entry = db.Entry

// Params are the slicing parameters an index was built with.
type Params struct {
	Hops          int // h
	MaxStatements int // l
}

// ValueRadius is the number of lines before and after a statement that its
// value (the retrieved code window) holds (spec section 3).
const ValueRadius = 10

// DefaultMaskWords is the number of 64-bit words of the per-entry bit set
// of the most frequent key tokens (see the package comment).
const DefaultMaskWords = 2

type fileData struct {
	path, language string
	src            []byte // the lines joined by '\n', compressed
	srcLen         int32  // length of the joined lines
	lines          int32
	frame0         uint32 // first frame of src in the frame table (source.go)
	stmtBase       uint32 // first global statement id
	entryBase      uint32 // first entry id
}

// explicitGraph holds the hops and edges of an entry that the file's edge
// union does not reproduce (slices not made by package slice).
type explicitGraph struct {
	hop   []uint8
	edges []slice.Edge
}

// Index is an immutable in-memory retrieval index: every entry's key token
// set, split between a bit set of the most frequent tokens and an inverted
// index of the others, and the compact slice graphs the fine stage scores.
// It is safe for concurrent queries.
type Index struct {
	tok    Tokenizer
	params Params
	vocab  mapfile.Strings // token id -> token, searchable

	// damage records the first source that failed to decompress (see
	// SourceError); a pointer, so that the Index may be copied.
	damage *sourceDamage
	// srcs keeps the sources read last (source.go); a pointer too.
	srcs *sourceCache

	files []fileData
	// frameTab is the frame table of the files' compressed sources, and
	// srcCodec their codec (source.go).
	frameTab frameTable
	srcCodec uint8

	// Statements, by global id.
	stmtRows    [][2]int32
	stmtTokOff  []uint32 // len = statements+1, into stmtTokens
	stmtTokens  []byte   // sorted global token ids as uvarint deltas
	stmtEdgeOff []uint32 // len = statements+1, into stmtEdges
	stmtEdges   []byte   // out-edges in the file's edge union: uvarint zigzag(to-from)<<2|type
	stmtDefOff  []uint32 // len = statements+1, into stmtDefs
	stmtDefs    []uint32 // ids into defNames
	defNames    mapfile.Strings

	// Entries, by id.
	entryOff   []uint32 // len = entries+1, into entryBytes
	entryBytes []byte   // see appendEntry
	keyLen     []uint32 // |key|
	maskWords  int
	masks      []uint64 // maskWords per entry: the key's frequent tokens
	maskBit    []int32  // token -> bit in the masks, or -1
	explicit   map[uint32]*explicitGraph

	// postings: token -> entries whose key holds it, for tokens without a
	// mask bit, as uvarint deltas (the first from 0). A copy (dups.go) is
	// in none, and its masks are zero.
	postOff []uint32
	post    []byte
	// dup chains each representative to the copies of its key (dups.go):
	// per entry the next copy, dupCopy set on the copies; nil for none.
	dup []uint32

	// The term statistics of BM25 (see bm25.go).
	bm bm25Data

	// Dense vectors of the entries (see dense.go); empty without them.
	vec denseData

	byPath map[string]int32

	// bounds are the coarse scans' per-block bounds (blocks.go), derived
	// on first use; a pointer, so that the Index may be copied.
	bounds *blockBounds
	// langs are the blocks of each language (langblocks.go), derived on
	// first use.
	langs *langBlocks
	// xm is the Jaccard ranking's second mask (xmask.go), derived on its
	// first use.
	xm *xmaskData
	// long are the Jaccard ranking's postings of the long keys
	// (longpost.go), derived on first use.
	long *longPostings

	// keep is the mapped file the arrays are slices of (see mapped.go),
	// nil for an index built in memory.
	keep *mapfile.File
}

// Builder accumulates files into an Index.
type Builder struct {
	ix       *Index
	maskBits int // tokens given a mask bit
	vocab    map[string]uint32
	words    []string // by token id
	defIDs   map[string]uint32
	defs     []string // by def id
	// Key token sets of the entries and their term frequencies, until
	// Finish builds the masks and postings from them (keys.go).
	keys keyStore
	df   []uint32 // token -> entries holding it
	seen []uint32 // token -> 1 + the last entry whose key took it
	tf   []uint32 // token -> its frequency in the entry that last took it
	stmt []uint32

	dups      dupFinder
	tmp, tmp2 []uint32
	union     []uint64
	derive    deriveScratch
	cutter    frameCutter
}

// NewBuilder starts an index whose queries are tokenized with tok and
// sliced with params.
func NewBuilder(tok Tokenizer, params Params) *Builder {
	return &Builder{ix: &Index{
		tok: tok, params: params,
		stmtTokOff:  []uint32{0},
		stmtEdgeOff: []uint32{0},
		stmtDefOff:  []uint32{0},
		entryOff:    []uint32{0},
		explicit:    map[uint32]*explicitGraph{},
		byPath:      map[string]int32{},
		damage:      &sourceDamage{},
		srcs:        &sourceCache{},
		bounds:      &blockBounds{},
		langs:       &langBlocks{},
		xm:          &xmaskData{},
		long:        &longPostings{},
	}, vocab: map[string]uint32{}, defIDs: map[string]uint32{}, maskBits: DefaultMaskWords * 64,
		cutter: frameCutter{size: frameBytes}}
}

// Add adds one file. A malformed record (an index out of range) is an
// error and leaves the builder unchanged.
func (b *Builder) Add(f *File) error {
	if err := validate(f); err != nil {
		return fmt.Errorf("file %s: %w", f.Path, err)
	}
	if err := b.checkVectors(f); err != nil {
		return fmt.Errorf("file %s: %w", f.Path, err)
	}
	ix := b.ix
	if _, dup := ix.byPath[f.Path]; dup {
		return fmt.Errorf("file %s: added twice", f.Path)
	}
	global := make([]uint32, len(f.Vocab))
	for i, t := range f.Vocab {
		id, ok := b.vocab[t]
		if !ok {
			id = uint32(len(b.words))
			t = strings.Clone(t)
			b.vocab[t] = id
			b.words = append(b.words, t)
			b.df = append(b.df, 0)
			b.seen = append(b.seen, 0)
			b.tf = append(b.tf, 0)
		}
		global[i] = id
	}
	fi := int32(len(ix.files))
	base := uint32(len(ix.stmtRows))
	frame0 := uint32(ix.frameTab.len())
	src, srcLen := b.cutter.compress(f.Lines, &ix.frameTab)
	ix.files = append(ix.files, fileData{path: f.Path, language: f.Language,
		src: src, srcLen: int32(srcLen), lines: int32(len(f.Lines)), frame0: frame0,
		stmtBase: base, entryBase: uint32(len(ix.keyLen))})
	ix.byPath[f.Path] = fi

	for _, s := range f.Stmts {
		ids := b.tmp[:0]
		for _, t := range s.Tokens {
			ids = append(ids, global[t])
		}
		ids = sortedSet(ids)
		b.tmp = ids
		ix.stmtTokens = appendSet(ix.stmtTokens, ids)
		ix.stmtTokOff = append(ix.stmtTokOff, uint32(len(ix.stmtTokens)))
		ix.stmtRows = append(ix.stmtRows, [2]int32{int32(s.StartRow), int32(s.EndRow)})
		for _, d := range names(s.Defs, s.Params) {
			id, ok := b.defIDs[d]
			if !ok {
				id = uint32(len(b.defs))
				d = strings.Clone(d)
				b.defIDs[d] = id
				b.defs = append(b.defs, d)
			}
			ix.stmtDefs = append(ix.stmtDefs, id)
		}
		ix.stmtDefOff = append(ix.stmtDefOff, uint32(len(ix.stmtDefs)))
	}

	// The file's edge union: every slice's edges by statement ids. A
	// slice of package slice is the union induced on its statements, minus
	// the DD and CD edges into its target, so it need not be stored.
	// Edges are packed as from<<34 | to<<2 | type (file-local ids), so
	// that sorting the integers sorts the edges.
	union := b.union[:0]
	for _, e := range f.Entries {
		for _, ed := range e.Edges {
			union = append(union, uint64(e.Nodes[ed.From])<<34|uint64(e.Nodes[ed.To])<<2|uint64(ed.Type))
		}
	}
	slices.Sort(union)
	union = slices.Compact(union)
	b.union = union
	for s := range f.Stmts {
		for len(union) > 0 && union[0]>>34 == uint64(s) {
			d := int64(union[0]>>2&(1<<32-1)) - int64(s)
			ix.stmtEdges = binary.AppendUvarint(ix.stmtEdges, zigzag(d)<<2|union[0]&3)
			union = union[1:]
		}
		ix.stmtEdgeOff = append(ix.stmtEdgeOff, uint32(len(ix.stmtEdges)))
	}

	for _, e := range f.Entries {
		ei := uint32(len(ix.keyLen))
		nodes := b.tmp2[:0]
		targetPos := len(e.Nodes)
		for i, n := range e.Nodes {
			nodes = append(nodes, base+n)
			if n == e.Target && targetPos == len(e.Nodes) {
				targetPos = i
			}
		}
		b.tmp2 = nodes
		ix.entryBytes = appendEntry(ix.entryBytes, e.Target, targetPos, e.Nodes)
		ix.entryOff = append(ix.entryOff, uint32(len(ix.entryBytes)))
		if !b.derive.matches(ix, base, nodes, targetPos, e.Hop, e.Edges) {
			ix.explicit[ei] = &explicitGraph{hop: slices.Clone(e.Hop), edges: slices.Clone(e.Edges)}
		}

		// The key: the union of the other statements' tokens, deduplicated
		// by marking each token with the entry that last took it; a
		// token's term frequency is the number of those statements
		// holding it.
		key := b.tmp[:0]
		for _, n := range nodes {
			if n == base+e.Target {
				continue
			}
			b.stmt = ix.appendStmtTokens(b.stmt[:0], n)
			for _, t := range b.stmt {
				if b.seen[t] != ei+1 {
					b.seen[t] = ei + 1
					b.df[t]++
					b.tf[t] = 1
					key = append(key, t)
				} else {
					b.tf[t]++
				}
			}
		}
		slices.Sort(key)
		b.tmp = key
		start := len(b.keys.buf)
		b.keys.buf = appendSet(b.keys.buf, key)
		ix.keyLen = append(ix.keyLen, uint32(len(key)))
		dl := uint64(0)
		for _, t := range key {
			b.keys.buf = binary.AppendUvarint(b.keys.buf, uint64(b.tf[t]))
			dl += uint64(b.tf[t])
		}
		ix.bm.addDL(dl)
		b.dups.add(ix, ei, f.Language, b.keys.buf[start:], uint32(len(key)))
		if err := b.keys.endEntry(); err != nil {
			return fmt.Errorf("file %s: %w", f.Path, err)
		}
	}
	b.addVectors(f)
	return nil
}

// names returns defs and the params not among them: the names renaming
// goes through (a parameter is as much a local name as a definition).
func names(defs, params []string) []string {
	if len(params) == 0 {
		return defs
	}
	out := slices.Clip(defs)
	for _, p := range params {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func validate(f *File) error {
	if len(f.Stmts) >= 1<<30 {
		return fmt.Errorf("%d statements, more than an index holds per file", len(f.Stmts))
	}
	for i, s := range f.Stmts {
		for _, t := range s.Tokens {
			if int(t) >= len(f.Vocab) {
				return fmt.Errorf("statement %d: token %d outside a vocabulary of %d", i, t, len(f.Vocab))
			}
		}
		if s.StartRow < 0 || s.EndRow < s.StartRow || s.EndRow >= len(f.Lines) {
			return fmt.Errorf("statement %d: bad rows %d-%d", i, s.StartRow, s.EndRow)
		}
	}
	for i, e := range f.Entries {
		if int(e.Target) >= len(f.Stmts) {
			return fmt.Errorf("entry %d: target %d outside %d statements", i, e.Target, len(f.Stmts))
		}
		if len(e.Hop) != len(e.Nodes) || len(e.Nodes) > 1<<16-1 || len(e.Edges) > 1<<16-1 {
			return fmt.Errorf("entry %d: %d nodes, %d hops, %d edges", i, len(e.Nodes), len(e.Hop), len(e.Edges))
		}
		for _, n := range e.Nodes {
			if int(n) >= len(f.Stmts) {
				return fmt.Errorf("entry %d: node %d outside %d statements", i, n, len(f.Stmts))
			}
		}
		for _, ed := range e.Edges {
			if int(ed.From) >= len(e.Nodes) || int(ed.To) >= len(e.Nodes) || ed.Type > 2 {
				return fmt.Errorf("entry %d: bad edge %v", i, ed)
			}
		}
	}
	return nil
}

// Index is Finish for a builder that keeps its keys in memory (no
// SpillKeys), which cannot fail.
func (b *Builder) Index() *Index {
	if b.keys.f != nil {
		panic("retrieve: Index of a builder that spills its keys: use Finish")
	}
	ix, err := b.Finish()
	if err != nil {
		panic(err) // unreachable: nothing is read back
	}
	return ix
}

// Finish finishes the build: it gives the DefaultMaskWords*64 tokens held
// by the most keys a bit in the per-entry masks and indexes the other
// tokens in postings lists. The builder must not be used afterwards; it
// fails only when spilled keys cannot be read back (SpillKeys).
func (b *Builder) Finish() (*Index, error) {
	defer b.keys.close()
	ix := b.ix
	b.ix = nil
	ix.vocab = mapfile.NewStrings(b.words, true)
	ix.defNames = mapfile.NewStrings(b.defs, false)
	b.vocab, b.words, b.defIDs, b.defs = nil, nil, nil, nil
	nv := ix.vocab.Len()
	nEntries := len(ix.keyLen)
	ix.dup = b.dups.finish()

	byDF := make([]uint32, 0, nv)
	for t, n := range b.df {
		if n > 0 {
			byDF = append(byDF, uint32(t))
		}
	}
	slices.SortFunc(byDF, func(x, y uint32) int { return cmp.Or(cmp.Compare(b.df[y], b.df[x]), cmp.Compare(x, y)) })
	bits := min(b.maskBits, len(byDF))
	ix.maskWords = (bits + 63) / 64
	ix.maskBit = make([]int32, nv)
	for i := range ix.maskBit {
		ix.maskBit[i] = -1
	}
	for i, t := range byDF[:bits] {
		ix.maskBit[t] = int32(i)
	}

	// Size the postings, then fill them, decoding the keys twice. The
	// first pass also records the term frequencies of the mask tokens, the
	// second those of the postings (bm25.go).
	ix.masks = make([]uint64, nEntries*ix.maskWords)
	size := make([]uint32, nv+1)
	last := make([]uint32, nv)
	bm := newBM25Builder(ix, b.df)
	var key, tfs []uint32
	kr, err := b.keys.reader()
	if err != nil {
		return nil, err
	}
	for e := range nEntries {
		if key, tfs, err = kr.next(int(ix.keyLen[e]), key[:0], tfs[:0]); err != nil {
			return nil, err
		}
		m := ix.masks[e*ix.maskWords : (e+1)*ix.maskWords]
		bm.startEntry(e)
		if ix.isCopy(uint32(e)) {
			bm.endEntry(e) // no mask bit, no posting: its representative's
			continue
		}
		for i, t := range key {
			tf := uint64(tfs[i])
			if bit := ix.maskBit[t]; bit >= 0 {
				m[bit>>6] |= 1 << (bit & 63)
				bm.maskTF(bit, tf)
				continue
			}
			size[t+1] += uint32(uvarintLen(uint64(uint32(e) - last[t])))
			last[t] = uint32(e)
			bm.countPosting(t, tf)
		}
		bm.endEntry(e)
	}
	for i := 1; i <= nv; i++ {
		size[i] += size[i-1]
	}
	ix.postOff = size
	ix.post = make([]byte, size[nv])
	fill := slices.Clone(size[:nv])
	clear(last)
	bm.startPostings()
	if kr, err = b.keys.reader(); err != nil {
		return nil, err
	}
	for e := range nEntries {
		if key, tfs, err = kr.next(int(ix.keyLen[e]), key[:0], tfs[:0]); err != nil {
			return nil, err
		}
		if ix.isCopy(uint32(e)) {
			continue
		}
		for i, t := range key {
			tf := uint64(tfs[i])
			if bit := ix.maskBit[t]; bit >= 0 {
				bm.maskTF(bit, tf)
				continue
			}
			fill[t] += uint32(binary.PutUvarint(ix.post[fill[t]:], uint64(uint32(e)-last[t])))
			last[t] = uint32(e)
			bm.postingTF(t, tf)
		}
		bm.endEntry2()
	}
	b.keys.close()
	b.df, b.seen, b.tf, b.cutter = nil, nil, nil, frameCutter{}

	// Copy the arenas grown by append to their exact size (those a Grow
	// hint sized well are only clipped).
	ix.stmtTokens = fit(ix.stmtTokens)
	ix.stmtEdges = fit(ix.stmtEdges)
	ix.entryBytes = fit(ix.entryBytes)
	ix.stmtRows = fit(ix.stmtRows)
	ix.keyLen = fit(ix.keyLen)
	ix.files = fit(ix.files)
	ix.stmtTokOff = fit(ix.stmtTokOff)
	ix.stmtEdgeOff = fit(ix.stmtEdgeOff)
	ix.stmtDefOff = fit(ix.stmtDefOff)
	ix.stmtDefs = fit(ix.stmtDefs)
	ix.entryOff = fit(ix.entryOff)
	ix.bm.dl = fit(ix.bm.dl)
	ix.vec.vals = slices.Clip(ix.vec.vals)
	ix.vec.scale = slices.Clip(ix.vec.scale)
	if len(ix.explicit) == 0 {
		ix.explicit = nil
	}
	ix.bm.seek = ix.buildBM25Seek()
	return ix, nil
}

// fit returns s without spare capacity: a copy when it has more than an
// eighth to spare.
func fit[T any](s []T) []T {
	if cap(s)-len(s) > len(s)/8 {
		return slices.Clone(s)
	}
	return slices.Clip(s)
}

// Grow sizes the builder's arrays for files of the given numbers of
// statements and entries in all, so that adding them does not copy the
// arrays as they grow (which doubles the memory of a large build).
func (b *Builder) Grow(stmts, entries int) {
	ix := b.ix
	grow := func(s []uint32, n int) []uint32 { return slices.Grow(s, n) }
	ix.stmtRows = slices.Grow(ix.stmtRows, stmts)
	ix.stmtTokOff = grow(ix.stmtTokOff, stmts)
	ix.stmtEdgeOff = grow(ix.stmtEdgeOff, stmts)
	ix.stmtDefOff = grow(ix.stmtDefOff, stmts)
	ix.entryOff = grow(ix.entryOff, entries)
	ix.keyLen = grow(ix.keyLen, entries)
	ix.bm.dl = slices.Grow(ix.bm.dl, entries)
	// The byte arenas, by the sizes measured on large code bases (bytes
	// per statement or entry), a little more.
	ix.stmtTokens = slices.Grow(ix.stmtTokens, 20*stmts)
	ix.stmtEdges = slices.Grow(ix.stmtEdges, 4*stmts)
	ix.entryBytes = slices.Grow(ix.entryBytes, 16*entries)
	if b.keys.f == nil {
		b.keys.buf = slices.Grow(b.keys.buf, 84*entries)
	}
}

// Len returns the number of entries.
func (ix *Index) Len() int { return len(ix.keyLen) }

// Files returns the number of files.
func (ix *Index) Files() int { return len(ix.files) }

// Params returns the slicing parameters of the index.
func (ix *Index) Params() Params { return ix.params }

// Tokenizer returns the tokenizer queries must use.
func (ix *Index) Tokenizer() Tokenizer { return ix.tok }

// Lines returns the indexed lines of the file at path, or nil.
func (ix *Index) Lines(path string) []string {
	if fi, ok := ix.byPath[path]; ok {
		return ix.lines(fi)
	}
	return nil
}

// Bytes estimates the memory the index holds, for capacity checks.
func (ix *Index) Bytes() int64 {
	n := int64(len(ix.stmtTokOff)+len(ix.stmtEdgeOff)+len(ix.stmtDefOff)+len(ix.stmtDefs)+
		len(ix.entryOff)+len(ix.keyLen)+len(ix.maskBit)+len(ix.postOff)+len(ix.dup)) * 4
	n += int64(len(ix.stmtRows))*8 + int64(len(ix.masks))*8
	n += int64(len(ix.stmtTokens) + len(ix.stmtEdges) + len(ix.entryBytes) + len(ix.post))
	n += ix.vocab.Size() + ix.defNames.Size()
	for _, f := range ix.files {
		n += int64(len(f.src) + len(f.path) + 64)
	}
	n += int64(ix.frameTab.len()) * 16
	for _, x := range ix.explicit {
		n += int64(len(x.hop)+6*len(x.edges)) + 64
	}
	// The block bounds, derived on first use (blocks.go), with those of
	// the groups of blocks; BM25's 5 bytes a block, derived on its first
	// use, are left out.
	nb := int64(ix.nBlocks())
	n += nb*int64(8*ix.maskWords+4) + (nb+superSize-1)/superSize*int64(8*ix.maskWords+8)
	if ix.xm != nil {
		n += ix.xm.bytes() // the Jaccard ranking's second mask, once derived
	}
	if ix.long != nil {
		n += ix.long.bytes() // its postings of the long keys, once derived
	}
	return n + ix.bm.bytes() + ix.vec.bytes()
}

// fileOf returns the file of entry e.
func (ix *Index) fileOf(e uint32) int32 {
	i := sort.Search(len(ix.files), func(i int) bool { return ix.files[i].entryBase > e })
	return int32(i - 1)
}

// appendStmtTokens appends the token ids of statement s to dst.
func (ix *Index) appendStmtTokens(dst []uint32, s uint32) []uint32 {
	return decodeSet(dst, ix.stmtTokens[ix.stmtTokOff[s]:ix.stmtTokOff[s+1]])
}

// defsOf appends to dst the names statement s defines.
func (ix *Index) defsOf(dst []string, s uint32) []string {
	for _, id := range ix.stmtDefs[ix.stmtDefOff[s]:ix.stmtDefOff[s+1]] {
		dst = append(dst, ix.defNames.Str(id))
	}
	return dst
}

// entryView is an entry decoded from its bytes.
type entryView struct {
	file      int32
	target    uint32   // global statement id
	targetPos int      // index of the target in nodes, len(nodes) if absent
	nodes     []uint32 // global statement ids, by position
}

// appendEntry encodes an entry: uv target (file-local), uv n, uv target
// position, then n zigzag deltas of the file-local node ids, the first
// from the target.
func appendEntry(dst []byte, target uint32, targetPos int, nodes []uint32) []byte {
	dst = binary.AppendUvarint(dst, uint64(target))
	dst = binary.AppendUvarint(dst, uint64(len(nodes)))
	dst = binary.AppendUvarint(dst, uint64(targetPos))
	prev := int64(target)
	for _, n := range nodes {
		dst = binary.AppendVarint(dst, int64(n)-prev)
		prev = int64(n)
	}
	return dst
}

// entry decodes entry e into v, reusing v.nodes.
func (ix *Index) entry(e uint32, v *entryView) {
	fi := ix.fileOf(e)
	base := int64(ix.files[fi].stmtBase)
	b := ix.entryBytes[ix.entryOff[e]:ix.entryOff[e+1]]
	target, k := uvarint(b)
	b = b[k:]
	n, k := uvarint(b)
	b = b[k:]
	pos, k := uvarint(b)
	b = b[k:]
	if base+int64(target) >= int64(len(ix.stmtRows)) {
		panic(damaged("statement out of range"))
	}
	v.file, v.target, v.targetPos = fi, uint32(base+int64(target)), int(pos)
	v.nodes = v.nodes[:0]
	prev := int64(target)
	for range n {
		d, k := binary.Varint(b)
		if k <= 0 {
			panic(damaged("malformed varint"))
		}
		b = b[k:]
		prev += d
		// A node is a statement of the entry's file: at or after base.
		if n := base + prev; prev < 0 || n >= int64(len(ix.stmtRows)) {
			panic(damaged("statement out of range"))
		}
		v.nodes = append(v.nodes, uint32(base+prev))
	}
}

// key appends the key token set of entry e to dst (tests and Fine).
func (ix *Index) key(e int, dst []uint32) []uint32 {
	var v entryView
	ix.entry(uint32(e), &v)
	start := len(dst)
	for _, n := range v.nodes {
		if n != v.target {
			dst = ix.appendStmtTokens(dst, n)
		}
	}
	return append(dst[:start], sortedSet(dst[start:])...)
}

// deriveScratch holds the buffers of deriving a slice's edges and hops.
type deriveScratch struct {
	// stamp[v] == epoch while file-local statement v is a node of the
	// slice being derived, at position pos[v].
	stamp []uint32
	pos   []uint16
	epoch uint32
	keys  []uint64
	edges []slice.Edge
	hop   []uint8
	queue []int32
	adj   [][]uint16
}

// derive computes the edges and hops of the slice with the given nodes
// (global ids of statements of the file starting at global id base) from
// the file's edge union, as package slice makes them: the union induced
// on the nodes minus the DD and CD edges into the target, sorted by (From,
// To, Type), and hops by breadth-first search from the target over the
// edges in both directions. The results are reused by the next call.
func (d *deriveScratch) derive(ix *Index, base uint32, nodes []uint32, targetPos int) (hop []uint8, edges []slice.Edge) {
	d.epoch++
	if d.epoch == 0 {
		clear(d.stamp)
		d.epoch = 1
	}
	for i, n := range nodes {
		v := n - base
		if int(v) >= len(d.stamp) {
			grow := int(v) + 1 + len(d.stamp)/2
			d.stamp = append(d.stamp, make([]uint32, grow-len(d.stamp))...)
			d.pos = append(d.pos, make([]uint16, grow-len(d.pos))...)
		}
		d.stamp[v], d.pos[v] = d.epoch, uint16(i)
	}
	// Keys From<<18 | To<<2 | Type sort as the edges must.
	d.keys = d.keys[:0]
	for i, n := range nodes {
		b := ix.stmtEdges[ix.stmtEdgeOff[n]:ix.stmtEdgeOff[n+1]]
		for len(b) > 0 {
			v, k := uvarint(b)
			b = b[k:]
			to := int64(n-base) + unzigzag(v>>2)
			typ := v & 3
			if to < 0 || to >= int64(len(d.stamp)) || d.stamp[to] != d.epoch {
				continue
			}
			j := d.pos[to]
			if typ != uint64(ccg.CF) && int(j) == targetPos {
				continue
			}
			d.keys = append(d.keys, uint64(i)<<18|uint64(j)<<2|typ)
		}
	}
	if !slices.IsSorted(d.keys) { // positions mostly follow ids
		slices.Sort(d.keys)
	}
	d.edges = d.edges[:0]
	for _, k := range d.keys {
		d.edges = append(d.edges, slice.Edge{From: uint16(k >> 18), To: uint16(k >> 2), Type: ccg.EdgeType(k & 3)})
	}

	k := len(nodes)
	d.hop = slices.Grow(d.hop[:0], k)[:k]
	for i := range d.hop {
		d.hop[i] = slice.Unreachable
	}
	if targetPos < k {
		for len(d.adj) < k {
			d.adj = append(d.adj, nil)
		}
		for i := range k {
			d.adj[i] = d.adj[i][:0]
		}
		for _, e := range d.edges {
			d.adj[e.From] = append(d.adj[e.From], e.To)
			d.adj[e.To] = append(d.adj[e.To], e.From)
		}
		d.hop[targetPos] = 0
		d.queue = append(d.queue[:0], int32(targetPos))
		for head := 0; head < len(d.queue); head++ {
			u := d.queue[head]
			for _, w := range d.adj[u] {
				if d.hop[w] == slice.Unreachable {
					d.hop[w] = uint8(min(int(d.hop[u])+1, slice.Unreachable-1))
					d.queue = append(d.queue, int32(w))
				}
			}
		}
	}
	return d.hop, d.edges
}

// matches reports whether derive reproduces hop and edges.
func (d *deriveScratch) matches(ix *Index, base uint32, nodes []uint32, targetPos int, hop []uint8, edges []slice.Edge) bool {
	if targetPos >= len(nodes) {
		return false
	}
	h, e := d.derive(ix, base, nodes, targetPos)
	return slices.Equal(h, hop) && slices.Equal(e, edges)
}

// appendSet appends a sorted set as uvarint deltas, the first from 0.
func appendSet(dst []byte, set []uint32) []byte {
	prev := uint32(0)
	for _, t := range set {
		dst = binary.AppendUvarint(dst, uint64(t-prev))
		prev = t
	}
	return dst
}

// decodeSet appends the set encoded by appendSet to dst.
func decodeSet(dst []uint32, b []byte) []uint32 {
	prev := uint32(0)
	for len(b) > 0 {
		v, k := uvarint(b)
		b = b[k:]
		prev += uint32(v)
		dst = append(dst, prev)
	}
	return dst
}

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(v uint64) int64 { return int64(v>>1) ^ -int64(v&1) }

func uvarintLen(v uint64) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// sortedSet sorts s in place and returns its prefix without duplicates.
func sortedSet(s []uint32) []uint32 {
	slices.Sort(s)
	return slices.Compact(s)
}

// damaged is the panic of reading content that does not hold together,
// which only a damaged mapped index holds; Snapshot.guard turns it into
// ErrDamaged.
type damaged string

func (d damaged) Error() string { return string(d) }

// uvarint decodes a uvarint of the index's arrays (see damaged).
func uvarint(b []byte) (uint64, int) {
	v, k := binary.Uvarint(b)
	if k <= 0 {
		panic(damaged("malformed varint"))
	}
	return v, k
}
