package db

import (
	"fmt"

	"github.com/dgraph-io/badger/v4"
	"github.com/klauspost/compress/zstd"
)

// How a blob is stored. A blob written inline in the store's tables goes
// through every table build and compaction the store runs (each holding
// whole tables of blobs in memory, and compressing them again), which
// made the store the largest part of a build's memory. So a build
// compresses each blob itself, once, and the store keeps the compressed
// blobs of at least valueThreshold bytes in its value log (written once,
// never compacted), and only their pointers in its tables. The entry's
// user meta byte says how its value is stored (metaZstd: a zstd frame of
// the blob; 0: the blob as is, as indexes written before kept them), so
// that every index of this schema reads the same.

const (
	// metaZstd marks a value that is the zstd frame of its blob.
	metaZstd byte = 1
	// valueThreshold is the size from which a value goes to the value
	// log (badger.Options.ValueThreshold).
	valueThreshold = 1 << 10
	// maxBlob bounds what decompressing a stored blob may allocate.
	maxBlob = 1 << 30
)

var (
	// The build's workers compress at once: one encoder each (the
	// default concurrency, GOMAXPROCS). SpeedFastest: the better level
	// writes an eighth less but took an eighth of a build's CPU time.
	blobEncoder, _ = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest),
		zstd.WithLowerEncoderMem(true), zstd.WithWindowSize(1<<20))
	blobDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(0), zstd.WithDecoderLowmem(true),
		zstd.WithDecoderMaxMemory(maxBlob))
)

// storedBlob returns the entry that stores blob under key.
func storedBlob(key, blob []byte) *badger.Entry {
	return badger.NewEntry(key, blobEncoder.EncodeAll(blob, make([]byte, 0, len(blob)/3+64))).WithMeta(metaZstd)
}

// blobValue calls fn with the blob item stores (valid only during the
// call).
func blobValue(item *badger.Item, fn func(blob []byte) error) error {
	meta := item.UserMeta()
	return item.Value(func(v []byte) error {
		switch meta {
		case 0:
			return fn(v)
		case metaZstd:
			blob, err := blobDecoder.DecodeAll(v, nil)
			if err != nil {
				return fmt.Errorf("%w: blob does not decompress: %w", ErrCorrupt, err)
			}
			return fn(blob)
		}
		return fmt.Errorf("%w: blob stored in an unknown way (%d)", ErrCorrupt, meta)
	})
}

// blobCopy returns the blob item stores, in memory of its own.
func blobCopy(item *badger.Item) ([]byte, error) {
	var out []byte
	err := blobValue(item, func(b []byte) error {
		if item.UserMeta() == metaZstd {
			out = b // already a new buffer
		} else {
			out = append([]byte(nil), b...)
		}
		return nil
	})
	return out, err
}
