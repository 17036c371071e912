package engine

import (
	"context"
	"fmt"
	"github.com/graphcoder/graphcoder/internal/realcode"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/retrieve"
	"github.com/graphcoder/graphcoder/token"
)

var stdlib = realcode.PythonStdlib()

var (
	stdlibOnce sync.Once
	stdlibEng  *Engine
	stdlibSrc  []string // indexed paths
)

// stdlibEngine indexes the Python standard library (without
// site-packages) once per test binary.
func stdlibEngine(b *testing.B) *Engine {
	if _, err := os.Stat(stdlib); stdlib == "" || err != nil {
		b.Skip("Python standard library not found")
	}
	stdlibOnce.Do(func() {
		tok, _ := token.ByName("code")
		var paths []string
		filepath.WalkDir(stdlib, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if de.IsDir() && (de.Name() == "site-packages" || de.Name() == "__pycache__") {
				return filepath.SkipDir
			}
			if !de.IsDir() && strings.HasSuffix(p, ".py") {
				paths = append(paths, p)
			}
			return nil
		})
		files := make([]*retrieve.File, len(paths))
		var g errgroup.Group
		g.SetLimit(runtime.GOMAXPROCS(0))
		for i, p := range paths {
			g.Go(func() error {
				src, err := os.ReadFile(p)
				if err != nil || lang.ForPath(p) == nil {
					return nil
				}
				r, _ := filepath.Rel(stdlib, p)
				files[i] = fileFromSource(b, tok, filepath.ToSlash(r), src)
				return nil
			})
		}
		g.Wait()
		bld := retrieve.NewBuilder(tok, retrieve.Params{Hops: 5, MaxStatements: 20})
		for _, f := range files {
			if f != nil && len(f.Lines) > 20 {
				if err := bld.Add(f); err == nil {
					stdlibSrc = append(stdlibSrc, f.Path)
				}
			}
		}
		stdlibEng = fromIndex(bld.Index(), tok, stdlib, Options{})
	})
	return stdlibEng
}

// BenchmarkRetrieval completes 500 seeded cursors of the standard library
// (k = 10, the default context pool) per iteration and reports the median
// and p95 retrieval time (coarse + fine) and of the whole request (parse,
// retrieval, reading the values, assembling the prompt). The pool
// sub-benchmarks vary the candidates retrieved for the prompt; hybrid and
// bm25 are those modes, rerank=50 coarse2fine re-ranking the Jaccard top
// 50. Run with GRAPHCODER_BENCH_MODES=hybrid,coarse2fine (names, comma
// separated) to run only some.
func BenchmarkRetrieval(b *testing.B) {
	type run struct {
		name   string
		mode   retrieve.Mode
		pool   int
		rerank int
	}
	runs := []run{{string(retrieve.CoarseToFine), retrieve.CoarseToFine, 0, 0}, {string(retrieve.Coarse), retrieve.Coarse, 0, 0},
		{string(retrieve.Hybrid), retrieve.Hybrid, 0, 0}, {string(retrieve.BM25Only), retrieve.BM25Only, 0, 0},
		{string(retrieve.CoarseToFine) + "/rerank=50", retrieve.CoarseToFine, 0, 50}}
	for _, pool := range []int{10, 50, 100} {
		runs = append(runs, run{fmt.Sprintf("%s/pool=%d", retrieve.CoarseToFine, pool), retrieve.CoarseToFine, pool, 0})
	}
	if only := os.Getenv("GRAPHCODER_BENCH_MODES"); only != "" {
		names := strings.Split(only, ",")
		runs = slices.DeleteFunc(runs, func(r run) bool { return !slices.Contains(names, r.name) })
	}
	for _, rn := range runs {
		mode := rn.mode
		b.Run(rn.name, func(b *testing.B) {
			e := stdlibEngine(b)
			b.Logf("index: %d files, %d entries, ~%d MiB", e.Info().Files, e.Info().Entries, e.Info().Bytes>>20)
			r := rand.New(rand.NewPCG(42, 1))
			type cursor struct {
				path string
				line int
				src  []byte
			}
			var cursors []cursor
			for len(cursors) < 500 {
				p := stdlibSrc[r.IntN(len(stdlibSrc))]
				src, _ := os.ReadFile(filepath.Join(stdlib, p))
				n := strings.Count(string(src), "\n")
				cursors = append(cursors, cursor{p, 2 + r.IntN(max(n-1, 1)), src})
			}
			var retr, total []time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				retr, total = retr[:0], total[:0]
				for _, c := range cursors {
					res, err := e.Complete(context.Background(), Request{Path: c.path, Line: c.line, Source: c.src, Mode: mode, Pool: rn.pool, Rerank: rn.rerank})
					if err != nil {
						b.Fatal(err)
					}
					retr = append(retr, res.Stats.Coarse+res.Stats.Fine)
					total = append(total, res.Stats.Total)
				}
			}
			slices.Sort(retr)
			slices.Sort(total)
			q := func(d []time.Duration, p float64) float64 {
				return float64(d[int(p*float64(len(d)-1))].Microseconds()) / 1000
			}
			b.ReportMetric(q(retr, 0.5), "retrieval-median-ms")
			b.ReportMetric(q(retr, 0.95), "retrieval-p95-ms")
			b.ReportMetric(q(total, 0.5), "request-median-ms")
			b.ReportMetric(q(total, 0.95), "request-p95-ms")
			if assertTargets() && rn.name == string(retrieve.CoarseToFine) {
				if m := q(retr, 0.5); m > retrievalTargetMS {
					b.Errorf("retrieval median %.2f ms, over the %v ms target (bench/RESULTS.md)", m, retrievalTargetMS)
				}
			}
		})
	}
}

// The targets bench/RESULTS.md holds graphcoder to. They are checked, not
// only logged, when GRAPHCODER_ASSERT is set (make bench sets it): on a
// shared machine timings vary, so the assertions are opt-in rather than
// part of go test ./....
const (
	retrievalTargetMS = 10  // retrieval median on the Python standard library
	memoryTarget      = 3.0 // heap of an opened index per byte on disk
)

func assertTargets() bool { return os.Getenv("GRAPHCODER_ASSERT") != "" }
