package snapfile

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/db"
)

// TestFileList: the file list decodes as it was encoded; cut anywhere
// inside an entry, or out of path order, it is refused, and damaged bytes
// never make it panic.
func TestFileList(t *testing.T) {
	var files []db.FileInfo
	for i, p := range []string{"a.py", "b/c.java", "b/d.java", "zz/" + strings.Repeat("x", 300) + ".go"} {
		f := db.FileInfo{Path: p, Language: []string{"python", "java", "java", "go"}[i], Lines: 10 * i, Statements: i, BlobBytes: 1 << (10 + i)}
		f.Hash[0], f.Hash[31] = byte(i), 0xff
		files = append(files, f)
	}
	b := encodeFileList(files)
	got, err := decodeFileList(b)
	if err != nil || !slices.Equal(got, files) {
		t.Fatalf("decoded %+v, %v; want %+v", got, err, files)
	}
	ends := map[int]bool{0: true}
	for i := range files {
		ends[len(encodeFileList(files[:i+1]))] = true
	}
	for n := range len(b) {
		got, err := decodeFileList(b[:n])
		if ends[n] != (err == nil) {
			t.Errorf("cut at %d: %d files, %v", n, len(got), err)
		}
	}
	if _, err := decodeFileList(encodeFileList([]db.FileInfo{files[1], files[0]})); err == nil {
		t.Error("a list out of order decoded")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		d := slices.Clone(b)
		for range 1 + r.IntN(4) {
			d[r.IntN(len(d))] = byte(r.UintN(256))
		}
		decodeFileList(d) // must not panic
	}
}
