package db

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/lang"
	_ "github.com/graphcoder/graphcoder/lang/golang"
	_ "github.com/graphcoder/graphcoder/lang/java"
	_ "github.com/graphcoder/graphcoder/lang/python"
	_ "github.com/graphcoder/graphcoder/lang/typescript"
)

// peakHeap runs fn and returns the largest heap in use while it ran, above
// the heap in use before, sampled every millisecond.
func peakHeap(fn func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > base && m.HeapInuse-base > peak.Load() {
				peak.Store(m.HeapInuse - base)
			}
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
	fn()
	close(stop)
	<-done
	return peak.Load()
}

// The memory one file takes to index is bounded by a multiple of its size,
// also for files made to be expensive: many definitions (their
// reaching-definition sets), long chains of data dependences, and one
// line of many statements (refused before it is parsed), in Python,
// Java, Go and TypeScript.
func TestMemoryPerFile(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes files of a megabyte")
	}
	var defs, chain, jdefs, jchain, gdefs, tdefs strings.Builder
	jdefs.WriteString("class M {\n")
	jchain.WriteString("class M {\n  void m() {\n    int x0 = 0;\n")
	gdefs.WriteString("package m\n\n")
	for i := range 20000 {
		fmt.Fprintf(&defs, "def f%d(a, b):\n    return a + b\n", i)
		fmt.Fprintf(&chain, "x%d = x%d + 1\n", i+1, i)
		fmt.Fprintf(&jdefs, "  int f%d(int a, int b) {\n    return a + b;\n  }\n", i)
		fmt.Fprintf(&jchain, "    int x%d = x%d + 1;\n", i+1, i)
		fmt.Fprintf(&gdefs, "func f%d(a, b int) int {\n\treturn a + b\n}\n", i)
		fmt.Fprintf(&tdefs, "function f%d(a, b) {\n  return a + b;\n}\n", i)
	}
	jdefs.WriteString("}\n")
	jchain.WriteString("    use(x20000);\n  }\n}\n")
	oneLine := strings.Repeat("x=1;", (1<<20)/4-1) + "\n"
	// Allowed heap per byte of source, on top of a fixed 4 MiB: measured
	// 33 for the Python definitions, 29 to 31 for the other definitions
	// and the Python chain, 18 for Java's chain (see bench/RESULTS.md,
	// "Memory per file"); before the front ends collected their stages'
	// garbage, the syntax records shrank to 24 bytes and the blob's head
	// sized its tables, the Python definitions took 28.6 MiB (37 a byte),
	// Java's methods 86 MiB (86), its chain 46 MiB (80), Go's and
	// TypeScript's functions 43 and 41 MiB (47 and 46).
	const perByte = 36
	for _, tt := range []struct {
		path, name, src string
		refused         bool
	}{
		{"m.py", "20000 definitions", defs.String(), false},
		{"m.py", "data dependence chain", chain.String(), false},
		{"m.py", "one line of 262143 statements", oneLine, true},
		{"M.java", "20000 Java methods", jdefs.String(), false},
		{"M.java", "Java data dependence chain", jchain.String(), false},
		{"m.go", "20000 Go functions", gdefs.String(), false},
		{"m.ts", "20000 TypeScript functions", tdefs.String(), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := openTest(t, t.TempDir())
			b, err := NewBuilder(d, BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Abort()
			// The work the builder does per file, without the store's own
			// buffers (a memtable is a fixed cost of the open index).
			var addErr error
			start := time.Now()
			peak := peakHeap(func() {
				a, err := b.analyze(context.Background(), b, lang.ForPath(tt.path), tt.path, []byte(tt.src))
				if addErr = err; err == nil {
					_ = b.encode(a)
				}
			})
			took := time.Since(start)
			switch {
			case tt.refused && !errors.Is(addErr, lang.ErrTooLarge):
				t.Fatalf("Add = %v, want %v", addErr, lang.ErrTooLarge)
			case !tt.refused && addErr != nil:
				t.Fatal(addErr)
			}
			limit := uint64(perByte*len(tt.src)) + 4<<20
			t.Logf("%d bytes: peak heap %.1f MiB (%.0f x the file), %v", len(tt.src), float64(peak)/(1<<20), float64(peak)/float64(len(tt.src)), took.Round(time.Millisecond))
			if peak > limit {
				t.Errorf("peak heap %d MiB, over %d MiB", peak>>20, limit>>20)
			}
		})
	}
}
