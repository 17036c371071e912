package engine

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/retrieve"
)

// BenchmarkDefinitionsAfterCursor completes 300 seeded cursors of the
// benchmark index (GRAPHCODER_INDEX, else the standard library) twice
// each, with the whole file as the buffer and with the lines before the
// cursor alone, and reports the median and p95 time of the definition
// context of each: the cost of reading the declarations after the cursor
// (addAfter's outline parse, and the larger outline).
func BenchmarkDefinitionsAfterCursor(b *testing.B) {
	e := stdlibEngine(b)
	var whole, prefix []time.Duration
	for b.Loop() {
		whole, prefix = whole[:0], prefix[:0]
		r := rand.New(rand.NewPCG(42, 1))
		for range 300 {
			p := stdlibSrc[r.IntN(len(stdlibSrc))]
			src, err := os.ReadFile(filepath.Join(e.Root(), p))
			if err != nil {
				b.Fatal(err)
			}
			lines := strings.SplitAfter(string(src), "\n")
			line := 2 + r.IntN(max(len(lines)-2, 1))
			for i, s := range [][]byte{src, []byte(strings.Join(lines[:line-1], ""))} {
				res, err := e.Complete(context.Background(), Request{Path: p, Line: line, Source: s, Mode: retrieve.CoarseToFine, NoPrompt: true})
				if err != nil {
					b.Fatal(err)
				}
				if i == 0 {
					whole = append(whole, res.Stats.Definitions)
				} else {
					prefix = append(prefix, res.Stats.Definitions)
				}
			}
		}
	}
	q := func(d []time.Duration, f float64) float64 {
		d = slices.Clone(d)
		slices.Sort(d)
		return float64(d[int(f*float64(len(d)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(q(whole, 0.5), "defs-ms-p50")
	b.ReportMetric(q(whole, 0.95), "defs-ms-p95")
	b.ReportMetric(q(prefix, 0.5), "prefix-defs-ms-p50")
	b.ReportMetric(q(prefix, 0.95), "prefix-defs-ms-p95")
}
