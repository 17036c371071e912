package golang

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

// TestOutlineGolden checks the package, symbols and imports of the
// fixtures in testdata/outline and what their imports resolve to.
func TestOutlineGolden(t *testing.T) {
	langtest.OutlineGolden(t, NewParser(), modules{}, "outline/*.go.txt")
}

// TestImportPaths checks the import paths of folders through go.mod: a
// module's path joined with the folder's path inside it, a nested
// module, the standard library (module std: no prefix) and its vendor
// folder, a go.mod above the indexed root, and no go.mod at all.
func TestImportPaths(t *testing.T) {
	dir := t.TempDir()
	write := func(p, content string) {
		t.Helper()
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("repo/go.mod", "// a comment\nmodule   example.com/m // trailing\n\ngo 1.22\n")
	write("repo/tools/go.mod", "module \"example.com/m/tools\"\n")
	write("goroot/src/go.mod", "module std\n")
	write("broken/go.mod", "go 1.22\n")
	cases := []struct{ root, file, want string }{
		{"repo", "a/b/x.go", "example.com/m/a/b"},
		{"repo", "x.go", "example.com/m"},
		{"repo", "tools/cmd/y.go", "example.com/m/tools/cmd"},
		{"repo", "vendor/golang.org/x/text/z.go", "golang.org/x/text"},
		{"goroot/src", "net/http/server.go", "net/http"},
		{"goroot/src", "vendor/golang.org/x/net/dns/d.go", "golang.org/x/net/dns"},
		{"goroot/src/net/http", "httputil/dump.go", "net/http/httputil"}, // go.mod above the root
		{"goroot/src/net/http", "server.go", "net/http"},
		{"broken", "p/q.go", "p"}, // no module line: the folder
		{"nowhere", "p/q.go", "p"},
	}
	for _, c := range cases {
		ms := modules{}.Configure(filepath.Join(dir, filepath.FromSlash(c.root)))
		if got := ms.ModuleNames(c.file, "", filepath.Base(c.root)); len(got) != 1 || got[0] != c.want {
			t.Errorf("%s in %s: module names %q, want [%q]", c.file, c.root, got, c.want)
		}
	}
}
