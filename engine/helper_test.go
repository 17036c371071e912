package engine

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/indexer"
)

// buildIndex indexes repo into indexDir with the indexer, as graphcoder
// build does: the same walk, file rules and records.
func buildIndex(t testing.TB, repo, indexDir string) {
	t.Helper()
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, IndexDir: indexDir}); err != nil {
		t.Fatal(err)
	}
}

// fileRepo returns a temporary repository holding the one file rel with
// src.
func fileRepo(t testing.TB, rel, src string) string {
	t.Helper()
	repo := t.TempDir()
	path := filepath.Join(repo, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return repo
}

// openRepo builds a temporary index of repo and opens an engine on it.
func openRepo(t testing.TB, repo string) *Engine {
	t.Helper()
	dir := t.TempDir()
	buildIndex(t, repo, dir)
	return openIndex(t, dir, Options{})
}

// openIndex opens an engine on the index idx with o, closed with the
// test.
func openIndex(t testing.TB, idx string, o Options) *Engine {
	t.Helper()
	e, err := Open(idx, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// buildLive builds an index of repo with the indexer, as graphcoder build
// does, and opens a writable database and an engine on it (closed with
// the test): a setting Update can be tested in.
func buildLive(t testing.TB, repo, idx string, o Options) (*db.DB, *Engine) {
	t.Helper()
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, IndexDir: idx}); err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(idx, db.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(d, o)
	if err != nil {
		d.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		e.Close()
		d.Close()
	})
	return d, e
}
