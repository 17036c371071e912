package indexer

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The one file policy: ReadFile refuses special files without blocking or
// streaming them, files over the limit, binary and non-UTF-8 content.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"ok.py":     "x = 1\n",
		"nul.py":    strings.Repeat("x = 1\n", 3000) + "\x00",
		"latin1.py": "s = '\xe9'\n",
		"big.py":    strings.Repeat("y", 20001),
	})
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo.py"), 0o644))
	must(t, os.Symlink("/dev/zero", filepath.Join(dir, "zero.py")))
	must(t, os.Symlink("fifo.py", filepath.Join(dir, "tofifo.py")))
	must(t, os.Symlink("ok.py", filepath.Join(dir, "alias.py")))
	must(t, os.Mkdir(filepath.Join(dir, "sub.py"), 0o755))
	tests := []struct {
		name string
		want error
	}{
		{"ok.py", nil}, {"alias.py", nil},
		{"nul.py", ErrBinary}, // a NUL after the first 8 KiB counts too
		{"latin1.py", ErrNotUTF8},
		{"big.py", ErrTooLarge},
		{"fifo.py", ErrNotRegular}, {"tofifo.py", ErrNotRegular}, {"zero.py", ErrNotRegular}, {"sub.py", ErrNotRegular},
		{"missing.py", fs.ErrNotExist},
	}
	for _, tt := range tests {
		done := make(chan error, 1)
		go func() {
			_, err := ReadFile(filepath.Join(dir, tt.name), 20000)
			done <- err
		}()
		select {
		case err := <-done:
			if tt.want == nil && err != nil || tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("ReadFile(%s) = %v, want %v", tt.name, err, tt.want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadFile(%s) hangs", tt.name)
		}
	}
	if b, err := ReadFile(filepath.Join(dir, "ok.py"), 0); err != nil || string(b) != "x = 1\n" {
		t.Errorf("ReadFile(ok.py) = %q, %v", b, err)
	}
}

// RelPath names files as the walk does, and refuses a path whose folders
// lead out of the repository; ReadRepoFile also refuses a file link that
// does.
func TestRelPathAndReadRepoFile(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	outside := filepath.Join(base, "outside")
	writeTree(t, root, map[string]string{"pkg/a.py": "x = 1\n"})
	writeTree(t, outside, map[string]string{"secret.py": "password = 1\n"})
	must(t, os.Symlink(outside, filepath.Join(root, "escape")))
	must(t, os.Symlink(filepath.Join(outside, "secret.py"), filepath.Join(root, "leak.py")))
	must(t, os.Symlink("pkg/a.py", filepath.Join(root, "alias.py")))
	must(t, os.Symlink(root, filepath.Join(base, "link-to-repo")))
	tests := []struct {
		path, want string
		err        error
	}{
		{"pkg/a.py", "pkg/a.py", nil},
		{filepath.Join(root, "pkg", "a.py"), "pkg/a.py", nil},
		{"./pkg/../pkg/a.py", "pkg/a.py", nil},
		{"alias.py", "alias.py", nil}, // a link names itself
		{"leak.py", "leak.py", nil},   // named; reading it is refused below
		{filepath.Join(base, "link-to-repo", "pkg", "a.py"), "pkg/a.py", nil},
		{"new/file.py", "new/file.py", nil}, // need not exist
		{"escape/secret.py", "", ErrOutsideRepo},
		{"../outside/secret.py", "", ErrOutsideRepo},
		{"/etc/passwd", "", ErrOutsideRepo},
		{".", "", ErrOutsideRepo},
		{"", "", ErrOutsideRepo},
	}
	for _, tt := range tests {
		got, err := RelPath(root, tt.path)
		if got != tt.want || !errors.Is(err, tt.err) || (tt.err == nil) != (err == nil) {
			t.Errorf("RelPath(%q) = %q, %v; want %q, %v", tt.path, got, err, tt.want, tt.err)
		}
	}
	// The same through the root's own link.
	if got, err := RelPath(filepath.Join(base, "link-to-repo"), filepath.Join(root, "pkg", "a.py")); got != "pkg/a.py" || err != nil {
		t.Errorf("RelPath through the root's link = %q, %v", got, err)
	}
	if _, err := ReadRepoFile(root, "leak.py", 0); !errors.Is(err, ErrOutsideRepo) {
		t.Errorf("ReadRepoFile(leak.py) = %v, want %v", err, ErrOutsideRepo)
	}
	if b, err := ReadRepoFile(root, "alias.py", 0); err != nil || string(b) != "x = 1\n" {
		t.Errorf("ReadRepoFile(alias.py) = %q, %v", b, err)
	}
}
