package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// banded runs f with every Jaccard ranking taking the windowed walk and,
// when the guess num/den of its seeds' window names a band, the bands of
// long keys (longpost.go), however short its postings.
func banded(t *testing.T, num, den uint64, f func(t *testing.T)) {
	lb, gn, gd := longBytes, longGuessNum, longGuessDen
	longBytes, longGuessNum, longGuessDen = 0, num, den
	defer func() { longBytes, longGuessNum, longGuessDen = lb, gn, gd }()
	windowed(t, f)
}

// TestBandsBruteForce: with the bands of long keys taken wherever the
// seeds' window allows, under a guess that always holds (1) and one that
// often fails (8: the scan is then run again after more bands or the
// lists), with and without a second mask, the property tests
// of the coarse stage still hold (random indexes and snapshots, base +
// delta, long keys, runs of similar statements with block skips, ties
// across blocks, the leak rule, the language filter, bands read from a
// snapshot file); and each way out of the bands is taken.
func TestBandsBruteForce(t *testing.T) {
	took, again, down := bandRuns.took.Load(), bandRuns.again.Load(), bandRuns.down.Load()
	tests := append(coarseProperties[:len(coarseProperties):len(coarseProperties)], struct {
		name string
		f    func(*testing.T)
	}{"SizeWindowEqualsBruteForce", TestSizeWindowEqualsBruteForce}, struct {
		name string
		f    func(*testing.T)
	}{"MappedIndex", TestMappedIndex})
	for _, g := range []struct{ num, den uint64 }{{1, 1}, {8, 1}} {
		for _, bits := range []int{0, 128} {
			for _, c := range tests {
				if c.name == "BM25EqualsBruteForce" {
					continue // BM25 walks no bands
				}
				t.Run(fmt.Sprintf("%d/%d/%d/%s", g.num, g.den, bits, c.name), func(t *testing.T) {
					old := xmaskBits
					xmaskBits = bits
					defer func() { xmaskBits = old }()
					banded(t, g.num, g.den, c.f)
				})
			}
		}
	}
	took, again, down = bandRuns.took.Load()-took, bandRuns.again.Load()-again, bandRuns.down.Load()-down
	t.Logf("the bands were taken by %d rankings; %d scanned again, %d of them after more bands", took, again, down)
	if took == 0 || again == 0 || down == 0 || down == again {
		t.Errorf("the bands were taken by %d rankings, %d scanned again, %d after more bands: a way is not tested", took, again, down)
	}
}

// TestBands: the bands hold, per token the Jaccard walk reads, exactly
// its postings of the entries of each band's key lengths, in order, and
// none of the tokens of either mask; their bit sets hold the entries of
// each band's lengths and up.
func TestBands(t *testing.T) {
	for _, bits := range []int{0, 128} {
		old := xmaskBits
		xmaskBits = bits
		ix, _ := sizedIndex(t, 31, 6)
		xmaskBits = old
		lp := ix.longPost()
		if len(lp.min) == 0 {
			t.Fatal("no bands")
		}
		x := ix.xmask()
		for tok := range uint32(len(ix.maskBit)) {
			_, inX := x.lookup(tok)
			for b := range lp.min {
				var want []uint32
				if ix.maskBit[tok] < 0 && !inX {
					for e := range ix.postings(tok) {
						if l := ix.keyLen[e]; l >= lp.min[b] && (b+1 == len(lp.min) || l < lp.min[b+1]) {
							want = append(want, e)
						}
					}
				}
				var got []uint32
				list, e := lp.post[lp.off[b][tok]:lp.off[b][tok+1]], uint32(0)
				for len(list) > 0 {
					v, k := uvarint(list)
					e += uint32(v)
					got = append(got, e)
					list = list[k:]
				}
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("second mask %d bits, token %d band %d: %v, want %v", bits, tok, b, got, want)
				}
			}
		}
		for b, set := range lp.bitSets(ix) {
			for e, l := range ix.keyLen {
				if in := set[e/64]>>(e%64)&1 == 1; in != (l >= lp.min[b]) {
					t.Fatalf("band %d: entry %d of key length %d in its bit set: %v", b, e, l, in)
				}
			}
		}
	}
}

// sizedIndex builds an index of n files of sizedFile's statements.
func sizedIndex(t *testing.T, seed uint64, n int) (*Index, []*File) {
	r := rand.New(rand.NewPCG(seed, seed+1))
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 12})
	b.maskBits = 30
	var files []*File
	for i := range n {
		files = append(files, sizedFile(r, fmt.Sprintf("f%d.py", i), 200+r.IntN(200)))
		if err := b.Add(files[i]); err != nil {
			t.Fatal(err)
		}
	}
	return b.Index(), files
}

// sizedQuery is a long query of s made of sizedWords.
func sizedQuery(r *rand.Rand, s *Snapshot, files []*File) *Query {
	return snapshotQueryWords(s, sizedWords(r, files)...)
}

// TestBandedRankAllocs: a ranking that takes the bands allocates at most
// what TestRankAllocs allows a ranking (4: the split walk's goroutine
// among them), two more when it scans again (the second list, and the
// goroutine of the second walk's split).
func TestBandedRankAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled buffers at random")
	}
	banded(t, 8, 1, func(t *testing.T) {
		ix, files := sizedIndex(t, 33, 8)
		s := &Snapshot{base: ix}
		r := rand.New(rand.NewPCG(34, 35))
		ctx := context.Background()
		tried := 0
		for range 40 {
			q := sizedQuery(r, s, files)
			took, again := bandRuns.took.Load(), bandRuns.again.Load()
			Jaccard().Rank(ctx, s, q, 10, time.Time{}) // warm the pools
			if bandRuns.took.Load() == took {
				continue
			}
			tried++
			want := 4.0
			if bandRuns.again.Load() > again {
				want = 6
			}
			if n := testing.AllocsPerRun(20, func() {
				if _, _, err := Jaccard().Rank(ctx, s, q, 10, time.Time{}); err != nil {
					t.Fatal(err)
				}
			}); n > want {
				t.Errorf("%.1f allocations per ranking, want at most %.0f", n, want)
			}
		}
		if tried == 0 {
			t.Fatal("no query took the bands")
		}
	})
}

// TestBandsDamaged: a mapped index whose bands of long keys hold damaged
// bytes is refused when opened, or its Jaccard rankings, which take the
// bands, fail with ErrDamaged or answer; nothing panics.
func TestBandsDamaged(t *testing.T) {
	banded(t, 8, 1, func(t *testing.T) {
		ix, files := sizedIndex(t, 36, 8)
		mix := mapIndex(t, ix)
		m0 := mix.keep
		good, err := os.ReadFile(m0.Path())
		if err != nil {
			t.Fatal(err)
		}
		// The queries whose rankings take the bands of the intact file.
		r := rand.New(rand.NewPCG(37, 38))
		ctx := context.Background()
		var qs []*Query
		for range 100 {
			q := sizedQuery(r, &Snapshot{base: ix}, files)
			took := bandRuns.took.Load()
			if _, _, err := Jaccard().Rank(ctx, &Snapshot{base: mix}, q, 10, time.Time{}); err != nil {
				t.Fatal(err)
			}
			if bandRuns.took.Load() > took {
				qs = append(qs, q)
			}
		}
		path := filepath.Join(t.TempDir(), "bad")
		took, secs, damagedRuns := bandRuns.took.Load(), 0, 0
		for _, sec := range m0.Sections() {
			if !strings.HasPrefix(sec.Name, "ix.long.") || sec.Length == 0 {
				continue
			}
			secs++
			for trial := range 8 {
				mix := openDamaged(t, r, good, sec, 1+trial, path)
				if mix == nil {
					continue
				}
				s := &Snapshot{base: mix}
				for qi, q := range qs {
					_, _, err := Jaccard().Rank(ctx, s, q, 10, time.Time{})
					if err != nil {
						damagedRuns++
					}
					if err != nil && !errors.Is(err, ErrDamaged) {
						t.Fatalf("section %s query %d: %v", sec.Name, qi, err)
					}
				}
			}
		}
		t.Logf("%d queries take the bands; %d rankings of damaged bands failed", len(qs), damagedRuns)
		if secs != 3 || len(qs) == 0 || bandRuns.took.Load() == took {
			t.Fatalf("%d sections of bands damaged, %d queries, %d rankings took the bands", secs, len(qs), bandRuns.took.Load()-took)
		}
	})
}
