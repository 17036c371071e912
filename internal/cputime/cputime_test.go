package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestAdvances: on Linux both readings grow while the thread spins for a
// few milliseconds, and neither runs backwards.
func TestAdvances(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the readings are 0 here")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, p0 := Thread(), Process()
	for end := time.Now().Add(20 * time.Millisecond); time.Now().Before(end); {
	}
	t1, p1 := Thread(), Process()
	if t1-t0 < 5*time.Millisecond || p1-p0 < 5*time.Millisecond {
		t.Errorf("20 ms of spinning read as %v of the thread and %v of the process", t1-t0, p1-p0)
	}
}
