package engine

import (
	"context"
	"errors"
	"testing"

	"github.com/dgraph-io/badger/v4"

	"github.com/graphcoder/graphcoder/db"
)

// The engine over a real index answers like the one built from source.
func TestOpenIndex(t *testing.T) {
	e := openRepo(t, "testdata/finestage")
	if n := e.Info().Entries; n != 12 {
		t.Fatalf("%d entries, want 12 (one per statement)", n)
	}
	res, err := e.Complete(context.Background(), Request{Path: "app/new.py", Line: 6, Source: []byte(fineQuery)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Snippets) == 0 || res.Snippets[0].Path != "shop/structural.py" {
		t.Fatalf("snippets %+v", res.Snippets)
	}
	if err := e.Reload(); err != nil {
		t.Fatal(err)
	}
}

func TestOpenMissingIndex(t *testing.T) {
	_, err := Open(t.TempDir(), Options{})
	if !errors.Is(err, db.ErrNoIndex) {
		t.Fatalf("error %v, want db.ErrNoIndex", err)
	}
}

func TestOpenWrongVersion(t *testing.T) {
	dir := t.TempDir()
	buildIndex(t, "testdata/finestage", dir)
	bdb, err := badger.Open(badger.DefaultOptions(dir).WithLogger(nil))
	if err != nil {
		t.Fatal(err)
	}
	err = bdb.Update(func(txn *badger.Txn) error { return txn.Set([]byte("meta/schema"), []byte("999")) })
	bdb.Close()
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(dir, Options{})
	var se *db.SchemaError
	if !errors.As(err, &se) {
		t.Fatalf("error %v, want a *db.SchemaError", err)
	}
}
