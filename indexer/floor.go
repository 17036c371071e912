package indexer

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/graphcoder/graphcoder/lang"
)

// FloorSummary reports a parse-only pass.
type FloorSummary struct {
	Files   int     `json:"files"`
	Lines   int     `json:"lines"`
	Bytes   int64   `json:"bytes"`
	Seconds float64 `json:"seconds"`
}

// ParseFloor walks the repository as Build does and only runs tree-sitter
// on the files (syntax tree built and freed, no statement tree), with the
// same number of workers: the floor a build's time is measured against.
func ParseFloor(ctx context.Context, opts Options) (FloorSummary, error) {
	start := time.Now()
	root := realPath(opts.Repo)
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.IndexDir == "" {
		opts.IndexDir = filepath.Join(root, ".graphcoder")
	}
	w, err := NewRules(root, opts.IndexDir, opts.MaxFileSize).Walk(ctx, root)
	if err != nil {
		return FloorSummary{}, fmt.Errorf("repository: %w", err)
	}

	var files, lines atomic.Int64
	var bytes atomic.Int64
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.Workers)
	for _, f := range w.Files {
		g.Go(func() error {
			content, err := readSource(root, f.Rel, opts.MaxFileSize)
			if err != nil {
				return nil
			}
			if err := lang.ForPath(f.Rel).ParseSyntax(f.Rel, content); err != nil {
				return nil
			}
			if gctx.Err() != nil {
				return gctx.Err()
			}
			files.Add(1)
			lines.Add(int64(lang.LineCount(content)))
			bytes.Add(int64(len(content)))
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return FloorSummary{}, err
	}
	return FloorSummary{Files: int(files.Load()), Lines: int(lines.Load()), Bytes: bytes.Load(),
		Seconds: time.Since(start).Seconds()}, nil
}
