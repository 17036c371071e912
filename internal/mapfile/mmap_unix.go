//go:build unix

package mapfile

import (
	"os"
	"syscall"
)

func mapFile(f *os.File, size int) ([]byte, error) {
	return syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_SHARED)
}

func unmapFile(b []byte) error { return syscall.Munmap(b) }

// releaseMapped drops the mapping's pages from the process's page tables
// (madvise MADV_DONTNEED): the mapping stays valid, and the next read of a
// page maps it again from the page cache, or reads it from disk if the
// kernel has since reclaimed it. The mapping is read-only and shared, so
// no data can be lost.
func releaseMapped(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	return syscall.Madvise(b, syscall.MADV_DONTNEED)
}
