package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/retrieve"
)

// The query is a loop accumulating into total, cursor on the line after
// `total += record.amount`, in a file the index has never seen:
const fineQuery = `def summarize(records):
    total = 0
    count = 0
    for record in records:
        total += record.amount
`

// TestFineStageMatters runs on testdata/finestage, built so that the two
// stages disagree:
//
//   - shop/lexical.py repeats the query's vocabulary (summarize, records,
//     total, count, record.amount) but has no loop: the amounts are summed
//     by a generator expression and the next statements are
//     `validate(amount)` and `return total, count`. Their keys share almost
//     every token with the query's, so they have the best Jaccard.
//   - shop/structural.py has another function name and parameter
//     (grand_total, batches) and no count, so it shares fewer tokens, but
//     its `record.settled = True` sits exactly where the cursor does: right
//     after `total += record.amount` inside a `for record in ...` loop,
//     with the same CF, CD and DD edges around it.
//
// The subgraph edit distance weighs the statement next to the target
// most (gamma^1) and checks edges, so the structural twin wins once the
// fine stage runs, and its statement becomes the prediction.
func TestFineStageMatters(t *testing.T) {
	e := openRepo(t, "testdata/finestage")
	ask := func(mode retrieve.Mode) *Result {
		res, err := e.Complete(context.Background(), Request{Path: "app/new.py", Line: 6, Source: []byte(fineQuery), Mode: mode})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Snippets) == 0 {
			t.Fatalf("mode %s: no snippets", mode)
		}
		for i, s := range res.Snippets {
			t.Logf("%s %d: %s:%d score %.4f coarse %.4f sed %.4f", mode, i, s.Path, s.TargetLine, s.Score, s.CoarseScore, s.SED)
		}
		return res
	}
	coarse := ask(retrieve.Coarse)
	if p := coarse.Snippets[0].Path; p != "shop/lexical.py" {
		t.Errorf("coarse: best snippet from %s, want shop/lexical.py", p)
	}
	fine := ask(retrieve.CoarseToFine)
	best := fine.Snippets[0]
	if best.Path != "shop/structural.py" || best.TargetLine != 5 {
		t.Errorf("coarse2fine: best snippet %s:%d, want shop/structural.py:5", best.Path, best.TargetLine)
	}
	if want := "        record.settled = True"; fine.Prediction != want {
		t.Errorf("prediction %q, want %q", fine.Prediction, want)
	}
	if !strings.Contains(fine.Context.Text(), "# shop/structural.py") {
		t.Errorf("prompt lacks the best snippet:\n%s", fine.Context.Text())
	}
}
