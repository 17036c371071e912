package mapfile

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
	"unsafe"
)

// presentPages counts the pages of b the process's page tables map
// (/proc/self/pagemap, bit 63).
func presentPages(t *testing.T, b []byte) int {
	t.Helper()
	ps := os.Getpagesize()
	start := uintptr(unsafe.Pointer(&b[0])) / uintptr(ps)
	n := (len(b) + ps - 1) / ps
	buf := make([]byte, 8*n)
	f, err := os.Open("/proc/self/pagemap")
	if err != nil {
		t.Skipf("no page map: %v", err)
	}
	defer f.Close()
	if _, err := f.ReadAt(buf, int64(start)*8); err != nil {
		t.Skipf("page map: %v", err)
	}
	present := 0
	for i := range n {
		if binary.LittleEndian.Uint64(buf[8*i:])>>63 == 1 {
			present++
		}
	}
	return present
}

// TestRelease: after Release none of the file's pages are resident, and
// the sections still read the file's bytes.
func TestRelease(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	writeFile(t, path, func(w *Writer) {
		w.Section("big", big)
		sample(w)
	})
	m, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	b, _ := m.Section("big")
	if !bytes.Equal(b, big) {
		t.Fatal("section differs from what was written")
	}
	if n := presentPages(t, m.data); n == 0 {
		t.Fatal("no page resident after reading the whole section")
	}
	if err := m.Release(); err != nil {
		t.Fatal(err)
	}
	if n := presentPages(t, m.data); n != 0 {
		t.Errorf("%d pages resident after Release", n)
	}
	if !bytes.Equal(b, big) {
		t.Error("section differs after Release")
	}
	if raw, _ := m.Section("raw"); string(raw) != "hello" {
		t.Errorf("raw = %q after Release", raw)
	}
	m.Close()
	if err := m.Release(); err != nil {
		t.Errorf("Release after Close: %v", err)
	}
}
