package retrieve

import (
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
)

// newEncoder returns the encoder of a Builder; it is dropped with the
// builder, since its history buffers are large.
func newEncoder() *zstd.Encoder {
	// The constructor cannot fail with these options.
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithEncoderConcurrency(1), zstd.WithLowerEncoderMem(true))
	return enc
}

// compress returns the lines joined by '\n', compressed.
func compress(encoder *zstd.Encoder, lines []string) []byte {
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
	return append(make([]byte, 0, len(out)), out...)
}

// lines returns the source lines of file fi.
func (ix *Index) lines(fi int32) []string {
	f := &ix.files[fi]
	if f.lines == 0 {
		return nil
	}
	decoderOnce.Do(func() {
		// The constructor cannot fail with these options.
		decoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderLowmem(true))
	})
	src, err := decoder.DecodeAll(f.src, nil)
	if err != nil {
		// The bytes were produced by compress in this process.
		return make([]string, f.lines)
	}
	lines := strings.SplitN(string(src), "\n", int(f.lines))
	for len(lines) < int(f.lines) {
		lines = append(lines, "")
	}
	return lines
}
