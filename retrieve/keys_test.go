package retrieve

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestSpilledKeys: a builder that keeps its keys in a temporary file
// (read back in chunks, entries straddling them) builds the same index as
// one that keeps them in memory; a spill that cannot be written or read
// back is an error of Finish, not a wrong index.
func TestSpilledKeys(t *testing.T) {
	defer func(n int) { spillChunk = n }(spillChunk)
	for _, chunk := range []int{64, 4 << 10, 1 << 20} {
		spillChunk = chunk
		r := rand.New(rand.NewPCG(uint64(chunk), 7))
		var files []*File
		for i := range 12 {
			files = append(files, randomFile(r, fmt.Sprintf("f%02d.py", i), 50+r.IntN(300), 400))
		}
		mem := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		spill := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		if err := spill.SpillKeys(t.TempDir()); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := mem.Add(f); err != nil {
				t.Fatal(err)
			}
			if err := spill.Add(f); err != nil {
				t.Fatal(err)
			}
		}
		if spill.keys.size == 0 && chunk < 1<<20 {
			t.Fatalf("chunk %d: nothing spilled", chunk)
		}
		want := mem.Index()
		got, err := spill.Finish()
		if err != nil {
			t.Fatal(err)
		}
		sameIndex(t, got, want)
	}

	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	if err := b.SpillKeys(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	spillChunk = 64
	r := rand.New(rand.NewPCG(1, 2))
	if err := b.Add(randomFile(r, "a.py", 200, 50)); err != nil {
		t.Fatal(err)
	}
	b.keys.f.Close() // what an I/O error does to every later call
	if _, err := b.Finish(); err == nil {
		t.Error("Finish over keys it cannot read back: no error")
	}
}
