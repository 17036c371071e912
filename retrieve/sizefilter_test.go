package retrieve

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// windowed runs f with every Jaccard ranking taking the windowed and the
// split walk (sizefilter.go, splitwalk.go), however short its postings.
func windowed(t *testing.T, f func(t *testing.T)) {
	sf, sw, cs := sizeFilterBytes, splitWalkBytes, canSplit
	sizeFilterBytes, splitWalkBytes, canSplit = 0, 0, func() bool { return true }
	defer func() { sizeFilterBytes, splitWalkBytes, canSplit = sf, sw, cs }()
	f(t)
}

// TestWindowedBruteForce: with the windowed and split walks taken on
// every query, the property tests of the coarse stage still hold (random
// indexes and snapshots, runs of similar statements with block skips,
// ties across blocks, the leak rule, the language filter, base + delta).
func TestWindowedBruteForce(t *testing.T) {
	for _, c := range coarseProperties {
		t.Run(c.name, func(t *testing.T) { windowed(t, c.f) })
	}
}

// coarseProperties are the property tests of the coarse rankings that
// other tests rerun under other settings.
var coarseProperties = []struct {
	name string
	f    func(*testing.T)
}{
	{"CoarseEqualsBruteForce", TestCoarseEqualsBruteForce},
	{"SnapshotCoarseEqualsBruteForce", TestSnapshotCoarseEqualsBruteForce},
	{"BlockBoundsEqualBruteForce", TestBlockBoundsEqualBruteForce},
	{"JaccardBlockTies", TestJaccardBlockTies},
	{"BM25EqualsBruteForce", TestBM25EqualsBruteForce},
	{"CopiesRankAsWithout", TestCopiesRankAsWithout},
}

// sizedFile makes a file of n statements whose slices' keys range from
// a few tokens to a few hundred: statements of 1 to 3 tokens, and now
// and then one of up to 150 drawn from a large alphabet, over slices of
// up to 5 statements.
func sizedFile(r *rand.Rand, path string, n int) *File {
	lines := make([]string, n)
	for i := range lines {
		m := 1 + r.IntN(3)
		if r.IntN(30) == 0 {
			m = 20 + r.IntN(130)
		}
		words := make([]string, m)
		for j := range words {
			if r.IntN(3) == 0 {
				words[j] = fmt.Sprintf("f%d", r.IntN(30))
			} else {
				words[j] = fmt.Sprintf("r%d", r.IntN(1+r.IntN(3000)))
			}
		}
		lines[i] = strings.Join(words, " ")
	}
	spans := make([]int, n)
	for i := range spans {
		spans[i] = r.IntN(5)
	}
	return chainFile(path, lines, func(i int) int { return max(0, i-spans[i]) })
}

// TestSizeWindowEqualsBruteForce: on indexes whose keys differ widely in
// length, queried with long keys (so that the window of key lengths
// leaves most entries out), base alone and base + delta, the windowed
// and split Jaccard walk returns exactly the definition's list; and the
// window does narrow on some queries, with the walk gated by a size
// class on some.
func TestSizeWindowEqualsBruteForce(t *testing.T) {
	windowed(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(21, 22))
		narrowed, gated := 0, 0
		for trial := range 10 {
			base := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 12})
			base.maskBits = []int{0, 8, 30, 64}[r.IntN(4)]
			delta := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 12})
			var files []*File
			nFiles := 2 + r.IntN(4)
			snaps := randomParts(t, r, base, delta, nFiles, 4, func(path string, changed bool) *File {
				var lines int
				if changed {
					lines = 50 + r.IntN(100)
				} else {
					lines = 100 + r.IntN(300)
				}
				f := sizedFile(r, path, lines)
				files = append(files, f)
				return f
			})
			for si, s := range snaps {
				for qi := range 20 {
					// A long query: the statements of one or two slices
					// of a file, some of their words dropped, a few
					// unseen words added.
					words := sizedWords(r, files)
					for range r.IntN(3) {
						words = append(words, fmt.Sprintf("unseen%d", r.IntN(9)))
					}
					q := snapshotQueryWords(s, words...)
					placeQuery(r, q, nFiles, qi)
					n := []int{1, 3, 10, 50}[r.IntN(4)]
					what := fmt.Sprintf("trial %d snapshot %d query %d n %d |Q| %d", trial, si, qi, n, len(q.Key))
					equalHits(t, what, mustRank(t, Jaccard(), s, q, n), bruteJaccard(s, q, n))
					sc := s.base.getScratch()
					s.base.countJaccard(q, sc, n, s.dead)
					if sc.lo > 1 || sc.hi < 1<<20 {
						narrowed++
						if s.base.blocks().gate(sc.lo) != nil {
							gated++
						}
					}
					s.base.release(sc)
				}
			}
		}
		t.Logf("the window narrowed on %d of %d queries, gated the walk on %d", narrowed, 10*2*20, gated)
		if narrowed == 0 || gated == 0 {
			t.Fatalf("the window narrowed on %d queries, gated %d", narrowed, gated)
		}
	})
}

// sizedWords returns the words of a long query: the statements of one
// or two slices of one of files, some of their words dropped.
func sizedWords(r *rand.Rand, files []*File) []string {
	f := files[r.IntN(len(files))]
	var words []string
	for range 1 + r.IntN(2) {
		e := f.Entries[r.IntN(len(f.Entries))]
		for _, n := range e.Nodes {
			for _, id := range f.Stmts[n].Tokens {
				if r.IntN(5) != 0 {
					words = append(words, f.Vocab[id])
				}
			}
		}
	}
	return words
}

// TestWindowedRankAllocs: the windowed and split walk allocate nothing
// either.
func TestWindowedRankAllocs(t *testing.T) { windowed(t, TestRankAllocs) }
