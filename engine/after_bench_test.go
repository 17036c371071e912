package engine

import (
	"context"
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
	cursors := seededCursors(b, e, 300)
	var whole, prefix []time.Duration
	for b.Loop() {
		whole, prefix = whole[:0], prefix[:0]
		for _, c := range cursors {
			lines := strings.SplitAfter(string(c.src), "\n")
			for i, s := range [][]byte{c.src, []byte(strings.Join(lines[:c.line-1], ""))} {
				res, err := e.Complete(context.Background(), Request{Path: c.path, Line: c.line, Source: s, Mode: retrieve.CoarseToFine, NoPrompt: true})
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
	q := quantileMS
	b.ReportMetric(q(whole, 0.5), "defs-ms-p50")
	b.ReportMetric(q(whole, 0.95), "defs-ms-p95")
	b.ReportMetric(q(prefix, 0.5), "prefix-defs-ms-p50")
	b.ReportMetric(q(prefix, 0.95), "prefix-defs-ms-p95")
}
