package engine

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestIndexMemory measures the heap an opened index holds against its
// size on disk. Point GRAPHCODER_INDEX at a built index to run it; with
// GRAPHCODER_ASSERT set it fails over memoryTarget.
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
	e, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	heap := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	info := e.Info()
	t.Logf("entries %d, disk %d bytes, heap %d bytes (%.2fx), estimate %d bytes, load %v",
		info.Entries, disk, heap, float64(heap)/float64(disk), info.Bytes, info.Load)
	if ratio := float64(heap) / float64(disk); assertTargets() && ratio > memoryTarget {
		t.Errorf("the opened index holds %.2fx its size on disk, over the %vx target (bench/RESULTS.md)", ratio, memoryTarget)
	}
	e.Close()
}
