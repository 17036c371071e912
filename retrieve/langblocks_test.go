package retrieve

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestLanguageBlocks: the bit set of a language marks exactly the blocks
// holding an entry of one of its files, is nil where it would mark every
// block, and a query of one language scans none of the entries of the
// other's blocks while ranking exactly as without the bit set.
func TestLanguageBlocks(t *testing.T) {
	// Entries: a.py 0-39 (blocks 0-2), b.java 40-199 (blocks 2-12),
	// c.py 200-209 (blocks 12-13), d.java 210-299 (blocks 13-18).
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	for _, f := range []struct {
		path, lang string
		n          int
	}{{"a.py", "python", 40}, {"b.java", "java", 160}, {"c.py", "python", 10}, {"d.java", "java", 90}} {
		lines := make([]string, f.n)
		for i := range lines {
			lines[i] = fmt.Sprintf("shared w%d %s%d", i%7, f.lang, i%5)
		}
		file := chainFile(f.path, lines, func(i int) int { return max(0, i-2) })
		file.Language = f.lang
		if err := b.Add(file); err != nil {
			t.Fatal(err)
		}
	}
	ix := b.Index()
	blocksOf := func(bits []uint64) []int {
		var out []int
		for k := range (ix.Len() + blockSize - 1) / blockSize {
			if bits == nil {
				return nil
			}
			if bits[k/64]>>(k%64)&1 != 0 {
				out = append(out, k)
			}
		}
		return out
	}
	if got, want := blocksOf(ix.languageBlocks("python")), []int{0, 1, 2, 12, 13}; !slices.Equal(got, want) {
		t.Errorf("python blocks %v, want %v", got, want)
	}
	if got, want := blocksOf(ix.languageBlocks("java")), []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18}; !slices.Equal(got, want) {
		t.Errorf("java blocks %v, want %v", got, want)
	}
	if ix.languageBlocks("") != nil || ix.languageBlocks("go") == nil {
		t.Error("no language must scan every block, a language without files none")
	}

	one := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
	if err := one.Add(chainFile("a.py", strings.Fields("x y z x y z"), func(i int) int { return i })); err != nil {
		t.Fatal(err)
	}
	if one.Index().languageBlocks("python") != nil {
		t.Error("an index of one language needs no bit set")
	}

	s := &Snapshot{base: ix}
	for _, lang := range []string{"python", "java"} {
		for _, words := range [][]string{{"shared", "w3", lang + "1"}, {"shared"}, {"w1", "w2", "python2", "java3"}} {
			q := snapshotQueryWords(s, words...)
			q.Language, q.Path, q.Line = lang, "other.py", 1
			for _, n := range []int{1, 10, 300} {
				what := fmt.Sprintf("%s %v n %d", lang, words, n)
				got, st, err := Jaccard().Rank(t.Context(), s, q, n, time.Time{})
				if err != nil {
					t.Fatal(err)
				}
				equalHits(t, "jaccard: "+what, got, bruteJaccard(s, q, n))
				equalHits(t, "bm25: "+what, mustRank(t, BM25(DefaultBM25), s, q, n), bruteBM25(s, q, DefaultBM25, n))
				if lang == "python" && st.Scanned > 16*5 {
					t.Errorf("%s: scanned %d entries, more than the 80 of the python blocks", what, st.Scanned)
				}
			}
		}
	}
}
