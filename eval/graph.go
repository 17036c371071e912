package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/embed"
	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/retrieve"
)

// GraphSource is what the graphcoder index is built from: the same files
// the sequence baselines index.
type GraphSource struct {
	Repo string // repository root
	// IndexDir holds the index; "" builds it in a temporary folder removed
	// by Close.
	IndexDir  string
	Tokenizer string
	Files     []SourceFile
	// Embedder, when set, gives the index dense vectors.
	Embedder embed.Embedder
	// BM25 holds k1, b and the query term cap of the BM25 ranker (k1 and b zero: retrieve.DefaultBM25's).
	BM25 retrieve.BM25Params
}

// SourceFile is one file of the repository.
type SourceFile struct {
	Path    string // slash path relative to the root
	Content []byte
}

// engineIndex answers graphcoder queries through package engine.
type engineIndex struct {
	d       *db.DB
	e       *engine.Engine
	tempDir string
}

// OpenGraphIndex builds (or brings up to date: unchanged files are not
// parsed again) the graphcoder index of src.Files in src.IndexDir and opens
// it for queries.
func OpenGraphIndex(ctx context.Context, src GraphSource) (GraphIndex, error) {
	root, err := filepath.Abs(src.Repo)
	if err != nil {
		return nil, fmt.Errorf("repository path: %w", err)
	}
	gi := &engineIndex{}
	dir := src.IndexDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "graphcoder-eval-"); err != nil {
			return nil, fmt.Errorf("index folder: %w", err)
		}
		gi.tempDir = dir
	}
	if err := gi.open(ctx, dir, root, src); err != nil {
		gi.Close()
		return nil, err
	}
	return gi, nil
}

func (gi *engineIndex) open(ctx context.Context, dir, root string, src GraphSource) error {
	d, err := db.Open(dir, db.OpenOptions{})
	if err != nil {
		return fmt.Errorf("open index: %w", err)
	}
	gi.d = d
	b, err := db.NewBuilder(d, db.BuildOptions{Tokenizer: src.Tokenizer, Root: root})
	if err != nil {
		return fmt.Errorf("build index: %w", err)
	}
	var (
		mu       sync.Mutex
		failed   int
		firstErr error
	)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, f := range src.Files {
		g.Go(func() error {
			// A file the builder refuses is left out of the graph index
			// only; its tasks still run.
			if err := b.Add(gctx, f.Path, f.Content); err != nil {
				if gctx.Err() != nil {
					return gctx.Err()
				}
				mu.Lock()
				failed++
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		b.Abort()
		return err
	}
	if _, err := b.Finish(ctx); err != nil {
		return fmt.Errorf("build index: %w", err)
	}
	if src.Embedder != nil {
		if _, err := d.Embed(ctx, db.EmbedOptions{Embedder: src.Embedder}); err != nil {
			return fmt.Errorf("dense vectors: %w", err)
		}
	}
	e, err := engine.New(d, engine.Options{Root: root, Embedder: src.Embedder, BM25: src.BM25})
	if err != nil {
		return fmt.Errorf("load index: %w", err)
	}
	gi.e = e
	if len(src.Files) > 0 && e.Info().Entries == 0 {
		// An empty index would score 0 everywhere and pass any leak
		// check: refuse to report on it.
		return fmt.Errorf("graphcoder index is empty (%d of %d files refused, first: %w)", failed, len(src.Files), firstErr)
	}
	return nil
}

// Retrieve runs one engine query on the lines before the hole. Retrieval
// time is the engine's own: parsing and slicing the query, then the coarse
// and fine stages.
func (gi *engineIndex) Retrieve(ctx context.Context, q GraphQuery) (GraphResult, error) {
	mode, err := retrieve.ParseMode(q.Mode)
	if err != nil {
		return GraphResult{}, err
	}
	src := q.Source
	if len(q.After) > 0 {
		// The buffer with the hole's line left blank: the engine reads
		// the lines before it, and the declarations after it for the
		// definition context alone.
		blank := []byte("\n")
		if len(src) > 0 && src[len(src)-1] != '\n' {
			blank = []byte("\n\n") // the last line's end, then the blank line
		}
		src = slices.Concat(src, blank, q.After)
	}
	res, err := gi.e.Complete(ctx, engine.Request{Path: q.Path, Line: q.Line + 1, Source: src, Mode: mode,
		TopK: q.TopK, Pool: q.Pool, Rerank: q.Rerank, Vote: q.Vote, VoteK: q.VoteK, NoPrompt: true,
		NoDefinitions: q.NoDefinitions, Definitions: q.Definitions, DefinitionVariants: q.DefinitionVariants,
		ImportBoost: q.ImportBoost})
	if err != nil {
		return GraphResult{}, err
	}
	out := GraphResult{
		Prediction:         res.Prediction,
		Definitions:        res.DefinitionBlocks,
		DefinitionVariants: res.DefinitionVariants,
		Retrieval:          res.Stats.Parse + res.Stats.Embed + res.Stats.Coarse + res.Stats.Fine,
	}
	for _, s := range append(res.Snippets, res.Pool...) {
		out.Snippets = append(out.Snippets, Snippet{
			Path: s.Path, Start: s.StartLine - 1, End: s.EndLine, Score: s.Score, Text: s.Text, Focus: s.TargetLine - 1,
		})
	}
	return out, nil
}

func (gi *engineIndex) Entries() int { return gi.e.Info().Entries }

// Bytes is the engine's estimate of the loaded index's size.
func (gi *engineIndex) Bytes() int64 { return gi.e.Info().Bytes }

func (gi *engineIndex) Close() error {
	var errs []error
	if gi.e != nil {
		errs = append(errs, gi.e.Close())
	}
	if gi.d != nil {
		errs = append(errs, gi.d.Close())
	}
	if gi.tempDir != "" {
		errs = append(errs, os.RemoveAll(gi.tempDir))
	}
	return errors.Join(errs...)
}
