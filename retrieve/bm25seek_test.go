package retrieve

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// topicFile is randomFile with the words of one topic of a large
// alphabet (most of them; a few common to all), so that a token's
// postings lie in the few files of its topics and a query's bounds differ
// from range to range.
func topicFile(r *rand.Rand, path string, n, alphabet, topic int) *File {
	f := &File{Path: path, Language: "python"}
	local := map[string]uint32{}
	for i := range n {
		var ids []uint32
		var words []string
		for range 1 + r.IntN(6) {
			w := fmt.Sprintf("t%d", r.IntN(8))
			if r.IntN(4) > 0 {
				w = fmt.Sprintf("t%d", (topic*53+r.IntN(1+r.IntN(60)))%alphabet)
			}
			ids = append(ids, vocabID(f, local, w))
			words = append(words, w)
		}
		f.Lines = append(f.Lines, strings.Join(words, " "))
		slices.Sort(ids)
		f.Stmts = append(f.Stmts, Stmt{StartRow: i, EndRow: i, Tokens: slices.Compact(ids)})
	}
	f.Entries = chainEntries(r, n)
	return f
}

// topicSnapshot is a base of many topic files, with some masked and a
// delta of changed and new files of its own token ids, or none.
func topicSnapshot(t *testing.T, r *rand.Rand, alphabet int) (*Snapshot, int) {
	base := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	base.maskBits = []int{0, 5, 20, 64}[r.IntN(4)]
	nFiles := 8 + r.IntN(24)
	var masked []string
	delta := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	delta.maskBits = []int{0, 5, 64}[r.IntN(3)]
	withDelta := r.IntN(2) == 0
	for i := range nFiles {
		path := fmt.Sprintf("f%d.py", i)
		if err := base.Add(topicFile(r, path, 20+r.IntN(100), alphabet, r.IntN(40))); err != nil {
			t.Fatal(err)
		}
		if !withDelta {
			continue
		}
		switch r.IntN(6) {
		case 0:
			if err := delta.Add(topicFile(r, path, 20+r.IntN(100), alphabet, r.IntN(40))); err != nil {
				t.Fatal(err)
			}
		case 1:
			masked = append(masked, path)
		}
	}
	var d *Index
	if withDelta {
		if err := delta.Add(topicFile(r, "new0.py", 20+r.IntN(100), alphabet, r.IntN(40))); err != nil {
			t.Fatal(err)
		}
		d = delta.Index()
	}
	s, err := NewSnapshot(base.Index(), d, masked)
	if err != nil {
		t.Fatal(err)
	}
	return s, nFiles
}

// TestBM25SeekEqualsBruteForce: with the long lists' tables on every list
// (bm25seek.go) and every ranking's ranges bounded, BM25's lists are
// exactly the definition's, ties included, over snapshots of many files
// of sparse lists (masked files, a delta with its own token ids), ranked
// in regions of 64 to 1024 entries, with and without a floor, on one
// goroutine or with a helper; and a good share of the rankings leave
// ranges out (else the test would not test them).
func TestBM25SeekEqualsBruteForce(t *testing.T) {
	region, floorBytes, splitBytes, canHelp := bm25Region, bm25FloorBytes, bm25SplitBytes, canHelpBM25
	seekMin, skipBytes := bm25SeekMin, bm25SkipBytes
	defer func() {
		bm25Region, bm25FloorBytes, bm25SplitBytes, canHelpBM25, bm25WaitHelper = region, floorBytes, splitBytes, canHelp, false
		bm25SeekMin, bm25SkipBytes = seekMin, skipBytes
	}()
	canHelpBM25, bm25WaitHelper = func() bool { return true }, true
	bm25SkipBytes = 0
	r := rand.New(rand.NewPCG(71, 72))
	rankings, skipped, ranges := 0, 0, int64(0)
	for trial := range 30 {
		bm25SeekMin = []int{1, 1, 8, 64}[r.IntN(4)]
		alphabet := 200 + r.IntN(2000)
		s, files := topicSnapshot(t, r, alphabet)
		p := DefaultBM25
		if r.IntN(3) == 0 {
			p = BM25Params{K1: 0.5 + 2*r.Float64(), B: r.Float64()}
		}
		for qi := range 20 {
			bm25Region = []int{64, 128, 1024, 1 << 16}[r.IntN(4)]
			bm25FloorBytes = []int{0, 0, floorBytes}[r.IntN(3)]
			bm25SplitBytes = []int{0, splitBytes}[r.IntN(2)]
			q := longQuery(r, s, files, alphabet)
			n := 1 + r.IntN(20)
			what := fmt.Sprintf("trial %d query %d n %d region %d floor %d split %d tables %d", trial, qi, n, bm25Region, bm25FloorBytes, bm25SplitBytes, bm25SeekMin)
			left := bm25SkippedRanges.Load()
			got, st, err := BM25(p).Rank(t.Context(), s, q, n, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			rankings++
			if d := bm25SkippedRanges.Load() - left; d > 0 {
				skipped++
				ranges += d
			}
			equalHits(t, what, got, bruteBM25(s, q, p, n))
			if st.Partial || st.Scored > st.Scanned || st.Hits != len(got) {
				t.Fatalf("%s: stats %+v", what, st)
			}
		}
	}
	t.Logf("%d of %d rankings left %d ranges out", skipped, rankings, ranges)
	if skipped < rankings/4 {
		t.Errorf("%d of %d rankings left a range out, want a quarter at least", skipped, rankings)
	}
}

// BenchmarkBuiltBM25Seek times BM25's top 50 and mode hybrid's coarse
// stage (as BenchmarkBuiltBM25Tail) over 500 seeded queries of an index
// graphcoder build wrote (GRAPHCODER_BENCH_INDEX), query by query without
// the long lists' tables and with them (bm25seek.go; derived here when
// the file has none) in turn, and reports the tables' size, the time to
// derive them and the share of the long lists' ranges left out.
func BenchmarkBuiltBM25Seek(b *testing.B) {
	ix := builtIndex(b)
	s := &Snapshot{base: ix}
	qs := builtQueries(b, s, ix, 500, 42)
	sk := ix.bm.seek
	if sk == nil {
		t0 := time.Now()
		sk = ix.buildBM25Seek()
		b.Logf("tables derived in %v", time.Since(t0))
	}
	defer func() { ix.bm.seek = sk }()
	b.Logf("tables of %d lists, %d bytes (postings %d bytes)", len(sk.tok), sk.bytes(), len(ix.post))
	left := bm25SkippedRanges.Load()
	timeBM25Variants(b, s, qs, []string{"plain", "tables"}, func(i int) {
		ix.bm.seek = []*bm25Seek{nil, sk}[i]
	})
	b.Logf("%d ranges left out", bm25SkippedRanges.Load()-left)
}

// seekIndex is a topic snapshot's base built with a table on every list.
func seekIndex(t *testing.T, r *rand.Rand) (*Index, int, int) {
	seekMin := bm25SeekMin
	defer func() { bm25SeekMin = seekMin }()
	bm25SeekMin = 1
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	b.maskBits = 5
	files, alphabet := 24, 600
	for i := range files {
		if err := b.Add(topicFile(r, fmt.Sprintf("f%d.py", i), 60+r.IntN(60), alphabet, r.IntN(40))); err != nil {
			t.Fatal(err)
		}
	}
	return b.Index(), files, alphabet
}

// TestBM25SeekMapped: a mapped index ranks with the tables it was written
// with (and leaves ranges out), and one written without them (as before
// them) ranks without; both give the definition's lists.
func TestBM25SeekMapped(t *testing.T) {
	skipBytes, region := bm25SkipBytes, bm25Region
	defer func() { bm25SkipBytes, bm25Region, writeBM25Seek = skipBytes, region, true }()
	bm25SkipBytes, bm25Region = 0, 256
	r := rand.New(rand.NewPCG(73, 74))
	ix, files, alphabet := seekIndex(t, r)
	mix := mapIndex(t, ix)
	writeBM25Seek = false
	old := mapIndex(t, ix)
	writeBM25Seek = true
	if mix.bm.seek == nil || len(mix.bm.seek.tok) != len(ix.bm.seek.tok) || old.bm.seek != nil {
		t.Fatalf("tables of %v lists mapped, %v written without them", mix.bm.seek, old.bm.seek)
	}
	left := bm25SkippedRanges.Load()
	for qi := range 40 {
		q := longQuery(r, &Snapshot{base: ix}, files, alphabet)
		n := 1 + r.IntN(10)
		want := bruteBM25(&Snapshot{base: ix}, q, DefaultBM25, n)
		for _, x := range []*Index{mix, old} {
			got, _, err := BM25(DefaultBM25).Rank(t.Context(), &Snapshot{base: x}, q, n, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			equalHits(t, fmt.Sprintf("query %d tables %v", qi, x.bm.seek != nil), got, want)
		}
	}
	if bm25SkippedRanges.Load() == left {
		t.Fatal("no ranking left a range out")
	}
}

// TestBM25SeekDamage: an index whose tables hold damaged bytes is refused
// when opened (their order and offsets), or ranked without them (their
// checksums), giving the definition's lists, or fails with ErrDamaged;
// tables damaged behind their checksums (in memory) give ErrDamaged or the
// definition's lists when a record's offset, count or last entry is out
// of step with its postings (a damaged range or bound only the checksums
// catch). Nothing panics.
func TestBM25SeekDamage(t *testing.T) {
	skipBytes, region := bm25SkipBytes, bm25Region
	defer func() { bm25SkipBytes, bm25Region = skipBytes, region }()
	bm25SkipBytes, bm25Region = 0, 256
	r := rand.New(rand.NewPCG(75, 76))
	ix, files, alphabet := seekIndex(t, r)
	mix := mapIndex(t, ix)
	good, err := os.ReadFile(mix.keep.Path())
	if err != nil {
		t.Fatal(err)
	}
	var qs []*Query
	var want [][]Hit
	for range 12 {
		q := longQuery(r, &Snapshot{base: ix}, files, alphabet)
		qs = append(qs, q)
		want = append(want, bruteBM25(&Snapshot{base: ix}, q, DefaultBM25, 5))
	}
	check := func(what string, x *Index) (failed int) {
		t.Helper()
		for qi, q := range qs {
			got, _, err := BM25(DefaultBM25).Rank(t.Context(), &Snapshot{base: x}, q, 5, time.Time{})
			if err != nil {
				if !errors.Is(err, ErrDamaged) {
					t.Fatalf("%s query %d: %v", what, qi, err)
				}
				failed++
				continue
			}
			equalHits(t, fmt.Sprintf("%s query %d", what, qi), got, want[qi])
		}
		return failed
	}
	path := filepath.Join(t.TempDir(), "bad")
	secs, refused := 0, 0
	for _, sec := range mix.keep.Sections() {
		if !strings.HasPrefix(sec.Name, "ix.bm25.") || sec.Length == 0 {
			continue
		}
		secs++
		for trial := range 8 {
			bad := openDamaged(t, r, good, sec, 1+trial, path)
			if bad == nil {
				refused++
				continue
			}
			check(sec.Name, bad)
		}
	}
	if secs != 3 {
		t.Fatalf("%d sections of tables", secs)
	}
	// Behind the checksum: the mapped tables copied and damaged.
	failed := 0
	for trial := range 40 {
		sk := mix.bm.seek
		rec := slices.Clone(sk.rec)
		for range 1 + trial%3 {
			k := 3 * r.IntN(len(rec)/3)
			if r.IntN(2) == 0 {
				rec[k+1] ^= 1 << r.IntN(8) // the offset
			} else {
				rec[k+2] ^= uint32(1) << r.IntN(14) // count or last entry
			}
		}
		saved := mix.bm.seek
		mix.bm.seek = &bm25Seek{tok: sk.tok, off: sk.off, rec: rec}
		failed += check(fmt.Sprintf("damaged records %d", trial), mix)
		mix.bm.seek = saved
	}
	t.Logf("%d damaged files refused; %d rankings of damaged records failed", refused, failed)
	if failed == 0 {
		t.Fatal("no damaged record was found out")
	}
}

// BenchmarkBuiltBM25SeekMin times BM25's top 50 and mode hybrid's coarse
// stage over 500 seeded queries of an index graphcoder build wrote
// (GRAPHCODER_BENCH_INDEX), query by query in turn with tables derived
// for the lists of at least 2 KiB, 1 KiB, 512 and 256 bytes of postings.
func BenchmarkBuiltBM25SeekMin(b *testing.B) {
	ix := builtIndex(b)
	s := &Snapshot{base: ix}
	qs := builtQueries(b, s, ix, 500, 42)
	seekMin, sk0 := bm25SeekMin, ix.bm.seek
	defer func() { bm25SeekMin, ix.bm.seek = seekMin, sk0 }()
	mins := []int{2048, 1024, 512, 256}
	var names []string
	var sks []*bm25Seek
	for _, m := range mins {
		bm25SeekMin = m
		sk := ix.buildBM25Seek()
		b.Logf("from %d bytes: tables of %d lists, %d bytes (postings %d bytes)", m, len(sk.tok), sk.bytes(), len(ix.post))
		names = append(names, fmt.Sprint(m))
		sks = append(sks, sk)
	}
	bm25SeekMin = seekMin
	// The ranges left out, per variant: the counter's growth since the
	// last switch is the last variant's.
	left := make([]int64, len(mins))
	last, at := 0, bm25SkippedRanges.Load()
	timeBM25Variants(b, s, qs, names, func(i int) {
		now := bm25SkippedRanges.Load()
		left[last] += now - at
		last, at = i, now
		ix.bm.seek = sks[i]
	})
	left[last] += bm25SkippedRanges.Load() - at
	for i, m := range mins {
		b.Logf("from %d bytes: %d ranges left out", m, left[i])
	}
}
