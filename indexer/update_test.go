package indexer

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/graphcoder/graphcoder/db"
)

func TestRules(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		".gitignore":     "gen/\n*.tmp.py\n",
		"pkg/.gitignore": "local.py\n",
	})
	r := NewRules(root, filepath.Join(root, "idx"), 0)
	tests := []struct {
		path string
		dir  bool
		want bool
	}{
		{"a.py", false, false},
		{"pkg/a.py", false, false},
		{"pkg/local.py", false, true},
		{"local.py", false, false}, // pkg/.gitignore applies below pkg only
		{"x.tmp.py", false, true},
		{"gen", true, true},
		{"gen/a.py", false, true},
		{"pkg/node_modules/a.py", false, true},
		{"__pycache__", true, true},
		{".git/config", false, true},
		{"idx", true, true},
		{"idx/a.py", false, true},
		{"pkg", true, false},
		{"", true, false},
	}
	for _, tt := range tests {
		abs := filepath.Join(root, tt.path)
		var got bool
		if tt.dir {
			got = r.SkipDir(abs)
		} else {
			got = r.Ignored(abs)
		}
		if got != tt.want {
			t.Errorf("%s (dir %v): skipped %v, want %v", tt.path, tt.dir, got, tt.want)
		}
	}
	if !r.Ignored(filepath.Join(filepath.Dir(root), "elsewhere.py")) {
		t.Error("a file outside the repository is not ignored")
	}
	// A changed .gitignore is read again.
	writeTree(t, root, map[string]string{"pkg/.gitignore": "other.py\n"})
	later := filepath.Join(root, "pkg", ".gitignore")
	st, _ := os.Stat(later)
	os.Chtimes(later, st.ModTime(), st.ModTime().Add(2e9))
	if r.Ignored(filepath.Join(root, "pkg/local.py")) {
		t.Error("pkg/local.py still ignored after .gitignore changed")
	}
}

// TestUpdate re-indexes given paths only: an edit, a new file, a deleted
// file, a deleted folder, a gitignored file and a binary one.
func TestUpdate(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	idx := filepath.Join(t.TempDir(), "idx")
	writeTree(t, root, map[string]string{
		".gitignore": "ignored.py\n",
		"a.py":       "x = 1\ny = x\n",
		"b.py":       "z = 2\n",
		"sub/c.py":   "w = 3\n",
		"sub/d.py":   "v = 4\n",
	})
	if _, err := Build(ctx, Options{Repo: root, IndexDir: idx}); err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{
		"a.py":       "x = 10\ny = x\nprint(y)\n",
		"new.py":     "n = 5\n",
		"ignored.py": "secret = 1\n",
		"bin.py":     "a = 1\x00\n",
	})
	os.Remove(filepath.Join(root, "b.py"))
	os.RemoveAll(filepath.Join(root, "sub"))

	d, err := db.Open(idx, db.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRules(root, idx, 0)
	paths := []string{"a.py", filepath.Join(root, "new.py"), "b.py", "sub", "ignored.py", "bin.py", "README"}
	s, err := Update(ctx, d, r, paths)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if !s.Published || s.Parsed != 2 {
		t.Errorf("summary = %+v", s)
	}
	if want := []string{"a.py", "new.py"}; !reflect.DeepEqual(s.Indexed, want) {
		t.Errorf("indexed %q, want %q", s.Indexed, want)
	}
	if want := []string{"b.py", "sub/c.py", "sub/d.py"}; !reflect.DeepEqual(s.Removed, want) {
		t.Errorf("removed %q, want %q", s.Removed, want)
	}
	got := indexedPaths(t, idx)
	var names []string
	for p := range got {
		names = append(names, p)
	}
	sort.Strings(names)
	if want := []string{"a.py", "new.py"}; !reflect.DeepEqual(names, want) {
		t.Errorf("index holds %q, want %q", names, want)
	}
	if l := got["a.py"].Lines; len(l) < 3 || l[0] != "x = 10" {
		t.Errorf("a.py = %q", l)
	}
}
