package retrieve

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"
)

// FuseRRF merges ranked lists by reciprocal rank fusion (Cormack et al.
// 2009, spec section 9): an entry scores the sum over the lists holding it
// of 1/(k + rank), rank counted from 1; a list without it adds nothing.
// The result holds every entry of any list, best first, ties broken by
// entry id ascending. The sums are taken in list order, so equal inputs
// give bit-identical scores.
func FuseRRF(lists [][]Hit, k float64) []Hit {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	at := make(map[int]int, n)
	out := make([]Hit, 0, n)
	for _, l := range lists {
		for r, h := range l {
			w := 1 / (k + float64(r+1))
			if i, ok := at[h.Entry]; ok {
				out[i].Score += w
				continue
			}
			at[h.Entry] = len(out)
			out = append(out, Hit{Entry: h.Entry, Score: w})
		}
	}
	slices.SortFunc(out, betterHit)
	return out
}

// rankers returns the signals of mode hybrid for q.
func (s *Snapshot) rankers(q *Query, opt Options) []Ranker {
	if opt.Rankers != nil {
		return opt.Rankers
	}
	rs := []Ranker{Jaccard(), BM25(opt.BM25)}
	if len(q.Vector.Values) > 0 && s.HasVectors() {
		rs = append(rs, Dense())
	}
	return rs
}

// hybridRunning counts the hybrid searches of the process under way, for
// WalkAuto.
var hybridRunning atomic.Int32

// shareWalk reports whether a hybrid search with opt, one of running at
// once, walks the postings once for both default rankers: always for
// WalkShared, never for WalkSeparate, and for WalkAuto when the searches
// under way need two cores each (their rankers side by side) and the
// process has fewer. Sharing saves CPU time (the walk is the rankers'
// largest common cost); walking apart saves wall time when a core would
// otherwise idle, since the Jaccard ranker then runs whole beside BM25's.
func shareWalk(opt Options, running int32) bool {
	switch opt.Walk {
	case WalkShared:
		return true
	case WalkSeparate:
		return false
	}
	return 2*int(running) > runtime.GOMAXPROCS(0)
}

// hybrid runs the rankers of mode hybrid at once, each for its top
// opt.PerRanker, and fuses their lists into the opt.Pool best by RRF. The
// default Jaccard and BM25 rankers may share their walk over the postings
// (rankJaccardBM25, see shareWalk).
func (s *Snapshot) hybrid(ctx context.Context, q *Query, opt Options, deadline time.Time, st *Stats) ([]Hit, error) {
	running := hybridRunning.Add(1)
	defer hybridRunning.Add(-1)
	rankers := s.rankers(q, opt)
	lists := make([][]Hit, len(rankers))
	stats := make([]RankStats, len(rankers))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	first := 0
	if opt.Rankers == nil && shareWalk(opt, running) {
		first = 2
		g.Go(func() error {
			l, rs, err := s.rankJaccardBM25(gctx, q, opt.BM25, opt.PerRanker, deadline)
			copy(lists, l[:])
			copy(stats, rs[:])
			return err
		})
	}
	for i := first; i < len(rankers); i++ {
		g.Go(func() error {
			var err error
			lists[i], stats[i], err = rankers[i].Rank(gctx, s, q, opt.PerRanker, deadline)
			return err
		})
	}
	err := g.Wait()
	for _, rs := range stats {
		st.add(rs)
	}
	if err != nil {
		return nil, err
	}
	fused := FuseRRF(lists, opt.RRFK)
	return fused[:min(len(fused), opt.Pool)], nil
}

// rankJaccardBM25 returns the lists of Jaccard().Rank and BM25(p).Rank,
// each of the n best, and their stats, ranking both in one pass over the
// postings of the query's rarer tokens per part of the snapshot: the
// Jaccard scan counts them, BM25 adds up their terms, and walking the
// postings is the largest shared cost of the two. Each ranker's Time is
// the walk's and its own scan's.
func (s *Snapshot) rankJaccardBM25(ctx context.Context, q *Query, p BM25Params, n int, deadline time.Time) (lists [2][]Hit, st [2]RankStats, err error) {
	defer s.guard(&err)
	st = [2]RankStats{{Name: "jaccard"}, {Name: "bm25"}}
	if err := p.Validate(); err != nil {
		return lists, st, fmt.Errorf("rank %w", err)
	}
	if err := s.rankable(ctx, "jaccard and bm25", q); err != nil {
		return lists, st, err
	}
	N := s.Len()
	kA, kB := p.norm(N, s.liveDL())
	lim := &scanLimit{ctx: ctx, deadline: deadline}
	// BM25 scores the terms of tq (all of q's, or those p.Terms keeps);
	// the walk counts Jaccard's over all of q's.
	tq, c := s.bm25Terms(q, p.Terms)
	defer c.release()
	layer := func(ix *Index, lq, blq *Query, dead []bool) ([2][]Hit, error) {
		t0 := time.Now()
		bq := getBM25Query(ix)
		defer bm25QueryPool.Put(bq)
		bq.prepare(s, ix, blq, p, N, kA, kB)
		bs := ix.bm25Start(bq, lq, n, dead, &st[1])
		defer bs.release()
		js := ix.getScratch()
		defer ix.release(js)
		// Once the walk is done, the Jaccard scan runs beside BM25's rank
		// of the last region, polling its own copy of the limit.
		job, _ := jaccardJobs.Get().(*jaccardJob)
		if job == nil {
			job = &jaccardJob{}
		}
		defer func() {
			// Also when BM25's scan panics (a damaged mapped index): js
			// goes back to its pool only once the job is done with it (a
			// job not started yet has nothing to wait for).
			job.wg.Wait()
			*job = jaccardJob{}
			jaccardJobs.Put(job)
		}()
		var t1 time.Time
		bh := bs.run(lim, js, func() {
			t1 = time.Now()
			*job = jaccardJob{s: s, ix: ix, q: lq, sc: js, n: n, dead: dead, lim: *lim, st: &st[0]}
			job.wg.Add(1)
			go job.run()
		})
		job.wg.Wait()
		walk := t1.Sub(t0)
		st[0].Time += walk + job.took
		st[1].Time += time.Since(t0)
		lim.err = cmp.Or(lim.err, job.lim.err)
		lim.partial = lim.partial || job.lim.partial
		return [2][]Hit{job.hits, bh}, job.err
	}
	lists, err = layer(s.base, q, tq, s.dead)
	if err == nil && s.delta != nil && !lim.stop() {
		var more [2][]Hit
		more, err = layer(s.delta, q.delta, tq.delta, nil)
		for i := range lists {
			lists[i] = s.mergeDelta(lists[i], more[i], n)
		}
	}
	if err != nil {
		return [2][]Hit{}, st, err
	}
	for i := range st {
		st[i].Hits = len(lists[i])
		st[i].Partial = lim.partial
	}
	if lim.err != nil {
		return [2][]Hit{}, st, fmt.Errorf("rank jaccard and bm25: %w", lim.err)
	}
	return lists, st, nil
}

// jaccardJob is the Jaccard scan of a joint ranking, run on its own
// goroutine (one per ranking, beside the caller's; pooled, so that a
// ranking allocates its lists only).
type jaccardJob struct {
	wg   sync.WaitGroup
	s    *Snapshot
	ix   *Index
	q    *Query
	sc   *scratch
	n    int
	dead []bool
	lim  scanLimit
	st   *RankStats
	hits []Hit
	took time.Duration
	err  error
}

var jaccardJobs sync.Pool

func (j *jaccardJob) run() {
	defer j.wg.Done()
	defer j.s.guard(&j.err)
	t := time.Now()
	j.hits = j.ix.topK(j.q, j.sc, j.n, j.dead, &j.lim, j.st)
	j.took = time.Since(t)
}
