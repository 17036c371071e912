package backend

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/llm"
	"github.com/graphcoder/graphcoder/server"
)

// copyDemo copies the demonstration repository into a temporary folder.
func copyDemo(t *testing.T) string {
	t.Helper()
	src := filepath.Join("..", "..", "testdata", "demo")
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			if d.Name() == ".graphcoder" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Skipf("demo repository unavailable: %v", err)
	}
	return dst
}

type recordingModel struct{ got llm.Request }

func (m *recordingModel) Complete(ctx context.Context, req llm.Request) (llm.Response, error) {
	m.got = req
	return llm.Response{Text: "model text"}, nil
}
func (m *recordingModel) Name() string { return "recording" }

func TestEngineLiveReindex(t *testing.T) {
	repo := copyDemo(t)
	indexDir := filepath.Join(repo, ".graphcoder")
	ctx := context.Background()
	sum, err := indexer.Build(ctx, indexer.Options{Repo: repo, IndexDir: indexDir})
	if err != nil || sum.Files < 4 {
		t.Fatalf("build: %+v, %v", sum, err)
	}
	d, err := db.Open(indexDir, db.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ix := &Indexer{DB: d, Rules: indexer.NewRules(repo, indexDir, 0)}
	eng, err := engine.New(d, engine.Options{Root: repo})
	if err != nil {
		t.Fatal(err)
	}
	model := &recordingModel{}
	svc, err := server.New(Engine{Engine: eng}, server.Options{Root: repo, Generator: Model{Backend: model, RepoName: "demo"}})
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(filepath.Join(repo, "ledger", "reports.py"))
	if err != nil {
		t.Fatal(err)
	}
	// Complete line 31 of reports.py from an unsaved buffer.
	c, err := svc.Complete(ctx, server.Query{Path: "ledger/reports.py", Source: src, Line: 31, Column: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Snippets) == 0 || c.Prompt == "" || !c.FromModel || c.Text != "model text" {
		t.Fatalf("completion %+v", c)
	}
	if model.got.Language != "python" || model.got.Path != "ledger/reports.py" || !strings.HasSuffix(model.got.Prefix, "\n        ") ||
		!strings.HasPrefix(model.got.Suffix, "for source, target") || len(model.got.Snippets) == 0 || len(model.got.Snippets) > len(c.Snippets) {
		t.Fatalf("model request %+v", model.got)
	}
	if model.got.Snippets[len(model.got.Snippets)-1].Path != c.Snippets[0].Path {
		t.Fatal("the best snippet's block must come last for the model")
	}

	// Contexts cancelled right after each answer must not poison the
	// engine's pooled parsers (distinct sources bypass the cache).
	for i := range 200 {
		cctx, cancel := context.WithCancel(ctx)
		buf := append([]byte(fmt.Sprintf("# %d\n", i)), src...)
		_, err := svc.Complete(cctx, server.Query{Path: "ledger/reports.py", Source: buf, Line: 32, Column: 8})
		cancel()
		if err != nil {
			t.Fatalf("request %d after cancelled ones: %v", i, err)
		}
	}

	// Bad requests map onto the server's errors.
	for _, q := range []server.Query{
		{Path: "ledger/reports.py", Source: src, Line: 400},
		{Path: "README.md", Source: []byte("x\n"), Line: 1},
		{Path: "ledger/bin.py", Source: []byte("\x00\x01\x02\n"), Line: 2},
	} {
		if _, err := svc.Complete(ctx, q); !server.IsBadRequest(err) {
			t.Errorf("%s:%d: got %v, want a bad request", q.Path, q.Line, err)
		}
	}

	// A new file becomes visible after a re-index of its path and an
	// update; a gitignored one never enters; a deleted one leaves.
	before := eng.Info().Files
	extra := filepath.Join(repo, "ledger", "extra.py")
	secret := filepath.Join(repo, "ledger", "secret.py")
	for p, text := range map[string]string{
		extra: "def extra(x):\n    return x\n", secret: "def secret():\n    pass\n",
		filepath.Join(repo, ".gitignore"): "secret.py\n",
	} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	changed, err := ix.Reindex(ctx, []string{extra, secret})
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 1 || changed[0] != "ledger/extra.py" {
		t.Fatalf("changed %q, want the new file only", changed)
	}
	if err := svc.Update(changed); err != nil {
		t.Fatal(err)
	}
	if after := eng.Info().Files; after != before+1 {
		t.Fatalf("files %d -> %d", before, after)
	}
	if svc.Generation() != 1 {
		t.Fatalf("generation %d", svc.Generation())
	}
	os.Remove(extra)
	if changed, err = ix.Reindex(ctx, []string{extra}); err != nil || len(changed) != 1 {
		t.Fatalf("reindex of a deleted file: %q, %v", changed, err)
	}
	if err := svc.Update(changed); err != nil {
		t.Fatal(err)
	}
	if after := eng.Info().Files; after != before {
		t.Fatalf("files %d after the delete, want %d", after, before)
	}
	if _, err := svc.Complete(ctx, server.Query{Path: "ledger/secret.py", Line: 1}); err != nil {
		t.Fatalf("completing in the gitignored file itself: %v", err)
	}
}
