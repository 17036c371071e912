package mapfile

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unsafe"
)

// Strings is a table of strings by id in flat arrays, so that a mapped
// file holds it as is: the bytes of string i are Bytes[Off[i]:Off[i+1]],
// and Sorted, when present, lists the ids in byte order for lookups by
// binary search.
type Strings struct {
	Off    []uint32
	Bytes  []byte
	Sorted []uint32
}

// NewStrings builds the table of words (by id); with search, it can be
// searched (Lookup).
func NewStrings(words []string, search bool) Strings {
	n := 0
	for _, w := range words {
		n += len(w)
	}
	t := Strings{Off: make([]uint32, 0, len(words)+1), Bytes: make([]byte, 0, n)}
	t.Off = append(t.Off, 0)
	for _, w := range words {
		t.Bytes = append(t.Bytes, w...)
		t.Off = append(t.Off, uint32(len(t.Bytes)))
	}
	if search {
		t.Sorted = make([]uint32, len(words))
		for i := range t.Sorted {
			t.Sorted[i] = uint32(i)
		}
		slices.SortFunc(t.Sorted, func(a, b uint32) int { return cmp.Compare(words[a], words[b]) })
	}
	return t
}

// Len returns the number of strings.
func (t *Strings) Len() int { return max(len(t.Off)-1, 0) }

// View returns string i without copying: it must not outlive the call
// that reads it when the table is a mapping of a file.
func (t *Strings) View(i uint32) string {
	b := t.Bytes[t.Off[i]:t.Off[i+1]]
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// Str returns a copy of string i.
func (t *Strings) Str(i uint32) string { return strings.Clone(t.View(i)) }

// Lookup returns the id of w (the table must be searchable).
func (t *Strings) Lookup(w string) (uint32, bool) {
	lo, hi := 0, len(t.Sorted)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.View(t.Sorted[m]) < w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t.Sorted) && t.View(t.Sorted[lo]) == w {
		return t.Sorted[lo], true
	}
	return 0, false
}

// Size returns the bytes the table holds.
func (t *Strings) Size() int64 { return int64(4*(len(t.Off)+len(t.Sorted)) + len(t.Bytes)) }

// PutStrings writes t as the sections name.off, name.bytes and, when it
// is searchable, name.sorted.
func PutStrings(w *Writer, name string, t Strings) error {
	Put(w, name+".off", t.Off)
	w.Section(name+".bytes", t.Bytes)
	if t.Sorted != nil {
		Put(w, name+".sorted", t.Sorted)
	}
	return w.err
}

// GetStrings returns the table of n strings PutStrings wrote as name,
// searchable when search is set.
func GetStrings(m *File, name string, n int, search bool) (Strings, error) {
	var t Strings
	var err error
	if t.Bytes, err = m.Section(name + ".bytes"); err != nil {
		return t, err
	}
	if t.Off, err = Get[uint32](m, name+".off"); err != nil {
		return t, err
	}
	if len(t.Off) != n+1 || t.Off[0] != 0 || int(t.Off[n]) != len(t.Bytes) {
		return t, fmt.Errorf("%s: %w: string table %s: %d offsets for %d strings", m.path, ErrFormat, name, len(t.Off), n)
	}
	if search {
		if t.Sorted, err = Get[uint32](m, name+".sorted"); err != nil {
			return t, err
		}
		if len(t.Sorted) != n {
			return t, fmt.Errorf("%s: %w: string table %s: %d sorted ids for %d strings", m.path, ErrFormat, name, len(t.Sorted), n)
		}
	}
	if !t.valid() {
		return t, fmt.Errorf("%s: %w: string table %s does not hold together", m.path, ErrFormat, name)
	}
	return t, nil
}

// valid reports whether the offsets ascend and the sorted ids are ids, so
// that no lookup can go out of range.
func (t *Strings) valid() bool {
	for i := 1; i < len(t.Off); i++ {
		if t.Off[i] < t.Off[i-1] {
			return false
		}
	}
	n := uint32(t.Len())
	for _, id := range t.Sorted {
		if id >= n {
			return false
		}
	}
	return true
}

// Search returns the id of w in a table whose strings are in byte
// order by id.
func (t *Strings) Search(w string) (uint32, bool) {
	n := t.Len()
	lo, hi := 0, n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.View(uint32(m)) < w {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < n && t.View(uint32(lo)) == w {
		return uint32(lo), true
	}
	return 0, false
}
