package db

import (
	"context"
	"fmt"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/slice"
)

// analysis is what the builder needs from one source file.
type analysis struct {
	graph        *ccg.Graph
	slices       []slice.Slice // one per vertex, by vertex id
	syntaxErrors int
	// The file's outline (lang.File.Package, Symbols, Imports).
	pkg     string
	symbols []lang.Symbol
	imports []lang.Import
}

type analyzeFunc func(ctx context.Context, b *Builder, l *lang.Language, path string, content []byte) (*analysis, error)

// analyzeSource parses a file, builds its code context graph and slices
// every statement.
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
	a = &analysis{graph: g, syntaxErrors: f.Errors, slices: make([]slice.Slice, len(g.Nodes)),
		pkg: f.Package, symbols: f.Symbols, imports: f.Imports}
	var s slice.Slicer
	for v := range g.Nodes {
		a.slices[v] = *s.Of(g, int32(v), b.slice)
	}
	return a, nil
}
