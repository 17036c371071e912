package retrieve

import (
	"bytes"
	"encoding/binary"
	"hash/maphash"
	"slices"
)

// Entries that share their key. Two entries of the same language whose
// keys hold the same tokens with the same term frequencies score the same
// against every query, in Jaccard (the same sets) and in BM25 (the same
// tfs, so the same length). Code bases repeat themselves: on the JDK's
// index a quarter of the entries repeat an earlier entry's key, and on a
// corpus holding two copies of a tree (vendored code, a release beside
// another) more than half do. So the builder keeps only the first entry
// of each key (its representative) in the structures the coarse rankers
// walk and scan: the postings, the masks of both kinds, BM25's tf columns
// and so the block bounds. A later entry with that key (a copy) keeps its
// key length, its BM25 length and its share of the document frequencies,
// so that unions and idfs stay what they were, and is linked from the
// representative by a chain in entry order (Index.dup). A ranking that
// offers an entry to its heap offers the chain after it, each copy under
// its own checks (the files a snapshot leaves out, the leak rule; the
// language is the representative's), with the representative's score,
// and stops at the first copy the heap's worst rules out: the copies come
// in id order with one score, so none after it can enter either. A copy
// is never met otherwise: it holds no posting and no mask bit, so no walk
// counts it and no scan scores it. The lists are those of the index
// without the chains, ties included; the property tests build every index
// both ways (dedupKeys).
//
// The builder hashes each entry's key record (as keyStore holds it: the
// token set, then the tfs) with its language, and when an earlier entry
// had the hash, derives that entry's record again from its statements and
// compares the two, so that a collision of hashes only costs a copy
// missed.

// dupCopy flags, in Index.dup, an entry that is a copy; the low bits hold
// the next entry of the chain (0: none; no entry's next is entry 0).
const (
	dupCopy     = 1 << 31
	dupNextMask = dupCopy - 1
)

// dedupKeys says whether builders chain the entries that share their key;
// the tests turn it off to build an index as before the chains.
var dedupKeys = true

// dupFinder finds, as Builder.Add adds the entries, those whose key an
// earlier one holds.
type dupFinder struct {
	seed   maphash.Seed
	last   map[uint64]uint32 // hash -> the last entry of its chain
	next   []uint32          // per entry, as Index.dup
	copies int
	// Scratch of recordOf.
	v    entryView
	toks []uint32
	tfs  []uint32
	rec  []byte
}

// add records entry e of a file of language lang, whose key record is
// rec and key length keyLen, chaining it to the earlier entries of that
// key. Entries of an empty key are
// left alone: they share nothing with any query.
func (d *dupFinder) add(ix *Index, e uint32, lang string, rec []byte, keyLen uint32) {
	d.next = append(d.next, 0)
	if !dedupKeys || keyLen == 0 || e >= dupCopy {
		return
	}
	if d.last == nil {
		d.seed = maphash.MakeSeed()
		d.last = map[uint64]uint32{}
	}
	var h maphash.Hash
	h.SetSeed(d.seed)
	h.WriteString(lang)
	h.WriteByte(0)
	h.Write(rec)
	sum := h.Sum64()
	tail, ok := d.last[sum]
	if !ok {
		d.last[sum] = e
		return
	}
	// Every entry of a chain has the same record: the last one's is
	// compared.
	if ix.keyLen[tail] != keyLen || ix.files[ix.fileOf(tail)].language != lang || !bytes.Equal(d.recordOf(ix, tail), rec) {
		return // a collision: e is left out of the chains
	}
	d.next[tail] |= e
	d.next[e] = dupCopy
	d.last[sum] = e
	d.copies++
}

// recordOf derives entry r's key record from its statements, as Add
// writes it (the sorted token set, then each token's tf: the number of
// the slice's statements, the target left out, that hold it).
func (d *dupFinder) recordOf(ix *Index, r uint32) []byte {
	ix.entry(r, &d.v)
	toks := d.toks[:0]
	for _, n := range d.v.nodes {
		if n != d.v.target {
			toks = ix.appendStmtTokens(toks, n)
		}
	}
	slices.Sort(toks)
	tfs := d.tfs[:0]
	set := toks[:0]
	for i, t := range toks {
		if i > 0 && t == toks[i-1] {
			tfs[len(tfs)-1]++
			continue
		}
		set = append(set, t)
		tfs = append(tfs, 1)
	}
	rec := appendSet(d.rec[:0], set)
	for _, tf := range tfs {
		rec = binary.AppendUvarint(rec, uint64(tf))
	}
	d.toks, d.tfs, d.rec = toks, tfs, rec
	return rec
}

// finish returns the chains for the index, nil when there is no copy.
func (d *dupFinder) finish() []uint32 {
	next := d.next
	if d.copies == 0 {
		next = nil
	}
	*d = dupFinder{}
	return next
}

// isCopy reports whether entry e repeats an earlier entry's key.
func (ix *Index) isCopy(e uint32) bool { return ix.dup != nil && ix.dup[e]&dupCopy != 0 }

// nextCopy returns the entry after e in e's chain, 0 for none.
func (ix *Index) nextCopy(e uint32) uint32 {
	if ix.dup == nil {
		return 0
	}
	d := ix.dup[e] & dupNextMask
	if d != 0 && (d <= e || int(d) >= len(ix.dup) || ix.dup[d]&dupCopy == 0) {
		panic(damaged("chain of copies out of order"))
	}
	return d
}
