package engine

import (
	"context"
	"testing"
)

func TestSmokeDemo(t *testing.T) {
	e := engineFromSource(t, "../testdata/demo")
	t.Logf("%+v", e.Info())
	for _, line := range []int{10, 20, 30} {
		res, err := e.Complete(context.Background(), Request{Path: "ledger/accounts.py", Line: line})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("line %d prediction %q stats %+v", line, res.Prediction, res.Stats)
		for _, s := range res.Snippets[:min(3, len(res.Snippets))] {
			t.Logf("  %s:%d-%d target %d score %.3f coarse %.3f sed %.3f", s.Path, s.StartLine, s.EndLine, s.TargetLine, s.Score, s.CoarseScore, s.SED)
		}
	}
}
