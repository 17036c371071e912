package mapfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func writeFile(t testing.TB, path string, fill func(w *Writer)) {
	t.Helper()
	var buf bytes.Buffer
	w := NewWriter(&buf)
	fill(w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sample(w *Writer) {
	w.Section("raw", []byte("hello"))
	Put(w, "u32", []uint32{1, 2, 3, 1 << 31})
	Put(w, "rows", [][2]int32{{1, -2}, {3, 4}})
	w.Begin("streamed")
	Append(w, []uint64{7})
	Append(w, []uint64{8, 9})
	Put(w, "empty", []uint16(nil))
}

func TestRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	writeFile(t, path, sample)
	m, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.VerifyAll(); err != nil {
		t.Fatal(err)
	}
	raw, _ := m.Section("raw")
	if string(raw) != "hello" {
		t.Errorf("raw = %q", raw)
	}
	u32, err := Get[uint32](m, "u32")
	if err != nil || !slices.Equal(u32, []uint32{1, 2, 3, 1 << 31}) {
		t.Errorf("u32 = %v, %v", u32, err)
	}
	rows, err := Get[[2]int32](m, "rows")
	if err != nil || !slices.Equal(rows, [][2]int32{{1, -2}, {3, 4}}) {
		t.Errorf("rows = %v, %v", rows, err)
	}
	st, err := Get[uint64](m, "streamed")
	if err != nil || !slices.Equal(st, []uint64{7, 8, 9}) {
		t.Errorf("streamed = %v, %v", st, err)
	}
	if e, err := Get[uint16](m, "empty"); err != nil || len(e) != 0 {
		t.Errorf("empty = %v, %v", e, err)
	}
	if _, err := m.Section("missing"); !errors.Is(err, ErrFormat) {
		t.Errorf("missing section: %v", err)
	}
	if _, err := Get[uint64](m, "raw"); !errors.Is(err, ErrFormat) {
		t.Errorf("5 bytes as uint64: %v", err)
	}
}

func TestWriterErrors(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if _, err := w.Write([]byte("x")); err == nil {
		t.Error("write outside a section succeeded")
	}
	w = NewWriter(&buf)
	w.Section("a", nil)
	if err := w.Section("a", nil); err == nil {
		t.Error("a section written twice")
	}
	if err := w.Close(); err == nil {
		t.Error("Close after an error succeeded")
	}
	w = NewWriter(&buf)
	if err := w.Begin("a-name-longer-than-twenty-four-bytes"); err == nil {
		t.Error("a long name was accepted")
	}
}

// TestDamage: every flipped byte of a file is found by Open (toc,
// trailer) or by Verify (section contents, padding aside).
func TestDamage(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	writeFile(t, good, sample)
	data, _ := os.ReadFile(good)
	m, err := Open(good)
	if err != nil {
		t.Fatal(err)
	}
	covered := make([]bool, len(data))
	for _, e := range m.secs {
		for i := e.off; i < e.off+e.length; i++ {
			covered[i] = true
		}
	}
	tocOff := int(binary.LittleEndian.Uint64(m.data[len(m.data)-trailerLen:]))
	m.Close()
	for i := range data {
		if !covered[i] && i < tocOff {
			continue // padding
		}
		bad := slices.Clone(data)
		bad[i] ^= 0x40
		p := filepath.Join(dir, "bad")
		os.WriteFile(p, bad, 0o644)
		m, err := Open(p)
		if err == nil {
			err = m.VerifyAll()
			m.Close()
		}
		if !errors.Is(err, ErrFormat) {
			t.Fatalf("byte %d flipped: %v", i, err)
		}
	}
	for _, n := range []int{0, 1, trailerLen - 1, len(data) / 2, len(data) - 1} {
		p := filepath.Join(dir, "short")
		os.WriteFile(p, data[:n], 0o644)
		if m, err := Open(p); err == nil {
			m.Close()
			t.Errorf("a file cut to %d bytes opened", n)
		}
	}
}

func FuzzOpen(f *testing.F) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	sample(w)
	w.Close()
	f.Add(buf.Bytes())
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := Open(p)
		if err != nil {
			return
		}
		defer m.Close()
		for name := range m.secs {
			s, err := m.Section(name)
			if err != nil {
				t.Fatal(err)
			}
			_ = len(s)
			m.Verify(name)
		}
	})
}
