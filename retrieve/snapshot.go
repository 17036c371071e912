package retrieve

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"time"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/sed"
	"github.com/graphcoder/graphcoder/slice"
)

// Snapshot is what a query searches when the repository changes under a
// long-lived index: a large immutable base Index with the files that
// changed since it was built masked out, and a small delta Index holding
// their current versions. Building an Index over a whole repository takes
// seconds; a delta of the few files an editor saved takes milliseconds, so
// a save becomes visible at once and the delta is folded into a new base
// in the background now and then.
//
// Both parts are searched exactly and the results merged, so a Snapshot
// answers as one Index over its live files would. Entry ids of the delta
// follow the base's: delta entry e is Candidate.Entry base.Len()+e. A
// Snapshot is immutable and safe for concurrent queries.
type Snapshot struct {
	base        *Index
	dead        []bool // per base file: masked out; nil when none is
	deadFiles   int
	deadEntries int
	delta       *Index // nil when empty

	// BM25's live corpus statistics (bm25.go): the document frequencies
	// and total length of the masked base entries, and the delta's token
	// ids in the base (-1 for none) and back.
	deadDF      map[uint32]uint32
	deadDL      uint64
	deltaToBase []int32
	baseToDelta map[uint32]uint32
}

// NewSnapshot returns base with the files at the given paths masked out
// (changed or deleted since base was built) and the files of delta (nil
// for none) in their place; a file of delta masks the base's file of the
// same path whether or not it is listed. delta must have been built with
// base's tokenizer and parameters.
func NewSnapshot(base, delta *Index, masked []string) (_ *Snapshot, err error) {
	s := &Snapshot{base: base}
	defer s.guard(&err)
	if delta != nil && delta.Len() == 0 && delta.Files() == 0 {
		delta = nil
	}
	if delta != nil {
		if delta.params != base.params || delta.tok.Name() != base.tok.Name() {
			return nil, errors.New("snapshot: the delta was built with other parameters than the base")
		}
		s.delta = delta
	}
	mask := func(p string) {
		fi, ok := base.byPath[p]
		if !ok || s.dead != nil && s.dead[fi] {
			return
		}
		if s.dead == nil {
			s.dead = make([]bool, len(base.files))
		}
		s.dead[fi] = true
		s.deadFiles++
		s.deadEntries += int(base.fileEntries(fi))
	}
	for _, p := range masked {
		mask(p)
	}
	if delta != nil {
		for _, f := range delta.files {
			mask(f.path)
		}
	}
	s.initBM25()
	return s, nil
}

// Base returns the base index.
func (s *Snapshot) Base() *Index { return s.base }

// Delta returns the delta index, or nil.
func (s *Snapshot) Delta() *Index { return s.delta }

// Masked returns the number of base files masked out.
func (s *Snapshot) Masked() int { return s.deadFiles }

// Len returns the number of live entries.
func (s *Snapshot) Len() int { return s.base.Len() - s.deadEntries + s.delta.length() }

// Files returns the number of live files.
func (s *Snapshot) Files() int {
	n := s.base.Files() - s.deadFiles
	if s.delta != nil {
		n += s.delta.Files()
	}
	return n
}

// Params returns the slicing parameters of the index.
func (s *Snapshot) Params() Params { return s.base.params }

// Bytes estimates the memory the snapshot holds.
func (s *Snapshot) Bytes() int64 {
	n := s.base.Bytes() + int64(len(s.dead))
	if s.delta != nil {
		n += s.delta.Bytes()
	}
	return n
}

// SourceError is Index.SourceError of the base or the delta.
func (s *Snapshot) SourceError() error {
	if err := s.base.SourceError(); err != nil {
		return err
	}
	if s.delta != nil {
		return s.delta.SourceError()
	}
	return nil
}

// Lines returns the indexed lines of the live file at path, or nil.
func (s *Snapshot) Lines(path string) []string {
	defer s.quiet()
	if s.delta != nil {
		if l := s.delta.Lines(path); l != nil {
			return l
		}
	}
	if fi, ok := s.base.byPath[path]; ok && (s.dead == nil || !s.dead[fi]) {
		return s.base.lines(fi)
	}
	return nil
}

// Text returns the indexed source of the live file at path row by row
// (Index.Text), or nil where Lines returns nil.
func (s *Snapshot) Text(path string) *Text {
	defer s.quiet()
	var t *Text
	if s.delta != nil {
		t = s.delta.Text(path)
	}
	if fi, ok := s.base.byPath[path]; t == nil && ok && (s.dead == nil || !s.dead[fi]) {
		t = s.base.Text(path)
	}
	if t != nil {
		t.s = s
	}
	return t
}

func (ix *Index) length() int {
	if ix == nil {
		return 0
	}
	return ix.Len()
}

// fileEntries returns the number of entries of file fi.
func (ix *Index) fileEntries(fi int32) uint32 {
	end := uint32(ix.Len())
	if int(fi)+1 < len(ix.files) {
		end = ix.files[fi+1].entryBase
	}
	return end - ix.files[fi].entryBase
}

// NewQuery turns the slice sl of the query-side graph g into a Query for
// both parts of the snapshot (their token ids differ).
func (s *Snapshot) NewQuery(g *ccg.Graph, sl *slice.Slice, path string, line int) (q *Query) {
	defer func() {
		if q == nil { // a damaged mapped base: a query that finds nothing
			q = &Query{Path: path, Line: line}
			if s.delta != nil {
				q.delta = &Query{Path: path, Line: line}
			}
		}
	}()
	defer s.quiet()
	q = s.base.NewQuery(g, sl, path, line)
	if s.delta != nil {
		q.delta = s.delta.NewQuery(g, sl, path, line)
	}
	return q
}

// layer resolves a snapshot entry id to its index, the query in that
// index's token ids, and the entry id inside it.
func (s *Snapshot) layer(e int, q, dq *Query) (*Index, *Query, uint32) {
	if nb := s.base.Len(); e >= nb {
		return s.delta, dq, uint32(e - nb)
	}
	return s.base, q, uint32(e)
}

// Search ranks the snapshot's live entries against q, as Index.Search
// does. q must come from the snapshot's NewQuery.
func (s *Snapshot) Search(ctx context.Context, q *Query, opt Options) (_ []Candidate, _ Stats, err error) {
	defer s.guard(&err)
	opt = opt.withDefaults()
	st := Stats{Entries: s.Len()}
	var deadline time.Time
	if opt.Budget > 0 {
		deadline = time.Now().Add(opt.Budget)
	}
	t0 := time.Now()
	if err := ctx.Err(); err != nil {
		return nil, st, fmt.Errorf("search: %w", err)
	}
	if !slices.Contains(Modes(), opt.Mode) {
		return nil, st, fmt.Errorf("search: unknown mode %q", opt.Mode)
	}
	dq := q.delta
	if s.delta != nil && dq == nil {
		return nil, st, errors.New("search: the query was not made for this snapshot")
	}

	var cands []Candidate
	if opt.Mode == Fine {
		cands = s.all(q, dq, &st)
	} else {
		hits, err := s.coarse(ctx, q, opt, deadline, &st)
		if err != nil {
			return nil, st, fmt.Errorf("search: %w", err)
		}
		cands = make([]Candidate, len(hits))
		for i, h := range hits {
			cands[i] = s.candidate(h.Entry, h.Score)
		}
	}
	st.Coarse = time.Since(t0)

	if opt.Mode == Coarse || opt.Mode == BM25Only {
		for i := range cands {
			cands[i].Score = cands[i].Coarse
		}
		return cands, st, nil
	}
	t1 := time.Now()
	err = s.fine(ctx, q, dq, cands, opt.Gamma, deadline)
	st.Fine = time.Since(t1)
	if errors.Is(err, errBudget) {
		st.Partial = true
	} else if err != nil {
		return nil, st, fmt.Errorf("search: %w", err)
	}
	for i := range cands {
		if !math.IsNaN(cands[i].SED) {
			st.Candidates++
		}
	}
	sort.SliceStable(cands, func(i, j int) bool { return less(&cands[i], &cands[j]) })
	if len(cands) > opt.TopK {
		cands = cands[:opt.TopK]
	}
	// Keep the alignments of the returned candidates only: recomputing k
	// distances is cheaper than copying one per scored entry.
	if !opt.NoAlignments {
		for i := range cands {
			s.align(q, &cands[i], opt.Gamma)
		}
	}
	return cands, st, nil
}

// Align sets the alignment of candidate c of a search for q (with
// Options.NoAlignments) as the search would have set it: gamma is the
// search's Options.Gamma (0 for its default). A candidate the fine stage
// did not score keeps none.
func (s *Snapshot) Align(q *Query, c *Candidate, gamma float64) {
	defer s.quiet()
	if c.Alignment != nil {
		return
	}
	s.align(q, c, Options{Gamma: gamma}.withDefaults().Gamma)
}

// align sets c's alignment: its subgraph edit distance to q computed
// again, for the alignment the fine stage did not keep.
func (s *Snapshot) align(q *Query, c *Candidate, gamma float64) {
	if math.IsNaN(c.SED) {
		return
	}
	fs := sedPool.Get().(*fineScratch)
	ix, lq, e := s.layer(c.Entry, q, q.delta)
	ix.graphOf(e, fs)
	sed.Distance(&lq.Graph, &fs.g, gamma, &fs.sed)
	c.Alignment = append([]int32(nil), fs.sed.Alignment()...)
	sedPool.Put(fs)
}

// coarse runs the coarse stage of a mode other than fine: the ranked
// entries the fine stage scores (or, in modes coarse and bm25, returns).
func (s *Snapshot) coarse(ctx context.Context, q *Query, opt Options, deadline time.Time, st *Stats) ([]Hit, error) {
	var hits []Hit
	var rs RankStats
	var err error
	switch opt.Mode {
	case Coarse:
		hits, rs, err = Jaccard().Rank(ctx, s, q, opt.TopK, deadline)
	case CoarseToFine:
		hits, rs, err = Jaccard().Rank(ctx, s, q, opt.Pool, deadline)
	case BM25Only:
		hits, rs, err = BM25(opt.BM25).Rank(ctx, s, q, opt.TopK, deadline)
	case Hybrid:
		return s.hybrid(ctx, q, opt, deadline, st)
	}
	st.add(rs)
	return hits, err
}

// add counts one ranker's work in the search's stats.
func (st *Stats) add(rs RankStats) {
	st.Rankers = append(st.Rankers, rs)
	st.Scanned += rs.Scanned
	st.Leaked += rs.Leaked
	st.Partial = st.Partial || rs.Partial
}

// candidate returns the candidate of snapshot entry e.
func (s *Snapshot) candidate(e int, coarse float64) Candidate {
	ix, _, le := s.layer(e, nil, nil)
	c := ix.candidate(le, coarse)
	c.Entry = e
	return c
}

// all returns every live, non-leaking entry with its Jaccard score (mode
// fine).
func (s *Snapshot) all(q, dq *Query, st *Stats) []Candidate {
	sc := s.base.getScratch()
	s.base.count(q, sc)
	cands := s.base.all(q, sc, s.dead, st)
	s.base.release(sc)
	if s.delta != nil {
		sc := s.delta.getScratch()
		s.delta.count(dq, sc)
		more := s.delta.all(dq, sc, nil, st)
		s.delta.release(sc)
		nb := s.base.Len()
		for i := range more {
			more[i].Entry += nb
		}
		cands = append(cands, more...)
	}
	return cands
}

// local returns the candidates of one part with entry ids inside it, and
// their positions in cands.
func (s *Snapshot) split(cands []Candidate) (parts [2][]Candidate, at [2][]int) {
	nb := s.base.Len()
	for i, c := range cands {
		l := 0
		if c.Entry >= nb {
			l, c.Entry = 1, c.Entry-nb
		}
		parts[l] = append(parts[l], c)
		at[l] = append(at[l], i)
	}
	return parts, at
}

// Values returns the values of cands, reading each file once.
func (s *Snapshot) Values(cands []Candidate) []string {
	out := make([]string, len(cands))
	defer s.quiet()
	parts, at := s.split(cands)
	for l, ix := range []*Index{s.base, s.delta} {
		if len(parts[l]) == 0 {
			continue
		}
		for i, v := range ix.Values(parts[l]) {
			out[at[l][i]] = v
		}
	}
	return out
}

// Statement returns the text of a candidate's target statement.
func (s *Snapshot) Statement(c *Candidate) string {
	defer s.quiet()
	ix, _, e := s.layer(c.Entry, nil, nil)
	lc := *c
	lc.Entry = int(e)
	return ix.Statement(&lc)
}

// Predict is Index.Predict for a candidate of the snapshot.
func (s *Snapshot) Predict(q *Query, c *Candidate) string {
	defer s.quiet()
	ix, lq, e := s.layer(c.Entry, q, q.delta)
	lc := *c
	lc.Entry = int(e)
	return ix.Predict(lq, &lc)
}

// guard turns a runtime error met while reading a snapshot whose base is
// mapped from a file (an index or a slice bound out of range: content
// that does not hold together, see Index.WriteTo) into ErrDamaged in
// *err. On an index built in memory such a panic is a bug and goes on.
// Deferred, it also keeps s, and so the mapping, reachable to the end of
// the call.
func (s *Snapshot) guard(err *error) {
	if s.base == nil || s.base.keep == nil {
		return
	}
	if r := recover(); r != nil {
		if !isDamage(r) {
			panic(r)
		}
		*err = fmt.Errorf("%w: %v", ErrDamaged, r)
	}
}

// quiet is guard for the calls that return no error: on a damaged
// mapped base they return what they have (empty text).
func (s *Snapshot) quiet() {
	if s.base == nil || s.base.keep == nil {
		return
	}
	if r := recover(); r != nil && !isDamage(r) {
		panic(r)
	}
}

func isDamage(r any) bool {
	switch r.(type) {
	case runtime.Error, damaged:
		return true
	}
	return false
}
