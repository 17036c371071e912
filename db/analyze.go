package db

import (
	"context"
	"fmt"
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
	// The file's outline (lang.File.Package, Symbols, Imports).
	pkg     string
	symbols []lang.Symbol
	imports []lang.Import
}

// bigFile is the size from which a file's analysis collects its garbage
// between stages.
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
	f, err := l.Parse(ctx, path, content)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g := ccg.Build(f)
	if len(content) >= bigFile {
		// The parse's garbage (syntax records, the statement tree) is
		// several times the graph that replaces it: collect it before
		// the entries are computed, so that the file's peak is its
		// graph and blob rather than everything it ever allocated.
		runtime.GC()
	}
	var s slice.Slicer
	opts := b.slice
	return &analysis{graph: g, syntaxErrors: f.Errors,
		pkg: f.Package, symbols: f.Symbols, imports: f.Imports,
		sliceOf: func(v int32) *slice.Slice { return s.Of(g, v, opts) }}, nil
}

// encode returns the blob of the file: rec's sections, then one entry per
// statement, sliced and encoded one at a time.
func (b *Builder) encode(rec *FileRecord, a *analysis) []byte {
	blob := appendHead(make([]byte, 0, 4096), rec)
	var entries []byte
	nNodes, nEdges := 0, 0
	for v := range a.graph.Nodes {
		s := a.sliceOf(int32(v))
		target := uint32(0)
		if s.Target >= 0 && s.Target < len(s.Nodes) {
			target = uint32(s.Nodes[s.Target])
		}
		entries = appendEntry(entries, target, s.Nodes, s.Hop, s.Edges)
		nNodes += len(s.Nodes)
		nEdges += len(s.Edges)
	}
	blob = appendEntries(blob, len(a.graph.Nodes), nNodes, nEdges, entries)
	return appendCRC(blob, 0)
}
