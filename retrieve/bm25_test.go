package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/embed"
	"github.com/graphcoder/graphcoder/slice"
)

// chainFile makes a file of one statement per line whose entry i is the
// slice of the statements lo(i)..i (a CF chain into the target).
func chainFile(path string, lines []string, lo func(i int) int) *File {
	f := &File{Path: path, Language: "python", Lines: lines}
	ids := map[string]uint32{}
	for i, l := range lines {
		var toks []uint32
		for _, w := range strings.Fields(l) {
			toks = append(toks, vocabID(f, ids, w))
		}
		f.Stmts = append(f.Stmts, Stmt{StartRow: i, EndRow: i, Tokens: sortedSet(toks)})
	}
	for i := range lines {
		e := Entry{Target: uint32(i)}
		first := lo(i)
		for j := first; j <= i; j++ {
			e.Nodes = append(e.Nodes, uint32(j))
			e.Hop = append(e.Hop, uint8(i-j))
			if j > first {
				e.Edges = append(e.Edges, slice.Edge{From: uint16(j - first - 1), To: uint16(j - first), Type: ccg.CF})
			}
		}
		f.Entries = append(f.Entries, e)
	}
	return f
}

// TestBM25HandComputed checks BM25 scores against values worked out by
// hand. Four statements "a b", "a c", "b c d", "a"; entry i's slice is
// statements 0..i except entry 3's, which is 1..3. Keys (term
// frequencies): e0 {} dl 0, e1 {a:1 b:1} dl 2, e2 {a:2 b:1 c:1} dl 4, e3
// {a:1 b:1 c:2 d:1} dl 5; N = 4, avgdl = 11/4; n(a) = n(b) = 3, n(c) = 2,
// n(d) = 1, so idf(a) = ln(1 + 1.5/3.5) = ln(10/7), idf(c) = ln(2),
// idf(d) = ln(10/3); K(dl) = 1.2 (0.25 + 0.75 dl / 2.75). For query {a, d}
// entry 3 scores ln(10/7) 2.2 / (1 + K(5)) + ln(10/3) 2.2 / (1 + K(5)) =
// 1.169277879505.
func TestBM25HandComputed(t *testing.T) {
	lines := []string{"a b", "a c", "b c d", "a"}
	for _, maskBits := range []int{0, 2, 64} { // postings only, mixed, masks only
		b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		b.maskBits = maskBits
		if err := b.Add(chainFile("a.py", lines, func(i int) int { return max(0, i-2) * (i / 3) })); err != nil {
			t.Fatal(err)
		}
		ix := b.Index()
		s := &Snapshot{base: ix}
		for _, tc := range []struct {
			words []string
			want  []Hit // best first
		}{
			{[]string{"a", "d"}, []Hit{{3, 1.169277879505}, {2, 0.434837966918}, {1, 0.401466681085}}},
			{[]string{"c"}, []Hit{{3, 0.774788072497}, {2, 0.584465566883}}},
			{[]string{"a", "b", "c", "d", "zz"}, []Hit{{3, 2.211296095757}, {2, 1.320053834962}, {1, 0.802933362169}}},
			{[]string{"zz"}, nil},
		} {
			q := snapshotQueryWords(s, tc.words...)
			got, st, err := BM25(DefaultBM25).Rank(context.Background(), s, q, 10, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("mask bits %d, query %v: %v, want %v", maskBits, tc.words, got, tc.want)
			}
			for i := range got {
				if got[i].Entry != tc.want[i].Entry || math.Abs(got[i].Score-tc.want[i].Score) > 1e-9 {
					t.Fatalf("mask bits %d, query %v: %v, want %v", maskBits, tc.words, got, tc.want)
				}
			}
			if st.Name != "bm25" || st.Hits != len(got) {
				t.Errorf("stats %+v", st)
			}
		}
	}
}

func TestBM25Params(t *testing.T) {
	b := NewBuilder(wordTokenizer{}, Params{})
	if err := b.Add(chainFile("a.py", []string{"a b", "a c"}, func(int) int { return 0 })); err != nil {
		t.Fatal(err)
	}
	s := &Snapshot{base: b.Index()}
	q := snapshotQueryWords(s, "a", "b")
	for _, p := range []BM25Params{{K1: 0, B: 0.5}, {K1: -1, B: 0.5}, {K1: 1, B: 1.5}, {K1: math.NaN(), B: 0}, {K1: 1, B: 0.5, Terms: -1}} {
		if _, _, err := BM25(p).Rank(context.Background(), s, q, 5, time.Time{}); err == nil {
			t.Errorf("params %+v: no error", p)
		}
	}
	// b = 0: no length normalisation; entry 1 (key {a b}, tf 1 each)
	// scores idf(a) + idf(b) with N = 2, n(a) = n(b) = 1: 2 ln(1 + 1.5/1.5).
	got, _, err := BM25(BM25Params{K1: 2, B: 0}).Rank(context.Background(), s, q, 5, time.Time{})
	if err != nil || len(got) != 1 || math.Abs(got[0].Score-2*math.Log(2)) > 1e-9 {
		t.Fatalf("b = 0: %v, %v", got, err)
	}
}

func TestFuseRRF(t *testing.T) {
	got := FuseRRF([][]Hit{{{Entry: 1}, {Entry: 2}, {Entry: 3}}, {{Entry: 3}, {Entry: 1}}, nil}, 60)
	// 1: 1/61 + 1/62 = 0.032522; 3: 1/63 + 1/61 = 0.032266; 2: 1/62.
	want := []Hit{{1, 0.032522474881015}, {3, 0.032266458495967}, {2, 0.016129032258065}}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range got {
		if got[i].Entry != want[i].Entry || math.Abs(got[i].Score-want[i].Score) > 1e-14 {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	// Ties break by entry id.
	got = FuseRRF([][]Hit{{{Entry: 9}}, {{Entry: 4}}}, 1)
	if !slices.Equal(got, []Hit{{4, 0.5}, {9, 0.5}}) {
		t.Fatalf("ties: %v", got)
	}
	if len(FuseRRF(nil, 60)) != 0 {
		t.Fatal("empty fusion")
	}
}

// layerWords returns the words of an index's token ids.
func layerWords(ix *Index) []string {
	w := make([]string, ix.vocab.Len())
	for id := range w {
		w[id] = ix.vocab.Str(uint32(id))
	}
	return w
}

// liveEntry is one live entry of a snapshot as the brute-force
// definitions see it: its key multiset by word.
type liveEntry struct {
	ix    *Index
	local uint32
	id    int // snapshot id
	tf    map[string]uint32
	dl    uint64
}

var liveCache = struct {
	sync.Mutex
	m map[*Snapshot][]liveEntry
}{m: map[*Snapshot][]liveEntry{}}

// liveEntries decodes every live entry of s from its statements (once per
// snapshot).
func liveEntries(s *Snapshot) []liveEntry {
	liveCache.Lock()
	defer liveCache.Unlock()
	if l, ok := liveCache.m[s]; ok {
		return l
	}
	if len(liveCache.m) > 8 {
		clear(liveCache.m)
	}
	l := decodeLive(s)
	liveCache.m[s] = l
	return l
}

func decodeLive(s *Snapshot) []liveEntry {
	var out []liveEntry
	add := func(ix *Index, dead []bool, offset int) {
		words := layerWords(ix)
		var v entryView
		var toks []uint32
		for e := range ix.Len() {
			if dead != nil && dead[ix.fileOf(uint32(e))] {
				continue
			}
			le := liveEntry{ix: ix, local: uint32(e), id: e + offset, tf: map[string]uint32{}}
			ix.entry(uint32(e), &v)
			for _, n := range v.nodes {
				if n == v.target {
					continue
				}
				toks = ix.appendStmtTokens(toks[:0], n)
				for _, t := range toks {
					le.tf[words[t]]++
					le.dl++
				}
			}
			out = append(out, le)
		}
	}
	add(s.base, s.dead, 0)
	if s.delta != nil {
		add(s.delta, nil, s.base.Len())
	}
	return out
}

// queryWords returns the words of q's key that some part of s knows.
func queryWords(s *Snapshot, q *Query) map[string]bool {
	out := map[string]bool{}
	for l, lq := range []*Query{q, q.delta} {
		ix := []*Index{s.base, s.delta}[l]
		if ix == nil {
			continue
		}
		words := layerWords(ix)
		for _, t := range lq.Key {
			if int(t) < len(words) {
				out[words[t]] = true
			}
		}
	}
	return out
}

// eligible applies the leak rule and the language filter.
func eligible(s *Snapshot, q *Query, le *liveEntry) bool {
	lq := q
	if le.ix != s.base {
		lq = q.delta
	}
	var v entryView
	return (lq.Language == "" || le.ix.files[le.ix.fileOf(le.local)].language == lq.Language) && !le.ix.leaks(lq, le.local, &v)
}

func sortHits(h []Hit, n int) []Hit {
	slices.SortFunc(h, betterHit)
	return h[:min(n, len(h))]
}

// bruteBM25 is the definition of section 9 over the live entries.
func bruteBM25(s *Snapshot, q *Query, p BM25Params, n int) []Hit {
	live := liveEntries(s)
	df := map[string]int{}
	var total uint64
	for _, le := range live {
		for w := range le.tf {
			df[w]++
		}
		total += le.dl
	}
	kA, kB := p.norm(len(live), total)
	words := cappedWords(queryWords(s, q), df, p.Terms)
	var hits []Hit
	for _, le := range live {
		var score int64
		for w := range words {
			if tf := le.tf[w]; tf > 0 {
				score += bm25Term(bm25IDF(len(live), df[w])*(p.K1+1), tf, kA+kB*float64(le.dl))
			}
		}
		if score > 0 && eligible(s, q, &le) {
			hits = append(hits, Hit{le.id, float64(score) / bm25Unit})
		}
	}
	return sortHits(hits, n)
}

// cappedWords returns the words BM25 with a cap of k terms scores: the k
// of largest idf (smallest live df; no live df, no weight), ties by text,
// or all of them for k = 0.
func cappedWords(words map[string]bool, df map[string]int, k int) map[string]bool {
	if k == 0 {
		return words
	}
	var held []string
	for w := range words {
		if df[w] > 0 {
			held = append(held, w)
		}
	}
	slices.SortFunc(held, func(a, b string) int {
		if df[a] != df[b] {
			return df[a] - df[b]
		}
		return strings.Compare(a, b)
	})
	out := map[string]bool{}
	for _, w := range held[:min(k, len(held))] {
		out[w] = true
	}
	return out
}

// bruteJaccard is section 4's coarse stage over the live entries.
func bruteJaccard(s *Snapshot, q *Query, n int) []Hit {
	words := queryWords(s, q)
	var hits []Hit
	for _, le := range liveEntries(s) {
		inter := 0
		for w := range le.tf {
			if words[w] {
				inter++
			}
		}
		// Unseen query tokens count in the union too.
		qn := len(q.Key)
		if le.ix != s.base {
			qn = len(q.delta.Key)
		}
		if inter > 0 && eligible(s, q, &le) {
			hits = append(hits, Hit{le.id, float64(inter) / float64(qn+len(le.tf)-inter)})
		}
	}
	return sortHits(hits, n)
}

// equalJoint checks the lists of the joint ranking of mode hybrid
// against the definitions.
func equalJoint(t *testing.T, what string, s *Snapshot, q *Query, p BM25Params, n int) {
	t.Helper()
	lists, st, err := s.rankJaccardBM25(t.Context(), q, p, n, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	equalHits(t, "joint jaccard: "+what, lists[0], bruteJaccard(s, q, n))
	equalHits(t, "joint bm25: "+what, lists[1], bruteBM25(s, q, p, n))
	for i, rs := range st {
		if rs.Partial || rs.Scored > rs.Scanned || rs.Hits != len(lists[i]) {
			t.Fatalf("%s: stats %+v", what, st)
		}
	}
}

func equalHits(t *testing.T, what string, got, want []Hit) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("%s:\n got %v\nwant %v", what, got, want)
	}
}

// longSliceFile is randomFile with slices of up to 30 statements over a
// small alphabet, so that term frequencies of 16 and more occur.
func longSliceFile(r *rand.Rand, path string, n, alphabet int) *File {
	lines := make([]string, n)
	for i := range lines {
		var words []string
		for range 1 + r.IntN(5) {
			words = append(words, fmt.Sprintf("t%d", r.IntN(1+r.IntN(alphabet))))
		}
		lines[i] = strings.Join(words, " ")
	}
	spans := make([]int, n)
	for i := range spans {
		spans[i] = r.IntN(30)
	}
	return chainFile(path, lines, func(i int) int { return max(0, i-spans[i]) })
}

// TestBM25EqualsBruteForce: the BM25 ranker returns exactly the
// definition's top n, over random indexes and snapshots (both
// representations of the term frequencies, large ones included, masked
// files, a delta with its own token ids).
func TestBM25EqualsBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ctx := context.Background()
	capped := 0
	for trial := range 40 {
		alphabet := 3 + r.IntN(60)
		var s *Snapshot
		var files int
		switch trial % 3 {
		case 0:
			s = &Snapshot{base: randomIndex(t, r, 1+r.IntN(6), 1+r.IntN(60), alphabet)}
			files = s.base.Files()
		case 1:
			b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 30})
			b.maskBits = []int{0, 3, 64, 128}[r.IntN(4)]
			for i := range 1 + r.IntN(4) {
				if err := b.Add(longSliceFile(r, fmt.Sprintf("f%d.py", i), 1+r.IntN(80), alphabet)); err != nil {
					t.Fatal(err)
				}
			}
			s = &Snapshot{base: b.Index()}
			files = s.base.Files()
		default:
			s, files = randomSnapshot(t, r, alphabet)
		}
		p := DefaultBM25
		if r.IntN(3) == 0 {
			p = BM25Params{K1: 0.5 + 2*r.Float64(), B: r.Float64()}
		}
		// Half the trials cap the query, to as few as one term (most of
		// these queries hold fewer than 12 terms).
		if trial%2 == 1 {
			p.Terms = []int{1, 2, 3, 5, 8, 12}[r.IntN(6)]
		}
		for qi := range 15 {
			q := snapshotQuery(r, s, files, alphabet)
			n := 1 + r.IntN(20)
			got, st, err := BM25(p).Rank(ctx, s, q, n, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			equalHits(t, fmt.Sprintf("trial %d query %d n %d", trial, qi, n), got, bruteBM25(s, q, p, n))
			if st.Partial || st.Scored > st.Scanned {
				t.Fatalf("stats %+v", st)
			}
			if qi%5 == 0 {
				equalHits(t, fmt.Sprintf("jaccard: trial %d query %d", trial, qi), mustRank(t, Jaccard(), s, q, n), bruteJaccard(s, q, n))
			}
			equalJoint(t, fmt.Sprintf("trial %d query %d n %d", trial, qi, n), s, q, p, n)
			if cq, c := s.bm25Terms(q, p.Terms); c != nil {
				if len(cq.Key) > p.Terms || s.delta != nil && len(cq.delta.Key) > p.Terms {
					t.Fatalf("trial %d query %d: %d and %d terms kept of %d", trial, qi, len(cq.Key), len(cq.delta.Key), p.Terms)
				}
				c.release()
				capped++
			}
		}
	}
	// The cap bound most of the capped trials' queries.
	if capped < 80 {
		t.Fatalf("%d queries capped, want at least 80", capped)
	}
}

func mustRank(t *testing.T, r Ranker, s *Snapshot, q *Query, n int) []Hit {
	t.Helper()
	h, _, err := r.Rank(context.Background(), s, q, n, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestEntryTF: the stored term frequencies are the statements' counts.
func TestEntryTF(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for trial := range 10 {
		b := NewBuilder(wordTokenizer{}, Params{})
		b.maskBits = []int{0, 4, 128}[trial%3]
		if err := b.Add(longSliceFile(r, "a.py", 60, 8)); err != nil {
			t.Fatal(err)
		}
		ix := b.Index()
		s := &Snapshot{base: ix}
		words := layerWords(ix)
		rep := repTable(ix)
		for _, le := range liveEntries(s) {
			key := ix.key(int(le.local), nil)
			tf := ix.entryTF(rep[le.local], key, nil) // a copy's are its representative's
			for i, tok := range key {
				if tf[i] != le.tf[words[tok]] {
					t.Fatalf("entry %d token %s: tf %d, want %d", le.local, words[tok], tf[i], le.tf[words[tok]])
				}
			}
			if uint64(ix.bm.dl[le.local]) != le.dl {
				t.Fatalf("entry %d: dl %d, want %d", le.local, ix.bm.dl[le.local], le.dl)
			}
		}
	}
}

// TestHybridIsFusedRerank: mode hybrid re-ranks exactly the RRF fusion of
// the Jaccard and BM25 lists, cut to the pool, with the walk shared,
// separate or chosen.
func TestHybridIsFusedRerank(t *testing.T) {
	for _, w := range []Walk{WalkAuto, WalkShared, WalkSeparate} {
		testHybridIsFusedRerank(t, w)
	}
}

func testHybridIsFusedRerank(t *testing.T, walk Walk) {
	r := rand.New(rand.NewPCG(11, 12))
	ctx := context.Background()
	for trial := range 20 {
		alphabet := 5 + r.IntN(40)
		s, files := randomSnapshot(t, r, alphabet)
		for qi := range 10 {
			q := snapshotQuery(r, s, files, alphabet)
			opt := Options{Mode: Hybrid, TopK: 1 + r.IntN(10), PerRanker: 1 + r.IntN(30), Pool: r.IntN(40), Walk: walk}
			got, st, err := s.Search(ctx, q, opt)
			if err != nil {
				t.Fatal(err)
			}
			o := opt.withDefaults()
			fused := FuseRRF([][]Hit{bruteJaccard(s, q, o.PerRanker), bruteBM25(s, q, DefaultBM25, o.PerRanker)}, DefaultRRFK)
			fused = fused[:min(len(fused), o.Pool)]
			if st.Candidates != len(fused) || len(st.Rankers) != 2 {
				t.Fatalf("walk %d trial %d query %d: %d scored of a pool of %d, rankers %+v", walk, trial, qi, st.Candidates, len(fused), st.Rankers)
			}
			rrf := map[int]float64{}
			for _, h := range fused {
				rrf[h.Entry] = h.Score
			}
			if len(got) != min(o.TopK, len(fused)) {
				t.Fatalf("trial %d query %d: %d candidates, want %d", trial, qi, len(got), min(o.TopK, len(fused)))
			}
			for i, c := range got {
				if score, ok := rrf[c.Entry]; !ok || c.Coarse != score {
					t.Fatalf("trial %d query %d: candidate %d (coarse %v) is not in the fused pool (%v)", trial, qi, c.Entry, c.Coarse, score)
				}
				if i > 0 && less(&c, &got[i-1]) {
					t.Fatalf("rank %d out of order", i)
				}
				if c.Alignment == nil || c.Score != 1/(1+c.SED) {
					t.Fatalf("rank %d: not re-ranked: %+v", i, c)
				}
			}
			// Every scored candidate left out ranks after the last kept.
			if len(fused) > len(got) && len(got) > 0 {
				all, _, err := s.Search(ctx, q, Options{Mode: Hybrid, TopK: len(fused), PerRanker: o.PerRanker, Pool: o.Pool, Walk: walk})
				if err != nil {
					t.Fatal(err)
				}
				if !slices.EqualFunc(all[:len(got)], got, func(a, b Candidate) bool { return a.Entry == b.Entry }) {
					t.Fatalf("trial %d query %d: top %d of the pool differs from the cut", trial, qi, len(got))
				}
			}
		}
	}
}

// TestPool: coarse2fine with a pool re-ranks the Jaccard top pool and
// returns its k best by SED.
func TestPool(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	ix := randomIndex(t, r, 4, 60, 20)
	s := &Snapshot{base: ix}
	for qi := range 20 {
		q := randomQuery(r, ix, 20)
		want := bruteJaccard(s, q, 40)
		got, st, err := ix.Search(context.Background(), q, Options{TopK: 5, Pool: 40})
		if err != nil {
			t.Fatal(err)
		}
		if st.Candidates != len(want) || len(got) != min(5, len(want)) {
			t.Fatalf("query %d: scored %d of %d, returned %d", qi, st.Candidates, len(want), len(got))
		}
		in := map[int]bool{}
		for _, h := range want {
			in[h.Entry] = true
		}
		for i, c := range got {
			if !in[c.Entry] || i > 0 && less(&c, &got[i-1]) {
				t.Fatalf("query %d rank %d: %+v", qi, i, c)
			}
		}
	}
}

// TestRankBudgetAndCancel: an exhausted budget gives a partial list and
// no error; a cancelled context gives an error, for every ranker and mode.
func TestRankBudgetAndCancel(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	for i := range 30 {
		f := randomFile(r, fmt.Sprintf("f%d.py", i), 1000, 30)
		f.Vectors = randomVectors(r, len(f.Entries), 8)
		if err := b.Add(f); err != nil {
			t.Fatal(err)
		}
	}
	ix := b.Index()
	s := &Snapshot{base: ix}
	q := randomQuery(r, ix, 30)
	q.Vector = embed.Quantize(randomFloats(r, 8))
	past := time.Now().Add(-time.Second)
	for _, rk := range []Ranker{Jaccard(), BM25(DefaultBM25), Dense()} {
		full := mustRank(t, rk, s, q, 10)
		hits, st, err := rk.Rank(context.Background(), s, q, 10, past)
		if err != nil || !st.Partial || len(hits) > len(full) {
			t.Errorf("%s: past deadline: %d hits (full %d), %+v, %v", rk.Name(), len(hits), len(full), st, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, _, err := rk.Rank(ctx, s, q, 10, time.Time{}); err == nil {
			t.Errorf("%s: cancelled: no error", rk.Name())
		}
	}
	// The joint ranking of mode hybrid, likewise.
	lists, sts, err := s.rankJaccardBM25(context.Background(), q, DefaultBM25, 10, past)
	if err != nil || !sts[0].Partial || !sts[1].Partial || len(lists[0]) > 10 || len(lists[1]) > 10 {
		t.Errorf("joint: past deadline: %d and %d hits, %+v, %v", len(lists[0]), len(lists[1]), sts, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := s.rankJaccardBM25(ctx, q, DefaultBM25, 10, time.Time{}); !errors.Is(err, context.Canceled) {
		t.Errorf("joint: cancelled: %v", err)
	}
	if _, _, err := s.rankJaccardBM25(context.Background(), q, BM25Params{K1: -1}, 10, time.Time{}); err == nil {
		t.Error("joint: bad BM25 parameters accepted")
	}
	for _, m := range []Mode{Hybrid, BM25Only} {
		_, st, err := ix.Search(context.Background(), q, Options{Mode: m, Budget: time.Nanosecond})
		if err != nil || !st.Partial {
			t.Errorf("mode %s with a 1ns budget: partial %v, %v", m, st.Partial, err)
		}
	}
}

func TestParseModes(t *testing.T) {
	for _, m := range Modes() {
		if got, err := ParseMode(string(m)); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %q, %v", m, got, err)
		}
	}
	if _, err := ParseMode("bm26"); err == nil {
		t.Error("unknown mode accepted")
	}
}

// TestRankAllocs: a ranking allocates a handful of objects (its result),
// whatever the index size: the scans and heaps reuse pooled scratch.
func TestRankAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled buffers at random")
	}
	r := rand.New(rand.NewPCG(17, 18))
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	for i := range 20 {
		f := randomFile(r, fmt.Sprintf("f%d.py", i), 300, 40)
		f.Vectors = randomVectors(r, len(f.Entries), 16)
		if err := b.Add(f); err != nil {
			t.Fatal(err)
		}
	}
	s := &Snapshot{base: b.Index()}
	q := randomQuery(r, s.base, 40)
	q.Vector = embed.Quantize(randomFloats(r, 16))
	ctx := context.Background()
	for _, rk := range []Ranker{Jaccard(), BM25(DefaultBM25), Dense()} {
		rk.Rank(ctx, s, q, 10, time.Time{}) // warm the pools
		n := testing.AllocsPerRun(50, func() {
			if _, _, err := rk.Rank(ctx, s, q, 10, time.Time{}); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("%s: %.1f allocations per ranking", rk.Name(), n)
		if n > 4 {
			t.Errorf("%s: %.1f allocations per ranking, want at most 4", rk.Name(), n)
		}
	}
	bm25Allocs := func(what string) {
		t.Helper()
		BM25(DefaultBM25).Rank(ctx, s, q, 10, time.Time{})
		if n := testing.AllocsPerRun(50, func() {
			if _, _, err := BM25(DefaultBM25).Rank(ctx, s, q, 10, time.Time{}); err != nil {
				t.Fatal(err)
			}
		}); n > 4 {
			t.Errorf("bm25 %s: %.1f allocations per ranking, want at most 4", what, n)
		}
	}
	// BM25 in regions of 64 entries, with a floor, and walked on two
	// goroutines (bm25split.go).
	region, floor := bm25Region, bm25FloorBytes
	defer func() { bm25Region, bm25FloorBytes = region, floor }()
	bm25Region, bm25FloorBytes = 64, 0
	bm25Allocs("by regions with a floor")
	splitBytes, canHelp := bm25SplitBytes, canHelpBM25
	defer func() { bm25SplitBytes, canHelpBM25 = splitBytes, canHelp }()
	bm25SplitBytes, canHelpBM25 = 0, func() bool { return true }
	bm25Allocs("on two goroutines")
	bm25SplitBytes = splitBytes
	// With the long lists' tables (bm25seek.go) on every list, bounding
	// the ranges, on one goroutine and on two.
	seekMin, skipBytes := bm25SeekMin, bm25SkipBytes
	defer func() { bm25SeekMin, bm25SkipBytes, s.base.bm.seek = seekMin, skipBytes, nil }()
	bm25SeekMin, bm25SkipBytes = 1, 0
	s.base.bm.seek = s.base.buildBM25Seek()
	bm25Allocs("with the long lists' tables")
	bm25SplitBytes = 0
	bm25Allocs("with the long lists' tables on two goroutines")
	bm25SplitBytes = splitBytes
	// The joint ranking of mode hybrid: its two lists; and a query of 20
	// terms capped to 8, for BM25 alone and joint.
	capped := DefaultBM25
	capped.Terms = 8
	wide := *q
	wide.Key = nil
	for id := range uint32(20) {
		wide.Key = append(wide.Key, id)
	}
	if cq, c := s.bm25Terms(&wide, capped.Terms); c == nil || len(cq.Key) != 8 {
		t.Fatalf("the query of %d terms is not capped to 8", len(wide.Key))
	} else {
		c.release()
	}
	for i, p := range []BM25Params{DefaultBM25, capped} {
		q := []*Query{q, &wide}[i]
		s.rankJaccardBM25(ctx, q, p, 10, time.Time{})
		n := testing.AllocsPerRun(50, func() {
			if _, _, err := s.rankJaccardBM25(ctx, q, p, 10, time.Time{}); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("jaccard and bm25, %d terms: %.1f allocations per joint ranking", p.Terms, n)
		if n > 4 {
			t.Errorf("jaccard and bm25, %d terms: %.1f allocations per joint ranking, want at most 4", p.Terms, n)
		}
		BM25(p).Rank(ctx, s, q, 10, time.Time{})
		if n := testing.AllocsPerRun(50, func() {
			if _, _, err := BM25(p).Rank(ctx, s, q, 10, time.Time{}); err != nil {
				t.Fatal(err)
			}
		}); n > 4 {
			t.Errorf("bm25, %d terms: %.1f allocations per ranking, want at most 4", p.Terms, n)
		}
	}
}

// TestRoundTerm: roundTerm is math.Round, at the halves, around the
// powers of two and the ends of its fast path, and at random.
func TestRoundTerm(t *testing.T) {
	xs := []float64{0, 0.25, 0.49999999999999994, 0.5, 0.5000000000000001, 1, 1.5, 2.5, 1 << 51, 1<<52 - 0.5, 1 << 52, 1<<52 + 1, 1 << 60, math.Inf(1)}
	for k := range 60 {
		p := math.Ldexp(1, k-2)
		for _, b := range []float64{p, p + 0.5, p - 0.5, p + 1.5} {
			xs = append(xs, b, math.Nextafter(b, 0), math.Nextafter(b, math.Inf(1)))
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100000 {
		xs = append(xs, math.Ldexp(r.Float64(), r.IntN(54)))
	}
	for _, x := range xs {
		if x >= 1<<62 {
			continue // out of int64's range either way
		}
		if got, want := roundTerm(x), int64(math.Round(x)); got != want {
			t.Fatalf("roundTerm(%v) = %d, want %d", x, got, want)
		}
	}
}

// TestShareWalk: WalkAuto shares the walk once the hybrid searches under
// way need more cores than the process has.
func TestShareWalk(t *testing.T) {
	procs := int32(runtime.GOMAXPROCS(0))
	for _, c := range []struct {
		walk    Walk
		running int32
		want    bool
	}{
		{WalkShared, 1, true},
		{WalkSeparate, 100, false},
		{WalkAuto, procs / 2, false},
		{WalkAuto, procs/2 + 1, true},
	} {
		if got := shareWalk(Options{Walk: c.walk}, c.running); got != c.want {
			t.Errorf("walk %d with %d running of %d cores: shared %v, want %v", c.walk, c.running, procs, got, c.want)
		}
	}
}
