package retrieve

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/internal/mapfile"
	"github.com/graphcoder/graphcoder/lang"
	_ "github.com/graphcoder/graphcoder/lang/java"
	"github.com/graphcoder/graphcoder/slice"
	"github.com/graphcoder/graphcoder/token"
)

// The index graphcoder build writes, mapped from its newest snapshot file:
// GRAPHCODER_BENCH_INDEX names the index folder.

// builtIndex opens the retrieval index of the newest snapshot file in the
// index folder GRAPHCODER_BENCH_INDEX names, or skips.
func builtIndex(t testing.TB) *Index {
	dir := os.Getenv("GRAPHCODER_BENCH_INDEX")
	if dir == "" {
		t.Skip("GRAPHCODER_BENCH_INDEX names no index folder")
	}
	names, _ := filepath.Glob(filepath.Join(dir, "snapshot-*.gcs"))
	if len(names) == 0 {
		t.Fatalf("%s holds no snapshot file", dir)
	}
	slices.Sort(names)
	m, err := mapfile.Open(names[len(names)-1])
	if err != nil {
		t.Fatal(err)
	}
	tok, err := token.ByName("code")
	if err != nil {
		t.Fatal(err)
	}
	ix, err := Open(m, tok)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// builtQueries makes n queries at random lines of random files of ix, as
// the engine makes them: the lines before the cursor parsed, the dummy
// target appended and sliced.
func builtQueries(t testing.TB, s *Snapshot, ix *Index, n int, seed uint64) []*Query {
	r := rand.New(rand.NewPCG(seed, 2))
	var out []*Query
	for tries := 0; len(out) < n && tries < 20*n; tries++ {
		f := &ix.files[r.IntN(len(ix.files))]
		l := lang.ByName(f.language)
		if l == nil || f.lines < 5 {
			continue
		}
		lines := ix.Lines(f.path)
		line := 2 + r.IntN(len(lines)-1)
		src := strings.Join(lines[:line-1], "\n") + "\n"
		pf, err := l.NewParser().Parse(context.Background(), f.path, []byte(src))
		if err != nil {
			continue
		}
		g := ccg.Build(pf)
		sl := slice.Of(g, g.AppendTarget(), slice.DefaultOptions())
		q := s.NewQuery(g, sl, f.path, line)
		q.Language = l.Name
		out = append(out, q)
	}
	if len(out) < n {
		t.Fatalf("made %d of %d queries", len(out), n)
	}
	return out
}

// BenchmarkBuiltRank times the rankers and the search modes on an index
// graphcoder build wrote (GRAPHCODER_BENCH_INDEX), over 200 seeded
// queries; see BenchmarkRank for the metrics. The searches return 50
// candidates, as the engine's default context pool asks.
func BenchmarkBuiltRank(b *testing.B) {
	ix := builtIndex(b)
	s := &Snapshot{base: ix}
	qs := builtQueries(b, s, ix, 200, 42)
	benchRankers(b, s, qs, CoarseToFine, Hybrid)
}
