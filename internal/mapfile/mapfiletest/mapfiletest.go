// Package mapfiletest writes mapped files for the tests of the packages
// that store their arrays in one (the retrieval index, the symbol table):
// each of them wrote the same create, write, close and open steps.
package mapfiletest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/graphcoder/graphcoder/internal/mapfile"
)

// Write writes a mapped file in a temporary folder of tb through fill,
// opens it and returns it, closed when tb ends. Any failure fails tb.
func Write(tb testing.TB, fill func(*mapfile.Writer) error) *mapfile.File {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "mapped")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := mapfile.NewWriter(f)
	if err := fill(w); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	m, err := mapfile.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { m.Close() })
	return m
}
