package retrieve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/embed"
	"github.com/graphcoder/graphcoder/internal/cputime"
	"github.com/graphcoder/graphcoder/internal/realcode"
	"github.com/graphcoder/graphcoder/lang"
	_ "github.com/graphcoder/graphcoder/lang/python"
	"github.com/graphcoder/graphcoder/slice"
	"github.com/graphcoder/graphcoder/token"
)

// Real-code indexes: files of the Python standard library as the
// database builder stores them (db.Builder, the build's own code: parse,
// graph, slices, tokens), and queries made at random lines of them as the
// engine makes them.

// realFiles returns the records the database builder stores for the
// Python files under the given folders of the standard library, at most
// max of them (0: all), sorted by path; files of fewer than 5 lines are
// left out. BenchmarkBuiltRank ranks on an index graphcoder build wrote.
func realFiles(t testing.TB, dirs []string, max int) []*File {
	ctx := context.Background()
	root := realcode.PythonStdlib()
	if root == "" {
		t.Skip("no Python standard library")
	}
	var paths []string
	for _, d := range dirs {
		paths = append(paths, realcode.Files(filepath.Join(root, d), []string{".py"}, "site-packages", "__pycache__")...)
	}
	slices.Sort(paths)
	paths = slices.Compact(paths)
	if max > 0 && len(paths) > max {
		paths = paths[:max]
	}
	d, err := db.Open(t.TempDir(), db.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	b, err := db.NewBuilder(d, db.BuildOptions{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(root, p)
		b.Add(ctx, filepath.ToSlash(rel), src) // a file the builder refuses is left out, as in a build
	}
	if _, err := b.Finish(ctx); err != nil {
		t.Fatal(err)
	}
	return storedFiles(t, d)
}

// storedFiles decodes the files of d's published generation.
func storedFiles(t testing.TB, d *db.DB) []*File {
	s, err := d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var out []*File
	err = s.ForEach(context.Background(), func(f *db.FileRecord) error {
		if len(f.Lines) >= 5 {
			out = append(out, f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func buildIndex(t testing.TB, files []*File) *Index {
	tok, _ := token.ByName("code")
	b := NewBuilder(tok, Params{Hops: 5, MaxStatements: 20})
	for _, f := range files {
		if err := b.Add(f); err != nil {
			t.Fatal(err)
		}
	}
	return b.Index()
}

// realQueries makes n queries at random lines of the files, as the
// engine does: the lines before the cursor parsed, the dummy target
// appended and sliced.
func realQueries(t testing.TB, s *Snapshot, files []*File, n int, seed uint64) []*Query {
	r := rand.New(rand.NewPCG(seed, 1))
	l := lang.ByName("python")
	p := l.NewParser()
	var out []*Query
	for tries := 0; len(out) < n && tries < 10*n; tries++ {
		f := files[r.IntN(len(files))]
		if len(f.Lines) < 5 {
			continue
		}
		line := 2 + r.IntN(len(f.Lines)-1)
		src := strings.Join(f.Lines[:line-1], "\n") + "\n"
		pf, err := p.Parse(context.Background(), f.Path, []byte(src))
		if err != nil {
			continue
		}
		g := ccg.Build(pf)
		sl := slice.Of(g, g.AppendTarget(), slice.DefaultOptions())
		q := s.NewQuery(g, sl, f.Path, line)
		q.Language = l.Name
		out = append(out, q)
	}
	return out
}

// TestRealIndexRankersEqualBruteForce: on an index of real code, base
// alone and base + delta, every ranker returns the definition's list.
func TestRealIndexRankersEqualBruteForce(t *testing.T) {
	files := realFiles(t, []string{"json", "email"}, 40)
	files = slices.DeleteFunc(files, func(f *File) bool { return len(f.Lines) > 800 })
	if len(files) < 10 {
		t.Skip("too few files")
	}
	r := rand.New(rand.NewPCG(5, 5))
	for _, f := range files {
		f.Vectors = randomVectors(r, len(f.Entries), 16)
	}
	full := &Snapshot{base: buildIndex(t, files)}
	// A delta replacing two files with others' contents under their paths
	// and masking a third.
	tok, _ := token.ByName("code")
	db := NewBuilder(tok, Params{Hops: 5, MaxStatements: 20})
	for i := range 2 {
		g := *files[len(files)-1-i]
		g.Path = files[i].Path
		if err := db.Add(&g); err != nil {
			t.Fatal(err)
		}
	}
	layered, err := NewSnapshot(full.base, db.Index(), []string{files[2].Path})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, s := range []*Snapshot{full, layered} {
		for qi, q := range realQueries(t, s, files, 20, 9) {
			q.Vector = embed.Quantize(randomFloats(r, 16))
			n := []int{1, 10, 50}[qi%3]
			equalHits(t, fmt.Sprintf("jaccard query %d", qi), mustRank(t, Jaccard(), s, q, n), bruteJaccard(s, q, n))
			equalHits(t, fmt.Sprintf("bm25 query %d", qi), mustRank(t, BM25(DefaultBM25), s, q, n), bruteBM25(s, q, DefaultBM25, n))
			equalHits(t, fmt.Sprintf("dense query %d", qi), mustRank(t, Dense(), s, q, n), bruteDense(s, q, n))
			equalJoint(t, fmt.Sprintf("query %d", qi), s, q, DefaultBM25, n)
			if _, _, err := s.Search(ctx, q, Options{Mode: Hybrid}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

var (
	stdlibOnce  sync.Once
	stdlibIndex *Index
	stdlibFiles []*File
)

// BenchmarkRank times each ranker and the search modes on the whole
// standard library index (built once, a few seconds), over 200 seeded
// queries made as the engine makes them. Besides ns/op (the mean) and
// allocs/op (per query) it reports the median wall time and the CPU time
// of a query (the process's, so that a loaded machine inflates it less
// than wall time; with -cpu 1 it is the query's own). The searches return
// 50 candidates, as the engine's default context pool asks: coarse2fine
// re-ranks the Jaccard top 50, hybrid the fused top 50.
func BenchmarkRank(b *testing.B) {
	stdlibOnce.Do(func() {
		stdlibFiles = realFiles(b, []string{"."}, 0)
		stdlibIndex = buildIndex(b, stdlibFiles)
	})
	s := &Snapshot{base: stdlibIndex}
	qs := realQueries(b, s, stdlibFiles, 200, 42)
	b.Logf("%d entries, %d queries", stdlibIndex.Len(), len(qs))
	benchRankers(b, s, qs, CoarseToFine, Hybrid, BM25Only)
}

// benchRankers times each ranker for its top 10 and 50, and a search in
// each of modes for 50 candidates, over the queries qs: the median wall
// time and the CPU time of a query besides ns/op and allocs/op.
func benchRankers(b *testing.B, s *Snapshot, qs []*Query, modes ...Mode) {
	ctx := context.Background()
	timed := func(b *testing.B, run func(q *Query) error) {
		b.ReportAllocs()
		var wall []time.Duration
		c0 := cputime.Process()
		for i := 0; b.Loop(); i++ {
			t0 := time.Now()
			if err := run(qs[i%len(qs)]); err != nil {
				b.Fatal(err)
			}
			wall = append(wall, time.Since(t0))
		}
		slices.Sort(wall)
		b.ReportMetric(float64(wall[len(wall)/2].Microseconds())/1000, "median-ms")
		b.ReportMetric(float64((cputime.Process()-c0).Microseconds())/1000/float64(len(wall)), "cpu-ms/op")
	}
	for _, rk := range []Ranker{Jaccard(), BM25(DefaultBM25)} {
		for _, n := range []int{10, 50} {
			b.Run(fmt.Sprintf("%s-%d", rk.Name(), n), func(b *testing.B) {
				timed(b, func(q *Query) error {
					_, _, err := rk.Rank(ctx, s, q, n, time.Time{})
					return err
				})
			})
		}
	}
	for _, mode := range modes {
		o := Options{Mode: mode, TopK: 50}
		b.Run("search-"+string(mode), func(b *testing.B) {
			timed(b, func(q *Query) error {
				_, _, err := s.Search(ctx, q, o)
				return err
			})
		})
		if mode != Hybrid {
			continue
		}
		for _, w := range []struct {
			name string
			walk Walk
		}{{"shared", WalkShared}, {"separate", WalkSeparate}} {
			o.Walk = w.walk
			b.Run("search-hybrid-"+w.name, func(b *testing.B) {
				timed(b, func(q *Query) error {
					_, _, err := s.Search(ctx, q, o)
					return err
				})
			})
		}
	}
}
