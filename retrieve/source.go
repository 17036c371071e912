package retrieve

import (
	"bytes"
	"fmt"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// The index keeps each file's source compressed: the source is the
// largest part of an index in memory and only the few files a query
// returns are ever read back, each in tens of microseconds.

var (
	decoderOnce sync.Once
	decoder     *zstd.Decoder
	srcPool     sync.Pool // *[]byte, decompression buffers
)

// newEncoder returns the encoder of a Builder; it is dropped with the
// builder, since its history buffers are large.
func newEncoder() *zstd.Encoder {
	// The constructor cannot fail with these options.
	// SpeedBetterCompression: an eighth smaller than SpeedFastest on
	// source files, about as fast to write, and as fast to read.
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBetterCompression),
		zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true))
	return enc
}

// compress returns the lines joined by '\n', compressed, and the length
// of the joined text.
func compress(encoder *zstd.Encoder, lines []string) ([]byte, int) {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	buf := make([]byte, 0, n)
	for i, l := range lines {
		if i > 0 {
			buf = append(buf, '\n')
		}
		buf = append(buf, l...)
	}
	out := encoder.EncodeAll(buf, nil)
	return append(make([]byte, 0, len(out)), out...), len(buf)
}

// withSource calls fn with the source of file fi (the lines joined by
// '\n') and the offset of each of its lines; the bytes are only valid
// during the call, and fn must not change them.
func (ix *Index) withSource(fi int32, fn func(src *source)) {
	if s := ix.srcs.get(fi); s != nil {
		fn(s)
		return
	}
	if n := int(ix.files[fi].srcLen); ix.srcs != nil && n <= maxCachedSource {
		src := ix.decompress(fi, make([]byte, 0, n))
		fn(ix.srcs.put(fi, &source{text: src, starts: lineStarts(src)}))
		return
	}
	ix.withPooled(fi, func(src []byte) {
		fn(&source{text: src, starts: lineStarts(src)})
	})
}

// withPooled calls fn with the source of file fi decompressed into a
// pooled buffer, not kept: the bytes are only valid during the call.
func (ix *Index) withPooled(fi int32, fn func(src []byte)) {
	bp, _ := srcPool.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	src := ix.decompress(fi, (*bp)[:0])
	fn(src)
	*bp = src[:0]
	srcPool.Put(bp)
}

// decompress appends the source of file fi to dst.
func (ix *Index) decompress(fi int32, dst []byte) []byte {
	f := &ix.files[fi]
	decoderOnce.Do(func() {
		// The constructor cannot fail with these options.
		decoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxMemory(maxSource))
	})
	src, err := decoder.DecodeAll(f.src, dst)
	if err == nil && len(src) != int(f.srcLen) {
		err = fmt.Errorf("%d bytes, want %d", len(src), f.srcLen)
	}
	if err != nil {
		// The bytes were produced by compress in this process, so the
		// index in memory is damaged: say so (SourceError), and hand
		// out blank text of the right shape meanwhile, never garbage.
		if ix.keep != nil { // a mapped file whose content is damaged
			err = fmt.Errorf("%w: %w", ErrDamaged, err)
		}
		ix.damage.record(fmt.Errorf("the loaded source of %s does not decompress: %w", f.path, err))
		src = append(dst[:0], bytes.Repeat([]byte{'\n'}, max(int(f.lines)-1, 0))...)
	}
	return src
}

// source is one file's decompressed source: the lines joined by '\n',
// and the offset in text of each line's first byte.
type source struct {
	text   []byte
	starts []int32
}

// lineStarts returns the offset of each line of src.
func lineStarts(src []byte) []int32 {
	starts := make([]int32, 1, bytes.Count(src, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return starts
		}
		off += i + 1
		starts = append(starts, int32(off))
	}
}

// span returns the offsets of rows lo..hi (0-based, inclusive):
// text[start:end] is those lines joined by '\n' (lineSpan, without
// reading the lines before them).
func (s *source) span(lo, hi int) (start, end int) {
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

// sourceCache keeps the decompressed sources of the files an index read
// last, up to sourceCacheBytes: a request reads the windows of its
// candidates, then the statement it predicts from and the definitions
// it shows from the same files, and the next request at the same place
// (an editor asks again at every key) reads the same files again.
// Entries are never changed once stored, so a reader needs no lock once
// it has one.
type sourceCache struct {
	mu      sync.Mutex
	entries map[int32]*source
	order   []int32 // oldest first
	bytes   int
}

// sourceCacheBytes bounds the sources (and their line offsets) one
// index's cache holds; a source of more than maxCachedSource bytes is
// not kept.
const (
	sourceCacheBytes = 4 << 20
	maxCachedSource  = sourceCacheBytes / 8
)

// cost is what a source holds in the cache.
func (s *source) cost() int { return cap(s.text) + 4*cap(s.starts) }

func (c *sourceCache) get(fi int32) *source {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.entries[fi]
}

// put keeps s as the source of file fi, dropping the oldest sources for
// room, and returns the source kept (the one another reader put
// meanwhile, if any).
func (c *sourceCache) put(fi int32, s *source) *source {
	c.mu.Lock()
	defer c.mu.Unlock()
	if have, ok := c.entries[fi]; ok {
		return have
	}
	if c.entries == nil {
		c.entries = map[int32]*source{}
	}
	for c.bytes+s.cost() > sourceCacheBytes && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= c.entries[old].cost()
		delete(c.entries, old)
	}
	c.entries[fi] = s
	c.order = append(c.order, fi)
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

// lines returns the source lines of file fi: from the kept source, or
// decompressed without keeping it.
func (ix *Index) lines(fi int32) []string {
	if ix.files[fi].lines == 0 {
		return nil
	}
	if s := ix.srcs.get(fi); s != nil {
		return strings.Split(string(s.text), "\n")
	}
	// A file read whole is a definition's (the engine keeps its lines):
	// not kept among the candidates' sources.
	var lines []string
	ix.withPooled(fi, func(src []byte) {
		lines = strings.Split(string(src), "\n")
	})
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
