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
// '\n'); the bytes are only valid during the call.
func (ix *Index) withSource(fi int32, fn func(src []byte)) {
	f := &ix.files[fi]
	decoderOnce.Do(func() {
		// The constructor cannot fail with these options.
		decoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxMemory(maxSource))
	})
	bp, _ := srcPool.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	src, err := decoder.DecodeAll(f.src, (*bp)[:0])
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
		src = bytes.Repeat([]byte{'\n'}, max(int(f.lines)-1, 0))
	}
	fn(src)
	*bp = src[:0]
	srcPool.Put(bp)
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

// lines returns the source lines of file fi.
func (ix *Index) lines(fi int32) []string {
	if ix.files[fi].lines == 0 {
		return nil
	}
	var lines []string
	ix.withSource(fi, func(src []byte) {
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
