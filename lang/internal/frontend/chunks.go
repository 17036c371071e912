package frontend

import (
	"slices"

	"github.com/graphcoder/graphcoder/lang"
)

// Chunks collects values in blocks that are never moved, and joins them
// once at the end: a slice grown by append is copied at every growth, a
// quarter at a time once it is long, which allocates several times its
// final size on the way (20,000 symbols: 13 to 15 MB for 2.4 MB), and a
// parse collects nothing until it ends. The outlines collect their
// symbols in one.
type Chunks[T any] struct {
	full [][]T
	cur  []T
	n    int
}

// Add appends v and returns its index.
func (c *Chunks[T]) Add(v T) int {
	if len(c.cur) == cap(c.cur) {
		if c.cur != nil {
			c.full = append(c.full, c.cur)
		}
		c.cur = make([]T, 0, min(max(2*cap(c.cur), 8), 1024))
	}
	c.cur = append(c.cur, v)
	c.n++
	return c.n - 1
}

// Len returns the number of values.
func (c *Chunks[T]) Len() int { return c.n }

// At returns value i, which Add returned. The last values are found
// first: they are the ones a front end returns to.
func (c *Chunks[T]) At(i int) *T {
	start := c.n - len(c.cur)
	if i >= start {
		return &c.cur[i-start]
	}
	for k := len(c.full) - 1; ; k-- {
		start -= len(c.full[k])
		if i >= start {
			return &c.full[k][i-start]
		}
	}
}

// Truncate drops the values from n on.
func (c *Chunks[T]) Truncate(n int) {
	for c.n > n {
		if len(c.cur) == 0 {
			c.cur = c.full[len(c.full)-1]
			c.full = c.full[:len(c.full)-1]
		}
		drop := min(c.n-n, len(c.cur))
		clear(c.cur[len(c.cur)-drop:])
		c.cur = c.cur[:len(c.cur)-drop]
		c.n -= drop
	}
}

// Symbols ends an outline's symbols: those of f before it (f.Symbols)
// and c's, joined into f.Symbols, or with blocks set left in their blocks,
// f.SymbolBlocks (lang.BlocksParser).
func Symbols(f *lang.File, c *Chunks[lang.Symbol], blocks bool) {
	if !blocks {
		f.Symbols = c.Join(f.Symbols)
		return
	}
	if len(f.Symbols) > 0 {
		f.SymbolBlocks = append(f.SymbolBlocks, f.Symbols)
		f.Symbols = nil
	}
	f.SymbolBlocks = append(f.SymbolBlocks, c.full...)
	if len(c.cur) > 0 {
		f.SymbolBlocks = append(f.SymbolBlocks, slices.Clip(c.cur))
	}
}

// Join returns dst with every value appended.
func (c *Chunks[T]) Join(dst []T) []T {
	if c.n == 0 {
		return dst
	}
	if dst == nil && len(c.full) == 0 {
		return slices.Clip(c.cur)
	}
	out := slices.Grow(dst, c.n)
	for _, b := range c.full {
		out = append(out, b...)
	}
	return append(out, c.cur...)
}
