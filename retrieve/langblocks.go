package retrieve

import "sync"

// Blocks of the query's language. An index of several languages (a
// monorepo of Java and Python, say) ranks a query among the entries of
// its own language only, but its postings and its blocks interleave the
// languages: the Jaccard scan would score every block of the others
// whose bound passes, to throw each of its entries away at the language
// check. The entries of one file are consecutive ids and a file has one
// language, so the blocks holding an entry of a language are a bit set
// derived from the file table once per language (not stored); the scan
// leaves out every other block. A block of two languages is scanned, its
// entries of the other language dropped as before, so the ranking is
// exactly the one without the bit set.

// langBlocks holds the per-language bit sets of an Index.
type langBlocks struct {
	mu  sync.Mutex
	set map[string][]uint64 // nil value: every block holds the language
}

// languageBlocks returns the bit set of the blocks holding an entry of
// language, or nil when the scan need not consult one: no language
// (every entry ranks), or every block holds an entry of it.
func (ix *Index) languageBlocks(language string) []uint64 {
	if language == "" || len(ix.files) == 0 {
		return nil
	}
	lb := ix.langs
	if lb == nil {
		return nil // an Index made without a constructor (tests): scan all
	}
	lb.mu.Lock()
	defer lb.mu.Unlock()
	if s, ok := lb.set[language]; ok {
		return s
	}
	n := ix.Len()
	nb := (n + blockSize - 1) / blockSize
	bits := make([]uint64, (nb+63)/64)
	marked := 0
	for i := range ix.files {
		f := &ix.files[i]
		end := uint32(n)
		if i+1 < len(ix.files) {
			end = ix.files[i+1].entryBase
		}
		if f.language != language || end <= f.entryBase {
			continue
		}
		for b := f.entryBase / blockSize; b <= (end-1)/blockSize; b++ {
			if bits[b/64]>>(b%64)&1 == 0 {
				bits[b/64] |= 1 << (b % 64)
				marked++
			}
		}
	}
	if marked == nb {
		bits = nil
	}
	if lb.set == nil {
		lb.set = make(map[string][]uint64)
	}
	lb.set[language] = bits
	return bits
}

// inBlocks reports whether entry e's block is in the bit set lb (nil:
// every block).
func inBlocks(lb []uint64, e uint32) bool {
	b := e / blockSize
	return lb == nil || lb[b/64]>>(b%64)&1 != 0
}
