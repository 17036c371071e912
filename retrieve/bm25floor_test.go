package retrieve

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestBM25FwdEqualsBruteForce: the exact scores a floor takes (bm25Fwd
// and bm25Mask, bm25floor.go) are the definition's, for every entry of
// indexes of many statements shared by the entries of a file, scored in a
// random order and twice over (each statement's tokens decoded once per
// floor, the table of those decoded outgrowing its first size).
func TestBM25FwdEqualsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(91, 92))
	p := DefaultBM25
	for trial := range 4 {
		ix, files, alphabet := seekIndex(t, r)
		s := &Snapshot{base: ix}
		N := s.Len()
		kA, kB := p.norm(N, s.liveDL())
		for qi := range 10 {
			q := longQuery(r, s, files, alphabet)
			q.Path = "" // no entry leaks: every one has its score
			want := map[int]float64{}
			for _, h := range bruteBM25(s, q, p, N) {
				want[h.Entry] = h.Score
			}
			bq := getBM25Query(ix)
			bq.prepare(s, ix, q, p, N, kA, kB)
			bq.setFwd(bq.rare)
			var v entryView
			rep := repTable(ix)
			for pass := range 2 {
				for _, e := range r.Perm(N) {
					k := bq.kA + bq.kB*float64(ix.bm.dlOf(uint32(e)))
					// A copy's masks are its representative's (dups.go).
					got := float64(ix.bm25Fwd(bq, uint32(e), k, &v)+ix.bm25Mask(bq, rep[e], k)) / bm25Unit
					if got != want[e] {
						t.Fatalf("trial %d query %d pass %d entry %d: score %v, want %v", trial, qi, pass, e, got, want[e])
					}
				}
			}
			if len(bq.stmtKey) <= 1<<10 {
				t.Fatalf("trial %d query %d: %d statements decoded, table of %d: it never grew", trial, qi, bq.stmtN, len(bq.stmtKey))
			}
			bm25QueryPool.Put(bq)
		}
	}
}

// TestBM25FloorNotAboveFinal: the floor a ranking takes is at most the
// final n-th score of the definition's list, on queries of the
// indexes' files (whose own entries the floor scores), and is taken on
// many of them; a floor taken too high (the n-th best plus a unit) fails
// it.
func TestBM25FloorNotAboveFinal(t *testing.T) {
	floorBytes := bm25FloorBytes
	defer func() { bm25FloorBytes = floorBytes }()
	bm25FloorBytes = 0
	r := rand.New(rand.NewPCG(93, 94))
	p := DefaultBM25
	taken := 0
	for range 4 {
		ix, files, alphabet := seekIndex(t, r)
		s := &Snapshot{base: ix}
		for qi := range 30 {
			q := longQuery(r, s, files, alphabet)
			n := 1 + r.IntN(20)
			want := bruteBM25(s, q, p, n)
			floor, ok := floorOf(s, q, p, n)
			if !ok {
				continue
			}
			taken++
			if len(want) < n || floor > want[n-1].Score*bm25Unit {
				t.Fatalf("query %d n %d: floor %v above the final n-th score (%d of %v)", qi, n, floor/bm25Unit, len(want), want)
			}
		}
	}
	if taken < 60 {
		t.Fatalf("%d of 120 rankings took a floor", taken)
	}
	t.Logf("%d of 120 rankings took a floor", taken)
}

// floorOf returns the floor the BM25 ranking of q on the base of s takes
// (bm25floor.go), in units, and whether it takes one.
func floorOf(s *Snapshot, q *Query, p BM25Params, n int) (float64, bool) {
	N := s.Len()
	kA, kB := p.norm(N, s.liveDL())
	bq := getBM25Query(s.base)
	defer bm25QueryPool.Put(bq)
	bq.prepare(s, s.base, q, p, N, kA, kB)
	var st RankStats
	sc := s.base.bm25Start(bq, q, n, s.dead, &st)
	defer sc.release()
	sc.floor(bq.rare)
	return sc.scan.root, sc.scan.full
}

// TestBM25FloorMaskedOwnFile: the floor leaves out the query's own file
// when a snapshot's delta replaces or removes it (its base entries,
// which ownFileCandidates offers and which hold the query's tokens most
// often, are not live): the floor stays at most the definition's final
// n-th score and the lists are the definition's. It fails when the
// floor's exact scores leave out no masked entry.
func TestBM25FloorMaskedOwnFile(t *testing.T) {
	floorBytes := bm25FloorBytes
	defer func() { bm25FloorBytes = floorBytes }()
	bm25FloorBytes = 0
	r := rand.New(rand.NewPCG(95, 96))
	p := DefaultBM25
	const files, alphabet = 12, 600
	taken := 0
	for trial := range 8 {
		base := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		delta := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		base.maskBits, delta.maskBits = 5, 5
		for i := range files {
			if err := base.Add(topicFile(r, fmt.Sprintf("f%d.py", i), 80+r.IntN(40), alphabet, i)); err != nil {
				t.Fatal(err)
			}
		}
		own := r.IntN(files)
		path := fmt.Sprintf("f%d.py", own)
		var masked []string
		if trial%2 == 0 { // replaced by a file of another topic
			if err := delta.Add(topicFile(r, path, 40, alphabet, files+1)); err != nil {
				t.Fatal(err)
			}
		} else {
			masked = append(masked, path)
		}
		s, err := NewSnapshot(base.Index(), delta.Index(), masked)
		if err != nil {
			t.Fatal(err)
		}
		for qi := range 10 {
			// The own file's topic words (topicFile), the cursor past
			// its end: none of its base entries leaks.
			var words []string
			for range 20 + r.IntN(20) {
				words = append(words, fmt.Sprintf("t%d", (own*53+r.IntN(1+r.IntN(60)))%alphabet))
			}
			q := snapshotQueryWords(s, words...)
			q.Path, q.Line = path, 1000
			if q.delta != nil {
				q.delta.Path, q.delta.Line = path, 1000
			}
			n := 1 + r.IntN(20)
			want := bruteBM25(s, q, p, n)
			what := fmt.Sprintf("trial %d query %d n %d", trial, qi, n)
			if floor, ok := floorOf(s, q, p, n); ok {
				taken++
				if len(want) < n || floor > want[n-1].Score*bm25Unit {
					t.Fatalf("%s: floor %v above the final n-th score (%d of %v)", what, floor/bm25Unit, len(want), want)
				}
			}
			got, _, err := BM25(p).Rank(t.Context(), s, q, n, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			equalHits(t, what, got, want)
		}
	}
	if taken < 20 {
		t.Fatalf("%d of 80 rankings took a floor", taken)
	}
	t.Logf("%d of 80 rankings took a floor", taken)
}

// TestBM25RefloorNotAboveFinal: the bound a ranking by regions holds
// after each region (refloor: the n-th best of the heap and of the
// floor's scored entries of the regions to come) lets the definition's
// final n-th entry in, on queries of the indexes' files ranked in regions
// of 64 to 1,024 entries, and rises above both the floor and the heap's
// worst on many of them; the lists are the definition's. Counting the
// floor's entries of the regions ranked beside the heap's (those among
// its n best twice) fails it.
func TestBM25RefloorNotAboveFinal(t *testing.T) {
	floorBytes, region := bm25FloorBytes, bm25Region
	defer func() { bm25FloorBytes, bm25Region, bm25RegionRanked = floorBytes, region, nil }()
	bm25FloorBytes = 0
	r := rand.New(rand.NewPCG(97, 98))
	p := DefaultBM25
	checked, raised := 0, 0
	for trial := range 6 {
		ix, files, alphabet := seekIndex(t, r)
		s := &Snapshot{base: ix}
		for qi := range 30 {
			bm25Region = []int{64, 128, 1024}[r.IntN(3)]
			q := longQuery(r, s, files, alphabet)
			n := 1 + r.IntN(20)
			want := bruteBM25(s, q, p, n)
			what := fmt.Sprintf("trial %d query %d n %d region %d", trial, qi, n, bm25Region)
			floor, floored := floorOf(s, q, p, n)
			up := false
			bm25RegionRanked = func(sc *bm25Scan, hi uint32) {
				if !sc.full {
					return
				}
				checked++
				if len(want) < n {
					t.Fatalf("%s: a bound (%v) with %d entries of a positive score", what, sc.root/bm25Unit, len(want))
				}
				// The final list's entries ranked are in the heap, the
				// others can still enter it.
				for _, h := range want {
					if uint32(h.Entry) < hi {
						if !slices.Contains(sc.top, ranked[int64]{int64(math.Round(h.Score * bm25Unit)), uint32(h.Entry)}) {
							t.Fatalf("%s: after the region up to %d, entry %d (%v) not in the heap", what, hi, h.Entry, h.Score)
						}
					} else if !sc.canBeat(h.Score*bm25Unit, uint32(h.Entry)) {
						t.Fatalf("%s: after the region up to %d, bound %v (entry %d) keeps out entry %d (%v)",
							what, hi, sc.root/bm25Unit, sc.rootE, h.Entry, h.Score)
					}
				}
				// Above both the floor and the heap's worst: refloor's.
				tighter := func(r float64, e uint32) bool { return sc.root > r || sc.root == r && sc.rootE < e }
				if (!floored || tighter(floor, math.MaxUint32)) && (len(sc.top) < n || tighter(float64(sc.top[0].score), sc.top[0].e)) {
					up = true
				}
			}
			got, _, err := BM25(p).Rank(t.Context(), s, q, n, time.Time{})
			bm25RegionRanked = nil
			if err != nil {
				t.Fatal(err)
			}
			equalHits(t, what, got, want)
			if up {
				raised++
			}
		}
	}
	t.Logf("%d bounds checked, %d of 180 rankings raised by refloor", checked, raised)
	if raised < 20 {
		t.Fatalf("%d of 180 rankings raised by refloor, want 20 at least", raised)
	}
}

// BenchmarkBuiltBM25Refloor times BM25's top 50 and mode hybrid's coarse
// stage (as BenchmarkBuiltBM25Tail) over 500 seeded queries of an index
// graphcoder build wrote (GRAPHCODER_BENCH_INDEX), query by query with
// the bound raised after each region (refloor) and without, in turn.
func BenchmarkBuiltBM25Refloor(b *testing.B) {
	ix := builtIndex(b)
	s := &Snapshot{base: ix}
	qs := builtQueries(b, s, ix, 500, 42)
	defer func() { bm25Refloor = true }()
	timeBM25Variants(b, s, qs, []string{"off", "on"}, func(i int) { bm25Refloor = i == 1 })
}

// TestBM25FloorPartial: a ranking its deadline stops after its first
// region holds, when it took a floor, n hits of their exact scores, best
// first: the floor's entries of the regions left unranked, whose bound
// kept out entries of the regions ranked, are offered to the heap
// (floorRest). Without them a stopped ranking's list came out short.
func TestBM25FloorPartial(t *testing.T) {
	floorBytes, region := bm25FloorBytes, bm25Region
	defer func() { bm25FloorBytes, bm25Region, bm25RegionRanked = floorBytes, region, nil }()
	bm25FloorBytes, bm25Region = 0, 256
	r := rand.New(rand.NewPCG(99, 100))
	ix, files, alphabet := seekIndex(t, r)
	s := &Snapshot{base: ix}
	p := DefaultBM25
	stopped := 0
	for qi := range 30 {
		q := longQuery(r, s, files, alphabet)
		n := 1 + r.IntN(30)
		if _, ok := floorOf(s, q, p, n); !ok {
			continue
		}
		exact := map[int]float64{}
		for _, h := range bruteBM25(s, q, p, ix.Len()) {
			exact[h.Entry] = h.Score
		}
		deadline := time.Now().Add(20 * time.Millisecond)
		bm25RegionRanked = func(_ *bm25Scan, hi uint32) {
			if hi == uint32(bm25Region) {
				time.Sleep(time.Until(deadline) + time.Millisecond)
			}
		}
		got, st, err := BM25(p).Rank(t.Context(), s, q, n, deadline)
		bm25RegionRanked = nil
		if err != nil {
			t.Fatal(err)
		}
		if !st.Partial {
			t.Fatalf("query %d: not stopped", qi)
		}
		stopped++
		if len(got) != n {
			t.Fatalf("query %d: %d hits of a partial ranking with a floor, want %d", qi, len(got), n)
		}
		seen := map[int]bool{}
		for i, h := range got {
			if seen[h.Entry] || exact[h.Entry] != h.Score || i > 0 && betterHit(h, got[i-1]) < 0 {
				t.Fatalf("query %d: hit %d %+v: twice, not its exact score (%v) or out of order", qi, i, h, exact[h.Entry])
			}
			seen[h.Entry] = true
		}
	}
	if stopped < 10 {
		t.Fatalf("%d of 30 rankings stopped with a floor", stopped)
	}
}
