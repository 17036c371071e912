// Package golden holds the golden-file check the tests of several
// packages share: the text a test produces is compared with a file under
// its package's testdata, and rewritten there with -update.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// Update is the -update flag: rewrite the golden files instead of
// comparing.
var Update = flag.Bool("update", false, "rewrite the golden files")

// Check compares got with testdata/name (rewriting it with -update).
func Check(t testing.TB, name, got string) {
	t.Helper()
	CheckFile(t, filepath.Join("testdata", name), got)
}

// CheckFile compares got with the golden file at path (rewriting it with
// -update).
func CheckFile(t testing.TB, path, got string) {
	t.Helper()
	if *Update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update and review the diff):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
