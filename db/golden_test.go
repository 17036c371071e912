package db

import (
	"encoding/hex"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestBlobGolden pins the stored byte layout: a change here is a schema
// change and must bump SchemaVersion. Regenerate with -update.
func TestBlobGolden(t *testing.T) {
	got := hex.Dump(encodeBlob(nil, sampleRecord()))
	path := filepath.Join("testdata", "sample_blob.golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("blob layout changed (bump SchemaVersion and run with -update):\n got %s\nwant %s", got, want)
	}
}
