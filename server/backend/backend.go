package backend

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/embed"
	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/llm"
	"github.com/graphcoder/graphcoder/retrieve"
	"github.com/graphcoder/graphcoder/server"
)

// Engine adapts an *engine.Engine to [server.Completer], [server.Reloader]
// and [server.Updater].
type Engine struct {
	Engine *engine.Engine
	// Mode, TopK, Rerank and Vote tune retrieval and the model-free
	// prediction; zero values are the engine's defaults.
	Mode   retrieve.Mode
	TopK   int
	Rerank int
	Vote   int
}

// Complete implements [server.Completer]. The request's context reaches
// the engine, so a request its client abandoned stops computing, the parse
// of its buffer included.
func (e Engine) Complete(ctx context.Context, req server.Request) (*server.Result, error) {
	res, err := e.Engine.Complete(ctx, engine.Request{
		Path: req.Path, Language: req.Language, Line: req.Line, Source: req.Source, Fragment: req.Fragment,
		Context: req.Context, NoRetrieval: req.NoRetrieval,
		Mode: e.Mode, TopK: e.TopK, Rerank: e.Rerank, Vote: e.Vote, Budget: req.Budget, NoPrompt: req.NoPrompt,
	})
	if err != nil {
		switch {
		case errors.Is(err, engine.ErrOutsideRepo):
			return nil, fmt.Errorf("%w: %w", server.ErrOutsideRepo, err)
		case errors.Is(err, engine.ErrLine):
			return nil, fmt.Errorf("%w: %w", server.ErrPosition, err)
		case engine.IsBadRequest(err):
			return nil, fmt.Errorf("%w: %w", server.ErrInvalid, err)
		}
		return nil, err
	}
	st := res.Stats
	out := &server.Result{
		Language:   res.Language,
		Prediction: res.Prediction,
		Snippets:   make([]server.Snippet, len(res.Snippets)),
		Stats: server.Stats{Parse: st.Parse, Coarse: st.Coarse, Fine: st.Fine, Prompt: st.Prompt,
			Retrieve: st.Total, Partial: st.Partial},
	}
	if c := res.Context; c != nil {
		out.Prompt = c.Text()
		out.Window = &server.Window{Before: strings.TrimSuffix(c.PrefixText(), "\n"), After: c.SuffixText()}
		for _, b := range c.Blocks {
			out.Blocks = append(out.Blocks, server.Snippet{Source: b.Source, Path: b.Path, StartLine: b.StartLine, EndLine: b.EndLine, Score: b.Score, Text: b.Text()})
		}
	}
	for i, s := range res.Snippets {
		out.Snippets[i] = server.Snippet{Path: s.Path, StartLine: s.StartLine, EndLine: s.EndLine, Score: s.Score, Text: s.Text}
	}
	for _, d := range res.Definitions {
		out.Definitions = append(out.Definitions, server.Definition{Path: d.Path, Line: d.Line, Name: d.Name, Kind: d.Kind,
			Origin: string(d.Origin), Reason: d.Reason, InPrompt: res.InPrompt(d)})
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
	// The blocks come in prompt order, the best last, as llm wants them.
	snips := make([]llm.Snippet, len(req.Snippets))
	for i, s := range req.Snippets {
		snips[i] = llm.Snippet{Path: s.Path, Text: s.Text}
	}
	resp, err := m.Backend.Complete(ctx, llm.Request{
		Prefix: req.Prefix, Suffix: req.Suffix, Snippets: snips, Prompt: req.Prompt,
		Language: req.Language, Path: req.Path, RepoName: m.RepoName,
		Raw: req.Raw, Temperature: req.Temperature,
	})
	if err != nil {
		return "", fmt.Errorf("%s: %w", m.Backend.Name(), err)
	}
	return resp.Text, nil
}

// Indexer re-indexes a repository into an open index: Reindex (the live
// path) re-indexes only the paths it is given, with the indexer's rules
// (skipped folders, .gitignore, the file checks), and publishes a new
// generation without walking the repository.
type Indexer struct {
	DB    *db.DB
	Rules *indexer.Rules
	// Embedder, when set, embeds the re-indexed files for dense
	// retrieval after each update (a failure leaves them without vectors
	// and is logged through Logf).
	Embedder embed.Embedder
	Logf     func(format string, args ...any)
}

// Reindex has the signature of server.LiveOptions.Reindex: it re-indexes
// the given paths only (indexer.Update) and returns the repository-relative
// paths whose entries changed, for Engine.Update.
func (ix *Indexer) Reindex(ctx context.Context, paths []string) ([]string, error) {
	s, err := indexer.Update(ctx, ix.DB, ix.Rules, paths)
	if err != nil || !s.Published {
		return nil, err
	}
	if ix.Embedder != nil {
		if _, err := ix.DB.Embed(ctx, db.EmbedOptions{Embedder: ix.Embedder, Paths: s.Paths()}); err != nil && ix.Logf != nil {
			ix.Logf("dense vectors of the re-indexed files: %v", err)
		}
	}
	return s.Paths(), nil
}
