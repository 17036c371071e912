package indexer

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/db"
	_ "github.com/graphcoder/graphcoder/lang/java"
	_ "github.com/graphcoder/graphcoder/lang/python"
)

// writeTree creates files (path -> content) under root.
func writeTree(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func indexedPaths(t testing.TB, dir string) map[string]*db.FileRecord {
	t.Helper()
	d, err := db.Open(dir, db.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, err := d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := map[string]*db.FileRecord{}
	if err := s.ForEach(context.Background(), func(r *db.FileRecord) error { out[r.Path] = r; return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBadInput(t *testing.T) {
	root := t.TempDir()
	var big, deep strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&big, "x%d = x%d + %d\n", i, max(i-1, 0), i)
	}
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&deep, "%sif a%d:\n", strings.Repeat(" ", i), i)
	}
	deep.WriteString(strings.Repeat(" ", 200) + "pass\n")
	writeTree(t, root, map[string]string{
		"good.py":              "import os\n\ndef f(x):\n    return os.path.join(x, 'y')\n",
		"Main.java":            "class Main { void run() { int x = 1; if (x > 0) { x++; } } }\n",
		"syntax.py":            "def broken(:\n    return )\nx = 1\n",
		"binary.py":            "x = 1\x00\x01\x02",
		"latin1.py":            "s = '\xe9t\xe9'\n",
		"empty.py":             "",
		"big.py":               big.String(),
		"deep.py":              deep.String(),
		"huge.py":              "# " + strings.Repeat("z", DefaultMaxFileSize) + "\n",
		"ignored.py":           "x = 1\n",
		"logs/debug.py":        "x = 1\n",
		"sub/.gitignore":       "local_*.py\n",
		"sub/local_cfg.py":     "x = 1\n",
		"sub/kept.py":          "y = 2\n",
		".gitignore":           "ignored.py\nlogs/\n",
		"vendor/lib.py":        "x = 1\n",
		"node_modules/m/a.py":  "x = 1\n",
		"pkg/__pycache__/c.py": "x = 1\n",
		".venv/lib/site.py":    "x = 1\n",
		".git/hooks/pre.py":    "x = 1\n",
		"README.md":            "# readme\n",
		"unreadable/secret.py": "x = 1\n",
		"dir/inner/ok.py":      "z = 3\n",
	})
	// A loop through a symbolic link, a link to a file inside the repo
	// and one leaving it.
	must(t, os.Symlink("..", filepath.Join(root, "dir", "inner", "up")))
	must(t, os.Symlink("../good.py", filepath.Join(root, "dir", "alias.py")))
	must(t, os.Symlink("/etc/hostname", filepath.Join(root, "outside.py")))
	must(t, os.Symlink("self.py", filepath.Join(root, "self.py")))
	must(t, syscall.Mkfifo(filepath.Join(root, "fifo.py"), 0o644))

	// Running as root, chmod 000 does not stop reads: simulate the failure.
	old := readSource
	readSource = func(root, rel string, max int64) ([]byte, error) {
		if strings.HasSuffix(rel, "secret.py") {
			return nil, os.ErrPermission
		}
		return old(root, rel, max)
	}
	defer func() { readSource = old }()

	s, err := Build(context.Background(), Options{Repo: root, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	wantSkipped := map[string]int{SkipBinary: 1, SkipNotUTF8: 1, SkipTooLarge: 1, SkipUnreadable: 1,
		SkipSymlinkLoop: 2, SkipOutside: 1, SkipSpecial: 1}
	if !reflect.DeepEqual(s.Skipped, wantSkipped) {
		t.Errorf("skipped = %v, want %v", s.Skipped, wantSkipped)
	}
	got := indexedPaths(t, s.Index)
	var paths []string
	for p := range got {
		paths = append(paths, p)
	}
	want := []string{"Main.java", "big.py", "deep.py", "dir/alias.py", "dir/inner/ok.py", "empty.py", "good.py", "sub/kept.py", "syntax.py"}
	if fmt.Sprint(sorted(paths)) != fmt.Sprint(want) {
		t.Errorf("indexed %q, want %q", sorted(paths), want)
	}
	if s.Files != len(want) || s.Parsed+s.Reused != len(want) || s.SyntaxErrors < 1 || s.Unsupported != 3 {
		t.Errorf("summary = %+v", s)
	}
	if n := len(got["big.py"].Stmts); n != 20000 {
		t.Errorf("big.py has %d statements, want 20000", n)
	}
	if s.Statements == 0 || s.Entries != s.Statements || s.IndexBytes <= 0 || s.Lines < 20000 {
		t.Errorf("summary = %+v", s)
	}
	if got["Main.java"].Language != "java" || len(got["empty.py"].Stmts) != 0 {
		t.Errorf("Main.java %+v / empty.py %+v", got["Main.java"].Language, got["empty.py"])
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j-1] > out[j]; j-- {
			out[j-1], out[j] = out[j], out[j-1]
		}
	}
	return out
}

func TestIncremental(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"a.py": "def a():\n    return 1\n", "b.py": "import a\nx = a.a()\n", "c/C.java": "class C { int f() { return 2; } }\n",
	})
	ctx := context.Background()
	s, err := Build(ctx, Options{Repo: root})
	if err != nil {
		t.Fatal(err)
	}
	if s.Parsed != 3 || s.Files != 3 || s.Generation != 1 {
		t.Fatalf("first build: %+v", s)
	}
	s, _ = Build(ctx, Options{Repo: root})
	if s.Parsed != 0 || s.Reused != 3 || s.Published {
		t.Errorf("unchanged rebuild: %+v", s)
	}
	writeTree(t, root, map[string]string{"b.py": "import a\nx = a.a() + 1\n"})
	s, _ = Build(ctx, Options{Repo: root})
	if s.Parsed != 1 || s.Reused != 2 || !s.Published {
		t.Errorf("edit rebuild: %+v", s)
	}
	if got := indexedPaths(t, s.Index)["b.py"].Lines[1]; got != "x = a.a() + 1" {
		t.Errorf("b.py line 2 = %q", got)
	}
	must(t, os.Remove(filepath.Join(root, "a.py")))
	s, _ = Build(ctx, Options{Repo: root})
	if s.Parsed != 0 || s.Removed != 1 || s.Files != 2 {
		t.Errorf("delete rebuild: %+v", s)
	}
	if got := indexedPaths(t, s.Index); got["a.py"] != nil {
		t.Error("a.py still indexed after deletion")
	}
	s, _ = Build(ctx, Options{Repo: root, Rebuild: true})
	if s.Parsed != 2 || s.Generation != 1 {
		t.Errorf("--rebuild: %+v", s)
	}
}

func TestIndexDirInsideRepo(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "x = 1\n"})
	idx := filepath.Join(root, "idx")
	for i := 0; i < 2; i++ {
		s, err := Build(context.Background(), Options{Repo: root, IndexDir: idx})
		if err != nil {
			t.Fatal(err)
		}
		if s.Files != 1 || s.Seen != 1 {
			t.Errorf("build %d: %+v", i, s)
		}
	}
}

func TestRebuildRefusesOtherFolders(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "x = 1\n", "notes/n.txt": "keep me"})
	_, err := Build(context.Background(), Options{Repo: root, IndexDir: filepath.Join(root, "notes"), Rebuild: true})
	if err == nil || !strings.Contains(err.Error(), "not an index") {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "notes/n.txt")); err != nil {
		t.Error("the folder was removed")
	}
}

func TestSchemaMismatchSaysHowToRebuild(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "x = 1\n"})
	if _, err := Build(context.Background(), Options{Repo: root}); err != nil {
		t.Fatal(err)
	}
	// Replace the index with one of a made-up schema.
	idx := filepath.Join(root, ".graphcoder")
	must(t, os.RemoveAll(idx))
	d, err := db.Open(idx, db.OpenOptions{})
	must(t, err)
	d.Close()
	must(t, setSchema(idx, "0"))
	_, err = Build(context.Background(), Options{Repo: root})
	var se *db.SchemaError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "--rebuild") {
		t.Fatalf("err = %v, want a schema error", err)
	}
	if _, err := Build(context.Background(), Options{Repo: root, Rebuild: true}); err != nil {
		t.Errorf("--rebuild: %v", err)
	}
}

func TestCancel(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := 0; i < 200; i++ {
		files[fmt.Sprintf("m%d.py", i)] = fmt.Sprintf("x = %d\n", i)
	}
	writeTree(t, root, files)
	if _, err := Build(context.Background(), Options{Repo: root}); err != nil {
		t.Fatal(err)
	}
	writeTree(t, root, map[string]string{"m1.py": "x = 'changed'\n"})
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	_, err := Build(ctx, Options{Repo: root, Workers: 1, Progress: func(p Progress) {
		if n++; n == 50 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want cancellation", err)
	}
	if got := indexedPaths(t, filepath.Join(root, ".graphcoder")); len(got) != 200 || got["m1.py"].Lines[0] != "x = 1" {
		t.Errorf("index after a cancelled build has %d files", len(got))
	}
}

// TestKillHelper is the child of TestKillBuild.
func TestKillHelper(t *testing.T) {
	root := os.Getenv("GRAPHCODER_KILL_REPO")
	if root == "" {
		t.Skip("helper process only")
	}
	_, err := Build(context.Background(), Options{Repo: root, Progress: func(p Progress) {
		if p.Phase == "index" && p.FilesDone == 100 {
			os.WriteFile(filepath.Join(root, "..", "started"), nil, 0o644)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	select {}
}

// TestKillBuild SIGKILLs a real build of a generated repository midway:
// the previous index must open and read whole.
func TestKillBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	files := map[string]string{}
	for i := 0; i < 60; i++ {
		files[fmt.Sprintf("p%d/m%d.py", i%5, i)] = pySource(i, "old")
	}
	writeTree(t, root, files)
	if _, err := Build(context.Background(), Options{Repo: root}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1500; i++ {
		files[fmt.Sprintf("p%d/m%d.py", i%5, i)] = pySource(i, "new")
	}
	writeTree(t, root, files)

	cmd := exec.Command(os.Args[0], "-test.run=^TestKillHelper$")
	cmd.Env = append(os.Environ(), "GRAPHCODER_KILL_REPO="+root)
	must(t, cmd.Start())
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := os.Stat(filepath.Join(base, "started")); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	got := indexedPaths(t, filepath.Join(root, ".graphcoder"))
	if len(got) != 60 {
		t.Fatalf("after the kill the index has %d files, want the previous 60", len(got))
	}
	for i := 0; i < 60; i++ {
		p := fmt.Sprintf("p%d/m%d.py", i%5, i)
		if r := got[p]; r == nil || !strings.Contains(strings.Join(r.Lines, "\n"), "old") || len(r.Entries) == 0 {
			t.Fatalf("%s is missing or not the previous version", p)
		}
	}
	// And the next build completes.
	s, err := Build(context.Background(), Options{Repo: root})
	if err != nil || s.Files != 1500 {
		t.Fatalf("build after the kill: %+v, %v", s, err)
	}
}

func pySource(i int, tag string) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "import os\n\nTAG = %q\n\n", tag)
	for j := 0; j < 20; j++ {
		fmt.Fprintf(&sb, "def f%d_%d(a, b):\n    c = a + b * %d\n    if c > %d:\n        return os.path.join(TAG, str(c))\n    for k in range(c):\n        a += k\n    return a\n\n", i, j, j, i)
	}
	return sb.String()
}

// TestUnreadableFile uses real permissions, which only bind a non-root
// user (TestBadInput simulates the failure otherwise).
func TestUnreadableFile(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: permissions do not stop reads")
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a.py": "x = 1\n", "secret.py": "y = 2\n"})
	must(t, os.Chmod(filepath.Join(root, "secret.py"), 0))
	s, err := Build(context.Background(), Options{Repo: root})
	if err != nil {
		t.Fatal(err)
	}
	if s.Files != 1 || s.Skipped[SkipUnreadable] != 1 {
		t.Errorf("summary = %+v", s)
	}
}

// A build repairs a damaged index from the sources: overwritten or
// truncated tables and a missing MANIFEST are rebuilt (and said so), and
// --rebuild removes a damaged folder.
func TestBuildRepairsDamage(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for i := range 60 {
		files[fmt.Sprintf("pkg%d/m%d.py", i%5, i)] = pySource(i, "v1")
	}
	writeTree(t, root, files)
	idx := filepath.Join(t.TempDir(), "idx")
	ctx := context.Background()
	table := func() string {
		entries, _ := os.ReadDir(idx)
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".sst") {
				return filepath.Join(idx, e.Name())
			}
		}
		t.Fatal("no table")
		return ""
	}
	for _, tt := range []struct {
		name    string
		damage  func()
		rebuild bool
	}{
		{"64 bytes overwritten", func() {
			f, _ := os.OpenFile(table(), os.O_WRONLY, 0)
			fi, _ := f.Stat()
			f.WriteAt([]byte(strings.Repeat("X", 64)), fi.Size()/2)
			f.Close()
		}, false},
		{"truncated table", func() { fi, _ := os.Stat(table()); os.Truncate(table(), fi.Size()/3) }, false},
		{"MANIFEST removed", func() { os.Remove(filepath.Join(idx, "MANIFEST")) }, false},
		{"MANIFEST removed, --rebuild", func() { os.Remove(filepath.Join(idx, "MANIFEST")) }, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			must(t, os.RemoveAll(idx))
			if _, err := Build(ctx, Options{Repo: root, IndexDir: idx}); err != nil {
				t.Fatal(err)
			}
			tt.damage()
			s, err := Build(ctx, Options{Repo: root, IndexDir: idx, Rebuild: tt.rebuild})
			if err != nil {
				t.Fatalf("build over the damage: %v", err)
			}
			if !tt.rebuild && !strings.Contains(s.Repaired, "damaged") {
				t.Errorf("Repaired = %q, want the damage named", s.Repaired)
			}
			if got := indexedPaths(t, idx); len(got) != len(files) {
				t.Errorf("after the repair %d files are readable, want %d", len(got), len(files))
			}
			if s, err := Build(ctx, Options{Repo: root, IndexDir: idx}); err != nil || s.Repaired != "" || s.Parsed != 0 {
				t.Errorf("the build after the repair: %+v, %v", s, err)
			}
		})
	}
}

// A file whose name is not UTF-8 cannot be named to a client (JSON and
// LSP URIs carry UTF-8): it is left out and counted.
func TestNameNotUTF8(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"ok.py": "x = 1\n", "caf\xe9.py": "y = 2\n", "d\xff/a.py": "z = 3\n"})
	s, err := Build(context.Background(), Options{Repo: root})
	if err != nil {
		t.Fatal(err)
	}
	if s.Files != 1 || s.Skipped[SkipBadName] != 2 {
		t.Errorf("summary %+v", s)
	}
}

// DiskUsage counts what a folder holds and reports a folder it cannot
// read instead of a size of 0 (Build returns that error).
// A build whose index size cannot be read says so instead of reporting
// a size of 0.
func TestBuildReportsIndexSizeError(t *testing.T) {
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.py"), []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func(f func(string) (int64, error)) { diskUsage = f }(diskUsage)
	diskUsage = func(string) (int64, error) { return 0, errors.New("unreadable folder") }
	if _, err := Build(context.Background(), Options{Repo: repo}); err == nil || !strings.Contains(err.Error(), "index size: unreadable folder") {
		t.Fatalf("Build = %v, want the index size error", err)
	}
}

func TestDiskUsage(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a"), make([]byte, 10000), 0o644); err != nil {
		t.Fatal(err)
	}
	if n, err := DiskUsage(dir); err != nil || n < 10000 {
		t.Errorf("DiskUsage: %d, %v; want at least 10000", n, err)
	}
	if n, err := DiskUsage(filepath.Join(dir, "missing")); err == nil {
		t.Errorf("DiskUsage of a missing folder: %d, no error", n)
	}
}
