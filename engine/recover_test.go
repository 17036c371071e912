package engine

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
)

// TestRecoveredQuery: at a cursor deep inside g the lines before it parse
// into one syntax error from the first row on (cutOffJava); the query is
// then read from the lines with their brackets closed, and its slice is
// the statements of g around the cursor, the same for the bounded and the
// whole-prefix parse. A cursor whose prefix parses is left as it is.
func TestRecoveredQuery(t *testing.T) {
	idx := t.TempDir()
	buildIndex(t, fileRepo(t, "A.java", cutOffJava), idx)
	bounded, whole, plain := openIndex(t, idx, Options{}), openIndex(t, idx, Options{WholePrefixParse: true}), openIndex(t, idx, Options{NoQueryRecovery: true})
	lines := lang.SplitLines(cutOffJava)
	l := lang.ForPath("A.java")
	ctx := context.Background()

	const line = 28 // after `}` closing `if (s != null)`, inside g
	before, after := lines[:line-1], lines[line:len(lines)-1]
	_, pg, ps, pb := queryOf(t, ctx, plain, l, "A.java", line, before, after)
	if pb.recovered {
		t.Fatal("recovered with Options.NoQueryRecovery")
	}
	if n := pg.Nodes[ps.Nodes[0]]; n.Kind != lang.Error || n.StartRow != 0 {
		t.Fatalf("unrecovered: first slice statement %+v, want the error from row 0", n)
	}
	bq, bg, bs, bb := queryOf(t, ctx, bounded, l, "A.java", line, before, after)
	wq, wg, ws, wb := queryOf(t, ctx, whole, l, "A.java", line, before, after)
	if !bb.recovered || !wb.recovered {
		t.Fatalf("not recovered: bounded %v, whole prefix %v", bb.recovered, wb.recovered)
	}
	if bb.blanked == 0 {
		t.Error("the bounded parse blanked nothing")
	}
	if diff := sliceDiff(wg, ws, bg, bs); diff != "" {
		t.Fatalf("the recovered bounded slice differs from the whole prefix's: %s", diff)
	}
	wq.Nodes, bq.Nodes = nil, nil
	if !reflect.DeepEqual(wq, bq) {
		t.Fatal("the recovered bounded query differs from the whole prefix's")
	}
	var texts []string
	for i, v := range bs.Nodes {
		if i == bs.Target {
			continue
		}
		n := bg.Nodes[v]
		if n.Kind == lang.Error || n.StartRow < 8 || n.EndRow >= line-1 {
			t.Errorf("slice statement %+v %q: want a statement of g (rows 8-%d)", n, bg.Text(v), line-2)
		}
		texts = append(texts, strings.TrimSpace(bg.Text(v)))
	}
	for _, want := range []string{"if (s != null) {", "Object s = p.toString();"} {
		found := false
		for _, got := range texts {
			found = found || got == want
		}
		if !found {
			t.Errorf("slice %q: no %q", texts, want)
		}
	}

	// Through Complete, flagged in Stats; a cursor in f, whose prefix
	// parses, is not recovered.
	for _, c := range []struct {
		line int
		want bool
	}{{line, true}, {6, false}} {
		res, err := bounded.Complete(ctx, Request{Path: "A.java", Line: c.line, Source: []byte(cutOffJava)})
		if err != nil {
			t.Fatal(err)
		}
		if res.Stats.Recovered != c.want {
			t.Errorf("line %d: Stats.Recovered %v, want %v", c.line, res.Stats.Recovered, c.want)
		}
	}
}
