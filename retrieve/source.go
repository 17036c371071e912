package retrieve

import (
	"bytes"
	"fmt"
	"hash/crc32"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
)

// The index keeps each file's source compressed: the source is the
// largest part of an index in memory, and a query reads back only the
// windows of the few candidates it returns. So the source is compressed
// in frames: its lines joined by '\n', cut after the first line end past
// every frameBytes bytes, each piece compressed on its own as an S2 block
// (the frames of a file stored one after another). A frame table gives
// each frame's first row, its offsets in the compressed and the joined
// text and the checksum of its text, so that reading a window
// decompresses only the frames it covers, a few KiB, instead of the whole
// file. S2 rather than zstd: zstd's ratio on source is better (4.0 against
// 2.6 on the JDK), but each zstd frame builds its entropy tables before
// its first byte, some 10 us, so that a few KiB decode at a fifth of the
// speed of a whole file; S2 has no tables and decodes a frame of 8 KiB in
// a few microseconds, and a whole file faster than zstd (bench/RESULTS.md,
// "Source in frames"). An index file written before frames (layout 1,
// mapped.go) holds each file's source as one zstd frame; it is read as
// before, each source decompressed whole.

// frameBytes is the joined text a frame holds at least (all but a file's
// last frame, which holds what remains): see bench/RESULTS.md for the
// measurement that chose it (request time against index size).
const frameBytes = 8 << 10

// The codecs of an index's sources.
const (
	codecS2   = iota // S2 blocks, one a frame (an index built, or a layout 2 file)
	codecZstd        // one zstd frame a file (a layout 1 file, before frames)
)

var (
	decoderOnce sync.Once
	decoder     *zstd.Decoder
	srcPool     sync.Pool // *[]byte, decompression buffers
	regionPool  sync.Pool // *source, the frames of a window read together
	castagnoli  = crc32.MakeTable(crc32.Castagnoli)
)

// frameTable is the frame table of an index's sources: frame g starts at
// row row[g] of its file, at byte comp[g] of the file's compressed source
// and byte raw[g] of its joined lines, and sum[g] is the CRC-32C of its
// text (none in a layout 1 file, whose zstd frames carry their own). The
// frames of file fi are fileData.frame0 up to the next file's (or the
// end).
type frameTable struct {
	row, comp, raw, sum []uint32
}

func (t *frameTable) len() int { return len(t.row) }

// frameCutter compresses sources into frames, reusing its buffers.
type frameCutter struct {
	size       int // frameBytes, or smaller in tests
	plain, enc []byte
}

// compress appends the frames of the lines (joined by '\n') to t and
// returns their compressed bytes and the length of the joined text.
func (c *frameCutter) compress(lines []string, t *frameTable) ([]byte, int) {
	n := max(len(lines)-1, 0)
	for _, l := range lines {
		n += len(l)
	}
	var out []byte
	raw, start := 0, 0
	buf := c.plain[:0]
	flush := func(next int) {
		t.row = append(t.row, uint32(start))
		t.comp = append(t.comp, uint32(len(out)))
		t.raw = append(t.raw, uint32(raw))
		t.sum = append(t.sum, crc32.Checksum(buf, castagnoli))
		if m := s2.MaxEncodedLen(len(buf)); len(c.enc) < m {
			c.enc = make([]byte, m)
		}
		out = append(out, s2.EncodeBetter(c.enc, buf)...)
		raw += len(buf)
		buf, start = buf[:0], next
	}
	for i, l := range lines {
		buf = append(buf, l...)
		if i+1 < len(lines) {
			buf = append(buf, '\n')
			// No frame of nothing: an empty last line stays with the
			// line before it.
			if len(buf) >= c.size && (i+2 < len(lines) || lines[i+1] != "") {
				flush(i + 1)
			}
		}
	}
	flush(len(lines))
	c.plain = buf
	if cap(c.plain) > 1<<20 {
		c.plain, c.enc = nil, nil // one long line: not kept for the next file
	}
	return append(make([]byte, 0, len(out)), out...), n
}

// frames returns the first and the end of file fi's frames.
func (ix *Index) frames(fi int32) (int, int) {
	end := ix.frameTab.len()
	if int(fi)+1 < len(ix.files) {
		end = int(ix.files[fi+1].frame0)
	}
	return int(ix.files[fi].frame0), end
}

// frameOf returns the frame of file fi that holds row, a row of the file.
func (ix *Index) frameOf(fi int32, row int) int {
	a, b := ix.frames(fi)
	k, found := slices.BinarySearch(ix.frameTab.row[a:b], uint32(row))
	if !found {
		k--
	}
	return a + max(k, 0)
}

// frameSpan returns frame g's bytes in the compressed source of its file
// fi and in the joined text, and the rows it holds.
func (ix *Index) frameSpan(fi int32, g int) (comp, raw [2]int, rows [2]int) {
	t, f := &ix.frameTab, &ix.files[fi]
	comp = [2]int{int(t.comp[g]), len(f.src)}
	raw = [2]int{int(t.raw[g]), int(f.srcLen)}
	rows = [2]int{int(t.row[g]), int(f.lines)}
	if _, end := ix.frames(fi); g+1 < end {
		comp[1], raw[1], rows[1] = int(t.comp[g+1]), int(t.raw[g+1]), int(t.row[g+1])
	}
	return comp, raw, rows
}

// decodeFrames appends frames a..b-1 of file fi, decompressed, to dst:
// the joined text of their rows (with the '\n' after each but the file's
// last).
func (ix *Index) decodeFrames(fi int32, a, b int, dst []byte) []byte {
	f := &ix.files[fi]
	ca, ra, rowsA := ix.frameSpan(fi, a)
	cb, rb, rowsB := ix.frameSpan(fi, b-1)
	start := len(dst)
	out, err := dst, error(nil)
	if ix.srcCodec == codecZstd {
		decoderOnce.Do(func() {
			// The constructor cannot fail with these options.
			decoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderLowmem(true),
				zstd.WithDecoderMaxMemory(maxSource))
		})
		out, err = decoder.DecodeAll(f.src[ca[0]:cb[1]], dst)
	} else {
		for g := a; g < b && err == nil; g++ {
			comp, raw, _ := ix.frameSpan(fi, g)
			n, at := raw[1]-raw[0], len(out)
			frame := f.src[comp[0]:comp[1]]
			if m, e := s2.DecodedLen(frame); e != nil || m != n {
				err = fmt.Errorf("frame %d: %d bytes, want %d (%v)", g, m, n, e)
				break
			}
			// Grown by the length the frame says and the table agrees
			// with, never by the table's word alone (a damaged file's
			// lengths are checked only against each other).
			out = slices.Grow(out, n)[:at+n]
			if _, err = s2.Decode(out[at:], frame); err == nil && crc32.Checksum(out[at:], castagnoli) != ix.frameTab.sum[g] {
				err = fmt.Errorf("frame %d: checksum mismatch", g)
			}
		}
	}
	// The frames' rows, less the file's last, end in '\n'.
	ends := rowsB[1] - rowsA[0]
	if rowsB[1] == int(f.lines) {
		ends--
	}
	if want := rb[1] - ra[0]; err == nil && len(out)-start != want {
		err = fmt.Errorf("%d bytes, want %d", len(out)-start, want)
	} else if err == nil && bytes.Count(out[start:], []byte{'\n'}) != ends {
		err = fmt.Errorf("%d lines, want %d", bytes.Count(out[start:], []byte{'\n'}), ends)
	}
	if err != nil {
		// The bytes were produced by compress in this process, so the
		// index in memory is damaged: say so (SourceError), and hand
		// out blank text of the right shape meanwhile, never garbage.
		if ix.keep != nil { // a mapped file whose content is damaged
			err = fmt.Errorf("%w: %w", ErrDamaged, err)
		}
		ix.damage.record(fmt.Errorf("the loaded source of %s does not decompress: %w", f.path, err))
		out = append(out[:start], bytes.Repeat([]byte{'\n'}, max(ends, 0))...)
	}
	return out
}

// withRows calls fn with the source of the frames of file fi that hold
// rows lo..hi (0-based, inclusive): fn's s.span(lo, hi) are the offsets of
// those rows in s.text, as a span of the whole file's text would give.
// The bytes are only valid during the call, and fn must not change them.
// Rows out of the file's range read from the first or the last frame; a
// negative lo reads the file whole.
func (ix *Index) withRows(fi int32, lo, hi int, fn func(s *source)) {
	a, b := ix.frames(fi)
	if lo >= 0 {
		last := int(ix.files[fi].lines) - 1
		a = ix.frameOf(fi, min(lo, last))
		if hi < lo {
			hi = lo
		}
		if hi <= last {
			b = ix.frameOf(fi, hi) + 1
		}
	}
	if b-a == 1 {
		if s := ix.frame(fi, a); s != nil {
			fn(s)
			return
		}
	}
	// More than one frame, or a frame not kept: read into a region of
	// the pool, from the frames kept or decompressed.
	r, _ := regionPool.Get().(*source)
	if r == nil {
		r = new(source)
	}
	r.text = r.text[:0]
	_, _, rows := ix.frameSpan(fi, a)
	r.first = rows[0]
	for g := a; g < b; g++ {
		if s := ix.frame(fi, g); s != nil {
			r.text = append(r.text, s.text...)
		} else {
			r.text = ix.decodeFrames(fi, g, g+1, r.text)
		}
	}
	r.starts = appendLineStarts(r.starts[:0], r.text)
	fn(r)
	if cap(r.text) <= 1<<20 {
		regionPool.Put(r)
	}
}

// frame returns frame g of file fi decompressed, from the index's cache
// or kept there; nil when the index keeps no frames or this one is too
// long to keep.
func (ix *Index) frame(fi int32, g int) *source {
	if s := ix.srcs.get(g); s != nil {
		return s
	}
	_, raw, rows := ix.frameSpan(fi, g)
	if n := raw[1] - raw[0]; ix.srcs == nil || n > maxCachedSource {
		return nil
	}
	text := ix.decodeFrames(fi, g, g+1, make([]byte, 0, raw[1]-raw[0]))
	return ix.srcs.put(g, &source{text: text, starts: appendLineStarts(nil, text), first: rows[0]})
}

// appendRows appends rows lo..hi of file fi joined by '\n' to dst, as
// Value reads a window (lo, hi as source.span takes them).
func (ix *Index) appendRows(dst []byte, fi int32, lo, hi int) []byte {
	ix.withRows(fi, lo, hi, func(s *source) {
		a, b := s.span(lo, hi)
		dst = append(dst, s.text[a:b]...)
	})
	return dst
}

// rowsString returns rows lo..hi of file fi joined by '\n'.
func (ix *Index) rowsString(fi int32, lo, hi int) string {
	var v string
	ix.withRows(fi, lo, hi, func(s *source) {
		a, b := s.span(lo, hi)
		v = string(s.text[a:b])
	})
	return v
}

// source is the decompressed text of one or more consecutive frames of a
// file: the rows from first on joined by '\n' (with the '\n' after the
// last row unless it is the file's last), and the offset in text of each
// row's first byte (one more, len(text), after a '\n' that ends text).
type source struct {
	text   []byte
	starts []int32
	first  int
}

// lineStarts returns the offset of each line of src.
func lineStarts(src []byte) []int32 { return appendLineStarts(nil, src) }

// appendLineStarts appends the offset of each line of src to dst.
func appendLineStarts(dst []int32, src []byte) []int32 {
	dst = slices.Grow(dst, bytes.Count(src, []byte{'\n'})+1)
	dst = append(dst, 0)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return dst
		}
		off += i + 1
		dst = append(dst, int32(off))
	}
}

// span returns the offsets in text of rows lo..hi of the file (0-based,
// inclusive): text[start:end] is those lines joined by '\n' (lineSpan of
// the whole text, without reading the lines before them). The source
// holds the rows withRows read for lo..hi.
func (s *source) span(lo, hi int) (start, end int) {
	if lo >= 0 {
		lo, hi = lo-s.first, hi-s.first
	}
	n := len(s.starts)
	switch {
	case lo < 0:
		return lineSpan(s.text, lo, hi)
	case lo >= n:
		return len(s.text), len(s.text)
	case hi < lo:
		return int(s.starts[lo]), int(s.starts[lo])
	case hi+1 >= n:
		return int(s.starts[lo]), len(s.text)
	}
	return int(s.starts[lo]), int(s.starts[hi+1]) - 1
}

// sourceCache keeps the decompressed frames an index read last, up to
// sourceCacheBytes: a request reads the windows of its candidates, then
// the statement it predicts from and the definitions it shows from the
// same files, and the next request at the same place (an editor asks
// again at every key) reads the same frames again. Entries are never
// changed once stored, so a reader needs no lock once it has one.
type sourceCache struct {
	mu      sync.Mutex
	entries map[int]*source // by frame
	order   []int           // oldest first
	bytes   int
}

// sourceCacheBytes bounds the frames (and their line offsets) one index's
// cache holds; a frame of more than maxCachedSource bytes (the single
// frame of a long file in an index written before frames) is not kept.
const (
	sourceCacheBytes = 4 << 20
	maxCachedSource  = sourceCacheBytes / 8
)

// cost is what a source holds in the cache.
func (s *source) cost() int { return cap(s.text) + 4*cap(s.starts) }

func (c *sourceCache) get(g int) *source {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[g]
}

// put keeps s as frame g, dropping the oldest frames for room, and
// returns the frame kept (the one another reader put meanwhile, if any).
func (c *sourceCache) put(g int, s *source) *source {
	c.mu.Lock()
	defer c.mu.Unlock()
	if have, ok := c.entries[g]; ok {
		return have
	}
	if c.entries == nil {
		c.entries = map[int]*source{}
	}
	for c.bytes+s.cost() > sourceCacheBytes && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= c.entries[old].cost()
		delete(c.entries, old)
	}
	c.entries[g] = s
	c.order = append(c.order, g)
	c.bytes += s.cost()
	return s
}

// sourceDamage is the first decompression failure of an index.
type sourceDamage struct {
	mu  sync.Mutex
	err error
}

func (d *sourceDamage) record(err error) {
	if d == nil {
		return
	}
	d.mu.Lock()
	if d.err == nil {
		d.err = err
	}
	d.mu.Unlock()
}

// SourceError returns the first failure to decompress a file's source
// since the index was built, or nil. Values, statements and predictions
// read from such a file are blank: a caller that finds an error here must
// not trust its answer (the index in memory is damaged; reload it).
func (ix *Index) SourceError() error {
	if ix.damage == nil {
		return nil
	}
	ix.damage.mu.Lock()
	defer ix.damage.mu.Unlock()
	return ix.damage.err
}

// lines returns the source lines of file fi: its frames the index keeps,
// the others decompressed without keeping them (a file read whole is a
// definition's, and the engine keeps its lines).
func (ix *Index) lines(fi int32) []string {
	if ix.files[fi].lines == 0 {
		return nil
	}
	bp, _ := srcPool.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	src := (*bp)[:0]
	a, b := ix.frames(fi)
	for g := a; g < b; {
		if s := ix.srcs.get(g); s != nil {
			src = append(src, s.text...)
			g++
			continue
		}
		// The frames not kept that follow, in one call.
		e := g + 1
		for e < b && ix.srcs.get(e) == nil {
			e++
		}
		src = ix.decodeFrames(fi, g, e, src)
		g = e
	}
	lines := strings.Split(string(src), "\n")
	*bp = src[:0]
	srcPool.Put(bp)
	return lines
}

// lineSpan returns the offsets of rows lo..hi (0-based, inclusive) in
// src: src[start:end] is those lines joined by '\n'.
func lineSpan(src []byte, lo, hi int) (start, end int) {
	off := 0
	for row := 0; row < lo; row++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src), len(src)
		}
		off += i + 1
	}
	start, end = off, off
	for row := lo; row <= hi; row++ {
		i := bytes.IndexByte(src[end:], '\n')
		if i < 0 {
			return start, len(src)
		}
		if row == hi {
			return start, end + i
		}
		end += i + 1
	}
	return start, end
}

// Text is the source of one stored file read row by row: a row's read
// decompresses the frame holding it (or finds it kept), where Lines
// decompresses the whole file and splits it. A caller that reads a few
// rows of large files (the definition context's signatures) reads a few
// KiB instead of the files.
type Text struct {
	s  *Snapshot // whose damage guard reads run under; nil for an Index's
	ix *Index
	fi int32
}

// Text returns the source of the file at path row by row, nil when the
// index has no such file or it has no lines (where Lines returns nil).
func (ix *Index) Text(path string) *Text {
	if fi, ok := ix.byPath[path]; ok && ix.files[fi].lines > 0 {
		return &Text{ix: ix, fi: fi}
	}
	return nil
}

// Len returns the number of rows, len(Lines(path)).
func (t *Text) Len() int { return int(t.ix.files[t.fi].lines) }

// Line returns row (0-based), Lines(path)[row]; "" for a row out of
// range (a negative one would read the whole file).
func (t *Text) Line(row int) string {
	if row < 0 || row >= t.Len() {
		return ""
	}
	if t.s != nil {
		defer t.s.quiet()
	}
	return t.ix.rowsString(t.fi, row, row)
}
