package retrieve

import (
	"context"
	"runtime"
	"slices"
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

// hybrid runs the rankers of mode hybrid at once, each for its top
// opt.PerRanker, and fuses their lists into the opt.Pool best by RRF.
func (s *Snapshot) hybrid(ctx context.Context, q *Query, opt Options, deadline time.Time, st *Stats) ([]Hit, error) {
	rankers := s.rankers(q, opt)
	lists := make([][]Hit, len(rankers))
	stats := make([]RankStats, len(rankers))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i, r := range rankers {
		g.Go(func() error {
			var err error
			lists[i], stats[i], err = r.Rank(gctx, s, q, opt.PerRanker, deadline)
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
