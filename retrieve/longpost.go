package retrieve

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/graphcoder/graphcoder/internal/mapfile"
)

// Postings of the long keys, for the Jaccard ranking of long queries.
//
// A query of hundreds of tokens (a slice over long statements) walks
// megabytes of postings that touch most of the index, while its top k are
// entries of long keys: an entry of key length L reaches at most L/|Q|,
// and the k-th similarity of such a query is 0.06-0.7, so on the 10M-line
// corpus the final top 50 of its heaviest queries hold only keys of 73 to
// 900 tokens, which the entries of the 1/16 of longest keys reach. The
// postings restricted to those entries are 5 to 27 times shorter than the
// whole lists for those queries. So the Jaccard ranking keeps, per token
// it walks, the postings of the entries of each band of long key lengths
// (bands [min[b], min[b+1]) and [min[last], inf), the lengths at least
// 1/16, 1/32 and 1/64 of the entries reach), and a query whose rarer
// postings are long first ranks the entries of key length at least
// min[c] alone, walking the bands from c up: the counts of those entries
// are then exact, and their top k is exact among them. Its k-th
// similarity i0/u0 is a lower bound of the final k-th; every entry
// shorter than lo = ceil(i0 |Q| / u0) falls strictly below it (L/|Q| <
// i0/u0), so when lo >= min[c] no shorter entry can enter the top k and
// the list is the ranking's, ties included. When lo < min[c], lo is still
// a lower bound of the final window: the bands from the largest min[c']
// <= lo down to c are walked as well and the entries of length at least
// min[c'] ranked again, which then holds (lo_final >= lo >= min[c']).
// When lo is below the shortest band, or fewer than k entries of the
// band are eligible, the counts are cleared and the ranking walks the
// whole lists as before. The band c tried first is the longest whose min
// is at most |Q|/longGuess: a guess of the k-th similarity, which costs
// the bands' walk (a fraction of the lists) when wrong.
//
// An index built in memory derives the bands from the postings on the
// first such query or when written (one walk of the postings of every
// token without a mask bit of either mask, about 0.5 s on the 10M-line
// corpus) and holds them in memory; a mapped index reads them from its
// file (mapped.go), and one whose file lacks them goes without.

// longShares are the shares of the entries the bands' lower lengths
// leave above them: min[b] is the smallest length that at most
// 1/longShares[b] of the entries reach.
var longShares = [...]int{8, 16, 32, 64}

// The guess of the final window's lower length from the seeds' (whose
// median ratio is 0.72 on the 10M-line corpus) is lo*longGuessNum/
// longGuessDen; variables so that the property tests take the bands on
// every query.
var longGuessNum, longGuessDen uint64 = 4, 3

// longBytes is the length of a query's rarer postings (bytes) from which
// the ranking tries the bands; a variable for the property tests.
var longBytes = 1 << 20

// longPostings are the bands of an Index, derived on first use or
// read from its snapshot file (mapped.go).
type longPostings struct {
	once sync.Once
	min  []uint32   // the bands' smallest key lengths, ascending
	all  []uint32   // per band, per token: its postings' offset in post (bands x (vocabulary+1))
	off  [][]uint32 // per band: its part of all
	post []byte     // the postings as uvarint deltas, the first of a list from 0
	size atomic.Int64

	// bits holds per band the bit set of the entries of key length at
	// least its min, derived on first use.
	bitsOnce sync.Once
	bits     [][]uint64
}

// longPost returns ix's bands, deriving them on first use.
func (ix *Index) longPost() *longPostings {
	lp := ix.long
	if lp == nil {
		lp = &longPostings{} // an Index made without a constructor (tests)
	}
	lp.once.Do(func() { lp.derive(ix) })
	return lp
}

// bandMins returns the bands' smallest key lengths of keys of lengths
// keyLen (see longShares), ascending, each reached by at least one key
// and above 1.
func bandMins(keyLen []uint32) []uint32 { return lengthMins(keyLen, longShares[:], 2) }

// derive splits the postings of every token the Jaccard walk reads (no
// bit of either mask) into the bands. The fields are set last, so that a
// damaged index panicking half way leaves no bands.
func (lp *longPostings) derive(ix *Index) {
	mins := bandMins(ix.keyLen)
	if len(mins) == 0 {
		return
	}
	x := ix.xmask()
	nv := len(ix.maskBit)
	all := make([]uint32, len(mins)*(nv+1))
	parts := make([][]byte, len(mins))
	last := make([]uint32, len(mins))
	for t := range nv {
		for b := range parts {
			all[b*(nv+1)+t] = uint32(len(parts[b]))
		}
		if ix.maskBit[t] >= 0 {
			continue
		}
		if _, ok := x.lookup(uint32(t)); ok {
			continue
		}
		clear(last)
		for e := range ix.postings(uint32(t)) {
			l := ix.keyLen[e]
			if l < mins[0] {
				continue
			}
			b := len(mins) - 1
			for l < mins[b] {
				b--
			}
			parts[b] = binary.AppendUvarint(parts[b], uint64(e-last[b]))
			last[b] = e
		}
	}
	var post []byte
	for b, p := range parts {
		base := uint32(len(post))
		band := all[b*(nv+1) : (b+1)*(nv+1)]
		band[nv] = uint32(len(p))
		for t := range band {
			band[t] += base
		}
		post = append(post, p...)
	}
	lp.set(mins, all, post)
}

// set sets the bands' fields and the memory they hold.
func (lp *longPostings) set(mins, all []uint32, post []byte) {
	nv1 := len(all) / len(mins)
	lp.off = make([][]uint32, len(mins))
	for b := range lp.off {
		lp.off[b] = all[b*nv1 : (b+1)*nv1]
	}
	lp.min, lp.all, lp.post = mins, all, post
	lp.size.Store(int64(4*(len(mins)+len(all)) + len(post)))
}

// openLong takes the bands of ix from the sections of a mapped index
// (see mapped.go), get returning a section checked against a length in
// bytes (-1: any), after checking what a search relies on: the lengths
// ascending, the offsets ascending within the arena. The bands leave out
// the tokens of the second mask, so they are refused without one.
func (ix *Index) openLong(get func(string, int) []byte, nVocab int, xmask bool) error {
	mins, err1 := mapfile.View[uint32](get("ix.long.min", -1))
	all, err2 := mapfile.View[uint32](get("ix.long.off", 4*len(mins)*(nVocab+1)))
	post := get("ix.long.post", -1)
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	if !xmask {
		return errors.New("section ix.long.min: bands of long keys without a second mask")
	}
	if len(mins) == 0 || len(mins) > 16 {
		return fmt.Errorf("section ix.long.min: %d bands", len(mins))
	}
	for b, m := range mins {
		if m < 2 || b > 0 && m <= mins[b-1] {
			return fmt.Errorf("section ix.long.min: length %d at %d out of order", m, b)
		}
	}
	if len(all) == 0 || all[0] != 0 || all[len(all)-1] != uint32(len(post)) {
		return errors.New("section ix.long.off: offsets do not span their arena")
	}
	for i := 1; i < len(all); i++ {
		if all[i] < all[i-1] {
			return fmt.Errorf("section ix.long.off: offset %d at %d below the one before", all[i], i)
		}
	}
	lp := ix.long
	lp.once.Do(func() { lp.set(mins, all, post) })
	return nil
}

// bitSets returns the bands' bit sets of entries, deriving them on first
// use.
func (lp *longPostings) bitSets(ix *Index) [][]uint64 {
	lp.bitsOnce.Do(func() {
		lp.bits = lengthSets(ix.keyLen, lp.min)
		lp.size.Add(int64(8 * len(lp.bits) * (ix.Len() + 63) / 64))
	})
	return lp.bits
}

// bytes is the memory the bands hold once derived.
func (lp *longPostings) bytes() int64 { return lp.size.Load() }

// walkBandRange adds the postings of the bands lo to hi of the tokens ord
// to the counts, on two goroutines when they are long and a core is free
// (splitwalk.go).
func (ix *Index) walkBandRange(lp *longPostings, lo, hi int, ord []uint32, sc *scratch) {
	total := 0
	for b := lo; b <= hi; b++ {
		off := lp.off[b]
		for _, t := range ord {
			total += int(off[t+1] - off[t])
		}
	}
	split := ix.splits(total)
	lists := sc.lists[:0]
	for b := lo; b <= hi; b++ {
		off := lp.off[b]
		for _, t := range ord {
			if l := lp.post[off[t]:off[t+1]]; !split {
				countList(l, 0, sc.counts, sc.bmax, nil)
			} else if len(l) > 0 {
				lists = append(lists, l)
			}
		}
	}
	if split {
		sc.lists = lists
		ix.walkSplit(lists, sc, nil)
	}
}

// bandRuns count the rankings that took the bands, those whose first
// scan did not hold and, of these, those that went on with more bands
// (the rest went on with the lists), for the tests.
var bandRuns struct{ took, again, down atomic.Int64 }

// walkBands walks the bands of the lists rest (the query's rarer lists
// left after the shortest eighth, rest bytes of postings) instead of the
// lists themselves when the seeds' window starts at lo (seedWindow) and
// its guess names a band: the longest whose smallest length is at most
// lo*longGuessNum/longGuessDen. It reports whether it did; sc then holds
// the band (checkBand) and the window starts at the band's length or lo.
func (ix *Index) walkBands(rest []uint32, sc *scratch, lo uint32, restBytes int) bool {
	if restBytes < longBytes || len(rest) == 0 {
		return false
	}
	lp := ix.longPost()
	c := len(lp.min) - 1 // (-1: no bands)
	for c >= 0 && uint64(lp.min[c])*longGuessDen > uint64(lo)*longGuessNum {
		c--
	}
	if c < 0 {
		return false
	}
	bandRuns.took.Add(1)
	ix.walkBandRange(lp, c, len(lp.min)-1, rest, sc)
	sc.band, sc.rest, sc.restBytes, sc.seedLo = c, rest, restBytes, lo
	sc.lo = max(lo, lp.min[c])
	return true
}

// checkBand completes a Jaccard ranking whose walk took the bands from
// sc.band (walkBands): hits, the top k of the window the bands count
// exactly, are the ranking's when the band's length is at most the
// seeds' lo or the k-th of hits bounds every shorter entry out (see
// above); otherwise the walk goes on with the bands or the lists the new
// bound still needs and the scan runs again.
func (ix *Index) checkBand(q *Query, sc *scratch, k int, dead []bool, lim *scanLimit, st *RankStats, hits []Hit) []Hit {
	c := sc.band
	sc.band = -1
	lp := ix.longPost()
	if c < 0 || lim.stop() || lp.min[c] <= sc.seedLo {
		return hits
	}
	n := uint64(len(q.Key))
	lo := uint32(0)
	if sc.full {
		i0, u0 := uint64(sc.kth.inter), uint64(sc.kth.union)
		lo = uint32((i0*n + u0 - 1) / u0)
	}
	if lo >= lp.min[c] {
		return hits
	}
	bandRuns.again.Add(1)
	for _, e := range sc.cand {
		sc.counts[e] &^= seededFlag // the seeds of the scan just run
	}
	lo = max(lo, sc.seedLo)
	c2 := c - 1
	for c2 >= 0 && lp.min[c2] > lo {
		c2--
	}
	if c2 >= 0 {
		bandRuns.down.Add(1)
		ix.walkBandRange(lp, c2, c-1, sc.rest, sc)
	} else {
		// No band reaches down to lo: the lists, but for the entries
		// the bands counted, and only those the window may hold.
		nw := (ix.Len() + 63) / 64
		if cap(sc.gate) < nw {
			sc.gate = make([]uint64, nw)
		}
		gate, long := sc.gate[:nw], lp.bitSets(ix)[c]
		if g := ix.blocks().gate(lo); g != nil {
			for w := range gate {
				gate[w] = g[w] &^ long[w]
			}
		} else {
			for w := range gate {
				gate[w] = ^long[w]
			}
		}
		ix.walkLists(sc.rest, sc, gate, sc.restBytes)
	}
	sc.lo = lo
	sc.cand = sc.cand[:0]
	return ix.topK(q, sc, k, dead, lim, st)
}
