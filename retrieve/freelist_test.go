package retrieve

import (
	"runtime"
	"testing"
)

// TestFreeList: a free list keeps at most ScratchLimit values, returns
// the kept ones, keeps them through garbage collections (which empty a
// sync.Pool), and SetScratchLimit drops those beyond a lower limit.
func TestFreeList(t *testing.T) {
	defer SetScratchLimit(0)
	SetScratchLimit(2)
	var l freeList
	if l.Get() != nil {
		t.Fatal("an empty list returned a value")
	}
	a, b, c := new(int), new(int), new(int)
	l.Put(a)
	l.Put(b)
	l.Put(c) // over the limit: left to the collector
	runtime.GC()
	runtime.GC()
	got := map[any]bool{l.Get(): true, l.Get(): true}
	if !got[a] || !got[b] || l.Get() != nil {
		t.Fatalf("got %v, want a and b, then nothing", got)
	}
	l.Put(a)
	l.Put(b)
	scratchLimit.Store(1)
	l.drop(ScratchLimit())
	if l.Get() == nil || l.Get() != nil {
		t.Error("drop kept other than one value")
	}
	SetScratchLimit(-3)
	if ScratchLimit() != runtime.GOMAXPROCS(0) {
		t.Errorf("default limit %d, want GOMAXPROCS %d", ScratchLimit(), runtime.GOMAXPROCS(0))
	}
}
