package backend

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/internal/cputime"
	"github.com/graphcoder/graphcoder/server"
)

// A request whose client goes away stops computing: the cancellation
// reaches the engine and the parse of the buffer, the request returns at
// once, the CPU goes quiet, and the retrieval slot it held (--parallel 1
// here) is free for the next request.
func TestAbandonedRequestStopsComputing(t *testing.T) {
	repo := copyDemo(t)
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo}); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.Open(repo+"/.graphcoder", engine.Options{Root: repo, MaxFileSize: 16 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	svc, err := server.New(Engine{Engine: eng}, server.Options{Root: repo, Parallel: 1, Budget: -1, CacheSize: -1})
	if err != nil {
		t.Fatal(err)
	}
	// Under the limits of one file, as expensive as such a file gets.
	var b strings.Builder
	for i := 0; i < 13000; i++ {
		b.WriteString("value = f(g(h([a, b, (c, d)], {k: v for k, v in items}), x), y)\n")
	}
	big := []byte(b.String() + "total = ")
	lines := strings.Count(string(big), "\n") + 1
	query := server.Query{Path: "ledger/big.py", Source: big, Line: lines, Column: len("total = ")}

	start, cpu0 := time.Now(), cputime.Process()
	if _, err := svc.Complete(context.Background(), query); err != nil {
		t.Skipf("the big buffer is refused (%v): nothing to abandon", err)
	}
	whole, wholeCPU := time.Since(start), cputime.Process()-cpu0
	if whole < 300*time.Millisecond {
		t.Skipf("a whole request takes only %v here", whole)
	}

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(whole/20, cancel)
	start = time.Now()
	_, err = svc.Complete(ctx, query)
	took := time.Since(start)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("abandoned request: %v", err)
	}
	if took > whole/2 {
		t.Errorf("the abandoned request returned after %v (a whole one takes %v)", took, whole)
	}
	// Nothing keeps computing behind the returned request.
	cpu1 := cputime.Process()
	time.Sleep(whole / 2)
	if burnt := cputime.Process() - cpu1; burnt > wholeCPU/5 {
		t.Errorf("%v of CPU used after the request returned (a whole request uses %v)", burnt, wholeCPU)
	}
	// The slot is free: a small request is served at once.
	small := server.Query{Path: "ledger/small.py", Source: []byte("x = 1\n"), Line: 2}
	start = time.Now()
	if _, err := svc.Complete(context.Background(), small); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > whole/2 {
		t.Errorf("the next request waited %v", d)
	}
	t.Logf("whole request %v (%v CPU), abandoned after %v returned in %v", whole, wholeCPU, whole/20, took)
}
