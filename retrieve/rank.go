package retrieve

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"
)

// Ranker is one coarse signal: an exact ranking of a snapshot's live
// entries against a query. Every implementation applies the same rules, so
// that their lists can be fused and compared:
//
//   - exact: the n best entries by the signal's score, ties broken by entry
//     id ascending; entries scoring 0 or less (sharing nothing) are left
//     out;
//   - the leak rule and the query's language filter, as the coarse stage
//     of section 4 applies them;
//   - base and delta of a Snapshot are ranked as one index of the live
//     files would be (the scores of a signal with corpus statistics, such
//     as BM25's document frequencies, are over the live entries);
//   - when the deadline passes, the best entries of the part scanned are
//     returned with RankStats.Partial set; a cancelled ctx is an error.
//
// Jaccard and BM25 visit the entries by blocks with bounds (blocks.go)
// before exact scoring, skipping the blocks that cannot reach the heap;
// any faster search can replace them behind this interface as long as it
// returns the same list, which the brute-force property tests check.
type Ranker interface {
	// Name identifies the signal in Stats ("jaccard", "bm25", "dense").
	Name() string
	// Rank returns the best n live entries of s for q, best first.
	Rank(ctx context.Context, s *Snapshot, q *Query, n int, deadline time.Time) ([]Hit, RankStats, error)
}

// Hit is one ranked entry: its snapshot entry id and the signal's score.
type Hit struct {
	Entry int
	Score float64
}

// RankStats describe the work of one Ranker.Rank.
type RankStats struct {
	Name    string        `json:"name"`
	Scanned int           `json:"scanned"` // entries sharing something with the query the scan visited (not those of skipped blocks, nor those Jaccard rules out by their own bound)
	Scored  int           `json:"scored"`  // entries scored exactly (past the bounds)
	Leaked  int           `json:"leaked"`  // entries dropped by the leak rule
	Hits    int           `json:"hits"`
	Time    time.Duration `json:"time_ns"`
	Partial bool          `json:"partial"`
}

// scanLimit carries the cancellation and the deadline into a scan, which
// polls them every few thousand entries.
type scanLimit struct {
	ctx      context.Context
	deadline time.Time
	err      error // ctx's error once seen
	partial  bool  // the deadline passed
}

// pollEvery is the number of entries a scan visits between two polls.
const pollEvery = 1 << 13

// stop reports whether the scan must end now.
func (l *scanLimit) stop() bool {
	if l == nil {
		return false
	}
	if l.err != nil || l.partial {
		return true
	}
	if err := l.ctx.Err(); err != nil {
		l.err = err
		return true
	}
	if !l.deadline.IsZero() && time.Now().After(l.deadline) {
		l.partial = true
		return true
	}
	return false
}

// betterHit orders hits by score descending, then entry ascending.
func betterHit(a, b Hit) int {
	return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.Entry, b.Entry))
}

// layerFunc ranks one part of a snapshot: ix with the files marked in dead
// left out, q in ix's token ids. Entry ids of the hits are ix's own.
type layerFunc func(ix *Index, q *Query, dead []bool, lim *scanLimit, st *RankStats) []Hit

// rankLayers runs top on the base and the delta of s and merges their
// lists: each part holds its own best n under scores that do not depend
// on the part, so the n best of the union, ordered by (score, entry id),
// are the snapshot's.
func (s *Snapshot) rankLayers(ctx context.Context, name string, q *Query, n int, deadline time.Time, top layerFunc) (_ []Hit, st RankStats, err error) {
	defer s.guard(&err)
	t0 := time.Now()
	st = RankStats{Name: name}
	if err := s.rankable(ctx, name, q); err != nil {
		return nil, st, err
	}
	lim := &scanLimit{ctx: ctx, deadline: deadline}
	hits := top(s.base, q, s.dead, lim, &st)
	if s.delta != nil && !lim.stop() {
		hits = s.mergeDelta(hits, top(s.delta, q.delta, nil, lim, &st), n)
	}
	st.Time = time.Since(t0)
	st.Hits = len(hits)
	if lim.err != nil {
		return nil, st, fmt.Errorf("rank %s: %w", name, lim.err)
	}
	st.Partial = lim.partial
	return hits, st, nil
}

// rankable returns the error of a ranking named name of q in s that
// cannot start: ctx is done, or q was not made for s (it lacks the
// delta's token ids).
func (s *Snapshot) rankable(ctx context.Context, name string, q *Query) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("rank %s: %w", name, err)
	}
	if s.delta != nil && q.delta == nil {
		return fmt.Errorf("rank %s: the query was not made for this snapshot", name)
	}
	return nil
}

// mergeDelta merges the n best of the base (hits) and of the delta (more,
// in the delta's entry ids) into the snapshot's n best.
func (s *Snapshot) mergeDelta(hits, more []Hit, n int) []Hit {
	nb := s.base.Len()
	for _, h := range more {
		h.Entry += nb
		hits = append(hits, h)
	}
	slices.SortFunc(hits, betterHit)
	return hits[:min(len(hits), n)]
}

// Jaccard returns the ranker of section 4's coarse stage: the Jaccard
// similarity of the key token sets.
func Jaccard() Ranker { return jaccard{} }

type jaccard struct{}

func (jaccard) Name() string { return "jaccard" }

func (jaccard) Rank(ctx context.Context, s *Snapshot, q *Query, n int, deadline time.Time) ([]Hit, RankStats, error) {
	return s.rankLayers(ctx, "jaccard", q, n, deadline, func(ix *Index, lq *Query, dead []bool, lim *scanLimit, st *RankStats) []Hit {
		jaccardRunning.Add(1)
		defer jaccardRunning.Add(-1)
		sc := ix.getScratch()
		ix.countJaccard(lq, sc, n, dead)
		hits := ix.topK(lq, sc, n, dead, lim, st)
		if sc.band >= 0 {
			hits = ix.checkBand(lq, sc, n, dead, lim, st, hits)
		}
		ix.release(sc)
		return hits
	})
}
