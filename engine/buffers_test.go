package engine

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

const cacheSource = `import os


def helper(path):
    """Return the size."""
    size = os.path.getsize(path)
    return size


def walk(root):
    total = 0
    for name in os.listdir(root):
        total += helper(os.path.join(root, name))
    return total


def later(x):
    return walk(x) + 1
`

// TestBufferCache: a request repeated with the same lines before and
// after the cursor finds the buffer parsed (Stats.Cached) and answers as
// the first did, snippets, context, definitions and prediction; a request
// whose lines differ parses again and answers as an engine that never saw
// the first.
func TestBufferCache(t *testing.T) {
	repo := fileRepo(t, "m.py", cacheSource)
	e := openRepo(t, repo)
	ctx := context.Background()
	req := Request{Path: "m.py", Line: 14, Source: []byte(cacheSource)}
	first, err := e.Complete(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	again, err := e.Complete(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if first.Stats.Cached || !again.Stats.Cached {
		t.Fatalf("cached parse: first %v, again %v; want false, true", first.Stats.Cached, again.Stats.Cached)
	}
	same := func(a, b *Result) bool {
		x, y := *a, *b
		x.Stats, y.Stats = Stats{}, Stats{}
		return reflect.DeepEqual(x, y)
	}
	if !same(first, again) {
		t.Errorf("the repeated request answers otherwise:\n%+v\n%+v", first, again)
	}
	// Requests sharing the cached parse at once (go test -race).
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Go(func() {
			res, err := e.Complete(ctx, req)
			if err == nil && !same(first, res) {
				err = fmt.Errorf("concurrent request %d answers otherwise", i)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Error(err)
	}
	edited := Request{Path: "m.py", Line: 14, Source: []byte(strings.Replace(cacheSource, "total = 0", "total = 1", 1))}
	got, err := e.Complete(ctx, edited)
	if err != nil {
		t.Fatal(err)
	}
	if got.Stats.Cached {
		t.Fatal("a buffer with other lines before the cursor found the first one's parse")
	}
	fresh := openRepo(t, repo)
	want, err := fresh.Complete(ctx, edited)
	if err != nil {
		t.Fatal(err)
	}
	if !same(got, want) {
		t.Errorf("after a cached request, an edited buffer answers otherwise than on a fresh engine:\n%+v\n%+v", got, want)
	}
}
