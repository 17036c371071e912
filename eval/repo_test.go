package eval

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
	_ "github.com/graphcoder/graphcoder/lang/python"
)

// The evaluation reads the repository with the build's walk and file
// checks: what graphcoder build leaves out (ignored, vendored, binary,
// not UTF-8, the index folder) no task and no baseline sees either.
func TestLoadRepoUsesTheBuildsWalk(t *testing.T) {
	root := t.TempDir()
	for p, c := range map[string]string{
		".gitignore":           "gen/\n*_local.py\n",
		"pkg/a.py":             "x = 1\n",
		"pkg/b_local.py":       "x = 2\n",
		"gen/c.py":             "x = 3\n",
		"vendor/d.py":          "x = 4\n",
		".hidden/e.py":         "x = 5\n",
		"bin.py":               "x = 1\x00\n",
		"latin1.py":            "s = '\xe9'\n",
		"idx/MANIFEST":         "",
		"pkg/__pycache__/f.py": "x = 6\n",
	} {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, _, err := loadRepo(context.Background(), root, filepath.Join(root, "idx"), lang.ByName("python"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, f.rel)
	}
	if want := []string{".hidden/e.py", "pkg/a.py"}; !slices.Equal(got, want) {
		t.Errorf("eval reads %q, want %q (what build indexes)", got, want)
	}
}
