package db

import (
	"context"
	"errors"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/slice"
)

// analysis is what the builder needs from one source file.
type analysis struct {
	graph        *ccg.Graph
	slices       []slice.Slice // one per vertex, by vertex id
	syntaxErrors int
}

type analyzeFunc func(ctx context.Context, b *Builder, l *lang.Language, path string, content []byte) (*analysis, error)

// analyzeSource parses a file, builds its code context graph and slices
// every statement.
func analyzeSource(ctx context.Context, b *Builder, l *lang.Language, path string, content []byte) (*analysis, error) {
	pool := b.parserPool(l)
	p := pool.Get().(lang.Parser)
	f, err := p.Parse(ctx, path, content)
	pool.Put(p)
	if err != nil {
		return nil, err
	}
	_ = f
	return nil, errors.New("code context graph builder not wired yet")
}
