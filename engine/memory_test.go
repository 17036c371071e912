package engine

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/graphcoder/graphcoder/internal/mapfile"
)

// TestIndexMemory measures the memory an opened index holds against its
// size on disk: the heap it allocates plus the snapshot file it maps
// (which the page cache may hold whole once queries have touched it), and,
// for information, the growth of the resident set at open. Point
// GRAPHCODER_INDEX at a built index to run it; with GRAPHCODER_ASSERT set
// it fails over memoryTarget.
func TestIndexMemory(t *testing.T) {
	dir := os.Getenv("GRAPHCODER_INDEX")
	if dir == "" {
		t.Skip("set GRAPHCODER_INDEX to an index directory")
	}
	var disk int64
	filepath.Walk(dir, func(_ string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			disk += fi.Size()
		}
		return nil
	})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rss0 := resident()
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	runtime.GC()
	runtime.ReadMemStats(&after)
	rss := resident() - rss0
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	info := e.Info()
	held := heap + info.SnapshotBytes
	t.Logf("entries %d, disk %d bytes, heap %d bytes + mapped %d bytes = %d bytes (%.2fx), resident growth %d bytes, estimate %d bytes, load %v",
		info.Entries, disk, heap, info.SnapshotBytes, held, float64(held)/float64(disk), rss, info.Bytes, info.Load)
	if ratio := float64(held) / float64(disk); assertTargets() && ratio > memoryTarget {
		t.Errorf("the opened index holds %.2fx its size on disk, over the %vx target (bench/RESULTS.md)", ratio, memoryTarget)
	}
}

// resident returns the process's resident set size (0 where the system
// does not tell).
func resident() int64 {
	r, _ := mapfile.ReadResident()
	return r.Total
}
