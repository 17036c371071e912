package java

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

// TestOutlineGolden checks the package, symbols and imports of the
// fixtures in testdata/outline and what their imports resolve to. A
// fixture's first line names the path it is parsed as
// ("// path: src/p/A.java").
func TestOutlineGolden(t *testing.T) {
	fixtures, err := filepath.Glob("testdata/outline/*.java")
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	p := NewParser()
	for _, fixture := range fixtures {
		t.Run(filepath.Base(fixture), func(t *testing.T) {
			src, err := os.ReadFile(fixture)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(src), "\n")
			path, ok := strings.CutPrefix(first, "// path: ")
			if !ok {
				t.Fatalf("%s: the first line does not name a path", fixture)
			}
			f, err := p.Parse(context.Background(), path, src)
			if err != nil {
				t.Fatal(err)
			}
			langtest.CheckSymbols(t, f)
			got := langtest.Outline(f, modules{})
			golden := strings.TrimSuffix(fixture, ".java") + ".golden"
			if *langtest.Update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("outline of %s differs from %s:\n--- got\n%s\n--- want\n%s", fixture, golden, got, want)
			}
		})
	}
}
