package mapfile

import (
	"bytes"
	"os"
	"testing"
)

func TestParseStatm(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Resident
		ok   bool
	}{
		{"1000 200 50 10 0 300 0\n", Resident{200 * 4096, 50 * 4096}, true},
		{"1000 200\n", Resident{}, false},
		{"1000 x 50 10 0 300 0\n", Resident{}, false},
		{"1000 -2 50 10 0 300 0\n", Resident{}, false},
		{"", Resident{}, false},
	} {
		got, ok := parseStatm([]byte(c.in), 4096)
		if got != c.want || ok != c.ok {
			t.Errorf("parseStatm(%q) = %+v, %v; want %+v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestReadResident: reading a mapped file's pages makes the file-backed
// part of the resident set grow by about their size, and Release takes
// them out again.
func TestReadResident(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 1<<20) // 16 MiB
	m := openSections(t, "big", big)
	if err := m.Release(); err != nil {
		t.Fatal(err)
	}
	before, ok := ReadResident()
	if !ok {
		t.Skip("no /proc/self/statm")
	}
	b, _ := m.Section("big")
	sum := 0
	for i := 0; i < len(b); i += os.Getpagesize() {
		sum += int(b[i])
	}
	read, _ := ReadResident()
	if err := m.Release(); err != nil {
		t.Fatal(err)
	}
	after, _ := ReadResident()
	// Other goroutines and the runtime may map a little meanwhile.
	if grew := read.File - before.File; grew < int64(len(big))*3/4 {
		t.Errorf("file-backed resident grew by %d bytes reading %d (sum %d)", grew, len(big), sum)
	}
	if fell := read.File - after.File; fell < int64(len(big))*3/4 {
		t.Errorf("file-backed resident fell by %d bytes after Release", fell)
	}
	if read.Total < read.File {
		t.Errorf("resident %d less than its file-backed part %d", read.Total, read.File)
	}
}
