package retrieve

import (
	"cmp"
	"slices"
	"sync"
)

// The cap of a long BM25 query (BM25Params.Terms). A query's key is the
// token set of the cursor's slice, tens to hundreds of tokens, and BM25
// walks the postings of every one of them that has postings and bounds the
// entries by the mask weights of the others. Lucene's MoreLikeThis keeps
// of a long query only its terms of largest weight (idf times the term's
// frequency in the query); the key is a set, each term's frequency in it
// is 1, so the weight is the idf, and the terms of largest idf are those
// the fewest live entries hold. They carry most of any entry's score, and
// the terms left out are the frequent ones whose postings are the longest
// to walk.
//
// The cap is a property of the query on the whole snapshot, not of a
// part: the document frequencies are the live ones (Snapshot.liveDF) and
// ties are broken by the token's text, so the base and the delta, whose
// token ids differ, keep the same terms. BM25 on the capped query is then
// BM25 exactly, over the kept terms: the rankers and their exactness tests
// see a query with fewer terms. The Jaccard ranker of the same search
// keeps the whole key (the joint walk of mode hybrid counts its terms and
// adds only the kept ones' BM25 terms).
//
// The cap is off by default (Terms 0): it makes BM25 several times faster
// on long queries, but the evaluation (docs/EVAL.md) lost a little exact
// match at every cap tried, from 16 to 256 terms.

// bm25QueryTerm is a query term with live postings: its live document
// frequency, its text and its id in the base (inBase) or, for a term the
// base does not know, in the delta.
type bm25QueryTerm struct {
	df     int
	word   string
	t      uint32
	inBase bool
}

// bm25Cap is the pooled state of a capped query: the terms, and the
// capped copies of the query and of its delta that bm25Terms returns.
type bm25Cap struct {
	terms []bm25QueryTerm
	q, dq Query
}

var bm25CapPool sync.Pool

// release pools c (nil: nothing to do), keeping its buffers. The terms'
// words are views of the vocabulary, which may be a mapping of a file: a
// pooled view would outlive the call that read it (and the mapping, once
// its index is dropped and unmapped), so they are cleared.
func (c *bm25Cap) release() {
	if c == nil {
		return
	}
	key, dkey := c.q.Key[:0], c.dq.Key[:0]
	c.q, c.dq = Query{Key: key}, Query{Key: dkey}
	clear(c.terms)
	c.terms = c.terms[:0]
	bm25CapPool.Put(c)
}

// bm25Terms returns q with its key and its delta's cut to the k terms of
// largest idf, those held by the fewest live entries, ties by token text
// ascending; the terms no live entry holds are left out first. It returns
// q itself (and a nil state) when k is 0 or no more than k of q's terms
// are held; otherwise the capped query lives until its state's release.
func (s *Snapshot) bm25Terms(q *Query, k int) (*Query, *bm25Cap) {
	if k <= 0 {
		return q, nil
	}
	c, _ := bm25CapPool.Get().(*bm25Cap)
	if c == nil {
		c = &bm25Cap{}
	}
	terms := c.terms[:0]
	for _, t := range q.Key {
		if n := s.liveDF(s.base, t); n > 0 {
			terms = append(terms, bm25QueryTerm{df: n, word: s.base.vocab.View(t), t: t, inBase: true})
		}
	}
	if s.delta != nil && q.delta != nil {
		for _, d := range q.delta.Key {
			if int(d) < len(s.deltaToBase) && s.deltaToBase[d] >= 0 {
				continue // the base's id stands for it
			}
			if n := s.liveDF(s.delta, d); n > 0 {
				terms = append(terms, bm25QueryTerm{df: n, word: s.delta.vocab.View(d), t: d})
			}
		}
	}
	c.terms = terms
	if len(terms) <= k {
		c.release()
		return q, nil
	}
	slices.SortFunc(terms, func(a, b bm25QueryTerm) int {
		return cmp.Or(cmp.Compare(a.df, b.df), cmp.Compare(a.word, b.word))
	})
	key, dkey := c.q.Key[:0], c.dq.Key[:0]
	for _, x := range terms[:k] {
		switch {
		case !x.inBase:
			dkey = append(dkey, x.t)
		case s.delta == nil:
			key = append(key, x.t)
		default:
			key = append(key, x.t)
			if d, ok := s.baseToDelta[x.t]; ok {
				dkey = append(dkey, d)
			}
		}
	}
	slices.Sort(key)
	slices.Sort(dkey)
	c.q = *q
	c.q.Key = key
	c.q.delta = nil
	if q.delta != nil {
		c.dq = *q.delta
		c.dq.Key = dkey
		c.q.delta = &c.dq
	} else {
		c.dq.Key = dkey // kept for the next use
	}
	return &c.q, c
}
