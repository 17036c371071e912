package server

import (
	"container/list"
	"sync"
)

// cacheKey identifies a retrieval: the inputs of a completer are the
// buffer without the line being completed, the line number, the path, the
// language named and the client's context (the last two hashed with the
// buffer into sum), all under one index generation.
type cacheKey struct {
	gen      uint64
	path     string
	language string
	line     int
	sum      [32]byte
	// noPrompt: the result was computed without the prompt.
	noPrompt bool
}

// lru is a fixed-size least-recently-used cache of retrieval results.
type lru struct {
	mu    sync.Mutex
	max   int
	order *list.List // front is most recent; values are *lruEntry
	items map[cacheKey]*list.Element
}

type lruEntry struct {
	key cacheKey
	res *Result
}

// newLRU returns a cache of size entries, or nil (no caching) when size < 1.
func newLRU(size int) *lru {
	if size < 1 {
		return nil
	}
	return &lru{max: size, order: list.New(), items: make(map[cacheKey]*list.Element, size)}
}

func (c *lru) get(k cacheKey) (*Result, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*lruEntry).res, true
}

func (c *lru) put(k cacheKey, r *Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		e.Value.(*lruEntry).res = r
		c.order.MoveToFront(e)
		return
	}
	c.items[k] = c.order.PushFront(&lruEntry{key: k, res: r})
	for c.order.Len() > c.max {
		old := c.order.Back()
		c.order.Remove(old)
		delete(c.items, old.Value.(*lruEntry).key)
	}
}

func (c *lru) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
