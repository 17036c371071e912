package retrieve

import "sync"

// Blocks of the query's language. An index of several languages (a
// monorepo of Java and Python, say) ranks a query among the entries of
// its own language only, but its postings and its blocks interleave the
// languages: the Jaccard scan would score every block of the others
// whose bound passes, to throw each of its entries away at the language
// check. The entries of one file are consecutive ids and a file has one
// language, so the blocks holding an entry of a language are a bit set
// derived from the file table on first use (not stored); the scan
// leaves out every other block. A block of two languages is scanned, its
// entries of the other language dropped as before, so the ranking is
// exactly the one without the bit set.

// langBlocks holds the per-language bit sets of an Index, derived for
// every language at once on first use (an index has a few languages, a
// set is a bit per block), so that a query only reads the map.
type langBlocks struct {
	once sync.Once
	set  map[string][]uint64 // nil value: every block holds the language
	none []uint64            // the set of a language without entries
}

// languageBlocks returns the bit set of the blocks holding an entry of
// language, or nil when the scan need not consult one: no language
// (every entry ranks), or every block holds an entry of it.
func (ix *Index) languageBlocks(language string) []uint64 {
	lb := ix.langs
	if language == "" || len(ix.files) == 0 || lb == nil {
		return nil // lb nil: an Index made without a constructor (tests), scan all
	}
	lb.once.Do(func() { lb.derive(ix) })
	if s, ok := lb.set[language]; ok {
		return s
	}
	return lb.none
}

// derive sets the bit set of every language of ix's files.
func (lb *langBlocks) derive(ix *Index) {
	n := ix.Len()
	nb := (n + blockSize - 1) / blockSize
	words := (nb + 63) / 64
	lb.set = make(map[string][]uint64)
	marked := make(map[string]int)
	for i := range ix.files {
		f := &ix.files[i]
		bits := lb.set[f.language]
		if bits == nil {
			bits = make([]uint64, words)
			lb.set[f.language] = bits
		}
		end := uint32(n)
		if i+1 < len(ix.files) {
			end = ix.files[i+1].entryBase
		}
		if end <= f.entryBase {
			continue
		}
		for b := f.entryBase / blockSize; b <= (end-1)/blockSize; b++ {
			if bits[b/64]>>(b%64)&1 == 0 {
				bits[b/64] |= 1 << (b % 64)
				marked[f.language]++
			}
		}
	}
	for language := range lb.set {
		if marked[language] == nb {
			lb.set[language] = nil
		}
	}
	if nb > 0 {
		lb.none = make([]uint64, words)
	}
}

// inBlocks reports whether entry e's block is in the bit set lb (nil:
// every block).
func inBlocks(lb []uint64, e uint32) bool {
	b := e / blockSize
	return lb == nil || lb[b/64]>>(b%64)&1 != 0
}
