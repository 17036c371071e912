package db

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"slices"
	"strings"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/embed"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/slice"
)

// FileRecord is everything the index holds about one file.
type FileRecord struct {
	Path     string
	Language string
	// Lines are the file's source lines (no terminators).
	Lines []string
	// Vocab holds the file's distinct tokens; token ids index it.
	Vocab []string
	// Stmts are the CCG vertices, by vertex id.
	Stmts []StmtRecord
	// Entries are the database entries, one per statement.
	Entries []Entry
	// Package, Symbols and Imports are the file's outline, as its front
	// end recorded them (lang.File): what the repository's symbol table
	// is built from.
	Package string
	Symbols []lang.Symbol
	Imports []lang.Import
	// Vectors are the embeddings of the entries' context sequence
	// slices, one per entry, when the record is given them
	// (Snapshot.Vectors; a blob does not hold them); nil otherwise.
	Vectors []embed.Vector
}

// StmtRecord is one statement (CCG vertex) of a file.
type StmtRecord struct {
	Kind lang.Kind
	// StartRow and EndRow are 0-based and inclusive.
	StartRow, EndRow int
	// Tokens are the statement's distinct token ids, sorted.
	Tokens []uint32
	// Defs are the names (access paths) the statement defines, in the
	// front end's order; nil when none. Prediction renames through them,
	// so a request never parses a candidate's file again.
	Defs []string
	// Params are the function or lambda parameters the statement binds
	// in the scope it opens (ccg.Graph.Params); nil when none. Prediction
	// renames through Defs and Params together.
	Params []string
}

// Entry is one database entry: the slice of statement Target taken as if
// Target were the statement to predict.
type Entry struct {
	// Target is the statement the entry stands for.
	Target uint32
	// Nodes are the slice's statements in source order; the target is
	// among them, at hop 0.
	Nodes []uint32
	// Hop[i] is the BFS distance from the target to Nodes[i] in the slice.
	Hop []uint8
	// Edges connect indexes into Nodes.
	Edges []slice.Edge
}

// TargetIndex returns the index of the target within e.Nodes, or -1.
func (e *Entry) TargetIndex() int {
	for i, n := range e.Nodes {
		if n == e.Target {
			return i
		}
	}
	return -1
}

// KeyTokens appends to dst the key token set of e: the union of the
// tokens of its slice statements other than the target, sorted and
// without duplicates.
func (r *FileRecord) KeyTokens(e *Entry, dst []uint32) []uint32 {
	start := len(dst)
	for _, n := range e.Nodes {
		if n != e.Target && int(n) < len(r.Stmts) {
			dst = append(dst, r.Stmts[n].Tokens...)
		}
	}
	return sortUnique(dst, start)
}

// sortUnique sorts dst[start:] and removes its duplicates (insertion sort
// for the short lists of a slice, which are mostly pre-sorted runs).
func sortUnique(dst []uint32, start int) []uint32 {
	s := dst[start:]
	for i := 1; i < len(s); i++ {
		v := s[i]
		j := i
		for j > 0 && s[j-1] > v {
			s[j] = s[j-1]
			j--
		}
		s[j] = v
	}
	w := 0
	for i, v := range s {
		if i == 0 || v != s[w-1] {
			s[w] = v
			w++
		}
	}
	return dst[:start+w]
}

// Window returns the value lines of statement stmt: from 10 lines before
// its start through 10 lines after it (spec section 3), clipped to the
// file, with the 0-based row of the first line.
func (r *FileRecord) Window(stmt int) (lines []string, firstRow int) {
	if stmt < 0 || stmt >= len(r.Stmts) {
		return nil, 0
	}
	s := r.Stmts[stmt].StartRow
	lo, hi := max(s-10, 0), min(s+10, len(r.Lines)-1)
	if lo > hi {
		return nil, lo
	}
	return r.Lines[lo : hi+1], lo
}

// Text returns the source text of statement stmt.
func (r *FileRecord) Text(stmt int) string {
	if stmt < 0 || stmt >= len(r.Stmts) {
		return ""
	}
	st := &r.Stmts[stmt]
	if st.StartRow < 0 || st.EndRow >= len(r.Lines) || st.StartRow > st.EndRow {
		return ""
	}
	return strings.Join(r.Lines[st.StartRow:st.EndRow+1], "\n")
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// appendHead appends every section of the blob of r before the entries.
func appendHead(dst []byte, r *FileRecord) []byte {
	outline := appendOutline(nil, r.Package, r.Symbols, r.Imports)
	return appendHeadOf(dst, r.Language, r.Lines, r.Vocab, recordStmts(r.Stmts), outline)
}

// headStmts are the statements a head is written from: a record's, or
// a graph's with the token lists the builder made for them (Builder.encode
// writes the head without making a StmtRecord per statement).
type headStmts interface {
	len() int
	// stmt returns statement i's kind, rows and sorted distinct token ids.
	stmt(i int) (kind lang.Kind, startRow, endRow int, tokens []uint32)
	defs(i int) []string
	params(i int) []string
}

// recordStmts are a record's statements as headStmts.
type recordStmts []StmtRecord

func (r recordStmts) len() int { return len(r) }

func (r recordStmts) stmt(i int) (lang.Kind, int, int, []uint32) {
	s := &r[i]
	return s.Kind, s.StartRow, s.EndRow, s.Tokens
}

func (r recordStmts) defs(i int) []string   { return r[i].Defs }
func (r recordStmts) params(i int) []string { return r[i].Params }

// appendHeadOf appends the head of a blob: the language, the lines, the
// vocabulary, the statements of stmts with their defs and params, and
// outline, an outline section as appendOutline writes it.
func appendHeadOf(dst []byte, language string, lines, vocab []string, stmts headStmts, outline []byte) []byte {
	srcLen := len(lines) - 1
	for _, l := range lines {
		srcLen += len(l)
	}
	if len(lines) == 0 {
		srcLen = 0
	}
	vocabBytes := 0
	for _, v := range vocab {
		vocabBytes += len(v)
	}
	n := stmts.len()
	nTok := 0
	for i := range n {
		_, _, _, toks := stmts.stmt(i)
		nTok += len(toks)
	}
	// Room for what the head takes in a typical file, so that a large
	// one is not copied over and over as append grows it.
	dst = slices.Grow(dst, 64+len(language)+srcLen+vocabBytes+2*len(vocab)+6*n+2*nTok+len(outline))
	dst = appendString(dst, language)
	dst = binary.AppendUvarint(dst, uint64(len(lines)))
	dst = binary.AppendUvarint(dst, uint64(srcLen))
	for i, l := range lines {
		if i > 0 {
			dst = append(dst, '\n')
		}
		dst = append(dst, l...)
	}

	dst = binary.AppendUvarint(dst, uint64(len(vocab)))
	dst = binary.AppendUvarint(dst, uint64(vocabBytes))
	for _, v := range vocab {
		dst = binary.AppendUvarint(dst, uint64(len(v)))
	}
	for _, v := range vocab {
		dst = append(dst, v...)
	}

	dst = binary.AppendUvarint(dst, uint64(n))
	dst = binary.AppendUvarint(dst, uint64(nTok))
	prevStart := 0
	for i := range n {
		kind, startRow, endRow, toks := stmts.stmt(i)
		dst = append(dst, byte(kind))
		dst = binary.AppendVarint(dst, int64(startRow-prevStart))
		dst = binary.AppendUvarint(dst, uint64(endRow-startRow))
		prevStart = startRow
		dst = binary.AppendUvarint(dst, uint64(len(toks)))
		prev := uint32(0)
		for _, t := range toks {
			dst = binary.AppendUvarint(dst, uint64(t-prev))
			prev = t
		}
	}

	// One index of names serves both sections: made for the defs'
	// references, cleared for the params, which keep its room (and grow
	// it if they have more distinct names; a file's parameters are
	// mostly the same few names, which an index sized for their
	// references would hold several times over).
	ids := make(map[string]int, nameRefs(n, stmts.defs))
	dst = appendNames(dst, n, stmts.defs, ids)
	clear(ids)
	dst = appendNames(dst, n, stmts.params, ids)
	return append(dst, outline...)
}

// appendEntry appends one entry's encoding (without the section's counts).
func appendEntry[V int32 | uint32](dst []byte, target uint32, nodes []V, hop []uint8, edges []slice.Edge) []byte {
	dst = binary.AppendUvarint(dst, uint64(target))
	dst = binary.AppendUvarint(dst, uint64(len(nodes)))
	prev := int64(target)
	for _, n := range nodes {
		dst = binary.AppendVarint(dst, int64(n)-prev)
		prev = int64(n)
	}
	for j := range nodes {
		h := uint8(0)
		if j < len(hop) {
			h = hop[j]
		}
		dst = append(dst, h)
	}
	dst = binary.AppendUvarint(dst, uint64(len(edges)))
	for _, ed := range edges {
		dst = binary.AppendUvarint(dst, uint64(ed.From))
		dst = binary.AppendUvarint(dst, uint64(ed.To)<<2|uint64(ed.Type&3))
	}
	return dst
}

// appendEntries appends the entries section: its counts, then the encoded
// entries.
func appendEntries(dst []byte, n, nodes, edges int, entries []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(n))
	dst = binary.AppendUvarint(dst, uint64(nodes))
	dst = binary.AppendUvarint(dst, uint64(edges))
	return append(dst, entries...)
}

// appendCRC appends the checksum of dst[start:].
func appendCRC(dst []byte, start int) []byte {
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], crcTable))
}

// checkBlob checks a blob's checksum without decoding it.
func checkBlob(b []byte) error {
	if len(b) < 4 {
		return fmt.Errorf("%w: a blob of %d bytes", ErrCorrupt, len(b))
	}
	if crc32.Checksum(b[:len(b)-4], crcTable) != binary.LittleEndian.Uint32(b[len(b)-4:]) {
		return fmt.Errorf("%w: blob checksum mismatch", ErrCorrupt)
	}
	return nil
}

// decodeBlob decodes a blob after checking its checksum. It never keeps a
// reference to b.
func decodeBlob(b []byte) (*FileRecord, error) {
	if err := checkBlob(b); err != nil {
		return nil, err
	}
	return decodeBody(b[:len(b)-4])
}

// reader decodes varints from a byte slice, remembering the first error.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: bad %s", ErrCorrupt, what)
	}
	r.b = nil
}

func (r *reader) uvarint(what string) uint64 {
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.fail(what)
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) varint(what string) int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail(what)
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a count of items that each take at least one byte of the
// rest of the blob, which bounds any allocation by the blob's size.
func (r *reader) count(what string) int {
	v := r.uvarint(what)
	if v > uint64(len(r.b)) {
		r.fail(what)
		return 0
	}
	return int(v)
}

func (r *reader) bytes(n int, what string) []byte {
	if n < 0 || n > len(r.b) {
		r.fail(what)
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) byte1(what string) byte {
	if len(r.b) == 0 {
		r.fail(what)
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

// maxRow bounds row numbers so that arithmetic on them cannot overflow.
const maxRow = 1 << 40

func decodeBody(body []byte) (*FileRecord, error) {
	r := &reader{b: body}
	rec := &FileRecord{}
	rec.Language = string(r.bytes(r.count("language"), "language"))
	nLines := r.uvarint("line count")
	src := string(r.bytes(r.count("source"), "source"))
	if r.err == nil && nLines > 0 {
		if nLines != uint64(strings.Count(src, "\n"))+1 {
			r.fail("line count")
			return nil, r.err
		}
		rec.Lines = make([]string, nLines)
		rest := src
		for i := range rec.Lines {
			j := strings.IndexByte(rest, '\n')
			if j < 0 {
				rec.Lines[i] = rest
				break
			}
			rec.Lines[i], rest = rest[:j], rest[j+1:]
		}
	} else if nLines == 0 && len(src) > 0 {
		r.fail("line count")
	}

	nVocab := r.count("vocabulary size")
	vocabBytes := r.uvarint("vocabulary bytes")
	lens := make([]int, nVocab)
	total := uint64(0)
	for i := range lens {
		lens[i] = int(r.uvarint("token length"))
		total += uint64(lens[i])
	}
	if r.err == nil && (total != vocabBytes || total > uint64(len(r.b))) {
		r.fail("vocabulary")
	}
	all := string(r.bytes(int(total), "vocabulary"))
	if r.err == nil {
		rec.Vocab = make([]string, nVocab)
		off := 0
		for i, l := range lens {
			rec.Vocab[i] = all[off : off+l]
			off += l
		}
	}

	nStmts := r.count("statement count")
	nTok := r.count("token count")
	rec.Stmts = make([]StmtRecord, nStmts)
	tokens := make([]uint32, nTok)
	start := 0
	for i := range rec.Stmts {
		s := &rec.Stmts[i]
		s.Kind = lang.Kind(r.byte1("kind"))
		start += int(r.varint("start row"))
		span := r.uvarint("row span")
		if start < 0 || start > maxRow || span > maxRow {
			r.fail("rows")
		}
		s.StartRow, s.EndRow = start, start+int(span)
		n := r.count("statement tokens")
		if n > len(tokens) {
			r.fail("statement tokens")
		}
		if r.err != nil {
			return nil, r.err
		}
		s.Tokens, tokens = tokens[:n:n], tokens[n:]
		prev := uint64(0)
		for j := range s.Tokens {
			prev += r.uvarint("token id")
			if prev >= uint64(nVocab) {
				r.fail("token id")
				return nil, r.err
			}
			s.Tokens[j] = uint32(prev)
		}
	}

	decodeNames(r, rec.Stmts, defsOf)
	decodeNames(r, rec.Stmts, paramsOf)
	decodeOutline(r, rec)

	nEntries := r.count("entry count")
	nNodes := r.count("node count")
	nEdges := r.count("edge count")
	if r.err != nil {
		return nil, r.err
	}
	rec.Entries = make([]Entry, nEntries)
	nodes := make([]uint32, nNodes)
	hops := make([]uint8, nNodes)
	edges := make([]slice.Edge, nEdges)
	for i := range rec.Entries {
		e := &rec.Entries[i]
		t := r.uvarint("target")
		if t >= uint64(nStmts) {
			r.fail("target")
		}
		e.Target = uint32(t)
		n := r.count("slice size")
		if n > len(nodes) || n > 1<<16 {
			r.fail("slice size")
		}
		if r.err != nil {
			return nil, r.err
		}
		e.Nodes, nodes = nodes[:n:n], nodes[n:]
		prev := int64(t)
		for j := range e.Nodes {
			prev += r.varint("slice node")
			if prev < 0 || prev >= int64(nStmts) {
				r.fail("slice node")
				return nil, r.err
			}
			e.Nodes[j] = uint32(prev)
		}
		e.Hop, hops = hops[:n:n], hops[n:]
		copy(e.Hop, r.bytes(n, "hops"))
		m := r.count("slice edges")
		if m > len(edges) {
			r.fail("slice edges")
		}
		if r.err != nil {
			return nil, r.err
		}
		e.Edges, edges = edges[:m:m], edges[m:]
		for j := range e.Edges {
			from := r.uvarint("edge")
			toType := r.uvarint("edge")
			to := toType >> 2
			typ := ccg.EdgeType(toType & 3)
			if from >= uint64(n) || to >= uint64(n) || typ > ccg.DD {
				r.fail("edge")
				return nil, r.err
			}
			e.Edges[j] = slice.Edge{From: uint16(from), To: uint16(to), Type: typ}
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if len(r.b) != 0 {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrCorrupt, len(r.b))
	}
	return rec, nil
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

func defsOf(s *StmtRecord) *[]string   { return &s.Defs }
func paramsOf(s *StmtRecord) *[]string { return &s.Params }

// byID returns the keys of ids, which numbers them from 0, each at its
// number.
func byID[T int | uint32](ids map[string]T) []string {
	out := make([]string, len(ids))
	for k, id := range ids {
		out[id] = k
	}
	return out
}

// nameRefs returns the number of names the n statements have.
func nameRefs(n int, names func(i int) []string) int {
	refs := 0
	for i := range n {
		refs += len(names(i))
	}
	return refs
}

// appendNames appends a names section (the defs, or the params): the
// distinct names, then the names of each of the n statements as indexes
// into them. ids is an empty index to fill: the caller sizes it (a
// file of many names grown as they come would allocate several times
// their size on the way).
func appendNames(dst []byte, n int, names func(i int) []string, ids map[string]int) []byte {
	nRefs, nameBytes := 0, 0
	for i := range n {
		own := names(i)
		nRefs += len(own)
		for _, d := range own {
			if _, ok := ids[d]; !ok {
				ids[d] = len(ids)
				nameBytes += len(d)
			}
		}
	}
	list := byID(ids)
	dst = binary.AppendUvarint(dst, uint64(len(list)))
	dst = binary.AppendUvarint(dst, uint64(nameBytes))
	for _, name := range list {
		dst = binary.AppendUvarint(dst, uint64(len(name)))
	}
	for _, name := range list {
		dst = append(dst, name...)
	}
	dst = binary.AppendUvarint(dst, uint64(nRefs))
	for i := range n {
		own := names(i)
		dst = binary.AppendUvarint(dst, uint64(len(own)))
		for _, d := range own {
			dst = binary.AppendUvarint(dst, uint64(ids[d]))
		}
	}
	return dst
}

// decodeNames reads a names section into the field of stmts.
func decodeNames(r *reader, stmts []StmtRecord, field func(*StmtRecord) *[]string) {
	nNames := r.count("def name count")
	nameBytes := r.uvarint("def name bytes")
	lens := make([]int, nNames)
	total := uint64(0)
	for i := range lens {
		lens[i] = int(r.uvarint("def name length"))
		total += uint64(lens[i])
	}
	if r.err == nil && (total != nameBytes || total > uint64(len(r.b))) {
		r.fail("def names")
	}
	all := string(r.bytes(int(total), "def names"))
	if r.err != nil {
		return
	}
	names := make([]string, nNames)
	off := 0
	for i, l := range lens {
		names[i] = all[off : off+l]
		off += l
	}
	refs := make([]string, r.count("def count"))
	for i := range stmts {
		n := r.count("statement defs")
		if n > len(refs) {
			r.fail("statement defs")
		}
		if r.err != nil {
			return
		}
		if n == 0 {
			continue
		}
		*field(&stmts[i]), refs = refs[:n:n], refs[n:]
		own := *field(&stmts[i])
		for j := range own {
			id := r.uvarint("def")
			if id >= uint64(nNames) {
				r.fail("def")
				return
			}
			own[j] = names[id]
		}
	}
}

// appendOutline appends the outline section: its length, then the package,
// the symbols and the imports (see the layout in doc.go).
func appendOutline(dst []byte, pkg string, symbols []lang.Symbol, imports []lang.Import) []byte {
	return appendOutlineBlocks(dst, pkg, [][]lang.Symbol{symbols}, imports)
}

// appendOutlineBlocks is appendOutline of the symbols in blocks, in
// order (lang.File.SymbolBlocks).
func appendOutlineBlocks(dst []byte, pkg string, blocks [][]lang.Symbol, imports []lang.Import) []byte {
	// The section is written after room for the largest length, known
	// only at its end, and moved back over what the length leaves of it.
	const lenRoom = binary.MaxVarintLen64
	at := len(dst)
	sec := slices.Grow(dst, lenRoom+outlineHint(pkg, blocks, imports))
	sec = append(sec, make([]byte, lenRoom)...)
	sec = appendString(sec, pkg)
	n := 0
	for _, b := range blocks {
		n += len(b)
	}
	sec = binary.AppendUvarint(sec, uint64(n))
	prevStart := 0
	for _, symbols := range blocks {
		sec = appendSymbols(sec, symbols, &prevStart)
	}
	sec = binary.AppendUvarint(sec, uint64(len(imports)))
	prevRow := 0
	for _, imp := range imports {
		sec = binary.AppendVarint(sec, int64(imp.Row-prevRow))
		prevRow = imp.Row
		sec = appendString(sec, imp.Module)
		sec = appendString(sec, imp.Name)
		sec = appendString(sec, imp.Alias)
		var flags byte
		if imp.Static {
			flags |= 1
		}
		sec = append(sec, flags)
	}
	n = binary.PutUvarint(sec[at:], uint64(len(sec)-at-lenRoom))
	return append(sec[:at+n], sec[at+lenRoom:]...)
}

// appendSymbols appends the symbols of an outline section; prevStart is
// the start row of the symbol before them.
func appendSymbols(sec []byte, symbols []lang.Symbol, prevStart *int) []byte {
	for i := range symbols {
		s := &symbols[i]
		sec = append(sec, byte(s.Kind))
		sec = appendString(sec, s.Name)
		sec = binary.AppendUvarint(sec, uint64(s.Parent+1))
		sec = binary.AppendVarint(sec, int64(s.StartRow-*prevStart))
		*prevStart = s.StartRow
		sec = binary.AppendUvarint(sec, uint64(s.EndRow-s.StartRow))
		sec = binary.AppendUvarint(sec, uint64(s.SigStart-s.StartRow))
		sec = binary.AppendUvarint(sec, uint64(s.SigEnd-s.SigStart))
		sec = binary.AppendUvarint(sec, uint64(s.NameRow-s.SigStart))
		if s.DocRow < 0 {
			sec = binary.AppendUvarint(sec, 0)
		} else {
			sec = binary.AppendUvarint(sec, zigzag(int64(s.DocRow-s.StartRow))+1)
		}
		sec = appendString(sec, s.Type)
		sec = binary.AppendUvarint(sec, uint64(len(s.Bases)))
		for _, b := range s.Bases {
			sec = appendString(sec, b)
		}
	}
	return sec
}

// outlineHint is about the size of an outline section's content.
func outlineHint(pkg string, blocks [][]lang.Symbol, imports []lang.Import) int {
	n := 16 + len(pkg) + 12*len(imports)
	for _, symbols := range blocks {
		for i := range symbols {
			n += 12 + len(symbols[i].Name) + len(symbols[i].Type)
		}
	}
	return n
}

func zigzag(v int64) uint64 { return uint64(v<<1) ^ uint64(v>>63) }

// decodeOutline reads the outline section. Its strings are substrings of
// one copy of the section. Every row must lie inside the file.
func decodeOutline(r *reader, rec *FileRecord) { decodeOutlineIn(r, rec, len(rec.Lines)) }

// EncodeOutline returns the outline of rec (Package, Symbols and Imports)
// as a blob stores it (see doc.go), for a store of outlines apart from the
// blobs (the snapshot of a generation).
func EncodeOutline(rec *FileRecord) []byte {
	return appendOutline(nil, rec.Package, rec.Symbols, rec.Imports)
}

// DecodeOutline decodes what EncodeOutline returned for a file of the
// given number of lines into rec's Package, Symbols and Imports. Bytes
// that are not such an outline are an error wrapping ErrCorrupt.
func DecodeOutline(b []byte, lines int, rec *FileRecord) error {
	r := &reader{b: b}
	decodeOutlineIn(r, rec, lines)
	if r.err == nil && len(r.b) != 0 {
		r.fail("outline size")
	}
	return r.err
}

func decodeOutlineIn(r *reader, rec *FileRecord, lines int) {
	n := r.count("outline size")
	raw := r.bytes(n, "outline")
	if r.err != nil {
		return
	}
	sec := string(raw)
	o := &reader{b: raw}
	off := func() int { return len(sec) - len(o.b) }
	str := func(what string) string {
		l := o.count(what)
		at := off()
		o.bytes(l, what)
		if o.err != nil {
			return ""
		}
		return sec[at : at+l]
	}
	row := func(v int, what string) int {
		if v < 0 || v >= lines {
			o.fail(what)
		}
		return v
	}
	rec.Package = str("package")
	if ns := o.count("symbol count"); ns > 0 {
		rec.Symbols = make([]lang.Symbol, ns)
		start := 0
		for i := range rec.Symbols {
			s := &rec.Symbols[i]
			kind := o.byte1("symbol kind")
			if kind == 0 || kind > byte(lang.SymVariable) {
				o.fail("symbol kind")
			}
			s.Kind = lang.SymbolKind(kind)
			s.Name = str("symbol name")
			parent := o.uvarint("symbol parent")
			if parent > uint64(i) {
				o.fail("symbol parent")
			}
			s.Parent = int(parent) - 1
			start += int(o.varint("symbol row"))
			s.StartRow = row(start, "symbol row")
			s.EndRow = row(s.StartRow+o.rows("symbol rows"), "symbol rows")
			s.SigStart = row(s.StartRow+o.rows("signature rows"), "signature rows")
			s.SigEnd = row(s.SigStart+o.rows("signature rows"), "signature rows")
			s.NameRow = row(s.SigStart+o.rows("name row"), "name row")
			s.DocRow = -1
			if d := o.uvarint("doc row"); d > 0 {
				s.DocRow = row(s.StartRow+int(unzigzag(d-1)), "doc row")
			}
			s.Type = str("symbol type")
			if nb := o.count("base count"); nb > 0 {
				s.Bases = make([]string, nb)
				for j := range s.Bases {
					s.Bases[j] = str("base")
				}
			}
			if o.err != nil {
				break
			}
		}
	}
	if ni := o.count("import count"); ni > 0 && o.err == nil {
		rec.Imports = make([]lang.Import, ni)
		prev := 0
		for i := range rec.Imports {
			imp := &rec.Imports[i]
			prev += int(o.varint("import row"))
			imp.Row = row(prev, "import row")
			imp.Module = str("import module")
			imp.Name = str("import name")
			imp.Alias = str("import alias")
			flags := o.byte1("import flags")
			if flags > 1 {
				o.fail("import flags")
			}
			imp.Static = flags&1 != 0
			if o.err != nil {
				break
			}
		}
	}
	if o.err == nil && len(o.b) != 0 {
		o.fail("outline size")
	}
	if o.err != nil && r.err == nil {
		r.err = o.err
	}
}

// rows reads a row count, bounded so that sums of rows cannot overflow.
func (r *reader) rows(what string) int {
	v := r.uvarint(what)
	if v > maxRow {
		r.fail(what)
		return 0
	}
	return int(v)
}

func unzigzag(v uint64) int64 { return int64(v>>1) ^ -int64(v&1) }
