package retrieve

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/graphcoder/graphcoder/ccg"
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
	// CoarseToFine re-ranks the coarse top-k by subgraph edit distance.
	CoarseToFine Mode = "coarse2fine"
)

// ParseMode checks a mode name; "" means CoarseToFine.
func ParseMode(s string) (Mode, error) {
	switch Mode(s) {
	case "":
		return CoarseToFine, nil
	case Coarse, Fine, CoarseToFine:
		return Mode(s), nil
	}
	return "", fmt.Errorf("unknown mode %q (want coarse, fine or coarse2fine)", s)
}

// Options tune one search.
type Options struct {
	Mode  Mode    // default CoarseToFine
	TopK  int     // candidates returned (and coarse candidates re-ranked); default 10
	Gamma float64 // SED decay; default 0.1
	// Budget bounds the time of the search. When it runs out the
	// candidates scored so far are returned and Stats.Partial is set;
	// unscored candidates keep their coarse order after the scored ones.
	Budget time.Duration
}

func (o Options) withDefaults() Options {
	if o.Mode == "" {
		o.Mode = CoarseToFine
	}
	if o.TopK <= 0 {
		o.TopK = 10
	}
	if o.Gamma == 0 {
		o.Gamma = 0.1
	}
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
	// defines, for renaming through the alignment.
	Nodes []int32
	Defs  [][]string
	// Indent is the leading white space of the last non-blank line
	// before the cursor.
	Indent string
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
	unknown := map[string]uint32{}
	var words []string
	for i, v := range s.Nodes {
		if i == s.Target || g.Nodes[v].Dummy {
			continue
		}
		q.Defs[i] = g.Nodes[v].Defs
		words = ix.tok.Split(words[:0], g.Text(v))
		ids := make([]uint32, 0, len(words))
		for _, w := range words {
			id, ok := ix.vocab[w]
			if !ok {
				if id, ok = unknown[w]; !ok {
					id = uint32(len(ix.vocab) + len(unknown))
					unknown[w] = id
				}
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
	// Coarse is the Jaccard similarity of the keys. SED is the subgraph
	// edit distance, NaN when it was not computed (mode coarse, or
	// unscored because the budget ran out).
	Coarse, SED float64
	// Score is the rank as a similarity (higher is better): Coarse in
	// mode coarse, 1/(1+SED) otherwise (0 when SED was not computed).
	Score float64
	// Alignment maps query slice positions to candidate slice positions
	// (sed.Unaligned when none); nil in mode coarse.
	Alignment []int32
}

// Stats describe the work of one search.
type Stats struct {
	Entries    int           `json:"entries"`    // entries in the index
	Scanned    int           `json:"scanned"`    // entries sharing a token with the query
	Leaked     int           `json:"leaked"`     // candidates dropped by the leak rule
	Candidates int           `json:"candidates"` // entries scored by the fine stage
	Coarse     time.Duration `json:"coarse_ns"`
	Fine       time.Duration `json:"fine_ns"`
	Partial    bool          `json:"partial"` // the budget ran out
}

// scratch is the per-search reusable state of the coarse stage.
type scratch struct {
	counts  []uint16
	touched []uint32
	order   []uint32
	pending []uint32
	rest    []uint32
}

var scratchPool sync.Pool

func (ix *Index) getScratch() *scratch {
	s, _ := scratchPool.Get().(*scratch)
	if s == nil {
		s = &scratch{}
	}
	if len(s.counts) < len(ix.entries) {
		s.counts = make([]uint16, len(ix.entries))
	}
	s.touched = s.touched[:0]
	return s
}

var sedPool = sync.Pool{New: func() any { return new(fineScratch) }}

type fineScratch struct {
	sed sed.Scratch
	g   sed.Graph
}

// Search ranks the index's entries against q. It returns an error only
// when ctx is cancelled.
func (ix *Index) Search(ctx context.Context, q *Query, opt Options) ([]Candidate, Stats, error) {
	opt = opt.withDefaults()
	st := Stats{Entries: len(ix.entries)}
	var deadline time.Time
	if opt.Budget > 0 {
		deadline = time.Now().Add(opt.Budget)
	}
	t0 := time.Now()
	if err := ctx.Err(); err != nil {
		return nil, st, fmt.Errorf("search: %w", err)
	}

	sc := ix.getScratch()
	defer scratchPool.Put(sc)
	var cands []Candidate
	switch opt.Mode {
	case Coarse, CoarseToFine:
		cands = ix.topK(q, sc, opt.TopK, &st)
	case Fine:
		ix.intersect(q.Key, sc)
		cands = ix.all(q, sc, &st)
	default:
		return nil, st, fmt.Errorf("search: unknown mode %q", opt.Mode)
	}
	st.Scanned = len(sc.touched)
	for _, e := range sc.touched {
		sc.counts[e] = 0
	}
	st.Coarse = time.Since(t0)

	if opt.Mode == Coarse {
		for i := range cands {
			cands[i].Score = cands[i].Coarse
		}
		return cands, st, nil
	}
	t1 := time.Now()
	st.Candidates = len(cands)
	err := ix.fine(ctx, q, cands, opt.Gamma, deadline)
	st.Fine = time.Since(t1)
	if errors.Is(err, errBudget) {
		st.Partial = true
	} else if err != nil {
		return nil, st, fmt.Errorf("search: %w", err)
	}
	sort.SliceStable(cands, func(i, j int) bool { return less(&cands[i], &cands[j]) })
	if len(cands) > opt.TopK {
		cands = cands[:opt.TopK]
	}
	// Keep the alignments of the returned candidates only: recomputing k
	// distances is cheaper than copying one per scored entry.
	fs := sedPool.Get().(*fineScratch)
	for i := range cands {
		if c := &cands[i]; !math.IsNaN(c.SED) {
			ix.graphOf(uint32(c.Entry), &fs.g)
			sed.Distance(&q.Graph, &fs.g, opt.Gamma, &fs.sed)
			c.Alignment = append([]int32(nil), fs.sed.Alignment()...)
		}
	}
	sedPool.Put(fs)
	return cands, st, nil
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

// intersect counts, for every entry sharing a token with key, the size of
// the intersection, walking the postings of the key's tokens.
func (ix *Index) intersect(key []uint32, sc *scratch) {
	nv := uint32(len(ix.postOff) - 1)
	for _, t := range key {
		if t >= nv {
			continue // unseen token: no postings
		}
		for _, e := range ix.post[ix.postOff[t]:ix.postOff[t+1]] {
			if sc.counts[e] == 0 {
				sc.touched = append(sc.touched, e)
			}
			sc.counts[e]++
		}
	}
}

func (ix *Index) jaccard(q *Query, e uint32, inter uint16) float64 {
	en := &ix.entries[e]
	union := len(q.Key) + int(en.keyEnd-en.keyOff) - int(inter)
	if union == 0 {
		return 0
	}
	return float64(inter) / float64(union)
}

// leaks reports whether entry e would reveal the code at or after the
// query's target line: same file, and its key or value reaches the
// target row.
func (ix *Index) leaks(q *Query, e uint32) bool {
	if q.Path == "" {
		return false
	}
	en := &ix.entries[e]
	f := &ix.files[en.file]
	if f.path != q.Path {
		return false
	}
	row := int32(q.Line - 1)
	valueEnd := min(ix.stmtRows[en.target][0]+ValueRadius, int32(len(f.lines)-1))
	return valueEnd >= row || en.lastRow >= row
}

func (ix *Index) sameLanguage(q *Query, e uint32) bool {
	return q.Language == "" || ix.files[ix.entries[e].file].language == q.Language
}

type scored struct {
	e     uint32
	score float64
}

// minHeap keeps the k best by (score desc, entry asc); its root is the worst.
type minHeap []scored

func (h minHeap) Len() int { return len(h) }
func (h minHeap) Less(i, j int) bool {
	if h[i].score != h[j].score {
		return h[i].score < h[j].score
	}
	return h[i].e > h[j].e
}
func (h minHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *minHeap) Push(x any)   { *h = append(*h, x.(scored)) }
func (h *minHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// verified marks, in scratch.counts, an entry whose exact score is known.
const verified = math.MaxUint16

// topK returns the k entries of highest Jaccard similarity (ties by entry
// id), among entries sharing at least one token with the query, of the
// query's language and not leaking.
//
// It is exact but avoids walking the long postings of common tokens when
// it can. An entry with similarity J shares I >= J*|A| of the query's |A|
// tokens (J <= I/|A| since |B| >= I). The query's tokens are visited
// rarest first, counting intersections; whenever verifying the entries
// met since the last check is cheaper than walking the next postings list,
// their exact scores are computed (the count so far plus a merge of the
// tokens still to visit against their key) and offered to the heap. Once
// the heap holds k entries whose worst score is theta, an entry not met
// yet, after the first j tokens, has I <= |A|-j; when |A|-j < theta*|A| it
// cannot enter the heap, not even on a tie, and the search stops.
func (ix *Index) topK(q *Query, sc *scratch, k int, st *Stats) []Candidate {
	nv := uint32(len(ix.postOff) - 1)
	postLen := func(t uint32) int {
		if t >= nv {
			return 0 // unseen token: no postings
		}
		return int(ix.postOff[t+1] - ix.postOff[t])
	}
	order := append(sc.order[:0], q.Key...)
	slices.SortFunc(order, func(a, b uint32) int { return cmp.Compare(postLen(a), postLen(b)) })
	sc.order = order
	n := len(q.Key)

	h := make(minHeap, 0, k+1)
	pending := sc.pending[:0]
	verify := func(j int) {
		rest := append(sc.rest[:0], order[j:]...)
		slices.Sort(rest)
		sc.rest = rest
		for _, e := range pending {
			key := ix.key(int(e))
			inter := int(sc.counts[e]) + intersection(rest, key)
			sc.counts[e] = verified
			s := scored{e, float64(inter) / float64(n+len(key)-inter)}
			if len(h) == k && !better(s, h[0]) {
				continue
			}
			if !ix.sameLanguage(q, e) {
				continue
			}
			if ix.leaks(q, e) {
				st.Leaked++
				continue
			}
			if len(h) < k {
				heap.Push(&h, s)
			} else {
				h[0] = s
				heap.Fix(&h, 0)
			}
		}
		pending = pending[:0]
	}
	for j, t := range order {
		pl := postLen(t)
		if len(pending) > 0 && pl > 4*len(pending) {
			verify(j)
		}
		if len(pending) == 0 && len(h) == k && float64(n-j) < h[0].score*float64(n)-1e-9 {
			break
		}
		if pl == 0 {
			continue
		}
		for _, e := range ix.post[ix.postOff[t]:ix.postOff[t+1]] {
			switch c := sc.counts[e]; c {
			case verified:
				continue
			case 0:
				sc.touched = append(sc.touched, e)
				pending = append(pending, e)
			}
			sc.counts[e]++
		}
	}
	verify(len(order))
	sc.pending = pending

	out := make([]Candidate, len(h))
	for i := len(h) - 1; i >= 0; i-- {
		s := heap.Pop(&h).(scored)
		out[i] = ix.candidate(s.e, s.score)
	}
	return out
}

// intersection returns |a n b| of two sorted sets.
func intersection(a, b []uint32) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			n++
			i++
			j++
		}
	}
	return n
}

func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.e < b.e
}

// all returns every non-leaking entry with its coarse score.
func (ix *Index) all(q *Query, sc *scratch, st *Stats) []Candidate {
	out := make([]Candidate, 0, len(ix.entries))
	for e := range ix.entries {
		if !ix.sameLanguage(q, uint32(e)) {
			continue
		}
		if ix.leaks(q, uint32(e)) {
			st.Leaked++
			continue
		}
		out = append(out, ix.candidate(uint32(e), ix.jaccard(q, uint32(e), sc.counts[e])))
	}
	return out
}

func (ix *Index) candidate(e uint32, coarse float64) Candidate {
	en := &ix.entries[e]
	f := &ix.files[en.file]
	row := int(ix.stmtRows[en.target][0])
	return Candidate{
		Entry: int(e), Path: f.path,
		StartLine:  max(row-ValueRadius, 0) + 1,
		EndLine:    min(row+ValueRadius, len(f.lines)-1) + 1,
		TargetLine: row + 1,
		Coarse:     coarse, SED: math.NaN(),
	}
}

var errBudget = errors.New("time budget exhausted")

// fine scores cands by SED in parallel, in chunks, one sed.Scratch per
// worker.
func (ix *Index) fine(ctx context.Context, q *Query, cands []Candidate, gamma float64, deadline time.Time) error {
	const chunk = 64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for lo := 0; lo < len(cands); lo += chunk {
		part := cands[lo:min(lo+chunk, len(cands))]
		if err := gctx.Err(); err != nil {
			break
		}
		if !deadline.IsZero() && time.Now().After(deadline) {
			g.Wait()
			return errBudget
		}
		g.Go(func() error {
			fs := sedPool.Get().(*fineScratch)
			defer sedPool.Put(fs)
			for i := range part {
				if i%16 == 0 {
					if err := gctx.Err(); err != nil {
						return err
					}
				}
				c := &part[i]
				ix.graphOf(uint32(c.Entry), &fs.g)
				c.SED = sed.Distance(&q.Graph, &fs.g, gamma, &fs.sed)
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

// graphOf fills g with entry e's slice, reusing g's buffers.
func (ix *Index) graphOf(e uint32, g *sed.Graph) {
	en := &ix.entries[e]
	nodes := ix.nodeArena[en.nodeOff : en.nodeOff+uint32(en.nodeLen)]
	g.Target = int(en.targetLocal)
	g.Hop = ix.hopArena[en.nodeOff : en.nodeOff+uint32(en.nodeLen)]
	g.Edges = ix.edgeArena[en.edgeOff : en.edgeOff+uint32(en.edgeLen)]
	g.Tokens = g.Tokens[:0]
	for _, n := range nodes {
		g.Tokens = append(g.Tokens, ix.stmtTokensOf(n))
	}
}

// Value returns the code window of a candidate (its value), lines
// StartLine..EndLine joined by '\n'.
func (ix *Index) Value(c *Candidate) string {
	f := &ix.files[ix.entries[c.Entry].file]
	return strings.Join(f.lines[c.StartLine-1:c.EndLine], "\n")
}

// Statement returns the text of a candidate's target statement.
func (ix *Index) Statement(c *Candidate) string {
	en := &ix.entries[c.Entry]
	f := &ix.files[en.file]
	r := ix.stmtRows[en.target]
	return strings.Join(f.lines[r[0]:r[1]+1], "\n")
}
