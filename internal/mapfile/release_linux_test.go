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

// openSections writes a file of the named sections (and the sample
// ones) and opens it; it is closed when the test ends.
func openSections(t *testing.T, secs ...any) *File {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f")
	writeFile(t, path, func(w *Writer) {
		for i := 0; i < len(secs); i += 2 {
			w.Section(secs[i].(string), secs[i+1].([]byte))
		}
		sample(w)
	})
	m, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// TestRelease: after Release none of the file's pages are resident, and
// the sections still read the file's bytes.
func TestRelease(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<16) // 1 MiB
	m := openSections(t, "big", big)
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

// TestRecache: a synced file read back by Recache keeps its bytes, and a
// mapping of it still reads them; how much one read then makes resident
// is the kernel's business (logged, not checked).
func TestRecache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<18) // 4 MiB
	writeFile(t, path, func(w *Writer) {
		w.Section("big", big)
		sample(w)
	})
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if !Recache(path) {
		t.Fatal("Recache failed on a synced file")
	}
	if Recache(filepath.Join(t.TempDir(), "missing")) {
		t.Error("Recache of a missing file reported success")
	}
	m, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	b, _ := m.Section("big")
	_ = b[len(b)/2]
	t.Logf("one byte read: %d pages of %d resident", presentPages(t, m.data), (len(m.data)+os.Getpagesize()-1)/os.Getpagesize())
	if !bytes.Equal(b, big) {
		t.Fatal("section differs from what was written")
	}
}

// TestReleaseKeep: Release(keep) leaves the kept section mapped, but for
// its ends (where the kernel maps the file's pages in blocks of up to 2
// MiB, releasing part of a block releases all of it), and releases the
// others.
func TestReleaseKeep(t *testing.T) {
	a := bytes.Repeat([]byte("a"), 1<<20)
	b := bytes.Repeat([]byte("b"), 8<<20)
	m := openSections(t, "a", a, "b", b)
	sa, _ := m.Section("a")
	sb, _ := m.Section("b")
	if !bytes.Equal(sa, a) || !bytes.Equal(sb, b) {
		t.Fatal("sections differ from what was written")
	}
	if err := m.Release("b", "no such section"); err != nil {
		t.Fatal(err)
	}
	page := os.Getpagesize()
	whole := (len(sb) - 4<<20) / page // the pages of the blocks inside b
	if n := presentPages(t, sb); n < whole {
		t.Errorf("%d pages of the kept section resident, want at least %d", n, whole)
	}
	if n := presentPages(t, sa); n > 1 {
		t.Errorf("%d pages of the released section resident", n)
	}
	if !bytes.Equal(sa, a) {
		t.Error("released section differs after Release")
	}
}
