package engine

import (
	"hash/maphash"
	"slices"
	"sync"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/symtab"
)

// bufferCache keeps what the last requests parsed, for the requests of
// one state (whose index and outlines do not change): an editor asks
// again and again with the same lines before and after the cursor (each
// key typed on the cursor's line, a request repeated), and those find
// the query graph and the buffer's outlines made. An entry is found by a
// hash of the lines and then compared with them line by line, so a hit
// is the same buffer; what it holds is never changed once stored.
type bufferCache struct {
	mu      sync.Mutex
	seed    maphash.Seed
	seeded  bool
	entries []*parsedBuffer // newest last
}

// maxCachedBuffers bounds the buffers a bufferCache holds: an editor
// works in a few documents at a time, and an entry holds a file's
// statement tree, graph and outline; maxCachedLines bounds the lines of
// a buffer it keeps.
const (
	maxCachedBuffers = 4
	maxCachedLines   = 10000
)

// parsedBuffer is what the parse of one buffer made.
type parsedBuffer struct {
	hash          uint64
	path          string
	language      *lang.Language
	whole         bool
	hops          int // the query slice's h the parse was bounded for (buffer.hops)
	before, after []string

	parsed    *lang.File
	blanked   int
	recovered bool
	elided    *elision
	graph     *ccg.Graph // the query graph with its target; nil when none was built
	target    int32
	// The buffer's outline, with the declarations after the cursor once
	// addAfter ran (withAfter), and the outline before the cursor alone
	// when that added any (buffer.prefix).
	file      *symtab.File
	withAfter bool
	prefix    *symtab.File
}

// key hashes a buffer; c.mu is held.
func (c *bufferCache) key(path string, l *lang.Language, whole bool, before, after []string) uint64 {
	if !c.seeded {
		c.seed, c.seeded = maphash.MakeSeed(), true
	}
	var h maphash.Hash
	h.SetSeed(c.seed)
	h.WriteString(path)
	h.WriteByte(0)
	h.WriteString(l.Name)
	if whole {
		h.WriteByte(1)
	}
	for _, part := range [][]string{before, after} {
		h.WriteByte(0xff)
		for _, line := range part {
			h.WriteString(line)
			h.WriteByte('\n')
		}
	}
	return h.Sum64()
}

// load fills b from the cache when it holds b's buffer, and reports
// whether it did.
func (c *bufferCache) load(b *buffer, l *lang.Language, whole bool) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	h := c.key(b.path, l, whole, b.lines, b.after)
	var p *parsedBuffer
	for i := len(c.entries) - 1; i >= 0; i-- {
		if e := c.entries[i]; e.hash == h && e.path == b.path && e.language == l && e.whole == whole && e.hops == b.hops &&
			slices.Equal(e.before, b.lines) && slices.Equal(e.after, b.after) {
			p = e
			break
		}
	}
	c.mu.Unlock()
	if p == nil {
		return false
	}
	b.parsed, b.blanked, b.recovered, b.elided, b.whole, b.graph, b.target = p.parsed, p.blanked, p.recovered, p.elided, p.whole, p.graph, p.target
	b.file, b.withAfter, b.prefix = p.file, p.withAfter, p.prefix
	b.cached = true
	return true
}

// store keeps what the parse of b made (nothing when it did not parse).
func (c *bufferCache) store(b *buffer, l *lang.Language) {
	if c == nil || b.parsed == nil || b.cached || len(b.lines)+len(b.after) > maxCachedLines {
		return
	}
	p := &parsedBuffer{path: b.path, language: l, whole: b.whole, hops: b.hops, before: b.lines, after: b.after,
		parsed: b.parsed, blanked: b.blanked, recovered: b.recovered, elided: b.elided, graph: b.graph, target: b.target,
		file: b.file, withAfter: b.withAfter, prefix: b.prefix}
	c.mu.Lock()
	defer c.mu.Unlock()
	p.hash = c.key(b.path, l, b.whole, b.lines, b.after)
	if len(c.entries) == maxCachedBuffers {
		c.entries = slices.Delete(c.entries, 0, 1)
	}
	c.entries = append(c.entries, p)
}
