package retrieve

import (
	"cmp"
	"slices"
	"strings"
	"unsafe"
)

// strTable is a table of strings by id in flat arrays, so that an index
// mapped from a snapshot file uses it as is: the bytes of string i are
// bytes[off[i]:off[i+1]], and sorted lists the ids in byte order for
// lookups by binary search (nil when the table is not searched).
type strTable struct {
	off    []uint32
	bytes  []byte
	sorted []uint32
}

// newStrTable builds the table of words (by id); with search, it can be
// searched.
func newStrTable(words []string, search bool) strTable {
	n := 0
	for _, w := range words {
		n += len(w)
	}
	t := strTable{off: make([]uint32, 0, len(words)+1), bytes: make([]byte, 0, n)}
	t.off = append(t.off, 0)
	for _, w := range words {
		t.bytes = append(t.bytes, w...)
		t.off = append(t.off, uint32(len(t.bytes)))
	}
	if search {
		t.sorted = make([]uint32, len(words))
		for i := range t.sorted {
			t.sorted[i] = uint32(i)
		}
		slices.SortFunc(t.sorted, func(a, b uint32) int { return cmp.Compare(words[a], words[b]) })
	}
	return t
}

// len returns the number of strings.
func (t *strTable) len() int { return max(len(t.off)-1, 0) }

// view returns string i without copying: it must not outlive the call
// that reads it (the bytes may be a mapping of a file).
func (t *strTable) view(i uint32) string {
	b := t.bytes[t.off[i]:t.off[i+1]]
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// str returns a copy of string i.
func (t *strTable) str(i uint32) string { return strings.Clone(t.view(i)) }

// lookup returns the id of w.
func (t *strTable) lookup(w string) (uint32, bool) {
	lo, hi := 0, len(t.sorted)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.view(t.sorted[m]) < w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t.sorted) && t.view(t.sorted[lo]) == w {
		return t.sorted[lo], true
	}
	return 0, false
}

func (t *strTable) size() int64 { return int64(4*(len(t.off)+len(t.sorted)) + len(t.bytes)) }
