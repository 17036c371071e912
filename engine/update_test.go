package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/indexer"
)

const liveLib = `def compute_total(items):
    total = 0
    for item in items:
        total = total + item.%s
    return total
`

const liveQuery = `def order_sum(items):
    total = 0
    for item in items:
`

// snippetsMention reports whether any snippet of a completion at the end
// of liveQuery holds word.
func snippetsMention(t *testing.T, e *Engine, word string) bool {
	t.Helper()
	res, err := e.Complete(context.Background(), Request{Path: "query.py", Line: 4, Source: []byte(liveQuery)})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Snippets {
		if strings.Contains(s.Text, word) {
			return true
		}
	}
	return false
}

// TestUpdate: an edited file is visible after Update, a deleted one is
// gone, and folding the delta into a new base keeps both.
func TestUpdate(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	idx := filepath.Join(t.TempDir(), "idx")
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("lib.py", strings.Replace(liveLib, "%s", "price_zebra", 1))
	write("other.py", "x = 1\ny = x + 2\n")
	d, e := buildLive(t, repo, idx, Options{FoldAfter: 1})
	rules := indexer.NewRules(repo, idx, 0)
	update := func(paths ...string) {
		t.Helper()
		s, err := indexer.Update(ctx, d, rules, paths)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.Update(s.Paths()); err != nil {
			t.Fatal(err)
		}
	}
	if !snippetsMention(t, e, "price_zebra") {
		t.Fatal("the indexed file is not retrieved")
	}

	write("lib.py", strings.Replace(liveLib, "%s", "price_giraffe", 1))
	update("lib.py")
	if !snippetsMention(t, e, "price_giraffe") || snippetsMention(t, e, "price_zebra") {
		t.Fatal("the edited file's new content is not what is retrieved")
	}
	if i := e.Info(); i.Changed != 1 || i.Files != 2 {
		t.Errorf("info after an edit: %+v", i)
	}

	os.Remove(filepath.Join(repo, "lib.py"))
	update("lib.py")
	if snippetsMention(t, e, "price_giraffe") {
		t.Fatal("a deleted file is still retrieved")
	}
	if i := e.Info(); i.Files != 1 {
		t.Errorf("info after a delete: %+v", i)
	}

	// Two changed files pass FoldAfter: a new base is loaded in the
	// background, with nothing left in the delta but the files the
	// snapshot file it maps does not hold (the build wrote it before the
	// edits; incremental builds write a new one only past
	// db.DefaultSnapshotLag).
	write("lib.py", strings.Replace(liveLib, "%s", "price_okapi", 1))
	write("more.py", "z = 3\n")
	update("lib.py", "more.py")
	e.folds.Wait()
	if i := e.Info(); i.Changed != i.SnapshotLag || i.Snapshot == "" || i.SnapshotLag != 2 || i.Files != 3 {
		t.Errorf("info after a fold: %+v", i)
	}
	if !snippetsMention(t, e, "price_okapi") {
		t.Fatal("the folded base lost the edit")
	}
}
