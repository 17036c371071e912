package retrieve

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/internal/cputime"
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

// TestBuiltWindowedEqualsPlain: on an index graphcoder build wrote
// (GRAPHCODER_BENCH_INDEX), over 300 seeded queries, the Jaccard top 10
// and 50 are the same whether the walk takes the size window and the
// split (sizefilter.go, splitwalk.go) on every query or on none, and
// with the bands of long keys (longpost.go) as configured, taken
// wherever the seeds' window allows under a guess that always holds (1)
// and under one that often fails (8).
func TestBuiltWindowedEqualsPlain(t *testing.T) {
	ix := builtIndex(t)
	s := &Snapshot{base: ix}
	qs := builtQueries(t, s, ix, 300, 7)
	sf, sw, cs := sizeFilterBytes, splitWalkBytes, canSplit
	lb, gn, gd := longBytes, longGuessNum, longGuessDen
	defer func() {
		sizeFilterBytes, splitWalkBytes, canSplit = sf, sw, cs
		longBytes, longGuessNum, longGuessDen = lb, gn, gd
	}()
	took := bandRuns.took.Load()
	for _, q := range qs {
		for _, n := range []int{10, 50} {
			sizeFilterBytes, splitWalkBytes = 1<<62, 1<<62
			plain := mustRank(t, Jaccard(), s, q, n)
			for _, g := range []struct {
				bytes    int
				num, den uint64
			}{{lb, gn, gd}, {0, 1, 1}, {0, 8, 1}} {
				longBytes, longGuessNum, longGuessDen = g.bytes, g.num, g.den
				sizeFilterBytes, splitWalkBytes, canSplit = 0, 0, func() bool { return true }
				equalHits(t, fmt.Sprintf("%s:%d n %d bands %v", q.Path, q.Line, n, g), mustRank(t, Jaccard(), s, q, n), plain)
				canSplit = cs
			}
		}
	}
	t.Logf("%d of %d rankings took the bands", bandRuns.took.Load()-took, 300*2*3)
}

// BenchmarkBuiltJaccardTail times the Jaccard top 10 and top 50 over 500
// seeded queries of an index graphcoder build wrote
// (GRAPHCODER_BENCH_INDEX), query by query in five ways in turn: the
// plain walk, the size window (sizefilter.go), the window with the bands
// of long keys (longpost.go; none in a file written before them), and
// each of the last two with the walk and the scan split over a second
// core (splitwalk.go, splitscan.go, when the rule allows it).
// It reports the median, p95 and p99 of the wall time and of the CPU
// time of the calling thread (Linux; the split's second goroutine not
// counted), so that the tail the long queries make can be compared in
// one sitting.
func BenchmarkBuiltJaccardTail(b *testing.B) {
	ix := builtIndex(b)
	s := &Snapshot{base: ix}
	qs := builtQueries(b, s, ix, 500, 42)
	sf, sw, lb, ss := sizeFilterBytes, splitWalkBytes, longBytes, splitScanEntries
	defer func() { sizeFilterBytes, splitWalkBytes, longBytes, splitScanEntries = sf, sw, lb, ss }()
	ix.longPost()
	variants := []struct {
		name       string
		sf, sw, lb int
	}{{"plain", 1 << 62, 1 << 62, 1 << 62}, {"window", sf, 1 << 62, 1 << 62}, {"window+bands", sf, 1 << 62, lb},
		{"window+split", sf, sw, 1 << 62}, {"window+bands+split", sf, sw, lb}}
	// The split variants split the scan as well (splitscan.go).
	scanSplit := func(sw int) int {
		if sw == 1<<62 {
			return 1 << 62
		}
		return ss
	}
	var names []string
	for _, v := range variants {
		names = append(names, v.name)
	}
	for _, n := range []int{10, 50} {
		b.Run(fmt.Sprintf("top-%d", n), func(b *testing.B) {
			timeVariants(b, qs, names, func(i int, q *Query) error {
				sizeFilterBytes, splitWalkBytes, longBytes = variants[i].sf, variants[i].sw, variants[i].lb
				splitScanEntries = scanSplit(variants[i].sw)
				_, _, err := Jaccard().Rank(context.Background(), s, q, n, time.Time{})
				return err
			})
		})
	}
}

// timeVariants runs each query of qs in each variant in turn (run(i, q):
// variant i of names) and reports per variant the median, p95 and p99 of
// the wall time and of the CPU time of the calling thread (Linux). Each
// query is first run once untimed (in variant 0), and the variants take
// turns in a rotating order, so that none always meets the query's
// postings and masks out of the caches: the first of a fixed order did,
// and took 14 % longer at the median than the same variant run again
// (10M-line corpus, bench/RETRIEVAL.md).
func timeVariants(b *testing.B, qs []*Query, names []string, run func(i int, q *Query) error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	wall := make([][]time.Duration, len(names))
	cpu := make([][]time.Duration, len(names))
	for b.Loop() {
		for qi, q := range qs {
			if err := run(0, q); err != nil {
				b.Fatal(err)
			}
			for j := range names {
				i := (qi + j) % len(names)
				t0, c0 := time.Now(), cputime.Thread()
				if err := run(i, q); err != nil {
					b.Fatal(err)
				}
				cpu[i] = append(cpu[i], cputime.Thread()-c0)
				wall[i] = append(wall[i], time.Since(t0))
			}
		}
	}
	for i, name := range names {
		for _, d := range []struct {
			what string
			ds   []time.Duration
		}{{"wall", wall[i]}, {"cpu", cpu[i]}} {
			slices.Sort(d.ds)
			for _, p := range []float64{0.5, 0.95, 0.99} {
				ms := float64(d.ds[int(p*float64(len(d.ds)-1))].Microseconds()) / 1000
				b.ReportMetric(ms, fmt.Sprintf("%s-%s-p%.0f-ms", name, d.what, p*100))
			}
		}
	}
}

// exhaustiveJaccard is the Jaccard top n of ix for q by the plainest
// exact means: every posting of the query's rarer tokens counted, then
// every entry scored from its count and mask (no second mask, block
// bounds, seeds or window), under the leak rule and language filter.
func exhaustiveJaccard(ix *Index, q *Query, n int) []Hit {
	sc := ix.getScratch()
	defer ix.release(sc)
	ix.count(q, sc)
	return exhaustiveTop(ix, q, n, func(e uint32) float64 {
		inter := ix.inter(sc, int(e))
		if inter == 0 {
			return 0 // (and 0/0 for an empty key against an empty query)
		}
		return float64(inter) / float64(uint32(len(q.Key))+ix.keyLen[e]-inter)
	})
}

// exhaustiveTop returns the n best entries of ix of q's language by
// score (0 or less: none), under the leak rule, scoring every one.
func exhaustiveTop(ix *Index, q *Query, n int, score func(e uint32) float64) []Hit {
	var v entryView
	var hits []Hit
	floor := 0.0
	rep := repTable(ix) // a copy scores as its representative (dups.go)
	for fi := range ix.files {
		f := &ix.files[fi]
		if q.Language != "" && f.language != q.Language {
			continue
		}
		end := uint32(ix.Len())
		if fi+1 < len(ix.files) {
			end = ix.files[fi+1].entryBase
		}
		for e := f.entryBase; e < end; e++ {
			h := Hit{int(e), score(rep[e])}
			if h.Score <= floor || f.path == q.Path && ix.leaks(q, e, &v) {
				continue // worse than n hits of smaller ids, or leaking
			}
			if hits = append(hits, h); len(hits) == 64*n {
				hits = sortHits(hits, n)
				floor = hits[n-1].Score
			}
		}
	}
	return sortHits(hits, n)
}

// exhaustiveBM25 is the BM25 top n of ix for q (a snapshot of ix alone)
// by the plainest exact means: every posting of the query's rarer tokens
// added into an accumulator of every entry, then every entry scored from
// it and its mask tokens (no regions, floor, bounds, seeds or helper),
// under the leak rule and language filter.
func exhaustiveBM25(s *Snapshot, q *Query, p BM25Params, n int) []Hit {
	ix := s.base
	N := s.Len()
	kA, kB := p.norm(N, s.liveDL())
	bq := getBM25Query(ix)
	defer bm25QueryPool.Put(bq)
	tq, c := s.bm25Terms(q, p.Terms)
	defer c.release()
	bq.prepare(s, ix, tq, p, N, kA, kB)
	k := func(e uint32) float64 { return kA + kB*float64(ix.bm.dlOf(e)) }
	acc := make([]int64, ix.Len())
	for _, r := range bq.rare {
		i, j := ix.bm.postAt[r.t], ix.bm.postManyAt[r.t]
		for e := range ix.postings(r.t) {
			tf := uint32(1)
			if ix.bm.postTF.isMany(i) {
				tf = ix.bm.postTF.tfMany(i, j)
				j++
			}
			i++
			acc[e] += bm25Term(r.w, tf, k(e))
		}
	}
	return exhaustiveTop(ix, q, n, func(e uint32) float64 {
		return float64(acc[e]+ix.bm25Mask(bq, e, k(e))) / bm25Unit
	})
}

// TestBuiltRankEqualsExhaustive: on an index graphcoder build wrote
// (GRAPHCODER_BENCH_INDEX), whose chains of copies hold together
// (checkChains), over 300 seeded queries, the Jaccard top 1,
// 10 and 50 (second mask, block and entry bounds, seeds, and the window
// and split walk when a query's postings are long) and the Jaccard list
// of the joint walk of mode hybrid are exactly exhaustiveJaccard's, and
// on every other query the BM25 top 1, 10 and 50 (regions, floor, block
// and entry bounds, seeds), walked on one goroutine and with a helper
// (bm25split.go), and the BM25 list of the joint walk are exactly
// exhaustiveBM25's, ties included.
func TestBuiltRankEqualsExhaustive(t *testing.T) {
	ix := builtIndex(t)
	checkChains(t, ix)
	s := &Snapshot{base: ix}
	qs := builtQueries(t, s, ix, 300, 7)
	splitBytes, canHelp := bm25SplitBytes, canHelpBM25
	defer func() { bm25SplitBytes, canHelpBM25 = splitBytes, canHelp }()
	cut := 0
	for i, q := range qs {
		n := []int{1, 10, 50}[i%3]
		what := fmt.Sprintf("%s:%d n %d", q.Path, q.Line, n)
		want := exhaustiveJaccard(ix, q, n)
		equalHits(t, what, mustRank(t, Jaccard(), s, q, n), want)
		lists, _, err := s.rankJaccardBM25(t.Context(), q, DefaultBM25, n, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		equalHits(t, "joint: "+what, lists[0], want)
		if i%2 != 0 {
			continue
		}
		want = exhaustiveBM25(s, q, DefaultBM25, n)
		equalHits(t, "joint bm25: "+what, lists[1], want)
		bm25SplitBytes, canHelpBM25 = 1<<62, canHelp
		equalHits(t, "bm25: "+what, mustRank(t, BM25(DefaultBM25), s, q, n), want)
		bm25SplitBytes, canHelpBM25 = 0, func() bool { return true }
		equalHits(t, "bm25 with a helper: "+what, mustRank(t, BM25(DefaultBM25), s, q, n), want)
		// The query capped to its 16 terms of largest idf: BM25 over
		// those, alone and joint (whose Jaccard list keeps every term).
		bm25SplitBytes, canHelpBM25 = splitBytes, canHelp
		capped := DefaultBM25
		capped.Terms = 16
		if _, c := s.bm25Terms(q, capped.Terms); c != nil {
			c.release()
			cut++
		}
		want = exhaustiveBM25(s, q, capped, n)
		equalHits(t, "bm25 of 16 terms: "+what, mustRank(t, BM25(capped), s, q, n), want)
		lists, _, err = s.rankJaccardBM25(t.Context(), q, capped, n, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		equalHits(t, "joint bm25 of 16 terms: "+what, lists[1], want)
		equalHits(t, "joint jaccard beside 16 terms: "+what, lists[0], exhaustiveJaccard(ix, q, n))
	}
	t.Logf("%d of %d queries hold more than 16 terms", cut, (len(qs)+1)/2)
	if cut == 0 {
		t.Fatal("no query holds more than 16 terms: the cap was not tested")
	}
}

// withSecondMask returns a copy of ix whose Jaccard ranking derives a
// second mask of bits bits (xmask.go; 0: none).
func withSecondMask(ix *Index, bits int) *Index {
	c := *ix
	c.xm = &xmaskData{}
	old := xmaskBits
	xmaskBits = bits
	defer func() { xmaskBits = old }()
	c.xmask()
	return &c
}

// BenchmarkBuiltSecondMask times the Jaccard top 10 and top 50 over 500
// seeded queries of an index graphcoder build wrote
// (GRAPHCODER_BENCH_INDEX) without a second mask and with one of 128 and
// of 256 bits, query by query in turn (timeVariants), so that the three
// see the same machine.
func BenchmarkBuiltSecondMask(b *testing.B) {
	ix := builtIndex(b)
	qs := builtQueries(b, &Snapshot{base: ix}, ix, 500, 42)
	names := []string{"none", "x128", "x256"}
	snaps := []*Snapshot{{base: withSecondMask(ix, 0)}, {base: withSecondMask(ix, 128)}, {base: withSecondMask(ix, 256)}}
	for _, n := range []int{10, 50} {
		b.Run(fmt.Sprintf("top-%d", n), func(b *testing.B) {
			timeVariants(b, qs, names, func(i int, q *Query) error {
				_, _, err := Jaccard().Rank(context.Background(), snaps[i], q, n, time.Time{})
				return err
			})
		})
	}
}

// cursorQuery is the query of the cursor at line of the file at path of
// ix, made as builtQueries makes them.
func cursorQuery(t testing.TB, s *Snapshot, ix *Index, path string, line int) *Query {
	fi, ok := ix.byPath[path]
	if !ok {
		t.Fatalf("the index holds no file %s", path)
	}
	f := &ix.files[fi]
	l := lang.ByName(f.language)
	lines := ix.Lines(f.path)
	if l == nil || line < 2 || line > len(lines)+1 {
		t.Fatalf("%s:%d: no cursor there", path, line)
	}
	src := strings.Join(lines[:line-1], "\n") + "\n"
	pf, err := l.NewParser().Parse(context.Background(), f.path, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	g := ccg.Build(pf)
	sl := slice.Of(g, g.AppendTarget(), slice.DefaultOptions())
	q := s.NewQuery(g, sl, f.path, line)
	q.Language = l.Name
	return q
}

// BenchmarkBuiltCursors times, for each cursor PATH:LINE that
// GRAPHCODER_BENCH_CURSORS lists (space-separated) on an index
// graphcoder build wrote (GRAPHCODER_BENCH_INDEX), BM25's and the
// Jaccard top 50 and mode hybrid's coarse stage (both rankers for their
// top 50, fused), and logs per cursor the best over the iterations of the
// wall time and of the CPU time of the calling thread (Linux: a helper's
// or a hybrid ranker's own goroutine's is not counted), with the size of
// the query's key and of its rare postings and BM25's RankStats.
func BenchmarkBuiltCursors(b *testing.B) {
	ix := builtIndex(b)
	s := &Snapshot{base: ix}
	var qs []*Query
	for _, c := range strings.Fields(os.Getenv("GRAPHCODER_BENCH_CURSORS")) {
		i := strings.LastIndexByte(c, ':')
		line, err := strconv.Atoi(c[i+1:])
		if i < 0 || err != nil {
			b.Fatalf("cursor %q: want PATH:LINE", c)
		}
		qs = append(qs, cursorQuery(b, s, ix, c[:i], line))
	}
	if len(qs) == 0 {
		b.Skip("GRAPHCODER_BENCH_CURSORS lists no cursor")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	ctx := context.Background()
	opt := Options{Mode: Hybrid, TopK: 50}.withDefaults()
	type times struct{ wall, cpu [3]time.Duration }
	best := make([]times, len(qs))
	for i := range best {
		for j := range 3 {
			best[i].wall[j], best[i].cpu[j] = 1<<62, 1<<62
		}
	}
	stats := make([]RankStats, len(qs))
	for b.Loop() {
		for i, q := range qs {
			for j := range 3 {
				t0, c0 := time.Now(), cputime.Thread()
				var err error
				switch j {
				case 0:
					_, stats[i], err = BM25(DefaultBM25).Rank(ctx, s, q, 50, time.Time{})
				case 1:
					_, _, err = Jaccard().Rank(ctx, s, q, 50, time.Time{})
				default:
					var st Stats
					_, err = s.hybrid(ctx, q, opt, time.Time{}, &st)
				}
				if err != nil {
					b.Fatal(err)
				}
				best[i].cpu[j] = min(best[i].cpu[j], cputime.Thread()-c0)
				best[i].wall[j] = min(best[i].wall[j], time.Since(t0))
			}
		}
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	for i, q := range qs {
		rare, lists := 0, 0
		for _, t := range q.Key {
			if int(t) < len(ix.maskBit) && ix.maskBit[t] < 0 {
				rare += ix.postLen(t)
				lists++
			}
		}
		bt := best[i]
		b.Logf("%s:%d key %d, %d rare lists of %d bytes; bm25 wall %.2f cpu %.2f ms (scanned %d, scored %d); jaccard wall %.2f cpu %.2f ms; hybrid wall %.2f ms",
			q.Path, q.Line, len(q.Key), lists, rare, ms(bt.wall[0]), ms(bt.cpu[0]), stats[i].Scanned, stats[i].Scored,
			ms(bt.wall[1]), ms(bt.cpu[1]), ms(bt.wall[2]))
	}
}

// BenchmarkBuiltDistinctKeys measures how many entries of an index
// graphcoder build wrote (GRAPHCODER_BENCH_INDEX) share their key with an
// earlier entry of the same language: such an entry scores exactly as its
// first copy in every Jaccard ranking, so the share bounds what a scan
// that visits each distinct key once could leave out. It reports the
// distinct keys as a percentage of the entries, and the blocks of
// blockSize entries holding at least one first copy as a percentage of
// the blocks (the rest hold only later copies).
func BenchmarkBuiltDistinctKeys(b *testing.B) {
	ix := builtIndex(b)
	var distinct, blocks int
	for range b.N {
		seen := make(map[string]struct{}, ix.Len()/2)
		var key []uint32
		var buf []byte
		distinct, blocks = 0, 0
		lastBlock := -1
		for e := range ix.Len() {
			key = ix.key(e, key[:0])
			buf = append(buf[:0], ix.files[ix.fileOf(uint32(e))].language...)
			buf = append(buf, 0)
			for _, t := range key {
				buf = binary.LittleEndian.AppendUint32(buf, t)
			}
			if _, ok := seen[string(buf)]; ok {
				continue
			}
			seen[string(buf)] = struct{}{}
			distinct++
			if e/blockSize != lastBlock {
				lastBlock = e / blockSize
				blocks++
			}
		}
	}
	b.ReportMetric(float64(ix.Len()), "entries")
	b.ReportMetric(100*float64(distinct)/float64(max(ix.Len(), 1)), "distinct-%")
	b.ReportMetric(100*float64(blocks)/float64(max(ix.nBlocks(), 1)), "first-copy-blocks-%")
}
