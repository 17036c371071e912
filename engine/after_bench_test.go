package engine

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/retrieve"
)

// BenchmarkDefinitionsAfterCursor completes 300 seeded cursors of the
// benchmark index (GRAPHCODER_INDEX, else the standard library) three
// times each: with the whole file as the buffer, with the lines before
// the cursor alone, and with the cursor's line a new one typed in front
// of the indexed line (an editor's buffer while a line is inserted), and
// reports the median and p95 time of the definition context of each: the
// cost of reading the declarations after the cursor (addAfter's outline,
// parsed or read from the index, and the larger outline).
func BenchmarkDefinitionsAfterCursor(b *testing.B) {
	e := stdlibEngine(b)
	cursors := seededCursors(b, e, 300)
	var whole, prefix, inserted []time.Duration
	for b.Loop() {
		whole, prefix, inserted = whole[:0], prefix[:0], inserted[:0]
		for _, c := range cursors {
			lines := strings.SplitAfter(string(c.src), "\n")
			before := strings.Join(lines[:c.line-1], "")
			for i, s := range [][]byte{c.src, []byte(before), []byte(before + "\n" + strings.Join(lines[c.line-1:], ""))} {
				res, err := e.Complete(context.Background(), Request{Path: c.path, Line: c.line, Source: s, Mode: retrieve.CoarseToFine, NoPrompt: true})
				if err != nil {
					b.Fatal(err)
				}
				switch i {
				case 0:
					whole = append(whole, res.Stats.Definitions)
				case 1:
					prefix = append(prefix, res.Stats.Definitions)
				default:
					inserted = append(inserted, res.Stats.Definitions)
				}
			}
		}
	}
	q := quantileMS
	b.ReportMetric(q(whole, 0.5), "defs-ms-p50")
	b.ReportMetric(q(whole, 0.95), "defs-ms-p95")
	b.ReportMetric(q(prefix, 0.5), "prefix-defs-ms-p50")
	b.ReportMetric(q(prefix, 0.95), "prefix-defs-ms-p95")
	b.ReportMetric(q(inserted, 0.5), "inserted-defs-ms-p50")
	b.ReportMetric(q(inserted, 0.95), "inserted-defs-ms-p95")
}
