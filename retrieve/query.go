package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/embed"
	"github.com/graphcoder/graphcoder/sed"
	"github.com/graphcoder/graphcoder/slice"
)

// Mode selects the retrieval stages.
type Mode string

const (
	// Coarse ranks by Jaccard similarity of key token sets only.
	Coarse Mode = "coarse"
	// Fine ranks every entry by subgraph edit distance.
	Fine Mode = "fine"
	// CoarseToFine re-ranks the Jaccard top Options.Pool by subgraph edit
	// distance.
	CoarseToFine Mode = "coarse2fine"
	// BM25Only ranks by the BM25 score of the key token multisets only.
	BM25Only Mode = "bm25"
	// Hybrid fuses the lists of several rankers (Jaccard, BM25 and, when
	// the index has vectors, dense) by reciprocal rank fusion and re-ranks
	// the fused pool by subgraph edit distance (spec section 9).
	Hybrid Mode = "hybrid"
)

// Modes lists the modes, in the order help texts show them.
func Modes() []Mode { return []Mode{Coarse, Fine, CoarseToFine, BM25Only, Hybrid} }

// ParseMode checks a mode name; "" means CoarseToFine.
func ParseMode(s string) (Mode, error) {
	if s == "" {
		return CoarseToFine, nil
	}
	if slices.Contains(Modes(), Mode(s)) {
		return Mode(s), nil
	}
	return "", fmt.Errorf("unknown mode %q (want coarse, fine, coarse2fine, bm25 or hybrid)", s)
}

// Defaults of the hybrid stage (spec section 9).
const (
	DefaultPerRanker  = 50 // entries each ranker hands to the fusion
	DefaultHybridPool = 50 // fused candidates the fine stage re-ranks
	DefaultRRFK       = 60
)

// Options tune one search.
type Options struct {
	Mode Mode // default CoarseToFine
	TopK int  // candidates returned; default 10
	// Pool is the number of coarse candidates the fine stage re-ranks in
	// modes coarse2fine and hybrid, at least TopK: default TopK in
	// coarse2fine (the paper's stage), DefaultHybridPool in hybrid.
	Pool  int
	Gamma float64 // SED decay; default 0.1
	// Budget bounds the time of the search. When it runs out the
	// candidates ranked and scored so far are returned and Stats.Partial
	// is set; unscored candidates keep their coarse order after the
	// scored ones.
	Budget time.Duration

	// Rankers are the signals mode hybrid fuses; nil means Jaccard, BM25
	// with Options.BM25 and, when the snapshot holds vectors and the query
	// has one, Dense.
	Rankers []Ranker
	// PerRanker is the length of each ranker's list in mode hybrid
	// (default DefaultPerRanker); RRFK is the k of reciprocal rank fusion
	// (default DefaultRRFK).
	PerRanker int
	RRFK      float64
	// BM25 holds k1, b and the query term cap of mode bm25 and of hybrid's default BM25
	// ranker; k1 and b zero mean DefaultBM25's (BM25Params.WithDefaults).
	BM25 BM25Params
	// NoAlignments leaves the returned candidates' Alignment nil; a
	// caller that predicts from a few of them (Predict, Vote) sets theirs
	// with Snapshot.Align, instead of the search computing one per
	// candidate returned.
	NoAlignments bool
	// Walk says how hybrid's default Jaccard and BM25 rankers read the
	// postings: WalkAuto (the default) walks them once for both when the
	// searches running at once leave no core idle, and each on its own
	// core otherwise. The results are the same either way.
	Walk Walk
}

// Walk is how mode hybrid's default rankers walk the postings.
type Walk int8

const (
	// WalkAuto shares the walk only when cores are busy (see Options.Walk).
	WalkAuto Walk = iota
	// WalkShared walks the postings once for Jaccard and BM25, then runs
	// their scans side by side: the least CPU time.
	WalkShared
	// WalkSeparate runs the two rankers side by side, each with its own
	// walk: the least wall time when two cores are free.
	WalkSeparate
)

func (o Options) withDefaults() Options {
	if o.Mode == "" {
		o.Mode = CoarseToFine
	}
	if o.TopK <= 0 {
		o.TopK = 10
	}
	if o.Pool <= 0 {
		o.Pool = o.TopK
		if o.Mode == Hybrid {
			o.Pool = DefaultHybridPool
		}
	}
	o.Pool = max(o.Pool, o.TopK)
	if o.Gamma == 0 {
		o.Gamma = 0.1
	}
	if o.PerRanker <= 0 {
		o.PerRanker = DefaultPerRanker
	}
	if o.RRFK <= 0 {
		o.RRFK = DefaultRRFK
	}
	o.BM25 = o.BM25.WithDefaults()
	return o
}

// Query is the retrieval key of one cursor: the slice of the dummy target
// appended after the lines before the cursor.
type Query struct {
	// Path (relative to the repository root) and Line (1-based) locate the
	// cursor; they drive the leak rule. Path "" disables it.
	Path string
	Line int
	// Language, when set, restricts candidates to files of that language.
	Language string
	// Key is the token set of the slice (global ids; tokens the index
	// has never seen get ids past its vocabulary).
	Key []uint32
	// Graph is the slice in the form package sed scores.
	Graph sed.Graph
	// Nodes are the CCG vertex ids of the slice and Defs the names each
	// defines or binds as parameters, for renaming through the alignment.
	Nodes []int32
	Defs  [][]string
	// Indent is the leading white space of the last non-blank line
	// before the cursor.
	Indent string
	// Vector is the embedding of the slice's text for the dense ranker
	// (see KeyText); empty without one.
	Vector embed.Vector

	// delta is the same query in the token ids of a snapshot's delta.
	delta *Query
}

// NewQuery turns the slice s of the query-side graph g (whose target is
// the appended dummy vertex) into a Query.
func (ix *Index) NewQuery(g *ccg.Graph, s *slice.Slice, path string, line int) *Query {
	q := &Query{Path: path, Line: line, Nodes: s.Nodes, Defs: make([][]string, len(s.Nodes))}
	for i := len(g.Lines) - 1; i >= 0; i-- {
		if t := strings.TrimLeft(g.Lines[i], " \t"); t != "" {
			q.Indent = g.Lines[i][:len(g.Lines[i])-len(t)]
			break
		}
	}
	q.Graph = sed.Graph{Target: s.Target, Hop: s.Hop, Edges: s.Edges, Tokens: make([][]uint32, len(s.Nodes))}
	// The id of each word seen so far: a word recurs across the slice's
	// statements (keywords, the names they share), and a vocabulary
	// lookup is a binary search over the mapped table. Words the index
	// has never seen get ids past its vocabulary, in the order they come.
	seen := map[string]uint32{}
	unknown := 0
	var words []string
	for i, v := range s.Nodes {
		if i == s.Target || g.Nodes[v].Dummy {
			continue
		}
		q.Defs[i] = names(g.Defs(v), g.Params(v))
		words = ix.tok.Split(words[:0], g.Text(v))
		ids := make([]uint32, 0, len(words))
		for _, w := range words {
			id, ok := seen[w]
			if !ok {
				if id, ok = ix.vocab.Lookup(w); !ok {
					id = uint32(ix.vocab.Len() + unknown)
					unknown++
				}
				seen[w] = id
			}
			ids = append(ids, id)
		}
		ids = sortedSet(ids)
		q.Graph.Tokens[i] = ids
		q.Key = append(q.Key, ids...)
	}
	q.Key = sortedSet(q.Key)
	return q
}

// Candidate is one retrieved entry.
type Candidate struct {
	Entry int
	Path  string
	// StartLine and EndLine (1-based, inclusive) bound the value window;
	// TargetLine is the first line of the entry's statement.
	StartLine, EndLine, TargetLine int
	// Coarse is the coarse stage's score: the Jaccard similarity of the
	// keys in modes coarse, coarse2fine and fine, their BM25 score in
	// mode bm25, the reciprocal rank fusion score in mode hybrid. SED is
	// the subgraph edit distance, NaN when it was not computed (modes
	// coarse and bm25, or unscored because the budget ran out).
	Coarse, SED float64
	// Score is the rank as a similarity (higher is better): Coarse in
	// modes coarse and bm25, 1/(1+SED) otherwise (0 when SED was not
	// computed).
	Score float64
	// Alignment maps query slice positions to candidate slice positions
	// (sed.Unaligned when none); nil in mode coarse, and with
	// Options.NoAlignments until Snapshot.Align sets it.
	Alignment []int32
}

// Stats describe the work of one search.
type Stats struct {
	Entries    int           `json:"entries"`    // entries in the index
	Scanned    int           `json:"scanned"`    // entries sharing a token with the query the rankers visited (summed over rankers)
	Leaked     int           `json:"leaked"`     // candidates dropped by the leak rule (summed over rankers)
	Candidates int           `json:"candidates"` // entries scored by the fine stage
	Coarse     time.Duration `json:"coarse_ns"`
	Fine       time.Duration `json:"fine_ns"`
	Partial    bool          `json:"partial"` // the budget ran out
	// Rankers describe each coarse signal of the search.
	Rankers []RankStats `json:"rankers,omitempty"`
}

// scratch is the per-search reusable state of the coarse stage.
type scratch struct {
	counts []uint32 // per entry: query tokens without a mask bit in its key
	// bmax holds per block the largest count of its entries (0: no
	// posting touched the block). The walk keeps it as it counts, so
	// that no list of the touched entries is kept: the scan bounds a
	// block by it, the seeds are found through it and the counts are
	// cleared by the blocks it marks. counts and bmax are as long as the
	// index searched (Len and its blocks), and zero outside a search.
	bmax  []uint32
	qmask []uint64
	walk  []bm25Weight // the postings a joint walk visits (bm25Scratch.walk)
	heap  rankHeap[scored]
	nodes entryView
	// scan are the states of the Jaccard scan (splitscan.go): the
	// caller's, and the second half's when it is split.
	scan [2]jaccardScan

	// lo and hi bound the key lengths of the entries the Jaccard scan
	// scores (sizefilter.go): the counts of the others may be partial.
	lo, hi uint32
	order  []uint32 // the query's rarer tokens, in walk order
	cand   []uint32 // the Jaccard seeds' candidates (seedCands)

	// xq are the query's bits of the second mask (xmask.go), whose
	// tokens the walk left out, empty when it walked them; xmasks and xor
	// are the index's second masks and their block unions.
	xq     []uint64
	xmasks []uint64
	xor    []uint64
	xgor   []uint64 // the second masks' unions per group of blocks

	// kth is the k-th best of the last Jaccard scan when full: its heap
	// held k entries (rankLong's bound).
	kth  scored
	full bool

	// band is the band of long keys the walk took from (longpost.go),
	// -1 when none; rest are the lists the bands stood for (restBytes
	// long), seedLo the seeds' window's start, gate a bit set of entries.
	band      int
	rest      []uint32
	restBytes int
	seedLo    uint32
	gate      []uint64
	lists     [][]byte // the lists of a split walk (splitwalk.go)
}

var scratchPool freeList

func (ix *Index) getScratch() *scratch {
	s, _ := scratchPool.Get().(*scratch)
	if s == nil {
		s = &scratch{}
	}
	// The pooled buffers were cleared up to their capacity, whichever
	// index used them last.
	n, nb := ix.Len(), ix.nBlocks()
	if cap(s.counts) < n {
		s.counts = make([]uint32, n)
	}
	if cap(s.bmax) < nb {
		s.bmax = make([]uint32, nb)
	}
	s.counts, s.bmax = s.counts[:n], s.bmax[:nb]
	s.lo, s.hi = 0, math.MaxUint32
	s.band, s.rest, s.cand = -1, nil, s.cand[:0]
	s.xq, s.xmasks, s.xor, s.xgor = s.xq[:0], nil, nil, nil
	return s
}

var sedPool = sync.Pool{New: func() any { return new(fineScratch) }}

type fineScratch struct {
	sed    sed.Scratch
	g      sed.Graph
	v      entryView
	tokens []uint32
	ends   []int
	derive deriveScratch
}

// Search ranks the index's entries against q. It returns an error only
// when ctx is cancelled.
func (ix *Index) Search(ctx context.Context, q *Query, opt Options) ([]Candidate, Stats, error) {
	return (&Snapshot{base: ix}).Search(ctx, q, opt)
}

// less orders scored candidates by SED ascending, then coarse score
// descending, then entry; unscored ones (NaN) go last.
func less(a, b *Candidate) bool {
	an, bn := math.IsNaN(a.SED), math.IsNaN(b.SED)
	switch {
	case an != bn:
		return bn
	case !an && a.SED != b.SED:
		return a.SED < b.SED
	case a.Coarse != b.Coarse:
		return a.Coarse > b.Coarse
	}
	return a.Entry < b.Entry
}

// count prepares the query's side of the intersections: the bit set of
// its frequent tokens, and, in sc.counts, for every entry the number of
// the query's other tokens its key holds, walking their postings.
func (ix *Index) count(q *Query, sc *scratch) {
	ix.queryMask(q, sc)
	nv := uint32(len(ix.maskBit))
	for _, t := range q.Key {
		if t >= nv || ix.maskBit[t] >= 0 {
			continue // unseen token (in no key) or a mask bit
		}
		ix.walkPostings(t, sc, nil)
	}
}

// queryMask sets sc.qmask to the bits of the query's frequent tokens.
func (ix *Index) queryMask(q *Query, sc *scratch) {
	sc.qmask = slices.Grow(sc.qmask[:0], ix.maskWords)[:ix.maskWords]
	clear(sc.qmask)
	nv := uint32(len(ix.maskBit))
	for _, t := range q.Key {
		if t >= nv {
			continue // unseen token: in no key
		}
		if bit := ix.maskBit[t]; bit >= 0 {
			sc.qmask[bit>>6] |= 1 << (bit & 63)
		}
	}
}

// release clears the counts, by the blocks bmax marks, and returns sc
// to the pool.
func (ix *Index) release(sc *scratch) {
	ix.clearCounts(sc)
	sc.xmasks, sc.xor, sc.xgor = nil, nil, nil
	sc.band, sc.rest = -1, nil
	scratchPool.Put(sc)
}

// clearCounts clears the counts, by the blocks bmax marks, and bmax.
// Most blocks are untouched: it passes over eight at a time where none
// is marked.
func (ix *Index) clearCounts(sc *scratch) {
	counts, bmax := sc.counts, sc.bmax
	b := 0
	for ; b+8 <= len(bmax); b += 8 {
		w := bmax[b : b+8 : b+8]
		if w[0]|w[1]|w[2]|w[3]|w[4]|w[5]|w[6]|w[7] == 0 {
			continue
		}
		for j, m := range w {
			if m != 0 {
				clearBlock(counts, b+j)
				w[j] = 0
			}
		}
	}
	for ; b < len(bmax); b++ {
		if bmax[b] != 0 {
			clearBlock(counts, b)
			bmax[b] = 0
		}
	}
}

// clearBlock clears the counts of block b.
func clearBlock(counts []uint32, b int) {
	clear(counts[b*blockSize : min((b+1)*blockSize, len(counts))])
}

// inter returns |A n B| of the query's key and entry e's key.
func (ix *Index) inter(sc *scratch, e int) uint32 {
	n := sc.counts[e]
	m := ix.masks[e*ix.maskWords : (e+1)*ix.maskWords]
	for w, x := range sc.qmask {
		n += uint32(bits.OnesCount64(m[w] & x))
	}
	if len(sc.xq) > 0 {
		n += sc.xinter(e)
	}
	return n
}

// leaks reports whether entry e would reveal the code at or after the
// query's target line: same file, and its key or value reaches the
// target row.
func (ix *Index) leaks(q *Query, e uint32, v *entryView) bool {
	if q.Path == "" {
		return false
	}
	fi := ix.fileOf(e)
	f := &ix.files[fi]
	if f.path != q.Path {
		return false
	}
	ix.entry(e, v)
	row := int32(q.Line - 1)
	if min(ix.stmtRows[v.target][0]+ValueRadius, f.lines-1) >= row || ix.stmtRows[v.target][1] >= row {
		return true
	}
	for _, n := range v.nodes {
		if ix.stmtRows[n][1] >= row {
			return true
		}
	}
	return false
}

// dead reports whether entry e belongs to a file marked in dead (a file
// a snapshot's delta replaces or removes).
func (ix *Index) dead(dead []bool, e uint32) bool {
	return dead != nil && dead[ix.fileOf(e)]
}

func (ix *Index) sameLanguage(q *Query, e uint32) bool {
	return q.Language == "" || ix.files[ix.fileOf(e)].language == q.Language
}

// The seeds of the Jaccard scan: at most maxSeeds*k entries of the
// largest counts (counted up to maxSeedCount), flagged by seededFlag.
const (
	maxSeeds     = 4
	maxSeedCount = 64
	seededFlag   = 1 << 31
)

// scored is an entry with its Jaccard similarity inter/union.
type scored struct {
	e            uint32
	inter, union uint32
}

// better orders by similarity descending, then entry ascending. The
// fractions are compared exactly, which orders them as their float64
// values do (distinct fractions of integers below 2^26 never round to the
// same float64).
func better(a, b scored) bool {
	l, r := uint64(a.inter)*uint64(b.union), uint64(b.inter)*uint64(a.union)
	if l != r {
		return l > r
	}
	return a.e < b.e
}

func (s scored) score() float64 {
	if s.union == 0 {
		return 0
	}
	return float64(s.inter) / float64(s.union)
}

func (s scored) better(o scored) bool { return better(s, o) }

// topK returns the k entries of highest Jaccard similarity (ties by entry
// id), among entries sharing at least one token with the query, of the
// query's language and not leaking.
//
// It is exact. The intersection of an entry with the query is the count
// the postings walk left (the query's rarer tokens) plus a popcount of
// its mask against the query's (the frequent ones). The entries are
// visited in id order, by blocks (blocks.go): once the heap is full, a
// block is skipped when the bound of its entries cannot beat the heap's
// worst, inter/union with inter at most the block's largest count plus
// the query bits its masks' union holds, and union at least |Q| plus the
// block's smallest key length, less inter. A block no posting touched
// needs no count read. So that the bounds are tight from the start, the
// entries of the largest counts are scored first. The pass polls lim
// every pollEvery entries.
func (ix *Index) topK(q *Query, sc *scratch, k int, dead []bool, lim *scanLimit, st *RankStats) []Hit {
	js := &sc.scan[0]
	js.start(ix, q, sc, k, dead, lim, sc.heap[:0], &sc.nodes)
	anyMask := false
	for _, x := range sc.qmask {
		anyMask = anyMask || x != 0
	}
	for _, x := range sc.xq {
		anyMask = anyMask || x != 0
	}
	if !anyMask {
		js.touched()
	} else {
		bb := ix.blocks()
		bb.sizes(ix)
		// Seeds: the entries of the largest counts are scored first, so
		// that the bounds are tight from the first block; they are
		// flagged in counts so that the block pass leaves them out.
		counts, keyLen, n := sc.counts, ix.keyLen, js.n
		for _, e := range ix.seeds(sc, k, js.lb) {
			inter := ix.inter(sc, int(e))
			counts[e] |= seededFlag
			js.scanned++
			if js.beats(uint64(inter), uint64(n+keyLen[e]-inter), e) {
				js.offer(e, inter)
			}
		}
		ng := len(bb.groups(ix).lmin)
		if mid := ix.scanCut(js.lb, ng); mid > 0 {
			js.groupsSplit(&sc.scan[1], mid, ng)
		} else {
			js.groups(0, ng)
		}
	}
	h := js.h
	st.Scanned += js.scanned
	st.Scored += js.scanned
	st.Leaked += js.leaked
	sc.heap = h
	if sc.full = len(h) == k && k > 0; sc.full {
		sc.kth = h[0]
	}
	out := make([]Hit, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		s := h.pop()
		out[i] = Hit{Entry: int(s.e), Score: s.score()}
	}
	sc.heap = h
	return out
}

// seeds returns the entries the Jaccard scan scores first: in id order,
// the first maxSeeds*k entries of count at least c whose key length is
// in the window and whose block is in lb (nil: any), c the largest count
// up to maxSeedCount that k touched entries reach (seedCut).
func (ix *Index) seeds(sc *scratch, k int, lb []uint64) []uint32 {
	counts, keyLen, wlo, whi := sc.counts, ix.keyLen, sc.lo, sc.hi
	c, limit := sc.seedCut(uint32(k)), maxSeeds*k
	cand := sc.cand[:0]
	for b, m := range sc.bmax {
		lo, hi := b*blockSize, min((b+1)*blockSize, len(keyLen))
		if m < c || !inBlocks(lb, uint32(lo)) {
			continue
		}
		for e := lo; e < hi; e++ {
			if l := keyLen[e]; counts[e] >= c && l >= wlo && l <= whi {
				if cand = append(cand, uint32(e)); len(cand) == limit {
					sc.cand = cand
					return cand
				}
			}
		}
	}
	sc.cand = cand
	return cand
}

// seedCut returns the largest count c, up to maxSeedCount, that at least
// want touched entries reach, or 1 when no count above 1 does (histCut of
// the touched entries by count). The block maxima find it without a
// pass over the entries: cb, the largest count at least want blocks
// reach, is at most c (each such block holds an entry of count cb or
// more), and the entries of count above cb are in the fewer than want
// blocks whose largest count is above cb, so only those blocks' counts
// are read.
func (sc *scratch) seedCut(want uint32) uint32 {
	var hist [maxSeedCount + 1]uint32
	for _, m := range sc.bmax {
		hist[min(m, maxSeedCount)]++
	}
	cb := histCut(&hist, want)
	hist = [maxSeedCount + 1]uint32{}
	for b, m := range sc.bmax {
		if m <= cb {
			continue
		}
		for _, x := range sc.counts[b*blockSize : min((b+1)*blockSize, len(sc.counts))] {
			if x > cb {
				hist[min(x, maxSeedCount)]++
			}
		}
	}
	hist[cb] = want // at least want entries of count cb or more
	return histCut(&hist, want)
}

// histCut returns the largest count c, up to maxSeedCount, of which hist
// (the touched entries by count, capped at maxSeedCount) holds at least
// want entries of count c or more, or 1 when no count above 1 does.
func histCut(hist *[maxSeedCount + 1]uint32, want uint32) uint32 {
	c, have := uint32(maxSeedCount), uint32(0)
	for ; c > 1; c-- {
		if have += hist[c]; have >= want {
			break
		}
	}
	return c
}

// all returns every non-leaking entry with its coarse score.
func (ix *Index) all(q *Query, sc *scratch, dead []bool, st *Stats) []Candidate {
	out := make([]Candidate, 0, ix.Len())
	n := uint32(len(q.Key))
	// A copy (dups.go) takes its representative's intersection.
	var copied []uint32
	if ix.dup != nil {
		copied = make([]uint32, ix.Len())
	}
	for e := range ix.Len() {
		var inter uint32
		if ix.isCopy(uint32(e)) {
			inter = copied[e]
		} else {
			inter = ix.inter(sc, e)
			for d := ix.nextCopy(uint32(e)); d != 0; d = ix.nextCopy(d) {
				copied[d] = inter
			}
		}
		if inter > 0 {
			st.Scanned++
		}
		if !ix.sameLanguage(q, uint32(e)) || ix.dead(dead, uint32(e)) {
			continue
		}
		if ix.leaks(q, uint32(e), &sc.nodes) {
			st.Leaked++
			continue
		}
		s := scored{uint32(e), inter, n + ix.keyLen[e] - inter}
		out = append(out, ix.candidate(uint32(e), s.score()))
	}
	return out
}

func (ix *Index) candidate(e uint32, coarse float64) Candidate {
	fi := ix.fileOf(e)
	f := &ix.files[fi]
	target := f.stmtBase + ix.entryTarget(e)
	row := int(ix.stmtRows[target][0])
	return Candidate{
		Entry: int(e), Path: f.path,
		StartLine:  max(row-ValueRadius, 0) + 1,
		EndLine:    min(row+ValueRadius, int(f.lines)-1) + 1,
		TargetLine: row + 1,
		Coarse:     coarse, SED: math.NaN(),
	}
}

// entryTarget returns the file-local target statement of entry e.
func (ix *Index) entryTarget(e uint32) uint32 {
	t, _ := uvarint(ix.entryBytes[ix.entryOff[e]:])
	return uint32(t)
}

var errBudget = errors.New("time budget exhausted")

// fine scores cands by SED in parallel, in chunks, one sed.Scratch per
// worker.
func (s *Snapshot) fine(ctx context.Context, q, dq *Query, cands []Candidate, gamma float64, deadline time.Time) error {
	// Chunks of at most 64 candidates (the budget is checked between
	// them), split evenly over the workers when there are fewer: the 50
	// of a request's pool take two chunks on two cores, not one.
	procs := runtime.GOMAXPROCS(0)
	chunk := min(64, max(8, (len(cands)+procs-1)/procs))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(procs)
	for lo := 0; lo < len(cands); lo += chunk {
		part := cands[lo:min(lo+chunk, len(cands))]
		if err := gctx.Err(); err != nil {
			break
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			g.Wait()
			return errBudget
		}
		g.Go(func() (err error) {
			defer s.guard(&err)
			fs := sedPool.Get().(*fineScratch)
			defer sedPool.Put(fs)
			for i := range part {
				if i%16 == 0 {
					if err := gctx.Err(); err != nil {
						return err
					}
				}
				c := &part[i]
				ix, lq, e := s.layer(c.Entry, q, dq)
				ix.graphOf(e, fs)
				c.SED = sed.Distance(&lq.Graph, &fs.g, gamma, &fs.sed)
				c.Score = 1 / (1 + c.SED)
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}

// graphOf fills fs.g with entry e's slice, reusing fs's buffers.
func (ix *Index) graphOf(e uint32, fs *fineScratch) {
	ix.entry(e, &fs.v)
	g := &fs.g
	g.Target = fs.v.targetPos
	if x := ix.explicit[e]; x != nil {
		g.Hop, g.Edges = x.hop, x.edges
	} else {
		g.Hop, g.Edges = fs.derive.derive(ix, ix.files[fs.v.file].stmtBase, fs.v.nodes, fs.v.targetPos)
	}
	fs.tokens = fs.tokens[:0]
	fs.ends = fs.ends[:0]
	for _, n := range fs.v.nodes {
		fs.tokens = ix.appendStmtTokens(fs.tokens, n)
		fs.ends = append(fs.ends, len(fs.tokens))
	}
	g.Tokens = g.Tokens[:0]
	start := 0
	for _, end := range fs.ends {
		g.Tokens = append(g.Tokens, fs.tokens[start:end:end])
		start = end
	}
}

// Value returns the code window of a candidate (its value), lines
// StartLine..EndLine joined by '\n'.
func (ix *Index) Value(c *Candidate) string {
	return ix.rowsString(ix.fileOf(uint32(c.Entry)), c.StartLine-1, c.EndLine-1)
}

// Values returns the values of cands, reading for each only the frames of
// its file that its window covers.
func (ix *Index) Values(cands []Candidate) []string {
	out := make([]string, len(cands))
	for i := range cands {
		out[i] = ix.Value(&cands[i])
	}
	return out
}

// Statement returns the text of a candidate's target statement.
func (ix *Index) Statement(c *Candidate) string {
	fi := ix.fileOf(uint32(c.Entry))
	r := ix.stmtRows[ix.files[fi].stmtBase+ix.entryTarget(uint32(c.Entry))]
	return ix.rowsString(fi, int(r[0]), int(r[1]))
}
