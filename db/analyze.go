package db

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"runtime"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/slice"
)

// analysis is what the builder needs from one source file.
type analysis struct {
	graph *ccg.Graph
	// sliceOf returns the slice of vertex v. The builder calls it once
	// per vertex, in order, and is done with each result before the next
	// call, so slices are computed one at a time and never all held.
	sliceOf      func(v int32) *slice.Slice
	syntaxErrors int
	// big marks a file of at least bigFile bytes, whose stages collect
	// their garbage before the next one starts.
	big bool
	// outline is the file's outline (lang.File.Package, Symbols,
	// Imports) encoded as the blob's outline section (appendOutline):
	// the symbols take several times their encoding, and the blob's head
	// is written only once the graph is built. nil stands for an empty
	// outline.
	outline []byte
}

// bigFile is the size from which a file's analysis collects its garbage
// between stages: the heap may grow by as much as it holds after a
// collection before the next one, so a stage that starts with the
// previous stage's garbage still in the heap peaks at twice what it
// needs. Few files are this large, so the collections cost a build
// little.
const bigFile = 256 << 10

type analyzeFunc func(ctx context.Context, b *Builder, l *lang.Language, path string, content []byte) (*analysis, error)

// analyzeSource parses a file and builds its code context graph; the
// statement tree is dropped once the graph holds what the index needs.
func analyzeSource(ctx context.Context, b *Builder, l *lang.Language, path string, content []byte) (a *analysis, err error) {
	// A defect in a front end or the graph builder must cost one file,
	// not the whole build.
	defer func() {
		if r := recover(); r != nil {
			a, err = nil, fmt.Errorf("internal error analysing the file: %v", r)
		}
	}()
	// The symbols are left in their blocks: they are encoded once, in
	// order, and a large file's joined copy would be in the heap beside
	// the blocks and the whole statement tree (lang.BlocksParser).
	f, err := l.ParseBlocks(ctx, path, content)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	big := len(content) >= bigFile
	if big {
		// The syntax records the parse walked are garbage now, as large
		// as the statement tree: collect them before the outline is
		// encoded.
		runtime.GC()
	}
	// What the analysis keeps of f, taken before the graph is built: the
	// statement tree is garbage once Build has read it, the outline once
	// it is encoded.
	errs := f.Errors
	blocks := f.SymbolBlocks
	if f.Symbols != nil {
		blocks = [][]lang.Symbol{f.Symbols}
	}
	outline := appendOutlineBlocks(nil, f.Package, blocks, f.Imports)
	f.Symbols, f.SymbolBlocks, f.Imports, blocks = nil, nil, nil, nil
	if big {
		// The symbols, a quarter of the statement tree, once encoded.
		runtime.GC()
	}
	g := ccg.BuildConsuming(f)
	// The index needs the graph's adjacency (the slicer's) and vertices,
	// never its edge list and the DD edges' variable names.
	g.Edges, g.Vars = nil, nil
	if big {
		// The parse's garbage (syntax records, the statement tree) is
		// several times the graph that replaces it: collect it before
		// the entries are computed, so that the file's peak is its
		// graph and blob rather than everything it ever allocated.
		runtime.GC()
	}
	var s slice.Slicer
	var out slice.Slice // reused: each slice is encoded before the next
	opts := b.slice
	return &analysis{graph: g, syntaxErrors: errs, big: big, outline: outline,
		sliceOf: func(v int32) *slice.Slice { return s.OfInto(g, v, opts, &out) }}, nil
}

// encode returns the blob of the file: the sections of its head, then one
// entry per statement, sliced and encoded one at a time straight into the
// blob. The head is written from the graph and the statements' token
// lists, and what only the head needs (the lines, the statements' names
// and the outline) is let go of once it is written,
// before the entries, which take most of the time and the blob: the
// slicer reads the graph's adjacency and rows alone. So encode consumes
// a: its graph is fit for nothing but slicing afterwards. The entries
// section starts with its counts, known only once every entry is
// encoded: the entries are written after room for the largest counts,
// and moved back over what the counts leave of it. The blob grows by
// doubling, with room for each entry made before it is written.
func (b *Builder) encode(a *analysis) []byte {
	g := a.graph
	stmts, vocab := b.tokenize(g)
	if a.big {
		runtime.GC() // the vocabulary's index
	}
	outline := a.outline
	if outline == nil {
		outline = appendOutline(nil, "", nil, nil)
	}
	blob := appendHeadOf(make([]byte, 0, 4096), g.Language, g.Lines, vocab, stmts, outline)
	stmts, vocab, a.outline = nil, nil, nil
	g.Lines = nil
	g.DropNames()
	if a.big {
		runtime.GC() // what only the head needed, before the entries
	}
	const countsRoom = 3 * binary.MaxVarintLen64
	at := len(blob)
	blob = append(blob, make([]byte, countsRoom)...)
	nNodes, nEdges := 0, 0
	for v := range g.Nodes {
		s := a.sliceOf(int32(v))
		target := uint32(0)
		if s.Target >= 0 && s.Target < len(s.Nodes) {
			target = uint32(s.Nodes[s.Target])
		}
		blob = reserve(blob, maxEntryLen(len(s.Nodes), len(s.Edges)))
		blob = appendEntry(blob, target, s.Nodes, s.Hop, s.Edges)
		nNodes += len(s.Nodes)
		nEdges += len(s.Edges)
	}
	counts := appendEntries(make([]byte, 0, countsRoom), len(g.Nodes), nNodes, nEdges, nil)
	copy(blob[at:], counts)
	blob = append(blob[:at+len(counts)], blob[at+countsRoom:]...)
	blob = reserve(blob, crc32.Size)
	return appendCRC(blob, 0)
}

// maxEntryLen bounds the encoding of an entry of n vertices and e edges
// (appendEntry): three varints of at most 64 bits, per vertex a varint of
// a difference of two int32s and a hop byte, per edge two varints of at
// most 18 bits.
func maxEntryLen(n, e int) int {
	return 3*binary.MaxVarintLen64 + n*(binary.MaxVarintLen32+1) + e*2*3
}

// reserve returns dst with room for n more bytes, doubling its capacity
// when it must grow (append grows a large slice by a quarter, which
// allocates four times the final size on the way).
func reserve(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	grown := make([]byte, len(dst), max(2*cap(dst), len(dst)+n))
	copy(grown, dst)
	return grown
}
