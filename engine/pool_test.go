package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/retrieve"
)

// The context pool does not change the top k: for every line of the demo
// repository, in every mode, a request with a pool returns the same
// snippets and prediction as one without, and the pool follows them.
func TestPoolKeepsTopK(t *testing.T) {
	repo := filepath.Join("..", "testdata", "demo")
	e := openRepo(t, repo)
	var paths []string
	filepath.WalkDir(repo, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
			abs, _ := filepath.Abs(p)
			paths = append(paths, abs)
		}
		return nil
	})
	checked := 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n := strings.Count(string(src), "\n")
		for line := 2; line <= n; line += 3 {
			for _, mode := range retrieve.Modes() {
				for _, k := range []int{1, 3, 10} {
					rerank := 0
					if (mode == retrieve.CoarseToFine || mode == retrieve.Hybrid) && line%2 == 0 {
						rerank = 2 * k
					}
					req := Request{Path: p, Line: line, Source: src, Mode: mode, TopK: k, Rerank: rerank, NoPrompt: true}
					plain, err := e.Complete(context.Background(), req)
					if err != nil {
						t.Fatal(err)
					}
					req.Pool, req.NoPrompt = 40, false
					pooled, err := e.Complete(context.Background(), req)
					if err != nil {
						t.Fatal(err)
					}
					if !slices.Equal(plain.Snippets, pooled.Snippets) || plain.Prediction != pooled.Prediction {
						t.Fatalf("%s:%d %s k=%d rerank=%d: the pool changed the top k\nwithout %+v\nwith    %+v", p, line, mode, k, rerank, plain.Snippets, pooled.Snippets)
					}
					if len(plain.Snippets) == k && len(pooled.Pool) == 0 && pooled.Stats.Entries > 40 {
						t.Fatalf("%s:%d %s k=%d: no pool", p, line, mode, k)
					}
					checked++
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d requests checked", checked)
	}
}
