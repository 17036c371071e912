package backend

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/llm"
	"github.com/graphcoder/graphcoder/retrieve"
	"github.com/graphcoder/graphcoder/server"
)

// Engine adapts an *engine.Engine to [server.Completer], [server.Reloader]
// and [server.Updater].
type Engine struct {
	Engine *engine.Engine
	// Mode and TopK tune retrieval; zero values are the engine's defaults.
	Mode retrieve.Mode
	TopK int
}

// Complete implements [server.Completer].
//
// The engine runs under a context that is never cancelled, and a cancelled
// request is abandoned here instead: go-tree-sitter's ParseCtx can leave a
// pooled parser's cancellation flag set when the context is cancelled just
// after a parse ends, and every later parse with that parser then fails.
// The abandoned computation is bounded by the retrieval budget.
func (e Engine) Complete(ctx context.Context, req server.Request) (*server.Result, error) {
	type answer struct {
		res *engine.Result
		err error
	}
	done := make(chan answer, 1)
	go func() {
		res, err := e.Engine.Complete(context.WithoutCancel(ctx), engine.Request{
			Path: req.Path, Line: req.Line, Source: req.Source,
			Mode: e.Mode, TopK: e.TopK, Budget: req.Budget, NoPrompt: req.NoPrompt,
		})
		done <- answer{res, err}
	}()
	var res *engine.Result
	var err error
	select {
	case a := <-done:
		res, err = a.res, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if err != nil {
		switch {
		case errors.Is(err, engine.ErrOutsideRepo):
			return nil, fmt.Errorf("%w: %w", server.ErrOutsideRepo, err)
		case errors.Is(err, engine.ErrLine):
			return nil, fmt.Errorf("%w: %w", server.ErrPosition, err)
		case errors.Is(err, engine.ErrBinary), errors.Is(err, engine.ErrLanguage):
			return nil, fmt.Errorf("%w: %w", server.ErrInvalid, err)
		}
		return nil, err
	}
	out := &server.Result{
		Language:   res.Language,
		Prompt:     res.Prompt.Text,
		Prediction: res.Prediction,
		Snippets:   make([]server.Snippet, len(res.Snippets)),
	}
	if !req.NoPrompt {
		out.Window = &server.Window{Before: strings.TrimSuffix(res.FIM.Prefix, "\n"), After: res.FIM.Suffix}
	}
	for i, s := range res.Snippets {
		out.Snippets[i] = server.Snippet{Path: s.Path, StartLine: s.StartLine, EndLine: s.EndLine, Score: s.Score, Text: s.Text}
	}
	return out, nil
}

// Reload implements [server.Reloader].
func (e Engine) Reload() error { return e.Engine.Reload() }

// Update implements [server.Updater].
func (e Engine) Update(paths []string) error { return e.Engine.Update(paths) }

// Model adapts an llm.Backend to [server.Generator].
type Model struct {
	Backend llm.Backend
	// RepoName is sent to templates that name the repository.
	RepoName string
}

// Generate implements [server.Generator].
func (m Model) Generate(ctx context.Context, req server.GenerateRequest) (string, error) {
	// llm wants the best snippet last, nearest the code.
	snips := make([]llm.Snippet, len(req.Snippets))
	for i, s := range req.Snippets {
		snips[len(snips)-1-i] = llm.Snippet{Path: s.Path, Text: s.Text}
	}
	resp, err := m.Backend.Complete(ctx, llm.Request{
		Prefix: req.Prefix, Suffix: req.Suffix, Snippets: snips, Prompt: req.Prompt,
		Language: req.Language, Path: req.Path, RepoName: m.RepoName,
	})
	if err != nil {
		return "", fmt.Errorf("%s: %w", m.Backend.Name(), err)
	}
	return resp.Text, nil
}

// Indexer re-indexes a repository into an open index. Reindex (the live
// path) re-indexes only the paths it is given, with the indexer's rules
// (skipped folders, .gitignore), and publishes a new generation without
// walking the repository; Build walks the whole repository with the same
// rules and lets the db.Builder reuse unchanged files.
type Indexer struct {
	DB    *db.DB
	Rules *indexer.Rules
}

// Summary reports one build.
type Summary struct {
	db.Summary
	// Skipped counts files the index refused; FirstError says why the
	// first one was.
	Skipped    int   `json:"skipped"`
	FirstError error `json:"-"`
}

// Build runs one full incremental build and returns its summary.
func (ix *Indexer) Build(ctx context.Context) (Summary, error) {
	var (
		skipped  int
		firstErr error
	)
	root := ix.Rules.Root()
	b, err := db.NewBuilder(ix.DB, db.BuildOptions{Root: root})
	if err != nil {
		return Summary{}, fmt.Errorf("index %s: %w", root, err)
	}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // unreadable entries are skipped
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if d.IsDir() {
			if p != root && ix.Rules.SkipDir(p) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || lang.ForPath(p) == nil || ix.Rules.Ignored(p) {
			return nil
		}
		if fi, err := d.Info(); err != nil || fi.Size() > indexer.DefaultMaxFileSize {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil || !utf8.Valid(src) || bytes.IndexByte(src, 0) >= 0 {
			return nil // unreadable, binary or not UTF-8: graphcoder build skips these too
		}
		rel, ok := ix.Rules.Rel(p)
		if !ok {
			return nil
		}
		if err := b.Add(ctx, rel, src); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			skipped++
			if firstErr == nil {
				firstErr = err
			}
		}
		return nil
	})
	if err != nil {
		b.Abort()
		return Summary{}, fmt.Errorf("index %s: %w", root, err)
	}
	s, err := b.Finish(ctx)
	if err != nil {
		return Summary{}, fmt.Errorf("index %s: %w", root, err)
	}
	return Summary{Summary: s, Skipped: skipped, FirstError: firstErr}, nil
}

// Reindex has the signature of server.LiveOptions.Reindex: it re-indexes
// the given paths only (indexer.Update) and returns the repository-relative
// paths whose entries changed, for Engine.Update.
func (ix *Indexer) Reindex(ctx context.Context, paths []string) ([]string, error) {
	s, err := indexer.Update(ctx, ix.DB, ix.Rules, paths)
	if err != nil || !s.Published {
		return nil, err
	}
	return s.Paths(), nil
}

// Match reports whether a changed path concerns the index: a file some
// front end handles.
func Match(path string) bool { return lang.ForPath(path) != nil }
