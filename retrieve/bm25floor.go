package retrieve

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
)

// A floor for BM25's ranking by regions.
//
// The ranking walks and ranks the entries region by region (bm25Region),
// so that its accumulators are a region's and stay in a core's cache; but
// then its first regions are ranked against a heap of their own entries
// only, far below the final n-th score, and score many entries that the
// later ones would have ruled out. So a query whose rare postings are long
// (bm25FloorBytes) first takes a floor: bm25FloorBest*n entries of the
// postings of its heaviest tokens (the rarest: those of the largest idf),
// those of the largest part of the score of those lists
// (floorCandidates: the best entries hold many of the query's rare
// tokens), and bm25FloorOwn*n of the query's own file
// (ownFileCandidates), are scored exactly from their own statements'
// token sets (bm25Fwd: a token's tf is the number of the entry's slice
// statements holding it, as the index counts it), and when n of them are
// eligible (language, files left out, leak rule),
// the n-th best of their scores is a lower bound of the final n-th score.
// An entry whose bound is below the floor cannot be among the n best, so
// the ranking rules it out from the first region on, as if the heap held
// the floor's entries (bm25Scan.root). Which entries are scored decides
// only how high the floor is, not the lists: the n-th best of any n
// eligible entries' exact scores is at most the final n-th score (an
// entry tied with the floor stays: its rootE is past every entry). The
// lists are the same: the property tests run with bm25FloorBytes 0, and
// TestBM25FloorNotAboveFinal checks the floor against the definition,
// TestBM25FloorMaskedOwnFile where a delta masks the query's own file.
// After each region the bound rises to the n-th best of the heap and of
// the floor's entries of the regions still to come (refloor), checked
// region by region by TestBM25RefloorNotAboveFinal. A ranking its
// deadline stops offers its heap the floor's entries of the regions it
// leaves unranked (floorRest, TestBM25FloorPartial).

// bm25FloorBytes is the length of the rare postings of a query (bytes)
// from which a BM25 ranking takes a floor; a variable so that the
// property tests take one on small indexes. Since the range tables
// (bm25seek.go) a floor also lets ranges fall out of the walk, so it
// pays on shorter postings than before: at 32 KiB (128 KiB before) the
// engine's hybrid requests on the JDK's index took 0.88 of the median
// and 0.83 of the p99, on the standard library's 1.00 and 0.86, and on
// the 10M-line corpus's 1.03 and 1.05 (bench/RETRIEVAL.md).
var bm25FloorBytes = 1 << 15

// bm25FloorBest*n is the number of entries of the heaviest tokens'
// postings the floor scores at most (those of the largest part of the
// score, floorCandidates), bm25FloorOwn*n of the query's own file.
const bm25FloorBest, bm25FloorOwn = 4, 2

// floor sets the heap's bound to the floor of the ranking of the lists
// (see above), when the query's postings are long enough and n entries
// are found.
func (sc *bm25Scratch) floor(lists []bm25Weight) {
	s := &sc.scan
	ix, bq := s.ix, s.bq
	total := 0
	for _, r := range lists {
		total += ix.postLen(r.t)
	}
	if s.n <= 0 || total < bm25FloorBytes {
		return
	}
	ord := sc.ord[:0]
	for _, r := range lists {
		if r.w > 0 {
			ord = append(ord, r)
		}
	}
	sc.ord = ord
	if len(ord) == 0 {
		return
	}
	slices.SortFunc(ord, func(a, b bm25Weight) int { return cmp.Or(cmp.Compare(b.w, a.w), cmp.Compare(a.t, b.t)) })
	cand := sc.floorCandidates(ord, bm25FloorBest*s.n)
	cand = ix.ownFileCandidates(s.q, cand, bm25FloorOwn*s.n, s.nodes)
	slices.Sort(cand)
	cand = slices.Compact(cand)
	sc.cand = cand
	bq.setFwd(ord)
	est, scored := sc.est[:0], sc.floorE[:0]
	for _, e := range cand {
		// A copy (dups.go) has no mask of its own; it counts with its
		// representative, as the ranking offers it.
		if ix.isCopy(e) || !ix.sameLanguage(s.q, e) {
			continue
		}
		k := bq.kA + bq.kB*float64(ix.bm.dlOf(e))
		live := !ix.dead(s.dead, e) && !ix.leaks(s.q, e, s.nodes)
		if !live && ix.nextCopy(e) == 0 {
			continue
		}
		score := ix.bm25Fwd(bq, e, k, s.nodes) + ix.bm25Mask(bq, e, k)
		if score <= 0 {
			continue
		}
		if live {
			est.offer(ranked[int64]{score, e}, s.n)
			scored = append(scored, ranked[int64]{score, e})
		}
		// The copies raise the floor but stay out of floorE, which
		// refloor reads by region: a copy's representative ranks it.
		s.offerCopies(&est, ranked[int64]{score, e})
	}
	sc.est, sc.floorE = est[:0], scored
	if len(est) == s.n {
		s.full, s.root, s.rootE = true, float64(est[0].score), math.MaxUint32
	}
}

// bm25Refloor switches refloor on; a variable so that a benchmark
// (BenchmarkBuiltBM25Refloor) times the rankings with it and without.
var bm25Refloor = true

// refloor raises the heap's bound, once the regions of the entries
// below hi are ranked, to the n-th best of the heap's entries and of the
// floor's scored entries of the regions still to come (floorE from hi
// on): n distinct eligible entries of exact scores, so their n-th best is
// at most the final n-th, and the floor's entries of the regions ranked
// are in the heap when they are among its n best. The heap fills from
// the regions ranked while the floor's entries of the others stay, so
// the bound rises from region to region above both the floor (the n-th
// best of the floor's entries alone) and the heap's worst. A bound taken
// from an entry of the regions to come has rootE MaxUint32, so that the
// entry itself still enters; one taken from the heap's is that entry's.
func (sc *bm25Scratch) refloor(hi uint32) {
	s := &sc.scan
	if !bm25Refloor || len(sc.floorE) == 0 || s.n <= 0 {
		return
	}
	i := sc.floorAt
	for i < len(sc.floorE) && sc.floorE[i].e < hi {
		i++
	}
	sc.floorAt = i
	rest := sc.floorE[i:]
	if len(rest) == 0 || len(s.top)+len(rest) < s.n {
		return
	}
	best := sc.est[:0]
	for _, x := range s.top {
		best.offer(x, s.n)
	}
	for _, x := range rest {
		best.offer(x, s.n)
	}
	sc.est = best[:0]
	r, re := float64(best[0].score), best[0].e
	if re >= hi {
		re = math.MaxUint32
	}
	if !s.full || r > s.root || r == s.root && re < s.rootE {
		s.full, s.root, s.rootE = true, r, re
	}
}

// floorRest offers the heap the floor's scored entries from lo on, of
// the regions a stopped ranking leaves unranked: the bound they raised
// kept out entries of the regions ranked that the heap would hold without
// them, and they are live entries of exact scores, so a partial list
// holds them rather than coming out short.
func (sc *bm25Scratch) floorRest(lo uint32) {
	s := &sc.scan
	for _, x := range sc.floorE[sc.floorAt:] {
		if x.e < lo {
			continue
		}
		s.top.offer(x, s.n)
		s.offerCopies(&s.top, x)
	}
}

// offerCopies offers h the copies of x's entry (dups.go) with its score,
// each under the files left out and the leak rule, until one cannot
// enter.
func (s *bm25Scan) offerCopies(h *rankHeap[ranked[int64]], x ranked[int64]) {
	ix := s.ix
	for d := ix.nextCopy(x.e); d != 0; d = ix.nextCopy(d) {
		y := ranked[int64]{x.score, d}
		if len(*h) == s.n && !y.better((*h)[0]) {
			return
		}
		if !ix.dead(s.dead, d) && !ix.leaks(s.q, d, s.nodes) {
			h.offer(y, s.n)
		}
	}
}

// bm25FloorEntries is the number of entries of the heaviest tokens'
// postings whose part of the score the floor sums to choose the entries
// it scores (floorCandidates).
const bm25FloorEntries = 1 << 12

// floorCandidates returns the limit entries of the largest part of the
// score of the heaviest lists, ord: their terms (tf taken as 1) summed
// per entry over the postings of the lists, heaviest first, while they
// hold at most bm25FloorEntries entries, in a table by open addressing
// (floorKey: entry+1, 0 empty; floorSum: the sum). The entries of the
// best final scores hold many of the query's rare tokens; an entry of
// the heaviest list alone often holds few.
func (sc *bm25Scratch) floorCandidates(ord []bm25Weight, limit int) []uint32 {
	s := &sc.scan
	ix, bq := s.ix, s.bq
	size := 2 * bm25FloorEntries
	if len(sc.floorKey) != size {
		sc.floorKey, sc.floorSum = make([]uint32, size), make([]float64, size)
	}
	key, sum := sc.floorKey, sc.floorSum
	clear(key)
	mask, shift := uint32(size-1), uint(32-bits.TrailingZeros(uint(size)))
	used, decoded := 0, 0
lists:
	for _, r := range ord {
		for e := range ix.postings(r.t) {
			if used == bm25FloorEntries || decoded == 4*bm25FloorEntries {
				break lists
			}
			decoded++
			w := r.w / (1 + bq.kA + bq.kB*float64(ix.bm.dlOf(e)))
			h := (e * 0x9e3779b1) >> shift
			for key[h] != 0 && key[h] != e+1 {
				h = (h + 1) & mask
			}
			if key[h] == 0 {
				key[h], sum[h] = e+1, 0
				used++
			}
			sum[h] += w
		}
	}
	best := sc.floorBest[:0]
	for h, k := range key {
		if k == 0 {
			continue
		}
		x := ranked[float64]{sum[h], k - 1}
		if len(best) == limit && !x.better(best[0]) {
			continue
		}
		if !ix.sameLanguage(s.q, k-1) || ix.dead(s.dead, k-1) {
			continue
		}
		best.offer(x, limit)
	}
	cand := sc.cand[:0]
	for _, x := range best {
		cand = append(cand, x.e)
	}
	sc.floorBest = best[:0]
	return cand
}

// setFwd sets the tokens whose terms bm25Fwd adds up and their lookup
// table: open addressing on the token, the slot holding token<<32 |
// index+1 (0: empty).
func (bq *bm25Query) setFwd(ws []bm25Weight) {
	bq.fwd = append(bq.fwd[:0], ws...)
	shift := uint(32 - 4)
	for 1<<(32-shift) < 2*len(ws) {
		shift--
	}
	size := 1 << (32 - shift)
	bq.fwdTab = slices.Grow(bq.fwdTab[:0], size)[:size]
	clear(bq.fwdTab)
	bq.fwdShift = shift
	for i, r := range ws {
		h := (r.t * 0x9e3779b1) >> shift
		for bq.fwdTab[h] != 0 {
			h = (h + 1) & uint32(size-1)
		}
		bq.fwdTab[h] = uint64(r.t)<<32 | uint64(i+1)
	}
	bq.fwdTF = slices.Grow(bq.fwdTF[:0], len(ws))[:len(ws)]
	clear(bq.fwdTF)
	if len(bq.stmtKey) == 0 {
		bq.stmtKey, bq.stmtAt = make([]uint32, 1<<10), make([]uint64, 1<<10)
	}
	clear(bq.stmtKey)
	bq.stmtHits, bq.stmtN = bq.stmtHits[:0], 0
}

// bm25Fwd returns the terms of the tokens setFwd set for entry e, of
// normalisation k, in units: each token's tf is the number of the entry's
// statements other than its target holding it, as the index counts it.
// A statement's tokens are decoded once per floor (fwdStmt): the entries
// of a file share most of their statements, and the entries a floor
// scores are often of one file (its own, ownFileCandidates), whose
// statements can be long (a table of constants is one statement).
func (ix *Index) bm25Fwd(bq *bm25Query, e uint32, k float64, v *entryView) int64 {
	ix.entry(e, v)
	tfs := bq.fwdTF
	hit := bq.fwdHit[:0]
	for _, n := range v.nodes {
		if n == v.target {
			continue
		}
		for _, i := range bq.fwdStmt(ix, n) {
			if tfs[i] == 0 {
				hit = append(hit, i)
			}
			tfs[i]++
		}
	}
	var sum int64
	for _, i := range hit {
		sum += roundTerm(bm25Raw(bq.fwd[i].w, tfs[i], k))
		tfs[i] = 0
	}
	bq.fwdHit = hit[:0]
	return sum
}

// fwdStmt returns the indexes in fwd of the tokens statement n holds,
// decoding them on the statement's first use since setFwd: stmtKey is a
// table by open addressing of the statements decoded (n+1, 0: empty),
// stmtAt their indexes' place in stmtHits (offset<<32 | count). The slice
// returned is valid until the next call.
func (bq *bm25Query) fwdStmt(ix *Index, n uint32) []int32 {
	mask, shift := uint32(len(bq.stmtKey)-1), uint(32-bits.TrailingZeros(uint(len(bq.stmtKey))))
	h := (n * 0x9e3779b1) >> shift
	for ; bq.stmtKey[h] != 0; h = (h + 1) & mask {
		if bq.stmtKey[h] == n+1 {
			at := bq.stmtAt[h]
			return bq.stmtHits[at>>32 : at>>32+at&math.MaxUint32]
		}
	}
	tab, tshift := bq.fwdTab, bq.fwdShift
	tmask := uint32(len(tab) - 1)
	from := len(bq.stmtHits)
	hits := bq.stmtHits
	b := ix.stmtTokens[ix.stmtTokOff[n]:ix.stmtTokOff[n+1]]
	t := uint32(0)
	for len(b) > 0 {
		if b[0] < 0x80 {
			t += uint32(b[0])
			b = b[1:]
		} else {
			x, l := uvarint(b)
			t += uint32(x)
			b = b[l:]
		}
		for h := (t * 0x9e3779b1) >> tshift; tab[h] != 0; h = (h + 1) & tmask {
			if uint32(tab[h]>>32) == t {
				hits = append(hits, int32(tab[h]&math.MaxUint32)-1)
				break
			}
		}
	}
	bq.stmtHits = hits
	if 2*(bq.stmtN+1) > len(bq.stmtKey) {
		bq.growStmt()
		mask, shift = uint32(len(bq.stmtKey)-1), uint(32-bits.TrailingZeros(uint(len(bq.stmtKey))))
		h = (n * 0x9e3779b1) >> shift
		for bq.stmtKey[h] != 0 {
			h = (h + 1) & mask
		}
	}
	bq.stmtKey[h] = n + 1
	bq.stmtAt[h] = uint64(from)<<32 | uint64(len(hits)-from)
	bq.stmtN++
	return hits[from:]
}

// growStmt doubles the table of fwdStmt.
func (bq *bm25Query) growStmt() {
	key, at := bq.stmtKey, bq.stmtAt
	size := 2 * len(key)
	bq.stmtKey, bq.stmtAt = make([]uint32, size), make([]uint64, size)
	mask, shift := uint32(size-1), uint(32-bits.TrailingZeros(uint(size)))
	for i, k := range key {
		if k == 0 {
			continue
		}
		h := ((k - 1) * 0x9e3779b1) >> shift
		for bq.stmtKey[h] != 0 {
			h = (h + 1) & mask
		}
		bq.stmtKey[h], bq.stmtAt[h] = k, at[i]
	}
}

// ownFileCandidates appends to cand up to limit entries of the query's own
// file that do not leak, the last ones before the cursor (examining at
// most 8 limit from the file's end): the best entries of a long query are
// often in its own file, and with the ranges the long lists' tables let
// the walk leave out (bm25seek.go), a higher floor leaves out more.
func (ix *Index) ownFileCandidates(q *Query, cand []uint32, limit int, v *entryView) []uint32 {
	fi, ok := ix.byPath[q.Path]
	if !ok || q.Path == "" {
		return cand
	}
	lo, hi := ix.files[fi].entryBase, uint32(ix.Len())
	if int(fi)+1 < len(ix.files) {
		hi = ix.files[fi+1].entryBase
	}
	took := 0
	for e, tries := hi, 0; e > lo && took < limit && tries < 8*limit; tries++ {
		e--
		if !ix.leaks(q, e, v) {
			cand = append(cand, e)
			took++
		}
	}
	return cand
}
