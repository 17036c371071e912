//go:build linux

package java

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/internal/cputime"
	sitter "github.com/smacker/go-tree-sitter"
)

// BenchmarkReparseAfterCut reports, over seeded cuts of java.base files,
// the tree-sitter CPU time (of the thread) of a fresh parse of each source and of its
// incremental parse from another's tree (both summed over the cuts, per
// operation), and the largest of each at a cut.
func BenchmarkReparseAfterCut(b *testing.B) {
	cases := cutCases(b, 300)
	ts := sitter.NewParser()
	ts.SetLanguage(language)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	type sums struct{ fresh, inc, maxFresh, maxInc time.Duration }
	got := make([]sums, len(reuses))
	for b.Loop() {
		clear(got)
		for _, c := range cases {
			for k, u := range reuses {
				from, to := u.from(c), u.to(c)
				old, err := ts.ParseCtx(context.Background(), nil, from)
				if err != nil {
					b.Fatal(err)
				}
				t0 := cputime.Thread()
				fresh, err := ts.ParseCtx(context.Background(), nil, to)
				t1 := cputime.Thread()
				if err != nil {
					b.Fatal(err)
				}
				inc, err := reparse(ts, old, from, to)
				t2 := cputime.Thread()
				if err != nil {
					b.Fatal(err)
				}
				s := &got[k]
				s.fresh, s.inc = s.fresh+(t1-t0), s.inc+(t2-t1)
				s.maxFresh, s.maxInc = max(s.maxFresh, (t1-t0)), max(s.maxInc, (t2-t1))
				old.Close()
				fresh.Close()
				inc.Close()
			}
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for k, u := range reuses {
		s := got[k]
		b.ReportMetric(ms(s.fresh), u.name+"-fresh-ms")
		b.ReportMetric(ms(s.inc), u.name+"-reuse-ms")
		b.ReportMetric(ms(s.maxFresh), u.name+"-fresh-max-ms")
		b.ReportMetric(ms(s.maxInc), u.name+"-reuse-max-ms")
	}
	b.ReportMetric(float64(len(cases)), "cuts")
}
