//go:build !unix

package mapfile

import (
	"io"
	"os"
)

// Without mmap the file is read into memory, 8-byte aligned.
func mapFile(f *os.File, size int) ([]byte, error) {
	words := make([]uint64, (size+7)/8)
	b := unsafeBytes(words)[:size]
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, int64(size)), b); err != nil {
		return nil, err
	}
	return b, nil
}

func unmapFile([]byte) error { return nil }

// releaseMapped has nothing to release: the file was read into memory.
func releaseMapped([]byte) error { return nil }
