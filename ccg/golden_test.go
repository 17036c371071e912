package ccg_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	_ "github.com/graphcoder/graphcoder/lang/golang"
	_ "github.com/graphcoder/graphcoder/lang/java"
	_ "github.com/graphcoder/graphcoder/lang/javascript"
	_ "github.com/graphcoder/graphcoder/lang/python"
	_ "github.com/graphcoder/graphcoder/lang/typescript"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// parse parses path with its language's front end, naming it name.
func parse(t testing.TB, path, name string, src []byte) *lang.File {
	t.Helper()
	l := lang.ForPath(path)
	if l == nil {
		t.Fatalf("no language for %s", path)
	}
	f, err := l.NewParser().Parse(context.Background(), name, src)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	return f
}

// TestGolden compares the text dump of the CCG of every front-end fixture
// with testdata/golden/<language>/<name>.golden. The Go, JavaScript and
// TypeScript goldens were each read by hand (control flow edges, and data
// dependences against the fixture) when they were written.
func TestGolden(t *testing.T) {
	for _, pattern := range []string{"../lang/python/testdata/*.py", "../lang/java/testdata/*.java", "../lang/golang/testdata/*.go",
		"../lang/javascript/testdata/*.js", "../lang/javascript/testdata/*.jsx",
		"../lang/typescript/testdata/*.ts", "../lang/typescript/testdata/*.tsx"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			name := filepath.Base(path)
			t.Run(name, func(t *testing.T) {
				src, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				f := parse(t, path, name, src)
				var got bytes.Buffer
				if err := ccg.Write(&got, ccg.Build(f), "text", nil); err != nil {
					t.Fatal(err)
				}
				golden := filepath.Join("testdata", "golden", f.Language, strings.TrimSuffix(name, filepath.Ext(name))+".golden")
				if *update {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if !bytes.Equal(got.Bytes(), want) {
					t.Errorf("%s differs from %s (run go test -update after checking):\n%s", name, golden, diff(string(want), got.String()))
				}
			})
		}
	}
}

// diff shows the first lines where two texts differ.
func diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 10; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("- " + wl + "\n+ " + gl + "\n")
			shown++
		}
	}
	return b.String()
}
