package window

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// fields splits on white space: hand-computable token sets.
type fields struct{}

func (fields) Split(dst []string, text string) []string { return append(dst, strings.Fields(text)...) }

func TestEntriesAndBytes(t *testing.T) {
	files := []File{
		{Path: "b.py", Lines: []string{"x y", "y z", "z"}},
		{Path: "a.py", Lines: []string{"p"}},
		{Path: "empty.py"},
	}
	ix := Build(files, fields{}, Options{Size: 2})
	// b.py: windows [0,2) [1,3); a.py: one short window; empty.py: none.
	if got := ix.Entries(); got != 3 {
		t.Errorf("Entries = %d, want 3", got)
	}
	// a.py: text "p\n" 2 + 1 id*4 + path 4 = 10
	// b.py [0,2): "x y\ny z\n" 8 + 3 ids*4 + 4 = 24
	// b.py [1,3): "y z\nz\n" 6 + 2 ids*4 + 4 = 18
	if got := ix.Bytes(); got != 52 {
		t.Errorf("Bytes = %d, want 52", got)
	}
}

func TestSearchScoresAndPrediction(t *testing.T) {
	files := []File{
		{Path: "lib.py", Lines: []string{"a b", "c d", "NEXT line", "e f"}},
		{Path: "other.py", Lines: []string{"a b", "q r", "OTHER line"}},
	}
	ix := Build(files, fields{}, Options{Size: 2})
	res := ix.Search(Query{Path: "new.py", Line: 2, Context: []string{"a b", "c d"}, TopK: 10})
	// Query set {a b c d}. lib [0,2) {a b c d}: 1. lib [1,3) {c d NEXT line}:
	// 2/6. lib [2,4) {NEXT line e f}: 0 (not returned). other [0,2)
	// {a b q r}: 2/6. other [1,3): 0. Ties break by (path, row).
	want := []Hit{
		{Path: "lib.py", Start: 0, End: 2, Score: 1, Text: "a b\nc d"},
		{Path: "lib.py", Start: 1, End: 3, Score: 2.0 / 6, Text: "c d\nNEXT line"},
		{Path: "other.py", Start: 0, End: 2, Score: 2.0 / 6, Text: "a b\nq r"},
	}
	if !equalHits(res.Hits, want) {
		t.Errorf("hits %+v, want %+v", res.Hits, want)
	}
	if res.Prediction != "NEXT line" {
		t.Errorf("prediction %q, want the row after the best window", res.Prediction)
	}

	shifted := ix.Search(Query{Path: "new.py", Line: 2, Context: []string{"a b", "c d"}, Shift: true, TopK: 1})
	if len(shifted.Hits) != 1 || shifted.Hits[0].Text != "NEXT line\ne f" || shifted.Prediction != "NEXT line" {
		t.Errorf("shifted %+v, want the window after the best match", shifted)
	}

	// RepoCoder: with a predicted line appended the hole aligns with the
	// window's last row. Query "c d" + "NEXT line" matches lib [1,3).
	rc := ix.Search(Query{Path: "new.py", Line: 2, Context: []string{"a b", "c d"}, Appended: []string{"NEXT line"}, TopK: 1})
	if len(rc.Hits) != 1 || rc.Hits[0].Start != 1 || rc.Prediction != "NEXT line" {
		t.Errorf("appended query %+v, want lib [1,3) predicting its last row", rc)
	}
}

func TestPredictionSkipsBlankAndComments(t *testing.T) {
	files := []File{{Path: "lib.py", Lines: []string{"a b", "", "  # note", "    real = 1"}}}
	ix := Build(files, fields{}, Options{Size: 1, CommentPrefix: "#"})
	res := ix.Search(Query{Path: "x.py", Line: 1, Context: []string{"a b"}})
	if res.Prediction != "    real = 1" {
		t.Errorf("prediction %q", res.Prediction)
	}
}

func TestLeakRule(t *testing.T) {
	// The hole (row 3) holds a unique token; the same pattern repeats after it.
	lines := []string{"a b", "c d", "e f", "SECRET x", "a b", "c d", "e f", "SECRET y"}
	ix := Build([]File{{Path: "f.py", Lines: lines}}, fields{}, Options{Size: 2})
	for _, shift := range []bool{false, true} {
		for _, app := range [][]string{nil, {"SECRET guess"}} {
			res := ix.Search(Query{Path: "f.py", Line: 3, Context: lines[:3], Appended: app, Shift: shift, TopK: 10})
			for _, h := range res.Hits {
				if h.End > 3 || strings.Contains(h.Text, "SECRET") {
					t.Errorf("shift=%v appended=%v: leaked hit %+v", shift, app, h)
				}
			}
			if strings.Contains(res.Prediction, "SECRET") {
				t.Errorf("shift=%v appended=%v: leaked prediction %q", shift, app, res.Prediction)
			}
		}
	}
	// Without the same path the later windows are fair game.
	res := ix.Search(Query{Path: "g.py", Line: 3, Context: lines[:3], TopK: 10})
	if res.Prediction == "" || !strings.Contains(res.Prediction, "SECRET") {
		t.Errorf("other file: prediction %q, want a SECRET row", res.Prediction)
	}
}

func TestNoPredictionFromOwnRows(t *testing.T) {
	// The hole is row 7 of f.py. The best windows are the query's own rows
	// shifted by one (rows 5-6 predict row 7's predecessor): they stay hits
	// but must not predict. The pattern at rows 0-2 is the real analogue.
	lines := []string{"a b", "c d", "ANSWER one", "x", "y", "a b", "c d", "ANSWER two"}
	ix := Build([]File{{Path: "f.py", Lines: lines}}, fields{}, Options{Size: 2})
	tests := []struct {
		name     string
		q        Query
		wantPred string
	}{
		{"vanilla", Query{Path: "f.py", Line: 7, Context: lines[:7]}, "ANSWER one"},
		{"appended", Query{Path: "f.py", Line: 7, Context: lines[:7], Appended: []string{"ANSWER"}}, "ANSWER one"},
		// From another file the same windows are no self-alignment.
		{"other file", Query{Path: "g.py", Line: 2, Context: lines[5:7]}, "ANSWER one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := ix.Search(tt.q)
			if res.Prediction != tt.wantPred {
				t.Errorf("prediction %q, want %q (hits %+v)", res.Prediction, tt.wantPred, res.Hits)
			}
		})
	}
	// A query whose only matches are its own rows predicts nothing.
	solo := Build([]File{{Path: "s.py", Lines: []string{"p q", "r s", "t u"}}}, fields{}, Options{Size: 2})
	if res := solo.Search(Query{Path: "s.py", Line: 3, Context: []string{"p q", "r s", "t u"}}); res.Prediction != "" {
		t.Errorf("solo prediction %q, want none", res.Prediction)
	}
}

// TestExactJaccard checks the inverted index against brute force on random
// files.
func TestExactJaccard(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string { return fmt.Sprintf("t%d", rng.IntN(40)) }
	var files []File
	for f := 0; f < 5; f++ {
		var lines []string
		for r := 0; r < 10+rng.IntN(30); r++ {
			var ws []string
			for k := 0; k < rng.IntN(5); k++ {
				ws = append(ws, word())
			}
			lines = append(lines, strings.Join(ws, " "))
		}
		files = append(files, File{Path: fmt.Sprintf("f%d.py", f), Lines: lines})
	}
	const size = 6
	ix := Build(files, fields{}, Options{Size: size})
	for trial := 0; trial < 50; trial++ {
		var ctx []string
		for r := 0; r < size; r++ {
			ctx = append(ctx, word()+" "+word()+" unseen"+word())
		}
		got := ix.Search(Query{Path: "query.py", Context: ctx, TopK: 1000})
		var want []float64
		q := set(strings.Fields(strings.Join(ctx, " ")))
		for _, f := range files {
			for s := 0; s < max(1, len(f.Lines)-size+1); s++ {
				w := set(strings.Fields(strings.Join(f.Lines[s:min(s+size, len(f.Lines))], " ")))
				inter := 0
				for k := range q {
					if w[k] {
						inter++
					}
				}
				if inter > 0 {
					want = append(want, float64(inter)/float64(len(q)+len(w)-inter))
				}
			}
		}
		slices.Sort(want)
		slices.Reverse(want)
		if len(got.Hits) != len(want) {
			t.Fatalf("trial %d: %d hits, brute force %d", trial, len(got.Hits), len(want))
		}
		for i := range want {
			if math.Abs(got.Hits[i].Score-want[i]) > 1e-12 {
				t.Fatalf("trial %d hit %d: score %v, brute force %v", trial, i, got.Hits[i].Score, want[i])
			}
		}
	}
}

func set(ws []string) map[string]bool {
	m := map[string]bool{}
	for _, w := range ws {
		m[w] = true
	}
	return m
}

func equalHits(a, b []Hit) bool {
	return slices.EqualFunc(a, b, func(x, y Hit) bool {
		return x.Path == y.Path && x.Start == y.Start && x.End == y.End && x.Text == y.Text && math.Abs(x.Score-y.Score) < 1e-12
	})
}
