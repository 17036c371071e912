package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
)

// mixedIndex is an index of python and java files of long slices over a
// small alphabet (term frequencies of 16 and more, ties).
func mixedIndex(t *testing.T, r *rand.Rand, alphabet int) (*Snapshot, int) {
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 30})
	b.maskBits = []int{0, 3, 20, 64}[r.IntN(4)]
	files := 1 + r.IntN(5)
	for i := range files {
		f := longSliceFile(r, fmt.Sprintf("f%d.py", i), 1+r.IntN(120), alphabet)
		if i%2 == 1 {
			f.Language = "java"
		}
		if err := b.Add(f); err != nil {
			t.Fatal(err)
		}
	}
	return &Snapshot{base: b.Index()}, files
}

// longQuery is snapshotQuery with up to 60 tokens, so that the walk has
// many lists to leave out.
func longQuery(r *rand.Rand, s *Snapshot, files, alphabet int) *Query {
	q := snapshotQuery(r, s, files, alphabet)
	more := snapshotQuery(r, s, files, alphabet)
	for range r.IntN(5) {
		extra := snapshotQuery(r, s, files, alphabet)
		more.Key = append(more.Key, extra.Key...)
		if q.delta != nil {
			more.delta.Key = append(more.delta.Key, extra.delta.Key...)
		}
	}
	q.Key = sortedSet(append(q.Key, more.Key...))
	q.Graph.Tokens[0] = q.Key
	if q.delta != nil {
		q.delta.Key = sortedSet(append(q.delta.Key, more.delta.Key...))
		q.delta.Graph.Tokens[0] = q.delta.Key
	}
	return q
}

// TestBM25RegionsEqualsBruteForce: ranked region by region (bm25Region
// of 64 to 1024 entries, several to most indexes), with and without a
// floor (bm25FloorBytes 0 or the default), walked on one goroutine or on
// two (bm25split.go, the helper taking lists in every region, and walking
// the next region while one is ranked or not), BM25 and
// mode hybrid's lists are exactly the definitions', over random indexes,
// with the long lists' tables (bm25seek.go) given to lists of any length
// or none and bounding every ranking's ranges or none, indexes of two
// languages (queries of either or none) and snapshots (masked files, a
// delta with its own token ids), with long queries and small alphabets
// (ties). It fails when fewer than a hundredth of the rankings leave a
// range out.
func TestBM25RegionsEqualsBruteForce(t *testing.T) {
	region, floorBytes, splitBytes, canHelp := bm25Region, bm25FloorBytes, bm25SplitBytes, canHelpBM25
	seekMin, skipBytes := bm25SeekMin, bm25SkipBytes
	defer func() {
		bm25Region, bm25FloorBytes, bm25SplitBytes, canHelpBM25, bm25WaitHelper, bm25Ahead = region, floorBytes, splitBytes, canHelp, false, true
		bm25SeekMin, bm25SkipBytes = seekMin, skipBytes
	}()
	canHelpBM25, bm25WaitHelper = func() bool { return true }, true
	r := rand.New(rand.NewPCG(31, 32))
	several := 0 // rankings of several regions
	floors := 0  // rankings with a floor
	skipped := 0 // rankings that left a range out
	for trial := range 60 {
		alphabet := 3 + r.IntN(80)
		bm25SeekMin = []int{1, 1, 16, seekMin}[r.IntN(4)]
		var s *Snapshot
		var files int
		switch trial % 3 {
		case 0:
			s = &Snapshot{base: randomIndex(t, r, 1+r.IntN(6), 1+r.IntN(80), alphabet)}
			files = s.base.Files()
		case 1:
			s, files = mixedIndex(t, r, alphabet)
		default:
			s, files = randomSnapshot(t, r, alphabet)
		}
		p := DefaultBM25
		if r.IntN(3) == 0 {
			p = BM25Params{K1: 0.5 + 2*r.Float64(), B: r.Float64()}
		}
		for qi := range 20 {
			bm25Region = []int{64, 64, 128, 1024}[r.IntN(4)]
			bm25FloorBytes = []int{0, floorBytes}[r.IntN(2)]
			bm25SplitBytes = []int{0, splitBytes}[r.IntN(2)]
			bm25Ahead = r.IntN(3) > 0
			bm25SkipBytes = []int{0, 0, skipBytes}[r.IntN(3)]
			if s.base.Len() > bm25Region {
				several++
			}
			q := longQuery(r, s, files, alphabet)
			if trial%3 == 1 {
				q.Language = []string{"", "python", "java"}[r.IntN(3)]
			}
			n := 1 + r.IntN(20)
			what := fmt.Sprintf("trial %d query %d n %d region %d floor %d split %d ahead %v tables %d skip %d", trial, qi, n, bm25Region, bm25FloorBytes, bm25SplitBytes, bm25Ahead, bm25SeekMin, bm25SkipBytes)
			left := bm25SkippedRanges.Load()
			got, st, err := BM25(p).Rank(t.Context(), s, q, n, time.Time{})
			if bm25SkippedRanges.Load() > left {
				skipped++
			}
			if err != nil {
				t.Fatal(err)
			}
			equalHits(t, what, got, bruteBM25(s, q, p, n))
			if st.Partial || st.Scored > st.Scanned || st.Hits != len(got) {
				t.Fatalf("%s: stats %+v", what, st)
			}
			if _, ok := floorOf(s, q, p, n); ok {
				floors++
			}
			if qi%4 == 0 {
				testHybridWalks(t, what, s, q, p, n)
			}
		}
	}
	if several < 60*20/3 {
		t.Errorf("%d of %d rankings of several regions, want a third at least", several, 60*20)
	}
	if floors < 60*20/8 {
		t.Errorf("%d of %d rankings with a floor, want an eighth at least", floors, 60*20)
	}
	if skipped < 60*20/100 {
		t.Errorf("%d of %d rankings left a range out, want a hundredth at least", skipped, 60*20)
	}
	t.Logf("%d of %d rankings left a range out", skipped, 60*20)
}

// testHybridWalks checks mode hybrid's lists, of the joint walk and of
// each ranker on its own, against the definitions.
func testHybridWalks(t *testing.T, what string, s *Snapshot, q *Query, p BM25Params, n int) {
	t.Helper()
	equalJoint(t, what, s, q, p, n)
	equalHits(t, "jaccard: "+what, mustRank(t, Jaccard(), s, q, n), bruteJaccard(s, q, n))
}

// BenchmarkBuiltBM25Tail times BM25's top 50 and mode hybrid's coarse
// stage (both rankers for their top 50, fused, each on its own core when
// one is free, as a lone request runs) over 500 seeded queries of an
// index graphcoder build wrote (GRAPHCODER_BENCH_INDEX), query by query
// walking and ranking the whole index at once (as before regions), region
// by region (bm25Region) and region by region with a floor (bm25floor.go)
// in turn, and reports the median, p95 and p99 of the wall time and of
// the CPU time of the calling thread (Linux), so that they compare in one
// sitting.
func BenchmarkBuiltBM25Tail(b *testing.B) {
	ix := builtIndex(b)
	s := &Snapshot{base: ix}
	qs := builtQueries(b, s, ix, 500, 42)
	region, floorBytes := bm25Region, bm25FloorBytes
	defer func() { bm25Region, bm25FloorBytes = region, floorBytes }()
	variants := []struct {
		name          string
		region, floor int
	}{{"whole", 1 << 40, 1 << 62}, {"regions", region, 1 << 62}, {"regions+floor", region, floorBytes}}
	var names []string
	for _, v := range variants {
		names = append(names, v.name)
	}
	timeBM25Variants(b, s, qs, names, func(i int) {
		bm25Region, bm25FloorBytes = variants[i].region, variants[i].floor
	})
}

// timeBM25Variants runs sub-benchmarks bm25 (BM25's top 50) and hybrid
// (mode hybrid's coarse stage, both rankers for their top 50 fused, each
// on its own core when one is free, as a lone request runs it) of
// timeVariants over qs, set(i) choosing variant i of names.
func timeBM25Variants(b *testing.B, s *Snapshot, qs []*Query, names []string, set func(i int)) {
	opt := Options{Mode: Hybrid, TopK: 50}.withDefaults()
	for _, what := range []string{"bm25", "hybrid"} {
		b.Run(what, func(b *testing.B) {
			timeVariants(b, qs, names, func(i int, q *Query) error {
				set(i)
				if what == "bm25" {
					_, _, err := BM25(DefaultBM25).Rank(context.Background(), s, q, 50, time.Time{})
					return err
				}
				var st Stats
				_, err := s.hybrid(context.Background(), q, opt, time.Time{}, &st)
				return err
			})
		})
	}
}

// BenchmarkBuiltBM25Split times BM25's top 50 and mode hybrid's coarse
// stage (as BenchmarkBuiltBM25Tail) over 500 seeded queries of an index
// graphcoder build wrote (GRAPHCODER_BENCH_INDEX), query by query walked
// on one goroutine and with a helper when a core is free (bm25split.go)
// in turn, and reports the median, p95 and p99 of the wall time and of
// the CPU time of the calling thread (Linux: the helper's is not
// counted, nor in hybrid the rankers' own goroutines').
func BenchmarkBuiltBM25Split(b *testing.B) {
	ix := builtIndex(b)
	s := &Snapshot{base: ix}
	qs := builtQueries(b, s, ix, 500, 42)
	split := bm25SplitBytes
	defer func() { bm25SplitBytes = split }()
	timeBM25Variants(b, s, qs, []string{"one", "helper"}, func(i int) { bm25SplitBytes = []int{1 << 62, split}[i] })
}

// TestPauseHelpers: a late helper pauses the helpers for 100 ms, each
// next late one for twice as long up to 5 s, and one in time ends the
// doubling.
func TestPauseHelpers(t *testing.T) {
	defer bm25Pause.Store(0)
	defer bm25HelpFrom.Store(0)
	now := time.Unix(1000, 0)
	for i, want := range []time.Duration{100, 200, 400, 800, 1600, 3200, 5000, 5000} {
		pauseHelpers(true, now)
		if got := time.Duration(bm25HelpFrom.Load() - now.UnixNano()); got != want*time.Millisecond {
			t.Fatalf("late helper %d: pause %v, want %v", i+1, got, want*time.Millisecond)
		}
	}
	pauseHelpers(false, now)
	pauseHelpers(true, now)
	if got := time.Duration(bm25HelpFrom.Load() - now.UnixNano()); got != 100*time.Millisecond {
		t.Fatalf("late helper after one in time: pause %v, want 100ms", got)
	}
}

// BenchmarkBuiltBM25Ahead times BM25's top 50 and mode hybrid's coarse
// stage (as BenchmarkBuiltBM25Tail) over 500 seeded queries of an index
// graphcoder build wrote (GRAPHCODER_BENCH_INDEX), query by query with
// the helper walking a region's lists beside the caller only ("beside",
// as before) and also walking the next region while the caller ranks one
// ("ahead", bm25split.go) in turn.
func BenchmarkBuiltBM25Ahead(b *testing.B) {
	ix := builtIndex(b)
	s := &Snapshot{base: ix}
	qs := builtQueries(b, s, ix, 500, 42)
	defer func() { bm25Ahead = true }()
	timeBM25Variants(b, s, qs, []string{"beside", "ahead"}, func(i int) { bm25Ahead = i == 1 })
}

// stopAfter is a context whose Err is nil for its first calls (left) and
// context.Canceled after, so that a ranking is cancelled at each of its
// polls in turn.
type stopAfter struct {
	context.Context
	left atomic.Int32
}

func (c *stopAfter) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestBM25SplitCancelled: a BM25 ranking walked on two goroutines, the
// helper walking the next region while one is ranked (bm25split.go),
// cancelled at each of its polls in turn, returns the cancellation or,
// not cancelled, the definition's list; either way no helper is left
// armed or running once it returns, and the pooled scratch ranks the next
// query exactly.
func TestBM25SplitCancelled(t *testing.T) {
	region, splitBytes, canHelp := bm25Region, bm25SplitBytes, canHelpBM25
	defer func() {
		bm25Region, bm25SplitBytes, canHelpBM25, bm25WaitHelper, bm25Ahead = region, splitBytes, canHelp, false, true
	}()
	canHelpBM25, bm25SplitBytes, bm25Region, bm25Ahead = func() bool { return true }, 0, 64, true
	r := rand.New(rand.NewPCG(33, 34))
	cancelled, ranked := 0, 0
	for trial := range 12 {
		s, files := mixedIndex(t, r, 3+r.IntN(20))
		for qi := range 4 {
			q := longQuery(r, s, files, 20)
			n := 1 + r.IntN(10)
			want := bruteBM25(s, q, DefaultBM25, n)
			for k := range int32(40) {
				bm25WaitHelper = r.IntN(2) == 0
				what := fmt.Sprintf("trial %d query %d n %d: cancelled at poll %d", trial, qi, n, k)
				ctx := &stopAfter{Context: context.Background()}
				ctx.left.Store(k)
				got, _, err := BM25(DefaultBM25).Rank(ctx, s, q, n, time.Time{})
				switch {
				case err == nil:
					ranked++
					equalHits(t, what, got, want)
				case errors.Is(err, context.Canceled):
					cancelled++
				default:
					t.Fatalf("%s: %v", what, err)
				}
				if h, b := bm25Helpers.Load(), bm25Running.Load(); h != 0 || b != 0 {
					t.Fatalf("%s: %d helpers and %d rankings left", what, h, b)
				}
				equalHits(t, what+", then not", mustRank(t, BM25(DefaultBM25), s, q, n), want)
			}
		}
	}
	if cancelled == 0 || ranked == 0 {
		t.Fatalf("%d rankings cancelled, %d not: want both", cancelled, ranked)
	}
}
