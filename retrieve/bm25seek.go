package retrieve

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/graphcoder/graphcoder/internal/mapfile"
)

// Range bounds and seek points for BM25's walk of long lists.
//
// A long query (hundreds of tokens: a message bundle, a table of
// constants) spends most of its BM25 ranking walking the postings of its
// rarer tokens, every one of them, though the floor and the heap rule out
// most of the entries they touch. So each list of at least bm25SeekMin
// bytes of postings gets, when the index is built, a table of one record
// per range of 64 entries (ids 64r..64r+63, a word of a region's bit
// sets) it holds postings in: the range, the number of its postings
// there, the last one's entry, their largest tf and smallest key length
// dl, and their length in bytes. The record bounds the list's term of
// any entry of the range whatever the live corpus statistics (the
// saturation tf/(tf+K(dl)) grows with tf and falls with dl), and says
// where the list's walk resumes after the range without decoding it.
//
// A ranking whose long lists hold bm25SkipBytes or more walks each region
// in two steps (bm25Scratch.run): the short lists first, as before; then,
// once the heap is full or bound by the floor, a range's bound is the
// largest over its blocks of the short lists' sums (bmax) plus the block
// bound of the mask tokens (blocks.go), plus the records' bounds of the
// long lists, each rounded up by a unit (the rounding of a term) and a
// relative margin. A range whose bound cannot beat the heap's worst (with
// the tie rule of bm25Scan.canBeat, from its first entry) holds no entry
// of the n best: the long lists seek past it, its entries are not ranked,
// and the pass over the untouched entries leaves them out. The entries
// of the other ranges get every term as before, so the lists are the
// same (TestBM25RegionsEqualsBruteForce, with tables on small lists).
//
// Stored in a mapped index (mapped.go, "ix.bm25.seek*"), the tables are
// checked against their sections' checksums on BM25's first use; a file
// without them, or whose tables fail the check, is ranked without them.
// A walk also checks each record against the postings it decodes, and
// each list's end, and fails with ErrDamaged when they are out of step;
// a damaged range or bound that the checksums missed would go unseen
// (they decide what is not decoded), so the checksums are the tables'
// guard.

// bm25SeekMin is the length in bytes of the postings of a list from which
// the index gives it a table; a variable so that the property tests give
// short lists one. Only the build reads it: a ranking takes the table of
// any list the file has one for (bm25Seek.table), so its value is no part
// of the layout, and an index written with an older value (2 KiB) ranks
// exactly as before, its shorter lists walked whole. From 512 bytes (2 KiB
// before) the JDK index's tables grow by 5.2 MB (1.4 % of its snapshot,
// the standard library's 2.0 %), BM25's CPU median on it falls by 2-7 %
// and the engine's hybrid request median by 3-15 % against the drift of
// coarse2fine's in three loaded sittings (bench/RETRIEVAL.md); 1 KiB and
// 256 bytes were measured too (BenchmarkBuiltBM25SeekMin).
var bm25SeekMin = 1 << 9

// bm25SkipBytes is the length in bytes of a query's tabled postings from
// which its ranking bounds ranges; a variable so that the property tests
// bound every ranking's.
var bm25SkipBytes = 1 << 17

// bm25SkippedRanges counts the ranges the rankings left out (tests).
var bm25SkippedRanges atomic.Int64

// bm25Seek holds the tables of the long lists of an index: tok the
// tokens given one, ascending, off (len(tok)+1) the indexes of their
// first records in rec, three words a record: the range r, the offset of
// its first posting in the token's postings, and count-1 | (last entry -
// 64r)<<8 | tf class<<16 | dl class<<24 (seekTF, seekDL).
type bm25Seek struct {
	tok []uint32
	off []uint32
	rec []uint32
	// check verifies a mapped file's tables once (nil: built, no check);
	// ok is its outcome.
	once  sync.Once
	check func() bool
	ok    bool
}

// table returns the records of token t, or nil.
func (sk *bm25Seek) table(t uint32) []uint32 {
	if sk == nil {
		return nil
	}
	sk.once.Do(func() { sk.ok = sk.check == nil || sk.check() })
	if !sk.ok {
		return nil
	}
	i, ok := slices.BinarySearch(sk.tok, t)
	if !ok || sk.off[i] == sk.off[i+1] {
		return nil
	}
	return sk.rec[3*sk.off[i] : 3*sk.off[i+1]]
}

func (sk *bm25Seek) bytes() int64 {
	if sk == nil {
		return 0
	}
	return int64(4 * (len(sk.tok) + len(sk.off) + len(sk.rec)))
}

// seekTF is the tf class of a record, its largest tf up to 15 (15: 15 or
// more, saturation at most 1).
func seekTF(tf uint32) uint32 { return min(tf, 15) }

// seekDLMin[c] is the smallest dl of dl class c: c itself below 64, then
// 8 classes per doubling; seekDL is the class of a dl, the largest whose
// smallest dl is at most it.
var seekDLMin = func() (m [256]uint32) {
	for c := range m {
		if c < 64 {
			m[c] = uint32(c)
			continue
		}
		m[c] = uint32(math.Ceil(64 * math.Exp2(float64(c-64)/8)))
	}
	return m
}()

func seekDL(dl uint32) uint32 {
	c, _ := slices.BinarySearch(seekDLMin[:], dl+1)
	return uint32(c - 1)
}

// buildBM25Seek returns the tables of ix's long lists.
func (ix *Index) buildBM25Seek() *bm25Seek {
	sk := &bm25Seek{}
	for t := range uint32(len(ix.maskBit)) {
		if ix.maskBit[t] >= 0 || ix.postLen(t) < bm25SeekMin {
			continue
		}
		sk.tok = append(sk.tok, t)
		sk.off = append(sk.off, uint32(len(sk.rec)/3))
		sk.rec = ix.appendSeek(sk.rec, t)
	}
	sk.off = append(sk.off, uint32(len(sk.rec)/3))
	return sk
}

// appendSeek appends the records of token t to rec.
func (ix *Index) appendSeek(rec []uint32, t uint32) []uint32 {
	bm := &ix.bm
	b := ix.post[ix.postOff[t]:ix.postOff[t+1]]
	i, j := bm.postAt[t], bm.postManyAt[t]
	var e uint32
	off := 0
	for off < len(b) {
		start, count := off, uint32(0)
		var r, tfMax uint32
		dlMin := uint32(math.MaxUint32)
		for off < len(b) {
			v, k := uvarint(b[off:])
			ne := e + uint32(v)
			if count > 0 && ne>>6 != r {
				break
			}
			r = ne >> 6
			e, off = ne, off+k
			tf := uint32(1)
			if bm.postTF.isMany(i) {
				tf = bm.postTF.tfMany(i, j)
				j++
			}
			i++
			count++
			tfMax, dlMin = max(tfMax, tf), min(dlMin, bm.dlOf(e))
		}
		rec = append(rec, r, uint32(start), count-1|(e&63)<<8|seekTF(tfMax)<<16|seekDL(dlMin)<<24)
	}
	return rec
}

// seekSat returns, per tf class and dl class (16 x 256), a bound of the
// saturation tf/(tf+K(dl)) of their postings under normalisation kA + kB
// dl, into dst.
func seekSat(dst []float64, kA, kB float64) []float64 {
	dst = slices.Grow(dst[:0], 16*256)[:16*256]
	for c := range 16 {
		for d := range 256 {
			if c == 15 {
				dst[c*256+d] = 1
				continue
			}
			f := float64(c)
			dst[c*256+d] = f / (f + kA + kB*float64(seekDLMin[d]))
		}
	}
	return dst
}

// deadRanges sets sc.deadR to the ranges of the region that hold no entry
// of the n best (see the top of this file), once the heap is full or
// bound, from the short lists' sums walked and the records of the long
// lists, lists[ns:]; it reports whether any is.
func (sc *bm25Scratch) deadRanges(lists []bm25Weight, ns int) bool {
	s := &sc.scan
	if !s.full {
		return false
	}
	bq, bb := s.bq, s.bb
	nr := int(sc.hi-sc.lo+63) / 64
	ub := sc.rangeUB[:nr]
	clear(ub)
	has := sc.deadR[:(nr+63)/64] // first: the ranges a long list holds postings in
	clear(has)
	sat := sc.seekSat
	up := s.unitUp
	for li := ns; li < len(lists); li++ {
		c := &sc.cur[li]
		w := lists[li].w * up
		tab := c.tab
		for at := int(c.soff); at < len(tab); at += 3 {
			r := tab[at]
			if r<<6 >= sc.hi {
				break
			}
			i := r - sc.lo>>6
			p := tab[at+2]
			ub[i] += w*sat[p>>16&15<<8|p>>24] + 1
			has[i/64] |= 1 << (i % 64)
		}
	}
	b0 := int(sc.lo) / blockSize
	nb := len(bb.lmin)
	// A bound of the mask part of any entry (blockMaskUB's is at most
	// it): the weights of every query mask token, their largest sum in
	// any order of addition within the relative margin, at saturation 1.
	maskUB := bq.heaviest[len(bq.heaviest)-1]*(1+1e-9)*up + s.slack + 1
	any := false
	for w, hw := range has {
		dead := uint64(0)
		for ; hw != 0; hw &= hw - 1 {
			i := w*64 + bits.TrailingZeros64(hw)
			// Dead at once when the largest short lists' sum of its
			// blocks and the long lists' bound cannot reach the heap
			// with every query mask token at saturation 1.
			am := int64(0)
			for lb := i * 64 / blockSize; lb < (i+1)*64/blockSize; lb++ {
				am = max(am, sc.bmax[lb])
			}
			if !s.canBeat(float64(am)+ub[i]+maskUB, sc.lo+uint32(i*64)) {
				dead |= 1 << (i % 64)
				continue
			}
			// Dead when none of the range's blocks can reach the heap
			// with the short lists' largest sum, the long lists' bound
			// and the bound of its mask part (blockMaskUB).
			alive := false
			for lb := i * 64 / blockSize; lb < (i+1)*64/blockSize && !alive; lb++ {
				k := b0 + lb
				if k >= nb || !inBlocks(s.lb, uint32(k*blockSize)) {
					continue
				}
				pc, _ := bb.queryBits(k, bq.qmask, nil)
				_, _, alive = s.blockMaskUB(k, pc, float64(sc.bmax[lb])+ub[i])
			}
			if !alive {
				dead |= 1 << (i % 64)
			}
		}
		sc.deadR[w] = dead
		any = any || dead != 0
	}
	return any
}

// isDead reports whether range r (of the index) is dead in the region.
func (sc *bm25Scratch) isDead(r uint32) bool {
	if !sc.skip {
		return false
	}
	i := r - sc.lo>>6
	return sc.deadR[i/64]>>(i%64)&1 != 0
}

// dropDead clears what the short lists added to the dead ranges' entries,
// so that they are not ranked, and counts them.
func (sc *bm25Scratch) dropDead() {
	n := 0
	for w, d := range sc.deadR[:(int(sc.hi-sc.lo+63)/64+63)/64] {
		for ; d != 0; d &= d - 1 {
			i := w*64 + bits.TrailingZeros64(d)
			n++
			for x := sc.marked[i]; x != 0; x &= x - 1 {
				sc.acc[i*64+bits.TrailingZeros64(x)] = 0
			}
			sc.marked[i] = 0
			clear(sc.bmax[i*64/blockSize : (i+1)*64/blockSize])
		}
	}
	bm25SkippedRanges.Add(int64(n))
}

// markDead marks the dead ranges' entries seen, so that the pass over the
// untouched entries leaves them out.
func (sc *bm25Scratch) markDead() {
	for w, d := range sc.deadR[:(int(sc.hi-sc.lo+63)/64+63)/64] {
		for ; d != 0; d &= d - 1 {
			i := w*64 + bits.TrailingZeros64(d)
			sc.seen[int(sc.lo)/64+i] = math.MaxUint64
		}
	}
}

// walkSeek is walkList for a list with a table: range by range, seeking
// past the dead ones. A record that does not match the postings it
// covers is damage.
func (sc *bm25Scratch) walkSeek(li int, r bm25Weight, lo, hi uint32, acc []int64, marked []uint64, bmax []int64) {
	bm := &sc.scan.ix.bm
	c := &sc.cur[li]
	n := sc.scan.ix.postLen(r.t)
	off, e, i, j := c.off, c.e, c.i, c.j
	tab := c.tab
	at := int(c.soff)
	for ; at < len(tab); at += 3 {
		rg := tab[at]
		if rg<<6 >= hi {
			break
		}
		p := tab[at+2]
		count, last := p&63+1, rg<<6|p>>8&63
		end := uint32(n)
		if at+3 < len(tab) {
			end = tab[at+4]
		}
		if rg<<6 < lo || tab[at+1] != off || end > uint32(n) {
			panic(damaged("bm25 table out of step with its postings"))
		}
		if sc.isDead(rg) {
			j += bm.postTF.countMany(i, i+count)
			i += count
			e, off = last, end
			continue
		}
		i0 := i
		off, e, i, j = sc.walkPostings(r, off, e, i, j, lo, (rg+1)<<6, acc, marked, bmax, nil)
		if off != end || e != last || i-i0 != count {
			panic(damaged("bm25 table out of step with its postings"))
		}
	}
	if at == len(tab) && (off != uint32(n) || i != bm.postAt[r.t]+bm.postN[r.t]) {
		panic(damaged("bm25 table out of step with its postings"))
	}
	c.off, c.e, c.i, c.j = off, e, i, j
	c.soff = uint32(at)
}

// openBM25Seek takes the tables of ix from the sections of a mapped index
// (see mapped.go) after checking what the walk relies on: the tokens
// ascending, within the vocabulary and without a mask bit, the offsets
// ascending within the records. The records' checksums are checked on
// BM25's first use (bm25Seek.table).
func (ix *Index) openBM25Seek(m interface{ Verify(string) error }, get func(string, int) []byte, nVocab int) error {
	tok, err1 := mapfile.View[uint32](get("ix.bm25.seekTok", -1))
	off, err2 := mapfile.View[uint32](get("ix.bm25.seekOff", 4*(len(tok)+1)))
	rec, err3 := mapfile.View[uint32](get("ix.bm25.seek", -1))
	if err := errors.Join(err1, err2, err3); err != nil {
		return err
	}
	for i, t := range tok {
		if int(t) >= nVocab || i > 0 && t <= tok[i-1] || int(t) < len(ix.maskBit) && ix.maskBit[t] >= 0 {
			return fmt.Errorf("section ix.bm25.seekTok: token %d at %d out of order or range", t, i)
		}
	}
	if len(off) != len(tok)+1 || off[0] != 0 || 3*int(off[len(tok)]) != len(rec) {
		return errors.New("section ix.bm25.seekOff: offsets do not span their arena")
	}
	for i := 1; i < len(off); i++ {
		if off[i] < off[i-1] {
			return fmt.Errorf("section ix.bm25.seekOff: offset %d at %d below the one before", off[i], i)
		}
	}
	ix.bm.seek = &bm25Seek{tok: tok, off: off, rec: rec, check: func() bool {
		for _, name := range []string{"ix.bm25.seekTok", "ix.bm25.seekOff", "ix.bm25.seek"} {
			if m.Verify(name) != nil {
				return false
			}
		}
		return true
	}}
	return nil
}
