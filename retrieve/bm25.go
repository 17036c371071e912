package retrieve

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sync"
	"time"
)

// BM25 over the key token multisets (spec section 9). An entry's key is
// the multiset union of its slice statements' token sets, the target left
// out: a token's term frequency tf is the number of those statements that
// hold it, and the entry's length dl is the sum of its tfs. For a query
// key set Q,
//
//	score(e) = sum over t in Q and key(e) of idf(t) (k1+1) tf / (tf + k1 (1 - b + b dl/avgdl))
//	idf(t)   = ln(1 + (N - n(t) + 0.5) / (n(t) + 0.5))
//
// with N the live entries, n(t) those whose key holds t, avgdl their mean
// length. Each term is rounded to a multiple of 2^-32 and the terms are
// summed as integers, so a score does not depend on the order its terms
// are added in, and ties are exact.
//
// The index keeps, beside the Jaccard structures, what the formula needs
// and the keys do not say: each entry's dl, each token's n, and the tf of
// every (entry, token) pair, aligned with the postings for the rarer
// tokens and with the mask bits for the frequent ones (tfColumn: a bit per
// pair for tf > 1 and four bits for those only), and each entry's largest
// mask-token tf. All of it is derived when the index is built from the
// stored statements; a Snapshot turns the base's and the delta's counts
// into the live ones (liveDF, liveDL).
//
// The search is exact. It walks and ranks the entries a region of 64Ki
// at a time (bm25Region), so that its per-entry state is a region's,
// half a megabyte that stays in a core's cache, whatever the index size;
// the heap of the n best carries over from region to region, and a floor
// taken before the first (bm25floor.go) bounds it from the start. In a
// region, the rare tokens' postings (short, and holding most of the
// score: their idf is high) are walked from where the region before left
// them into a per-entry integer accumulator, keeping per block of 16
// entries its largest value (bmax).
// The frequent tokens, which most entries hold, are scored only for
// entries whose upper bound can still reach the current n-th score: the
// accumulated part plus the weights of the frequent query tokens the
// entry holds (summed from per-query tables, a byte of the mask at a
// time), times the largest tf saturation its largest tf allows. Until the
// heap is full (or bound by the floor), the n entries of a region with
// the largest accumulated part (found among the n blocks of largest bmax)
// are scored first, so that the bound is tight from the start. Before the bound, an entry must hold one of the query's frequent
// tokens heavy enough to make up what its accumulated part lacks
// (bm25Query.levels) and, when untouched by the rare postings, enough of
// them (bm25Query.heaviest); the untouched entries are visited at all only
// when the frequent part of the query alone can reach the n-th score.
// Both passes bound a block first (blocks.go): its bmax plus the weights
// of the query tokens the union of its masks holds, times the largest tf
// saturation its entries' largest mask tf and smallest length allow; a
// block that cannot reach the heap is skipped whole, which skips most of
// them.
//
// A query whose long lists hold many postings walks them by their
// tables of ranges of 64 entries (bm25seek.go): once the heap is full,
// the ranges whose bound cannot reach it are neither walked nor ranked.
//
// Mode hybrid ranks by Jaccard and BM25 at once: one walk over the rare
// postings adds BM25's terms and counts the Jaccard intersections
// (bm25Scratch.run), and the Jaccard scan then runs beside BM25's rank
// of the last region (Snapshot.rankJaccardBM25). When a core is free, a
// ranking that walks on its own has a helper walk half of each region's
// lists (bm25split.go).

// BM25Params are the parameters of Okapi BM25. K1 and B both zero stand
// for DefaultBM25's (WithDefaults), so that a caller may set the cap
// alone.
type BM25Params struct {
	K1 float64 // term frequency saturation, > 0
	B  float64 // length normalisation, in [0, 1]
	// Terms, when positive, caps the query to its Terms terms of largest
	// weight (bm25terms.go): BM25 then scores the entries for those terms
	// only. 0 scores every term of the query.
	Terms int
}

// DefaultBM25 is k1 = 1.2, b = 0.75, every query term.
var DefaultBM25 = BM25Params{K1: 1.2, B: 0.75}

// WithDefaults returns p with DefaultBM25's k1 and b where both are zero
// (k1 = 0 is no BM25), the cap kept.
func (p BM25Params) WithDefaults() BM25Params {
	if p.K1 == 0 && p.B == 0 {
		p.K1, p.B = DefaultBM25.K1, DefaultBM25.B
	}
	return p
}

// Validate reports parameters BM25 is not defined for.
func (p BM25Params) Validate() error {
	if !(p.K1 > 0) || math.IsInf(p.K1, 0) || !(p.B >= 0 && p.B <= 1) {
		return fmt.Errorf("bm25: k1 = %v and b = %v, want k1 > 0 and 0 <= b <= 1", p.K1, p.B)
	}
	if p.Terms < 0 {
		return fmt.Errorf("bm25: %d query terms, want 0 (all) or more", p.Terms)
	}
	return nil
}

// bm25Unit is the fixed-point unit of BM25 scores.
const bm25Unit = 1 << 32

// bm25IDF is the idf of a token held by n of N entries.
func bm25IDF(N, n int) float64 {
	return math.Log(1 + (float64(N)-float64(n)+0.5)/(float64(n)+0.5))
}

// norm returns kA and kB of the length normalisation K(dl) = k1 (1 - b +
// b dl/avgdl) = kA + kB dl over N entries of total length totalDL.
func (p BM25Params) norm(N int, totalDL uint64) (kA, kB float64) {
	kA = p.K1 * (1 - p.B)
	if N > 0 && totalDL > 0 {
		kB = p.K1 * p.B / (float64(totalDL) / float64(N))
	}
	return kA, kB
}

// bm25Term is the contribution, in units, of a token of weight w (its idf
// times k1+1) occurring tf times in an entry of normalisation k.
func bm25Term(w float64, tf uint32, k float64) int64 {
	return roundTerm(bm25Raw(w, tf, k))
}

// bm25Raw is a term before its rounding to units.
func bm25Raw(w float64, tf uint32, k float64) float64 {
	f := float64(tf)
	return w * f / (f + k) * bm25Unit
}

// roundTerm is int64(math.Round(x)), computed as int64(x + 1/2) for 1/2
// <= x < 2^52, where that is the same: x + 1/2 is exact there or, when it
// reaches the next power of two, rounds to a multiple of the next ulp (at
// most 1/2) that does not pass the next integer, so its truncation is
// floor(x + 1/2). Below 1/2, x + 1/2 may round up to 1.
func roundTerm(x float64) int64 {
	if x >= 0.5 && x < 1<<52 {
		return int64(x + 0.5)
	}
	return int64(math.Round(x))
}

// nibbles is an array of 4-bit values, two to a byte.
type nibbles []byte

func (n nibbles) get(i uint32) uint8 { return n[i>>1] >> (i & 1 * 4) & 15 }

func (n nibbles) set(i uint32, v uint8) { n[i>>1] |= v << (i & 1 * 4) }

// tfColumn stores the term frequencies of a sequence of (entry, token)
// pairs compactly: most are 1 (three in four postings, half of the mask
// tokens), so a pair has one bit, set when its tf is more than 1, and only
// those pairs, in order, a 4-bit tf-2 (15: the tf, 17 or more, is in big,
// by pair index).
type tfColumn struct {
	many []uint64
	nib  nibbles
	big  map[uint32]uint32
}

func newTFColumn(pairs, many uint64) tfColumn {
	return tfColumn{many: make([]uint64, (pairs+63)/64), nib: make(nibbles, (many+1)/2)}
}

// set records the tf of pair i, the j-th pair of tf > 1 when it is one.
func (c *tfColumn) set(i, j uint32, tf uint64) {
	if tf <= 1 {
		return
	}
	c.many[i/64] |= 1 << (i % 64)
	c.nib.set(j, uint8(min(tf, 17)-2))
	if tf >= 17 {
		if c.big == nil {
			c.big = map[uint32]uint32{}
		}
		c.big[i] = uint32(min(tf, math.MaxUint32))
	}
}

// isMany reports whether pair i has tf > 1.
func (c *tfColumn) isMany(i uint32) bool { return c.many[i/64]>>(i%64)&1 != 0 }

// tfMany returns the tf of pair i, the j-th of tf > 1.
func (c *tfColumn) tfMany(i, j uint32) uint32 {
	if v := c.nib.get(j); v < 15 {
		return uint32(v) + 2
	}
	return c.big[i]
}

// countMany returns the number of pairs of tf > 1 among pairs lo..hi-1.
func (c *tfColumn) countMany(lo, hi uint32) uint32 {
	n := 0
	for lo < hi {
		w := c.many[lo/64] >> (lo % 64)
		if k := hi - lo; k < 64-lo%64 {
			w &= 1<<k - 1
		}
		n += bits.OnesCount64(w)
		lo += 64 - lo%64
	}
	return uint32(n)
}

func (c *tfColumn) bytes() int64 { return int64(8*len(c.many)+len(c.nib)) + int64(len(c.big))*16 }

// bm25Data is the BM25 part of an Index.
type bm25Data struct {
	dl      []uint16          // per entry: the size of the key multiset; 65535: see dlBig
	dlBig   map[uint32]uint32 // entry -> dl, for dl >= 65535
	totalDL uint64
	df      []uint32 // per token: entries whose key holds it
	postN   []uint32 // per token: its postings, df less its copies' (dups.go)
	maxTF   []uint8  // per entry: the largest tf of its mask tokens, 255 for 255 or more
	// The mask tokens' pairs are by entry, then by increasing bit: maskAt
	// holds, per 16 entries, the index of the first one's first pair and
	// maskManyAt the number of pairs of tf > 1 before it.
	maskTF     tfColumn
	maskAt     []uint32
	maskManyAt []uint32
	// The postings' pairs are by token, in postings order: postAt and
	// postManyAt hold, per token, the index of its first pair and the
	// number of pairs of tf > 1 before it.
	postTF     tfColumn
	postAt     []uint32
	postManyAt []uint32
	// seek holds the range bounds and seek points of the long lists
	// (bm25seek.go); nil for none.
	seek *bm25Seek
}

func (d *bm25Data) bytes() int64 {
	return int64(2*len(d.dl)+4*(len(d.df)+len(d.maskAt)+len(d.postN)+len(d.maskManyAt)+len(d.postAt)+len(d.postManyAt))+len(d.maxTF)) +
		d.maskTF.bytes() + d.postTF.bytes() + int64(len(d.dlBig))*16 + d.seek.bytes()
}

// dlOf returns the key length of entry e.
func (d *bm25Data) dlOf(e uint32) uint32 {
	if v := d.dl[e]; v < math.MaxUint16 {
		return uint32(v)
	}
	return d.dlBig[e]
}

// addDL appends the key length of the next entry.
func (d *bm25Data) addDL(dl uint64) {
	dl = min(dl, math.MaxUint32)
	if dl >= math.MaxUint16 {
		if d.dlBig == nil {
			d.dlBig = map[uint32]uint32{}
		}
		d.dlBig[uint32(len(d.dl))] = uint32(dl)
	}
	d.dl = append(d.dl, uint16(min(dl, math.MaxUint16)))
	d.totalDL += dl
}

// bm25Builder fills an Index's bm25Data while Builder.Index builds the
// masks and postings from the keys, in two passes: the first calls
// startEntry, maskTF and endEntry per entry (counting the mask pairs) and
// countPosting per posting; the second maskTF and endEntry2 per entry
// (storing the mask pairs' tfs) and postingTF per posting. Nothing is
// kept per pair between the passes.
type bm25Builder struct {
	ix        *Index
	d         *bm25Data
	pairs     []uint64 // bit<<32 | tf of the current entry's mask tokens
	nPairs    uint64   // mask pairs so far
	nMany     uint64   // of them, those of tf > 1
	i, j      uint32   // the second pass's next pair and next pair of tf > 1
	postN     []uint32 // per token: postings seen
	postManyN []uint32 // per token: postings of tf > 1 seen
}

func newBM25Builder(ix *Index, df []uint32) *bm25Builder {
	d := &ix.bm
	nE := ix.Len()
	d.df = slices.Clone(df)
	d.maxTF = make([]uint8, nE)
	d.maskAt = make([]uint32, (nE+15)/16)
	d.maskManyAt = make([]uint32, (nE+15)/16)
	d.postN = make([]uint32, len(df))
	return &bm25Builder{ix: ix, d: d, postN: make([]uint32, len(df)), postManyN: make([]uint32, len(df))}
}

func (b *bm25Builder) startEntry(e int) {
	if e%16 == 0 {
		b.d.maskAt[e/16] = uint32(b.nPairs)
		b.d.maskManyAt[e/16] = uint32(b.nMany)
	}
	b.pairs = b.pairs[:0]
}

func (b *bm25Builder) maskTF(bit int32, tf uint64) {
	b.pairs = append(b.pairs, uint64(bit)<<32|min(tf, math.MaxUint32))
}

func (b *bm25Builder) endEntry(e int) {
	var top uint64
	for _, p := range b.pairs {
		tf := p & math.MaxUint32
		top = max(top, tf)
		if tf > 1 {
			b.nMany++
		}
	}
	b.nPairs += uint64(len(b.pairs))
	b.d.maxTF[e] = uint8(min(top, 255))
}

func (b *bm25Builder) countPosting(t uint32, tf uint64) {
	b.d.postN[t]++
	if tf > 1 {
		b.postManyN[t]++
	}
}

// startPostings lays out the tfs, once the first pass counted them.
func (b *bm25Builder) startPostings() {
	d := b.d
	d.maskTF = newTFColumn(b.nPairs, b.nMany)
	d.postAt = make([]uint32, len(d.df))
	d.postManyAt = make([]uint32, len(d.df))
	var pairs, many uint64
	for t, n := range d.postN {
		if b.ix.maskBit[t] >= 0 {
			continue
		}
		d.postAt[t], d.postManyAt[t] = uint32(pairs), uint32(many)
		pairs += uint64(n)
		many += uint64(b.postManyN[t])
	}
	d.postTF = newTFColumn(pairs, many)
	clear(b.postManyN)
	b.pairs = b.pairs[:0]
}

// endEntry2 stores the tfs of the mask pairs of the entry the second
// pass collected (with maskTF): by increasing bit.
func (b *bm25Builder) endEntry2() {
	slices.Sort(b.pairs)
	for _, p := range b.pairs {
		tf := p & math.MaxUint32
		b.d.maskTF.set(b.i, b.j, tf)
		b.i++
		if tf > 1 {
			b.j++
		}
	}
	b.pairs = b.pairs[:0]
}

func (b *bm25Builder) postingTF(t uint32, tf uint64) {
	d := b.d
	d.postTF.set(d.postAt[t]+b.postN[t], d.postManyAt[t]+b.postManyN[t], tf)
	b.postN[t]++
	if tf > 1 {
		b.postManyN[t]++
	}
}

// maskTFAt returns the index of entry e's first mask pair and the number
// of mask pairs of tf > 1 before it.
func (ix *Index) maskTFAt(e uint32) (at, many uint32) {
	at = ix.bm.maskAt[e/16]
	first := at
	mw := ix.maskWords
	for x := e &^ 15; x < e; x++ {
		for _, w := range ix.masks[int(x)*mw : int(x+1)*mw] {
			at += uint32(bits.OnesCount64(w))
		}
	}
	return at, ix.bm.maskManyAt[e/16] + ix.bm.maskTF.countMany(first, at)
}

// maskPairTF returns the tf of mask pair i, given the number of pairs of
// tf > 1 before it.
func (d *bm25Data) maskPairTF(i, manyBefore uint32) uint32 {
	if !d.maskTF.isMany(i) {
		return 1
	}
	return d.maskTF.tfMany(i, manyBefore)
}

// entryTF appends to dst the tf of every token of entry e's key, in the
// key's order (tests).
func (ix *Index) entryTF(e uint32, key []uint32, dst []uint32) []uint32 {
	mw := ix.maskWords
	m := ix.masks[int(e)*mw : int(e+1)*mw]
	at, many := ix.maskTFAt(e)
	for _, t := range key {
		if bit := ix.maskBit[t]; bit >= 0 {
			r := uint32(0)
			for w := range int(bit >> 6) {
				r += uint32(bits.OnesCount64(m[w]))
			}
			r += uint32(bits.OnesCount64(m[bit>>6] & (1<<(bit&63) - 1)))
			dst = append(dst, ix.bm.maskPairTF(at+r, many+ix.bm.maskTF.countMany(at, at+r)))
			continue
		}
		i, j := ix.bm.postAt[t], ix.bm.postManyAt[t]
		for p := range ix.postings(t) {
			if p == e {
				tf := uint32(1)
				if ix.bm.postTF.isMany(i) {
					tf = ix.bm.postTF.tfMany(i, j)
				}
				dst = append(dst, tf)
				break
			}
			if ix.bm.postTF.isMany(i) {
				j++
			}
			i++
		}
	}
	return dst
}

// postLen is the length in bytes of the postings of a token without a
// mask bit.
func (ix *Index) postLen(t uint32) int { return int(ix.postOff[t+1] - ix.postOff[t]) }

// postings iterates the postings list of a token without a mask bit.
func (ix *Index) postings(t uint32) func(yield func(uint32) bool) {
	return func(yield func(uint32) bool) {
		b := ix.post[ix.postOff[t]:ix.postOff[t+1]]
		e := uint32(0)
		for len(b) > 0 {
			v, k := uvarint(b)
			b = b[k:]
			e += uint32(v)
			if !yield(e) {
				return
			}
		}
	}
}

// BM25 returns the ranker of Okapi BM25 with parameters p (see
// DefaultBM25) over the key token multisets.
func BM25(p BM25Params) Ranker { return bm25Ranker{p} }

type bm25Ranker struct{ p BM25Params }

func (bm25Ranker) Name() string { return "bm25" }

func (r bm25Ranker) Rank(ctx context.Context, s *Snapshot, q *Query, n int, deadline time.Time) ([]Hit, RankStats, error) {
	if err := r.p.Validate(); err != nil {
		return nil, RankStats{Name: "bm25"}, fmt.Errorf("rank %w", err)
	}
	N := s.Len()
	kA, kB := r.p.norm(N, s.liveDL())
	q, c := s.bm25Terms(q, r.p.Terms)
	defer c.release()
	return s.rankLayers(ctx, "bm25", q, n, deadline, func(ix *Index, lq *Query, dead []bool, lim *scanLimit, st *RankStats) []Hit {
		bq := getBM25Query(ix)
		defer bm25QueryPool.Put(bq)
		bq.prepare(s, ix, lq, r.p, N, kA, kB)
		return ix.bm25Top(bq, lq, n, dead, lim, st)
	})
}

// liveDL returns the total key length of the live entries.
func (s *Snapshot) liveDL() uint64 {
	n := s.base.bm.totalDL - s.deadDL
	if s.delta != nil {
		n += s.delta.bm.totalDL
	}
	return n
}

// liveDF returns the number of live entries holding token t of part ix.
func (s *Snapshot) liveDF(ix *Index, t uint32) int {
	if int(t) >= len(ix.bm.df) {
		return 0
	}
	if ix == s.base {
		n := int(ix.bm.df[t]) - int(s.deadDF[t])
		if d, ok := s.baseToDelta[t]; ok {
			n += int(s.delta.bm.df[d])
		}
		return n
	}
	n := int(ix.bm.df[t])
	if b := s.deltaToBase[t]; b >= 0 {
		n += int(s.base.bm.df[b]) - int(s.deadDF[uint32(b)])
	}
	return n
}

// initBM25 computes what the live corpus statistics need: the document
// frequencies and lengths of the masked base entries, and the mapping
// between the delta's token ids and the base's.
func (s *Snapshot) initBM25() {
	if s.dead != nil {
		s.deadDF = map[uint32]uint32{}
		var key []uint32
		for fi, dead := range s.dead {
			if !dead {
				continue
			}
			first := s.base.files[fi].entryBase
			for e := first; e < first+s.base.fileEntries(int32(fi)); e++ {
				key = s.base.key(int(e), key[:0])
				for _, t := range key {
					s.deadDF[t]++
				}
				s.deadDL += uint64(s.base.bm.dlOf(e))
			}
		}
	}
	if s.delta != nil {
		s.deltaToBase = make([]int32, len(s.delta.bm.df))
		s.baseToDelta = map[uint32]uint32{}
		for d := range uint32(s.delta.vocab.Len()) {
			b, ok := s.base.vocab.Lookup(s.delta.vocab.View(d))
			if !ok || int(d) >= len(s.deltaToBase) {
				if int(d) < len(s.deltaToBase) {
					s.deltaToBase[d] = -1
				}
				continue
			}
			s.deltaToBase[d] = int32(b)
			s.baseToDelta[b] = d
		}
	}
}

// bm25Query is a query's BM25 weights in one part of a snapshot.
type bm25Query struct {
	kA, kB float64
	// rare are the query tokens with postings, weight idf (k1+1).
	rare []bm25Weight
	// bitW is the weight of each mask bit the query holds (0 for the
	// others), qmask those bits, nMask their number and maskSum the sum of
	// their weights.
	bitW    []float64
	qmask   []uint64
	nMask   int
	maskSum float64
	// sorted are the query's mask bits by weight descending. The bound
	// of an entry's mask part is the sum of the weights of the query bits
	// it holds, read byte by byte: active lists the bytes of the masks
	// (byte j: bits 8j..8j+7) holding query bits and tbl[256 i + v] is the
	// weight of the query bits among the bits v of byte active[i].
	sorted []bm25Weight
	active []uint16
	tbl    []float64
	// levels[j*maskWords:] are the query mask bits an entry must hold one
	// of for its mask part to exceed j/bm25Levels of maskSum: all but the
	// lightest whose weights sum below that (see bm25Scan.mustHold).
	levels []uint64
	// heaviest[c] is the sum of the c largest weights of query mask
	// tokens.
	heaviest []float64
	// levelPer is bm25Levels / maskSum.
	levelPer float64
	// fwd are the tokens whose terms bm25Fwd adds up (bm25floor.go):
	// fwdTab looks a token up (see setFwd), fwdTF and fwdHit count its tf
	// in an entry.
	fwd      []bm25Weight
	fwdTab   []uint64
	fwdShift uint
	fwdTF    []uint32
	fwdHit   []int32
	// stmtKey, stmtAt and stmtHits hold the fwd tokens of each statement
	// bm25Fwd decoded since setFwd (fwdStmt), stmtN their number.
	stmtKey  []uint32
	stmtAt   []uint64
	stmtHits []int32
	stmtN    int
}

// bm25Levels is the number of steps of bm25Query.levels.
const bm25Levels = 16

type bm25Weight struct {
	t uint32 // token, or mask bit
	w float64
}

var bm25QueryPool sync.Pool

func getBM25Query(ix *Index) *bm25Query {
	bq, _ := bm25QueryPool.Get().(*bm25Query)
	if bq == nil {
		bq = &bm25Query{}
	}
	mw := ix.maskWords
	bq.bitW = slices.Grow(bq.bitW[:0], mw*64)[:mw*64]
	clear(bq.bitW)
	bq.qmask = slices.Grow(bq.qmask[:0], mw)[:mw]
	clear(bq.qmask)
	bq.rare, bq.sorted, bq.active, bq.tbl, bq.levels = bq.rare[:0], bq.sorted[:0], bq.active[:0], bq.tbl[:0], bq.levels[:0]
	bq.heaviest = append(bq.heaviest[:0], 0)
	bq.nMask, bq.maskSum = 0, 0
	return bq
}

func (bq *bm25Query) prepare(s *Snapshot, ix *Index, q *Query, p BM25Params, N int, kA, kB float64) {
	bq.kA, bq.kB = kA, kB
	nv := uint32(len(ix.maskBit))
	for _, t := range q.Key {
		if t >= nv {
			continue // unseen token: in no key
		}
		n := s.liveDF(ix, t)
		if n <= 0 {
			continue
		}
		w := bm25IDF(N, n) * (p.K1 + 1)
		if bit := ix.maskBit[t]; bit >= 0 {
			bq.bitW[bit] = w
			bq.qmask[bit>>6] |= 1 << (bit & 63)
			bq.nMask++
			bq.maskSum += w
			bq.sorted = append(bq.sorted, bm25Weight{uint32(bit), w})
			continue
		}
		if ix.postOff[t] < ix.postOff[t+1] {
			bq.rare = append(bq.rare, bm25Weight{t, w})
		}
	}
	slices.SortFunc(bq.sorted, func(a, b bm25Weight) int {
		if a.w != b.w {
			if a.w > b.w {
				return -1
			}
			return 1
		}
		return int(a.t) - int(b.t)
	})
	for _, t := range bq.sorted {
		bq.heaviest = append(bq.heaviest, bq.heaviest[len(bq.heaviest)-1]+t.w)
	}
	bq.levelPer = 0
	if bq.maskSum > 0 {
		bq.levelPer = bm25Levels / bq.maskSum
	}
	for lv := range bm25Levels + 1 {
		x := bq.maskSum * float64(lv) / bm25Levels
		at := len(bq.levels)
		bq.levels = append(bq.levels, bq.qmask...)
		var sum float64
		for i := len(bq.sorted) - 1; i >= 0; i-- { // by weight ascending
			t := bq.sorted[i]
			if sum += t.w; sum >= x {
				break
			}
			bq.levels[at+int(t.t>>6)] &^= 1 << (t.t & 63)
		}
	}
	for j := range 8 * len(bq.qmask) {
		qb := uint8(bq.qmask[j/8] >> (j % 8 * 8))
		if qb == 0 {
			continue
		}
		bq.active = append(bq.active, uint16(j))
		at := len(bq.tbl)
		bq.tbl = slices.Grow(bq.tbl, 256)[:at+256]
		t := bq.tbl[at:]
		t[0] = 0
		for v := 1; v < 256; v++ {
			low := bits.TrailingZeros8(uint8(v))
			t[v] = t[v&(v-1)]
			if qb>>low&1 != 0 {
				t[v] += bq.bitW[8*j+low]
			}
		}
	}
}

// bm25Scratch is the per-search state of a BM25 scan. Its arrays are
// those of a region of entries (bm25Region), lo..hi-1.
type bm25Scratch struct {
	lo, hi uint32
	acc    []int64      // per entry of the region: the rare tokens' part; -1 once offered as a seed
	marked []uint64     // bit set of the region's touched entries
	bmax   []int64      // per block of the region: the largest acc of its entries
	cur    []bm25Cursor // per list walked
	seen   []uint64     // bit set of the touched entries of every region ranked
	blocks rankHeap[ranked[int64]]
	seeds  rankHeap[ranked[int64]]
	est    rankHeap[ranked[int64]]
	top    rankHeap[ranked[int64]]
	ord    []bm25Weight // the floor's lists, heaviest first
	cand   []uint32     // the floor's entries
	// floorE holds the floor's eligible entries and their exact scores,
	// by entry; floorAt the first of a region not ranked yet (refloor).
	floorE  []ranked[int64]
	floorAt int
	// floorKey and floorSum sum the heaviest lists' part of the score of
	// their entries, floorBest the best (floorCandidates).
	floorKey  []uint32
	floorSum  []float64
	floorBest rankHeap[ranked[float64]]
	nodes     entryView
	ess       []uint64
	scan      bm25Scan
	split     bool        // the walk takes a helper when a core is free (bm25split.go)
	help      *bm25Helper // its state
	// The ranges of 64 entries a ranking leaves out (bm25seek.go): lists
	// are the query's lists, those with a table last; deadR the region's
	// dead ranges when skip, rangeUB their bounds.
	lists   []bm25Weight
	deadR   []uint64
	rangeUB []float64
	skip    bool
	seekSat []float64 // the bounds of the records' saturation (seekSat)
}

var bm25ScratchPool freeList

// ranked is an entry and its score.
type ranked[S int64 | float64] struct {
	score S
	e     uint32
}

func (a ranked[S]) better(b ranked[S]) bool {
	return a.score > b.score || a.score == b.score && a.e < b.e
}

// rankHeap keeps the best entries offered to it; its root is the worst.
// It is written out rather than through container/heap to stay free of
// allocations.
type rankHeap[T interface{ better(T) bool }] []T

func (h *rankHeap[T]) offer(x T, k int) {
	if len(*h) < k {
		*h = append(*h, x)
		h.up(len(*h) - 1)
		return
	}
	if k == 0 || !x.better((*h)[0]) {
		return
	}
	(*h)[0] = x
	h.down(0)
}

func (h rankHeap[T]) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h[p].better(h[i]) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func (h rankHeap[T]) down(i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		w := l
		if r := l + 1; r < len(h) && h[l].better(h[r]) {
			w = r
		}
		if !h[i].better(h[w]) {
			return
		}
		h[i], h[w] = h[w], h[i]
		i = w
	}
}

// pop removes and returns the worst element.
func (h *rankHeap[T]) pop() T {
	t := *h
	x := t[0]
	t[0] = t[len(t)-1]
	t = t[:len(t)-1]
	t.down(0)
	*h = t
	return x
}

// drainRanked empties h into hits, best first, with scores divided by
// unit.
func drainRanked[S int64 | float64](h *rankHeap[ranked[S]], unit float64) []Hit {
	out := make([]Hit, len(*h))
	for i := len(out) - 1; i >= 0; i-- {
		x := h.pop()
		out[i] = Hit{Entry: int(x.e), Score: float64(x.score) / unit}
	}
	return out
}

// bm25Scan is the state of one bm25Top.
type bm25Scan struct {
	ix    *Index
	bq    *bm25Query
	q     *Query
	dead  []bool
	st    *RankStats
	n     int
	top   rankHeap[ranked[int64]]
	nodes *entryView
	bb    *blockBounds
	lb    []uint64 // the query's language blocks (nil: every block holds the language)
	slack float64  // bounds the rounding of the mask terms, in units
	// Once full, an entry must beat root and rootE to enter: the heap's
	// worst once it holds n entries, before that the floor of an
	// estimate (rootE MaxUint32, so that an entry of the floor's score
	// may still enter; bm25floor.go).
	root   float64
	rootE  uint32
	full   bool
	unitUp float64 // bm25Unit, rounded up by a relative margin
}

// canBeat reports whether an entry whose score is at most ub units could
// enter the heap.
func (s *bm25Scan) canBeat(ub float64, e uint32) bool {
	return !s.full || ub > s.root || ub == s.root && e < s.rootE
}

// offer offers entry e of the given score to the heap, under the
// language filter, the files left out and the leak rule, and then the
// copies of its key (dups.go), each under its own checks, until one
// cannot enter.
func (s *bm25Scan) offer(e uint32, score int64) {
	ix := s.ix
	if score <= 0 || !s.canBeat(float64(score), e) || !ix.sameLanguage(s.q, e) {
		return
	}
	for {
		if ix.dead(s.dead, e) {
		} else if ix.leaks(s.q, e, s.nodes) {
			s.st.Leaked++
		} else {
			s.push(ranked[int64]{score, e})
		}
		if e = ix.nextCopy(e); e == 0 || !s.canBeat(float64(score), e) {
			return
		}
		s.st.Scanned++
		s.st.Scored++
	}
}

// push puts x, an entry that passed the checks, in the heap.
func (s *bm25Scan) push(x ranked[int64]) {
	s.top.offer(x, s.n)
	if len(s.top) == s.n {
		// The heap's worst, unless a bound refloor took is above it.
		if r := s.top[0]; !s.full || float64(r.score) > s.root || float64(r.score) == s.root && r.e < s.rootE {
			s.full = true
			s.root, s.rootE = float64(r.score), r.e
		}
	}
}

// consider scores entry e, whose rare tokens give a units, exactly when
// its bound allows it: the weights of the query mask tokens it holds times
// the largest saturation tf/(tf+K) of its block (bsat, see blockSat) and
// then of its own largest mask tf.
func (s *bm25Scan) consider(e uint32, a int64, bsat float64) {
	ix, bq := s.ix, s.bq
	s.st.Scanned++
	mw := ix.maskWords
	m := ix.masks[int(e)*mw : int(e+1)*mw]
	// The heaviest query mask tokens, as many as it holds, then the
	// weights of those it holds.
	pc := 0
	for w, x := range bq.qmask {
		pc += bits.OnesCount64(m[w] & x)
	}
	if !s.canBeat(float64(a)+bq.heaviest[pc]*bsat*s.unitUp+s.slack, e) {
		return
	}
	sum := bq.weight(m)
	if !s.canBeat(float64(a)+sum*bsat*s.unitUp+s.slack, e) {
		return
	}
	k := bq.kA + bq.kB*float64(ix.bm.dlOf(e))
	if sum > 0 {
		if t := ix.bm.maxTF[e]; t < 255 && !s.canBeat(float64(a)+sum*float64(t)/(float64(t)+k)*s.unitUp+s.slack, e) {
			return
		}
	} else if !s.canBeat(float64(a), e) {
		return
	}
	s.st.Scored++
	s.offer(e, a+ix.bm25Mask(bq, e, k))
}

// blockSat bounds the tf saturation tf/(tf+K(dl)) of every mask token of
// the entries of block k: by their largest mask tf and smallest length.
func (s *bm25Scan) blockSat(k int) float64 {
	t := s.bb.tfMax[k]
	if t == math.MaxUint8 {
		return 1
	}
	f := float64(t)
	return f / (f + s.bq.kA + s.bq.kB*float64(s.bb.dlMin[k]))
}

// blockMaskUB bounds, in units and with the slack, the mask part of any
// entry of block k, whose masks' union holds pc query mask bits: the
// weights of the query mask tokens the union holds times the block's
// largest saturation sat (blockSat). ok reports whether an entry whose
// rare tokens give a units can then reach the heap; the cheaper bound by
// the pc heaviest weights is tried first.
func (s *bm25Scan) blockMaskUB(k, pc int, a float64) (ub, sat float64, ok bool) {
	bq, lo, mw := s.bq, uint32(k*blockSize), s.ix.maskWords
	sat = s.blockSat(k)
	if !s.canBeat(a+bq.heaviest[pc]*sat*s.unitUp+s.slack, lo) {
		return 0, sat, false
	}
	ub = bq.weight(s.bb.or[k*mw:(k+1)*mw])*sat*s.unitUp + s.slack
	return ub, sat, s.canBeat(a+ub, lo)
}

// weight returns the sum of the weights of the query mask tokens whose
// bits mask m holds.
func (bq *bm25Query) weight(m []uint64) float64 {
	var sum float64
	for i, j := range bq.active {
		sum += bq.tbl[256*i+int(uint8(m[j/8]>>(j%8*8)))]
	}
	return sum
}

// fewest returns the least number of query mask tokens an entry untouched
// by the rare postings must hold to reach the heap: the weights of fewer
// than that many, the heaviest, sum below the heap's worst score.
func (s *bm25Scan) fewest() int {
	if !s.full {
		return 0
	}
	x := (s.root - s.slack) / s.unitUp
	for c, sum := range s.bq.heaviest {
		if sum >= x {
			return c
		}
	}
	return len(s.bq.heaviest)
}

// mustHold returns the query mask bits an entry whose rare tokens give a
// units, and whose mask tokens' tf saturation is at most sat, must hold
// one of to reach the heap: its mask part must exceed x = (root - a -
// slack) / sat in weight, and the lightest query tokens whose weights sum
// below x cannot give that on their own. inv is 1 / (unitUp sat) (0: no
// bound). It returns nil when no bit can be ruled out.
func (s *bm25Scan) mustHold(a int64, inv float64) []uint64 {
	bq := s.bq
	if !s.full || bq.maskSum <= 0 || !(inv > 0) {
		return nil
	}
	x := (s.root - float64(a) - s.slack) * inv
	if x <= 0 {
		return nil
	}
	lv := bm25Levels
	if f := x * bq.levelPer; f < bm25Levels {
		lv = int(f)
	}
	if lv == 0 {
		return nil
	}
	mw := len(bq.qmask)
	return bq.levels[lv*mw : (lv+1)*mw]
}

// bm25Top returns the n best entries of ix for bq (see the comment at the
// top of this file).
func (ix *Index) bm25Top(bq *bm25Query, q *Query, n int, dead []bool, lim *scanLimit, st *RankStats) []Hit {
	sc := ix.bm25Start(bq, q, n, dead, st)
	defer sc.release()
	return sc.run(lim, nil, nil)
}

// bm25Region is the number of entries a BM25 ranking walks and ranks at
// a time (a multiple of 64 and of pollEvery), whose accumulators, 8 bytes
// an entry, stay in a core's cache; a variable so that the property tests
// rank small indexes in several regions.
var bm25Region = 1 << 16

// bm25RegionRanked, when set (by the property tests), is called with the
// ranking's state after each region, up to entry hi, is ranked.
var bm25RegionRanked func(s *bm25Scan, hi uint32)

// bm25Start returns the pooled state of a BM25 ranking of ix.
func (ix *Index) bm25Start(bq *bm25Query, q *Query, n int, dead []bool, st *RankStats) *bm25Scratch {
	sc, _ := bm25ScratchPool.Get().(*bm25Scratch)
	if sc == nil {
		sc = &bm25Scratch{}
	}
	r := min(ix.Len(), bm25Region)
	if len(sc.acc) < r || len(sc.acc) > bm25Region {
		sc.acc = make([]int64, r)
		sc.marked = make([]uint64, (r+63)/64)
		sc.bmax = make([]int64, len(sc.marked)*64/blockSize)
	}
	if w := (ix.Len() + 63) / 64; len(sc.seen) < w {
		sc.seen = make([]uint64, w)
	}
	sc.scan = bm25Scan{ix: ix, bq: bq, q: q, dead: dead, st: st, n: n, top: sc.top[:0], nodes: &sc.nodes,
		slack: float64(bq.nMask) + 1, unitUp: bm25Unit * (1 + 1e-12)}
	sc.floorE, sc.floorAt = sc.floorE[:0], 0
	sc.scan.bb = ix.blocks()
	sc.scan.bb.bm25(ix)
	sc.scan.lb = ix.languageBlocks(q.Language)
	bm25Running.Add(1)
	return sc
}

// clear clears what the walk of a region set.
func (sc *bm25Scratch) clear() {
	for w, x := range sc.marked {
		if x == 0 {
			continue
		}
		for ; x != 0; x &= x - 1 {
			sc.acc[w*64+bits.TrailingZeros64(x)] = 0
		}
		sc.marked[w] = 0
		clear(sc.bmax[w*64/blockSize : (w+1)*64/blockSize])
	}
}

// release clears what the walk set and pools sc.
func (sc *bm25Scratch) release() {
	sc.clear()
	sc.dropHelper()
	sc.clearHelper()
	sc.top = sc.scan.top[:0]
	sc.scan = bm25Scan{}
	bm25Running.Add(-1)
	bm25ScratchPool.Put(sc)
}

// bm25Cursor is where the walk of a token's postings stands between
// regions: the offset of its next posting, the entry before it, and the
// index of the next pair of the postings' tfs and of the next of tf > 1.
type bm25Cursor struct {
	off, e, i, j uint32
	// A list with a table (bm25seek.go) walks by it: tab, and the
	// offset in it of its next record.
	tab  []uint32
	soff uint32
}

// run walks and ranks the entries region by region (bm25Region) and
// returns the n best. The walk adds the rare tokens' terms into acc
// (walkRegion); with js it also counts, for the Jaccard scan of the same
// query and index (topK), the query's tokens without a mask bit that each
// entry holds, as Index.count does, in the same pass over the postings,
// and calls walked once the counts are complete, before ranking the last
// region.
func (sc *bm25Scratch) run(lim *scanLimit, js *scratch, walked func()) []Hit {
	s := &sc.scan
	ix, bq := s.ix, s.bq
	lists := bq.rare
	if js != nil {
		// Every query token with postings, BM25's (in the same order)
		// with their weights, the others (none on a snapshot's live
		// entries) with 0.
		rare := lists
		ix.queryMask(s.q, js)
		js.walk = js.walk[:0]
		nv := uint32(len(ix.maskBit))
		for _, t := range s.q.Key {
			if t >= nv || ix.maskBit[t] >= 0 {
				continue
			}
			w := 0.0
			if len(rare) > 0 && rare[0].t == t {
				w, rare = rare[0].w, rare[1:]
			}
			js.walk = append(js.walk, bm25Weight{t, w})
		}
		lists = js.walk
	}
	// With tables (bm25seek.go), the lists that have one go last.
	ns := len(lists)
	if js == nil && ix.bm.seek != nil && s.n > 0 {
		ls, tabled := sc.lists[:0], 0
		for _, r := range lists {
			if ix.bm.seek.table(r.t) == nil {
				ls = append(ls, r)
			}
		}
		ns = len(ls)
		for _, r := range lists {
			if ix.bm.seek.table(r.t) != nil {
				ls = append(ls, r)
				tabled += ix.postLen(r.t)
			}
		}
		sc.lists = ls
		if tabled >= bm25SkipBytes {
			lists = ls
		} else {
			ns = len(lists)
		}
	}
	cur := sc.cur[:0]
	for li, r := range lists {
		c := bm25Cursor{i: ix.bm.postAt[r.t], j: ix.bm.postManyAt[r.t]}
		if li >= ns {
			c.tab = ix.bm.seek.table(r.t)
		}
		cur = append(cur, c)
	}
	sc.cur = cur
	total := 0
	for _, r := range lists {
		total += ix.postLen(r.t)
	}
	sc.split = js == nil && total >= bm25SplitBytes && len(lists) > 1
	sc.floor(lists)
	if ns < len(lists) {
		sc.seekSat = seekSat(sc.seekSat, bq.kA, bq.kB)
	}
	if nr := (min(ix.Len(), bm25Region) + 63) / 64; ns < len(lists) && len(sc.rangeUB) < nr {
		sc.rangeUB = make([]float64, nr)
		sc.deadR = make([]uint64, (nr+63)/64)
	}
	done := walked == nil
	n := ix.Len()
	for lo := 0; lo < n; lo += bm25Region {
		hi := min(lo+bm25Region, n)
		if lo > 0 && lim.stop() {
			sc.floorRest(uint32(lo))
			break
		}
		sc.clear()
		sc.lo, sc.hi = uint32(lo), uint32(hi)
		sc.skip = false
		if ns < len(lists) {
			// The short lists, then the ranges' bounds, then the
			// long lists past the dead ranges; no walk ahead, as the
			// next region's dead ranges are not known yet.
			sc.walkRegion(lim, lists[:ns], 0, nil, uint32(hi), uint32(hi))
			sc.skip = sc.deadRanges(lists, ns)
			sc.walkRegion(lim, lists, ns, nil, uint32(hi), uint32(hi))
			if sc.skip {
				sc.dropDead()
			}
		} else {
			sc.walkRegion(lim, lists, 0, js, uint32(hi), uint32(min(hi+bm25Region, n)))
		}
		if !done && hi == n {
			done = true
			walked()
		}
		sc.rank(lim)
		copy(sc.seen[lo/64:], sc.marked[:(hi-lo+63)/64])
		if sc.skip {
			sc.markDead()
		}
		sc.refloor(uint32(hi))
		if bm25RegionRanked != nil {
			bm25RegionRanked(s, uint32(hi))
		}
	}
	sc.skip = false
	if !done {
		walked()
	}
	sc.untouched(lim)
	return drainRanked(&s.top, bm25Unit)
}

// walkRegion adds the terms of the postings of lists (0: none, a token
// only the counts of js need) of the entries of the region into acc, from
// the lists' cursors; on two cores when one is free (bm25split.go: the
// helper may then walk the next region, nlo..nhi-1, while this one is
// ranked).
func (sc *bm25Scratch) walkRegion(lim *scanLimit, lists []bm25Weight, from int, js *scratch, nlo, nhi uint32) {
	if from >= len(lists) {
		return
	}
	if js == nil && sc.split && sc.walkSplit(lim, lists, from, nlo, nhi) {
		return
	}
	for li := from; li < len(lists); li++ {
		if lim.stop() {
			break
		}
		sc.walkList(li, lists[li], sc.lo, sc.hi, sc.acc, sc.marked, sc.bmax, js)
	}
}

// walkList adds the terms of the postings of list li (token r) of the
// entries of the region lo..hi-1 into acc, marked and bmax, from the
// list's cursor, and moves the cursor to the region's end.
func (sc *bm25Scratch) walkList(li int, r bm25Weight, lo, hi uint32, acc []int64, marked []uint64, bmax []int64, js *scratch) {
	c := &sc.cur[li]
	if c.tab != nil {
		sc.walkSeek(li, r, lo, hi, acc, marked, bmax)
		return
	}
	c.off, c.e, c.i, c.j = sc.walkPostings(r, c.off, c.e, c.i, c.j, lo, hi, acc, marked, bmax, js)
}

// walkPostings adds the terms of token r's postings from offset off (the
// entry before it e, its pair of tfs the i-th, the j-th of tf > 1 the next
// of those) up to the first of an entry of hi or more into acc, marked and
// bmax of the region from lo, and returns where it stopped.
func (sc *bm25Scratch) walkPostings(r bm25Weight, off0, e, i, j, lo, hi uint32, acc []int64, marked []uint64, bmax []int64, js *scratch) (_, _, _, _ uint32) {
	s := &sc.scan
	ix, bq := s.ix, s.bq
	dl, bm := ix.bm.dl, &ix.bm
	kA, kB := bq.kA, bq.kB
	many := bm.postTF.many
	b := ix.post[ix.postOff[r.t]+off0 : ix.postOff[r.t+1]]
	off := 0
	for off < len(b) {
		ne, k := e+uint32(b[off]), 1
		if b[off] >= 0x80 {
			v, l := uvarint(b[off:])
			ne, k = e+uint32(v), l
		}
		if ne >= hi {
			break
		}
		e, off = ne, off+k
		if js != nil {
			bumpCount(js.counts, js.bmax, e)
		}
		if r.w == 0 { // no term: a token only the counts need
			continue
		}
		tf := uint32(1)
		if many[i/64]>>(i%64)&1 != 0 {
			tf = bm.postTF.tfMany(i, j)
			j++
		}
		i++
		d := uint32(dl[e])
		if d == math.MaxUint16 {
			d = bm.dlBig[e]
		}
		// bm25Term, whose call does not inline.
		if t := roundTerm(bm25Raw(r.w, tf, kA+kB*float64(d))); t > 0 {
			x := e - lo
			a := acc[x] + t
			acc[x] = a
			marked[x/64] |= 1 << (x % 64)
			bmax[x/blockSize] = max(bmax[x/blockSize], a)
		}
	}
	return off0 + uint32(off), e, i, j
}

// seed scores first the n entries of the region with the largest rare
// part, so that the bounds are tight from the start, and marks them -1 in
// acc. They are among the entries of the n blocks of largest bmax: were
// one in another block, n blocks would each hold an entry of a larger
// part. Once the heap is full (or bound by a floor), the regions after
// need none: the bounds are tight already, and the seeds cost a heap
// offer per touched block.
func (sc *bm25Scratch) seed() {
	s := &sc.scan
	n, lb := s.n, s.lb
	acc, marked, bmax := sc.acc, sc.marked, sc.bmax
	rlo, rhi := int(sc.lo), int(sc.hi)
	top := sc.blocks[:0]
	for w, x := range marked {
		for j := 0; x != 0; j, x = j+1, x>>blockSize {
			if x&(1<<blockSize-1) != 0 {
				b := 64/blockSize*w + j
				if inBlocks(lb, uint32(rlo+b*blockSize)) {
					top.offer(ranked[int64]{bmax[b], uint32(b)}, n)
				}
			}
		}
	}
	seeds := sc.seeds[:0]
	for _, b := range top {
		lo := int(b.e) * blockSize
		for x := lo; x < min(lo+blockSize, rhi-rlo); x++ {
			if a := acc[x]; a > 0 {
				seeds.offer(ranked[int64]{a, uint32(x)}, n)
			}
		}
	}
	sc.blocks = top[:0]
	slices.SortFunc(seeds, func(a, b ranked[int64]) int {
		if a.better(b) {
			return -1
		}
		return 1
	})
	for _, x := range seeds {
		e := uint32(rlo) + x.e
		s.consider(e, x.score, s.blockSat(int(e/blockSize)))
		acc[x.e] = -1
	}
	sc.seeds = seeds[:0]
}

// rank ranks the entries of the region once its walk is done, into the
// heap of the regions before.
func (sc *bm25Scratch) rank(lim *scanLimit) {
	s := &sc.scan
	ix, bq, bb := s.ix, s.bq, s.bb
	acc, marked, bmax := sc.acc, sc.marked, sc.bmax
	lb := s.lb
	rlo := int(sc.lo)
	b0 := rlo / blockSize // the region's first block

	nb := len(bb.lmin)
	if !s.full {
		sc.seed()
	}

	// Then every other touched entry, in id order (so that their data is
	// read in order), when its rare part and the weights of the query
	// mask tokens its block's masks hold (blocks.go) can reach the heap.
	mw := ix.maskWords
	for w, x := range marked {
		if w%(pollEvery/64) == pollEvery/64-1 && lim.stop() {
			break
		}
		var blockUB, blockSat, blockInv [64 / blockSize]float64
		for j := range blockUB {
			g := x >> (j * blockSize) & (1<<blockSize - 1)
			lb64 := 64/blockSize*w + j // the block in the region
			b := b0 + lb64
			if g == 0 || b >= nb {
				continue
			}
			if !inBlocks(lb, uint32(b*blockSize)) {
				x &^= g << (j * blockSize) // no entry of the query's language
				continue
			}
			// The block's largest rare part and the bound of its mask
			// part.
			pc, _ := bb.queryBits(b, bq.qmask, nil)
			ub, sat, ok := s.blockMaskUB(b, pc, float64(bmax[lb64]))
			if !ok {
				x &^= g << (j * blockSize)
				continue
			}
			blockUB[j], blockSat[j] = ub, sat
			if sat > 0 {
				blockInv[j] = 1 / (s.unitUp * sat)
			}
		}
		for ; x != 0; x &= x - 1 {
			i := bits.TrailingZeros64(x)
			a := acc[w*64+i]
			e := uint32(rlo + w*64 + i)
			if a <= 0 || !s.canBeat(float64(a)+blockUB[i/blockSize], e) {
				continue
			}
			if must := s.mustHold(a, blockInv[i/blockSize]); must != nil && !holds(ix.masks[int(e)*mw:int(e+1)*mw], must) {
				continue
			}
			s.consider(e, a, blockSat[i/blockSize])
		}
	}
}

// untouched ranks, once every region is ranked, the entries no rare
// posting touched that hold an essential mask token, when the mask tokens
// alone can reach the heap: against the final heap, which rules out far
// more of them than a region's.
func (sc *bm25Scratch) untouched(lim *scanLimit) {
	s := &sc.scan
	ix, bq, bb, seen := s.ix, s.bq, s.bb, sc.seen
	lb := s.lb
	mw := ix.maskWords
	if bq.nMask == 0 || lim.stop() || !s.canBeat(bq.maskSum*s.unitUp+s.slack, 0) {
		return
	}
	bb.sizes(ix) // before the groups, which read it
	gb := bb.groups(ix)
	for lo := 0; lo < ix.Len(); lo += pollEvery {
		if lo > 0 && lim.stop() {
			break
		}
		hi := min(lo+pollEvery, ix.Len())
		sc.ess = append(sc.ess[:0], bq.qmask...)
		if must := s.mustHold(0, 1/s.unitUp); must != nil {
			sc.ess = append(sc.ess[:0], must...)
		}
		// An entry holding fewer query mask tokens than the least number
		// whose weights can reach the heap is out too; so is a block
		// (blocks.go) whose masks' union holds too few or no essential
		// one.
		need := s.fewest()
		for blo := lo; blo < hi; blo += blockSize {
			bhi := min(blo+blockSize, hi)
			k := blo / blockSize
			if k%superSize == 0 && !s.groupMay(gb, k/superSize, need, sc.ess) {
				blo += (superSize - 1) * blockSize // the group's blocks
				continue
			}
			if !inBlocks(lb, uint32(blo)) {
				continue // no entry of the query's language
			}
			pc, hold := bb.queryBits(k, bq.qmask, sc.ess)
			if !hold || pc < need {
				continue
			}
			_, bsat, ok := s.blockMaskUB(k, pc, 0)
			if !ok {
				continue
			}
			if mw == 2 {
				e0, e1 := sc.ess[0], sc.ess[1]
				q0, q1 := bq.qmask[0], bq.qmask[1]
				masks := ix.masks[2*blo : 2*bhi]
				for i := 0; i < len(masks); i += 2 {
					m0, m1 := masks[i], masks[i+1]
					if m0&e0|m1&e1 == 0 || bits.OnesCount64(m0&q0)+bits.OnesCount64(m1&q1) < need || seen[(blo+i/2)/64]>>((blo+i/2)%64)&1 != 0 {
						continue
					}
					s.consider(uint32(blo+i/2), 0, bsat)
				}
				continue
			}
			for e := blo; e < bhi; e++ {
				hold, pc := false, 0
				for w := range mw {
					hold = hold || ix.masks[e*mw+w]&sc.ess[w] != 0
					pc += bits.OnesCount64(ix.masks[e*mw+w] & bq.qmask[w])
				}
				if hold && pc >= need && seen[e/64]>>(e%64)&1 == 0 {
					s.consider(uint32(e), 0, bsat)
				}
			}
		}
	}
}

// groupMay reports whether an entry of group g of superSize blocks
// (blocks.go) untouched by the rare postings may reach the heap: whether
// its masks' union holds an essential query mask token (ess) and need
// query mask tokens, whose heaviest weights at saturation 1 can reach the
// heap; when it does not, none of its blocks does (blockMaskUB's first
// bound is at most this one).
func (s *bm25Scan) groupMay(gb *superBounds, g, need int, ess []uint64) bool {
	bq, mw := s.bq, s.ix.maskWords
	pc, hold := 0, false
	for w, x := range gb.or[g*mw : (g+1)*mw] {
		pc += bits.OnesCount64(x & bq.qmask[w])
		hold = hold || x&ess[w] != 0
	}
	return hold && pc >= need && s.canBeat(bq.heaviest[pc]*s.unitUp+s.slack, uint32(g*superSize*blockSize))
}

// holds reports whether mask m has a bit of must.
func holds(m, must []uint64) bool {
	for w, x := range must {
		if m[w]&x != 0 {
			return true
		}
	}
	return false
}

// bm25Mask returns the frequent tokens' part of entry e's score, in units,
// for an entry of normalisation k.
func (ix *Index) bm25Mask(bq *bm25Query, e uint32, k float64) int64 {
	mw := ix.maskWords
	m := ix.masks[int(e)*mw : int(e+1)*mw]
	var at, many, prev uint32
	computed := false
	var score int64
	before := 0
	for w := range mw {
		x := m[w] & bq.qmask[w]
		if x != 0 && !computed {
			at, many = ix.maskTFAt(e)
			prev = at
			computed = true
		}
		for x != 0 {
			bit := bits.TrailingZeros64(x)
			x &= x - 1
			i := at + uint32(before+bits.OnesCount64(m[w]&(1<<bit-1)))
			tf := uint32(1)
			if ix.bm.maskTF.isMany(i) {
				// many counts the pairs of tf > 1 before pair prev.
				many += ix.bm.maskTF.countMany(prev, i)
				prev = i
				tf = ix.bm.maskTF.tfMany(i, many)
			}
			score += roundTerm(bm25Raw(bq.bitW[w*64+bit], tf, k))
		}
		before += bits.OnesCount64(m[w])
	}
	return score
}
