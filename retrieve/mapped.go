package retrieve

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/internal/mapfile"
	"github.com/graphcoder/graphcoder/slice"
)

// An Index is a few flat arrays (see Index), so it is stored by writing
// them as they are into the sections of a mapfile, and opened by mapping
// that file: the arrays become slices of the mapping, read in place. Only
// the file table (a few dozen bytes per file) and the rare entries kept in
// maps are decoded when an index is opened; opening costs milliseconds
// whatever the index's size, and a search reads from disk only the pages
// it touches.
//
// The sections, all prefixed "ix.", are those WriteTo writes; "ix.head"
// holds, as uvarints: mappedVersion, h, l, the mask words, the numbers of
// files, statements, entries, tokens, def names and explicit slices, the
// total key length of BM25 and the tokenizer's name (uvarint length and
// bytes). "ix.files" holds per file: path and language (uvarint length and
// bytes), then uvarint offset and length of its compressed source in
// "ix.src", the length of the source, its lines, its first statement and
// first entry. "ix.explicit" holds per explicit slice: uvarint entry, n,
// n hop bytes, uvarint m, m x (uvarint from, uvarint to<<2|type); the
// maps of large values ("ix.dlBig", "ix.maskTF.big", "ix.postTF.big")
// hold uvarint key and value pairs. Every other section is a raw array.
// "ix.blocks.or" and "ix.blocks.lmin" (the block bounds, blocks.go) may be
// missing, in files written before them: they are then derived on first
// use. So may the Jaccard ranking's second mask (xmask.go): "ix.xmask.tok"
// (uint32, the tokens given a bit, ascending), "ix.xmask.bit" (uint16,
// each one's bit), "ix.xmask.masks" (uint64, (len(tok)+63)/64 words per
// entry) and "ix.xmask.or" (as many words per block of 16 entries: their
// union). An index read from a file without them has no second mask and
// is searched as before them; readers older than them ignore them, so
// they need no new version. Written with the second mask, so may the
// Jaccard ranking's postings of long keys (longpost.go): "ix.long.min"
// (uint32 per band, ascending: the smallest key length of the band, the
// band holding the entries of key lengths from its min up to the next
// band's), "ix.long.off" (uint32, per band in turn and per token, the
// offset of the token's postings of the band in "ix.long.post", then the
// arena's length: bands x (tokens+1), ascending) and "ix.long.post" (per
// band and token the entries as uvarint deltas, the first from 0; empty
// for the tokens of either mask). A reader refuses them without a second
// mask (their lists leave out its tokens); an index read from a file
// without them goes without them; older readers ignore them, so they too
// need no new version. So may BM25's tables of the long lists
// (bm25seek.go): "ix.bm25.seekTok" (uint32, the tokens given a table,
// ascending, none with a mask bit), "ix.bm25.seekOff" (uint32 per token
// and one more: the index of its first record in "ix.bm25.seek", the last
// the number of records) and "ix.bm25.seek" (uint32, three per record, a
// record per range of 64 entries the token's postings hold entries of:
// the range, the offset of its first posting in the token's postings, and
// count-1 | (last entry - 64 range)<<8 | tf class<<16 | dl class<<24).
// Opening checks the order and the offsets; BM25's first use checks the
// three sections' checksums and ranks without the tables when one fails,
// and a walk that finds a record out of step with its postings fails with
// ErrDamaged. A file without them is ranked without them; older readers
// ignore them, so they need no new version.
//
// Layout 2 stores the sources in frames (source.go): "ix.src" holds each
// file's frames one after another, each an S2 block. The frame table is
// in "ix.frames.file" (uint32 per file: its first frame; the frames of a
// file run up to the next file's first) and, per frame, "ix.frames.row"
// (uint32, its first row), "ix.frames.comp" (uint32, its offset in the
// file's compressed source), "ix.frames.raw" (uint32, its offset in the
// file's joined lines) and "ix.frames.sum" (uint32, the CRC-32C of its
// text). Opening checks that the table holds together (a file has at
// least one frame; its frames start at row 0 and offsets 0 and grow
// strictly within its source) and refuses the file when not; reading a
// frame checks its length, checksum and line ends (ErrDamaged,
// SourceError). A layout 1 file, written before frames, has no frame
// table and holds each file's source as one zstd frame: it is read as
// before, each source decompressed whole. Readers of layout 1 only refuse
// a layout 2 file (the engine then loads the blobs and graphcoder build
// writes the file again).
//
// Layout 3 chains the entries that share their key (dups.go): a copy is
// in no postings list and its masks, its BM25 mask tfs and its largest
// mask tf are zero, so a reader that does not follow the chains would
// never return it; hence the new version, which readers of layout 2
// refuse. "ix.dup" (uint32 per entry: the next copy of its key, 0 for
// none, bit 31 set on a copy) is written when the index has a copy, and
// "ix.postN" (uint32 per token: its postings, its df less its copies')
// always. A file without "ix.dup" has no copy, and without "ix.postN" its
// postings are its df. The chains are checked where they are followed:
// a next copy that is not after its entry, out of range or not flagged a
// copy fails the search with ErrDamaged.

// maxSource bounds the length of a file's source in a mapped index (and
// what decompressing it may allocate).
const maxSource = 1 << 30

// writeSecondMask says whether WriteTo stores the second mask; the tests
// turn it off to write a file as those before it.
var writeSecondMask = true

// writeBM25Seek says whether WriteTo stores BM25's tables of long lists
// (bm25seek.go); the tests turn it off to write a file as those before
// them.
var writeBM25Seek = true

// mappedVersion is the version of the sections' layout; a reader reads
// files of layouts 1 and 2 too.
const mappedVersion = 3

// legacySource, set by the tests, makes WriteTo write a layout 1 file, the
// sources as it returns them (each one zstd frame).
var legacySource func(ix *Index, fi int32) []byte

// ErrDamaged is wrapped by the errors of an index opened from a file
// whose content does not hold together: a search that meets it fails
// with this error rather than trusting it.
var ErrDamaged = errors.New("retrieval index is damaged")

// WriteTo writes the index's sections to w. Dense vectors are written
// too, when the index has them.
func (ix *Index) WriteTo(w *mapfile.Writer) error {
	version, srcs := mappedVersion, make([][]byte, len(ix.files))
	for i := range ix.files {
		srcs[i] = ix.files[i].src
		if legacySource != nil {
			version, srcs[i] = 1, legacySource(ix, int32(i))
		}
	}
	h := binary.AppendUvarint(nil, uint64(version))
	for _, v := range []int{ix.params.Hops, ix.params.MaxStatements, ix.maskWords, len(ix.files), len(ix.stmtRows),
		ix.Len(), ix.vocab.Len(), ix.defNames.Len(), len(ix.explicit)} {
		h = binary.AppendUvarint(h, uint64(v))
	}
	h = binary.AppendUvarint(h, ix.bm.totalDL)
	h = appendStr(h, ix.tok.Name())
	h = binary.AppendUvarint(h, uint64(ix.vec.dim))
	w.Section("ix.head", h)

	var files []byte
	var srcOff uint64
	for i := range ix.files {
		f := &ix.files[i]
		files = appendStr(files, f.path)
		files = appendStr(files, f.language)
		for _, v := range []uint64{srcOff, uint64(len(srcs[i])), uint64(f.srcLen), uint64(f.lines), uint64(f.stmtBase), uint64(f.entryBase)} {
			files = binary.AppendUvarint(files, v)
		}
		srcOff += uint64(len(srcs[i]))
	}
	w.Section("ix.files", files)
	w.Begin("ix.src")
	for _, src := range srcs {
		w.Write(src)
	}
	if version >= 2 {
		first := make([]uint32, len(ix.files))
		for i := range ix.files {
			first[i] = ix.files[i].frame0
		}
		mapfile.Put(w, "ix.frames.file", first)
		mapfile.Put(w, "ix.frames.row", ix.frameTab.row)
		mapfile.Put(w, "ix.frames.comp", ix.frameTab.comp)
		mapfile.Put(w, "ix.frames.raw", ix.frameTab.raw)
		mapfile.Put(w, "ix.frames.sum", ix.frameTab.sum)
	}

	mapfile.Put(w, "ix.vocab.Off", ix.vocab.Off)
	w.Section("ix.vocab.Bytes", ix.vocab.Bytes)
	mapfile.Put(w, "ix.vocab.Sorted", ix.vocab.Sorted)
	mapfile.Put(w, "ix.defs.off", ix.defNames.Off)
	w.Section("ix.defs.bytes", ix.defNames.Bytes)

	mapfile.Put(w, "ix.stmtRows", ix.stmtRows)
	mapfile.Put(w, "ix.stmtTokOff", ix.stmtTokOff)
	w.Section("ix.stmtTokens", ix.stmtTokens)
	mapfile.Put(w, "ix.stmtEdgeOff", ix.stmtEdgeOff)
	w.Section("ix.stmtEdges", ix.stmtEdges)
	mapfile.Put(w, "ix.stmtDefOff", ix.stmtDefOff)
	mapfile.Put(w, "ix.stmtDefs", ix.stmtDefs)

	mapfile.Put(w, "ix.entryOff", ix.entryOff)
	w.Section("ix.entryBytes", ix.entryBytes)
	mapfile.Put(w, "ix.keyLen", ix.keyLen)
	mapfile.Put(w, "ix.masks", ix.masks)
	mapfile.Put(w, "ix.maskBit", ix.maskBit)
	var ex []byte
	for _, e := range slices.Sorted(maps.Keys(ix.explicit)) {
		g := ix.explicit[e]
		ex = binary.AppendUvarint(ex, uint64(e))
		ex = binary.AppendUvarint(ex, uint64(len(g.hop)))
		ex = append(ex, g.hop...)
		ex = binary.AppendUvarint(ex, uint64(len(g.edges)))
		for _, ed := range g.edges {
			ex = binary.AppendUvarint(ex, uint64(ed.From))
			ex = binary.AppendUvarint(ex, uint64(ed.To)<<2|uint64(ed.Type))
		}
	}
	w.Section("ix.explicit", ex)
	mapfile.Put(w, "ix.postOff", ix.postOff)
	w.Section("ix.post", ix.post)

	bm := &ix.bm
	mapfile.Put(w, "ix.dl", bm.dl)
	w.Section("ix.dlBig", appendMap(nil, bm.dlBig))
	mapfile.Put(w, "ix.df", bm.df)
	mapfile.Put(w, "ix.postN", bm.postN)
	if ix.dup != nil {
		mapfile.Put(w, "ix.dup", ix.dup)
	}
	w.Section("ix.maxTF", bm.maxTF)
	for _, c := range []struct {
		name string
		col  *tfColumn
	}{{"maskTF", &bm.maskTF}, {"postTF", &bm.postTF}} {
		mapfile.Put(w, "ix."+c.name+".many", c.col.many)
		w.Section("ix."+c.name+".nib", c.col.nib)
		w.Section("ix."+c.name+".big", appendMap(nil, c.col.big))
	}
	mapfile.Put(w, "ix.maskAt", bm.maskAt)
	mapfile.Put(w, "ix.maskManyAt", bm.maskManyAt)
	mapfile.Put(w, "ix.postAt", bm.postAt)
	mapfile.Put(w, "ix.postManyAt", bm.postManyAt)
	bb := ix.blocks()
	mapfile.Put(w, "ix.blocks.or", bb.or)
	mapfile.Put(w, "ix.blocks.lmin", bb.lmin)
	if writeSecondMask {
		x := ix.xmask()
		mapfile.Put(w, "ix.xmask.tok", x.tok)
		mapfile.Put(w, "ix.xmask.bit", x.bit)
		mapfile.Put(w, "ix.xmask.masks", x.masks)
		mapfile.Put(w, "ix.xmask.or", x.or)
		if lp := ix.longPost(); len(lp.min) > 0 {
			mapfile.Put(w, "ix.long.min", lp.min)
			mapfile.Put(w, "ix.long.off", lp.all)
			w.Section("ix.long.post", lp.post)
		}
	}
	if sk := ix.bm.seek; sk != nil && writeBM25Seek {
		mapfile.Put(w, "ix.bm25.seekTok", sk.tok)
		mapfile.Put(w, "ix.bm25.seekOff", sk.off)
		mapfile.Put(w, "ix.bm25.seek", sk.rec)
	}
	if ix.vec.dim > 0 {
		mapfile.Put(w, "ix.vec.vals", ix.vec.vals)
		mapfile.Put(w, "ix.vec.scale", ix.vec.scale)
	}
	_, err := w.Write(nil)
	if err != nil {
		return fmt.Errorf("write index: %w", err)
	}
	return nil
}

func appendStr(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func appendMap(dst []byte, m map[uint32]uint32) []byte {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		dst = binary.AppendUvarint(dst, uint64(k))
		dst = binary.AppendUvarint(dst, uint64(m[k]))
	}
	return dst
}

// Open returns the index stored in m by WriteTo, reading its arrays in
// place. tok must be the tokenizer the index was built with (its name is
// checked). The index keeps m reachable; m must not be closed while the
// index is in use (it is unmapped once neither is reachable).
//
// Opening checks that the sections are there and that their sizes hold
// together; their checksums are mapfile.File.Verify's business. A search
// that meets content that does not hold together fails with ErrDamaged.
func Open(m *mapfile.File, tok Tokenizer) (*Index, error) {
	ix, err := open(m, tok)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w: %w", m.Path(), ErrDamaged, err)
	}
	return ix, nil
}

func open(m *mapfile.File, tok Tokenizer) (*Index, error) {
	head, err := m.Section("ix.head")
	if err != nil {
		return nil, err
	}
	d := secDecoder{b: head}
	version := d.uv()
	if version < 1 || version > mappedVersion {
		return nil, fmt.Errorf("index layout version %d, this graphcoder reads 1 to %d", version, mappedVersion)
	}
	ix := &Index{tok: tok, keep: m, damage: &sourceDamage{}, srcs: &sourceCache{}, bounds: &blockBounds{}, langs: &langBlocks{}, xm: &xmaskData{}, long: &longPostings{}}
	ix.params.Hops, ix.params.MaxStatements, ix.maskWords = d.int(), d.int(), d.int()
	nFiles, nStmts, nEntries, nVocab, nDefs, nExplicit := d.int(), d.int(), d.int(), d.int(), d.int(), d.int()
	ix.bm.totalDL = d.uv()
	tokName := d.str()
	dim := d.int()
	if d.err != nil {
		return nil, d.err
	}
	if tokName != tok.Name() {
		return nil, fmt.Errorf("built with tokenizer %q, not %q", tokName, tok.Name())
	}
	if ix.maskWords < 0 || ix.maskWords > 64 {
		return nil, fmt.Errorf("%d mask words", ix.maskWords)
	}

	var errs []error
	get := func(name string, want int) []byte {
		b, err := m.Section(name)
		if err == nil && want >= 0 && len(b) != want {
			err = fmt.Errorf("section %s: %d bytes, want %d", name, len(b), want)
		}
		errs = append(errs, err)
		return b
	}
	u32 := func(name string, n int) []uint32 {
		b := get(name, 4*n)
		s, err := mapfile.View[uint32](b)
		errs = append(errs, err)
		return s
	}
	offsets := func(name string, n int, arena []byte) []uint32 {
		s := u32(name, n+1)
		if len(s) == n+1 && (s[0] != 0 || int(s[n]) != len(arena)) {
			errs = append(errs, fmt.Errorf("section %s: offsets do not span their arena", name))
		}
		return s
	}

	ix.vocab.Bytes = get("ix.vocab.Bytes", -1)
	ix.vocab.Off = offsets("ix.vocab.Off", nVocab, ix.vocab.Bytes)
	ix.vocab.Sorted = u32("ix.vocab.Sorted", nVocab)
	ix.defNames.Bytes = get("ix.defs.bytes", -1)
	ix.defNames.Off = offsets("ix.defs.off", nDefs, ix.defNames.Bytes)

	rows, err := mapfile.View[[2]int32](get("ix.stmtRows", 8*nStmts))
	ix.stmtRows = rows
	errs = append(errs, err)
	ix.stmtTokens = get("ix.stmtTokens", -1)
	ix.stmtTokOff = offsets("ix.stmtTokOff", nStmts, ix.stmtTokens)
	ix.stmtEdges = get("ix.stmtEdges", -1)
	ix.stmtEdgeOff = offsets("ix.stmtEdgeOff", nStmts, ix.stmtEdges)
	defIDs := get("ix.stmtDefs", -1)
	ix.stmtDefs, err = mapfile.View[uint32](defIDs)
	errs = append(errs, err)
	ix.stmtDefOff = u32("ix.stmtDefOff", nStmts+1)
	if len(ix.stmtDefOff) == nStmts+1 && (ix.stmtDefOff[0] != 0 || int(ix.stmtDefOff[nStmts]) != len(ix.stmtDefs)) {
		errs = append(errs, errors.New("section ix.stmtDefOff: offsets do not span their arena"))
	}

	ix.entryBytes = get("ix.entryBytes", -1)
	ix.entryOff = offsets("ix.entryOff", nEntries, ix.entryBytes)
	ix.keyLen = u32("ix.keyLen", nEntries)
	ix.masks, err = mapfile.View[uint64](get("ix.masks", 8*nEntries*ix.maskWords))
	errs = append(errs, err)
	ix.maskBit, err = mapfile.View[int32](get("ix.maskBit", 4*nVocab))
	errs = append(errs, err)
	ix.post = get("ix.post", -1)
	ix.postOff = offsets("ix.postOff", nVocab, ix.post)

	bm := &ix.bm
	bm.dl, err = mapfile.View[uint16](get("ix.dl", 2*nEntries))
	errs = append(errs, err)
	bm.df = u32("ix.df", nVocab)
	bm.postN = bm.df // without chains of copies, a token's postings are its df
	if m.Has("ix.dup") || m.Has("ix.postN") {
		bm.postN = u32("ix.postN", nVocab)
	}
	if m.Has("ix.dup") {
		ix.dup = u32("ix.dup", nEntries)
	}
	bm.maxTF = get("ix.maxTF", nEntries)
	for _, c := range []struct {
		name string
		col  *tfColumn
	}{{"maskTF", &bm.maskTF}, {"postTF", &bm.postTF}} {
		c.col.many, err = mapfile.View[uint64](get("ix."+c.name+".many", -1))
		errs = append(errs, err)
		c.col.nib = get("ix."+c.name+".nib", -1)
	}
	groups := (nEntries + 15) / 16
	bm.maskAt = u32("ix.maskAt", groups)
	bm.maskManyAt = u32("ix.maskManyAt", groups)
	bm.postAt = u32("ix.postAt", nVocab)
	bm.postManyAt = u32("ix.postManyAt", nVocab)
	if m.Has("ix.blocks.or") {
		nb := (nEntries + blockSize - 1) / blockSize
		or, err := mapfile.View[uint64](get("ix.blocks.or", 8*nb*ix.maskWords))
		errs = append(errs, err)
		lmin := u32("ix.blocks.lmin", nb)
		ix.bounds.once.Do(func() { ix.bounds.or, ix.bounds.lmin = or, lmin })
	}
	if m.Has("ix.xmask.tok") {
		errs = append(errs, ix.openSecondMask(get, nEntries, nVocab))
	} else {
		// A file written before the second mask: searched as then,
		// without one (deriving it would cost a one-query process more
		// than it saves).
		ix.xm.once.Do(func() {})
	}
	if m.Has("ix.long.min") {
		errs = append(errs, ix.openLong(get, nVocab, m.Has("ix.xmask.tok")))
	} else {
		// A file written before the bands of long keys: searched as
		// then, without them (deriving them costs about 0.6 s on the
		// JDK index).
		ix.long.once.Do(func() {})
	}
	if m.Has("ix.bm25.seekTok") {
		errs = append(errs, ix.openBM25Seek(m, get, nVocab))
	}
	if dim > 0 {
		ix.vec.dim = dim
		ix.vec.vals, err = mapfile.View[int8](get("ix.vec.vals", dim*nEntries))
		errs = append(errs, err)
		ix.vec.scale, err = mapfile.View[float32](get("ix.vec.scale", 4*nEntries))
		errs = append(errs, err)
		for _, s := range ix.vec.scale {
			if s != 0 {
				ix.vec.count++
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}

	// The decoded parts.
	if ix.files, err = decodeFiles(get("ix.files", -1), get("ix.src", -1), nFiles, nStmts, nEntries); err != nil {
		return nil, err
	}
	if err := ix.openFrames(version, get); err != nil {
		return nil, err
	}
	ix.byPath = make(map[string]int32, nFiles)
	for i := range ix.files {
		if _, dup := ix.byPath[ix.files[i].path]; dup {
			return nil, fmt.Errorf("file %s listed twice", ix.files[i].path)
		}
		ix.byPath[ix.files[i].path] = int32(i)
	}
	if ix.explicit, err = decodeExplicit(get("ix.explicit", -1), nExplicit, nEntries); err != nil {
		return nil, err
	}
	var bigs [3]map[uint32]uint32
	for i, name := range []string{"ix.dlBig", "ix.maskTF.big", "ix.postTF.big"} {
		if bigs[i], err = decodeMap(get(name, -1)); err != nil {
			return nil, fmt.Errorf("section %s: %w", name, err)
		}
	}
	bm.dlBig, bm.maskTF.big, bm.postTF.big = bigs[0], bigs[1], bigs[2]
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return ix, nil
}

func decodeFiles(b, src []byte, n, nStmts, nEntries int) ([]fileData, error) {
	d := secDecoder{b: b}
	files := make([]fileData, 0, min(n, len(b)))
	for range n {
		f := fileData{path: d.str(), language: d.str()}
		off, size := d.uv(), d.uv()
		srcLen, lines, stmtBase, entryBase := d.uv(), d.uv(), d.uv(), d.uv()
		if d.err != nil {
			return nil, fmt.Errorf("section ix.files: %w", d.err)
		}
		if off > uint64(len(src)) || size > uint64(len(src))-off || srcLen > maxSource || lines > srcLen+1 ||
			stmtBase > uint64(nStmts) || entryBase > uint64(nEntries) ||
			len(files) > 0 && (uint32(stmtBase) < files[len(files)-1].stmtBase || uint32(entryBase) < files[len(files)-1].entryBase) {
			return nil, fmt.Errorf("section ix.files: file %s out of range", f.path)
		}
		f.src = src[off : off+size : off+size]
		f.srcLen, f.lines, f.stmtBase, f.entryBase = int32(srcLen), int32(lines), uint32(stmtBase), uint32(entryBase)
		files = append(files, f)
	}
	if len(d.b) != 0 {
		return nil, errors.New("section ix.files: trailing bytes")
	}
	return files, nil
}

// openFrames reads the frame table of the files' sources (layout 2), or
// gives each file a single zstd frame (layout 1).
func (ix *Index) openFrames(version uint64, get func(string, int) []byte) error {
	if version == 1 {
		ix.srcCodec, ix.frameTab = codecZstd, singleFrames(len(ix.files))
		for i := range ix.files {
			ix.files[i].frame0 = uint32(i)
		}
		return nil
	}
	var errs []error
	u32 := func(name string, n int) []uint32 {
		s, err := mapfile.View[uint32](get(name, 4*n))
		errs = append(errs, err)
		return s
	}
	first := u32("ix.frames.file", len(ix.files))
	t := frameTable{row: u32("ix.frames.row", -1)}
	n := t.len()
	t.comp, t.raw, t.sum = u32("ix.frames.comp", n), u32("ix.frames.raw", n), u32("ix.frames.sum", n)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := checkFrames(ix.files, first, &t); err != nil {
		return fmt.Errorf("frame table: %w", err)
	}
	for i := range ix.files {
		ix.files[i].frame0 = first[i]
	}
	ix.frameTab = t
	return nil
}

// singleFrames is the frame table of n files of one frame each.
func singleFrames(n int) frameTable {
	z := make([]uint32, n)
	return frameTable{row: z, comp: z, raw: z}
}

// checkFrames checks that t, with first[i] the first frame of files[i],
// is a frame table of the files' sources: consecutive runs of frames, one
// or more per file, each starting at row 0 and offsets 0 and growing
// strictly, within the file's rows and bytes.
func checkFrames(files []fileData, first []uint32, t *frameTable) error {
	n := t.len()
	if len(first) != len(files) || len(t.comp) != n || len(t.raw) != n || len(t.sum) != n {
		return errors.New("sizes do not match")
	}
	for i := range files {
		f := &files[i]
		a, b := int(first[i]), n
		if i+1 < len(files) {
			b = int(first[i+1])
		}
		if i == 0 && a != 0 || a >= b || b > n {
			return fmt.Errorf("file %s: frames %d to %d of %d", f.path, a, b, n)
		}
		if t.row[a] != 0 || t.comp[a] != 0 || t.raw[a] != 0 {
			return fmt.Errorf("file %s: the first frame does not start the source", f.path)
		}
		for g := a + 1; g < b; g++ {
			if t.row[g] <= t.row[g-1] || t.comp[g] <= t.comp[g-1] || t.raw[g] <= t.raw[g-1] ||
				t.row[g] >= uint32(f.lines) || t.comp[g] >= uint32(len(f.src)) || t.raw[g] >= uint32(f.srcLen) {
				return fmt.Errorf("file %s: frame %d out of order or range", f.path, g-a)
			}
		}
	}
	return nil
}

func decodeExplicit(b []byte, n, nEntries int) (map[uint32]*explicitGraph, error) {
	if n == 0 {
		return nil, nil
	}
	d := secDecoder{b: b}
	out := make(map[uint32]*explicitGraph, min(n, len(b)))
	for range n {
		e := d.uv()
		g := &explicitGraph{hop: slices.Clone(d.bytes(d.int()))}
		m := d.int()
		if d.err != nil || e >= uint64(nEntries) || m > len(d.b) {
			return nil, errors.New("section ix.explicit: bad entry")
		}
		for range m {
			from, to := d.uv(), d.uv()
			if from >= uint64(len(g.hop)) || to>>2 >= uint64(len(g.hop)) || to&3 > 2 {
				return nil, errors.New("section ix.explicit: bad edge")
			}
			g.edges = append(g.edges, slice.Edge{From: uint16(from), To: uint16(to >> 2), Type: ccg.EdgeType(to & 3)})
		}
		out[uint32(e)] = g
	}
	if d.err != nil || len(d.b) != 0 {
		return nil, errors.New("section ix.explicit: bad layout")
	}
	return out, nil
}

func decodeMap(b []byte) (map[uint32]uint32, error) {
	if len(b) == 0 {
		return nil, nil
	}
	d := secDecoder{b: b}
	out := map[uint32]uint32{}
	for len(d.b) > 0 && d.err == nil {
		k, v := d.uv(), d.uv()
		if k > math.MaxUint32 || v > math.MaxUint32 {
			return nil, errors.New("value out of range")
		}
		out[uint32(k)] = uint32(v)
	}
	return out, d.err
}

// secDecoder reads uvarints and strings, keeping the first error.
type secDecoder struct {
	b   []byte
	err error
}

func (d *secDecoder) uv() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		if d.err == nil {
			d.err = errors.New("bad varint")
		}
		d.b = nil
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *secDecoder) int() int {
	v := d.uv()
	if v > math.MaxInt32 {
		if d.err == nil {
			d.err = errors.New("value out of range")
		}
		return 0
	}
	return int(v)
}

func (d *secDecoder) bytes(n int) []byte {
	if n > len(d.b) {
		if d.err == nil {
			d.err = errors.New("bad length")
		}
		d.b = nil
		return nil
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *secDecoder) str() string { return string(d.bytes(d.int())) }

// Mapped reports whether the index reads a mapped file.
func (ix *Index) Mapped() bool { return ix.keep != nil }
