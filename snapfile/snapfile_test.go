package snapfile_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/internal/mapfile"
	"github.com/graphcoder/graphcoder/snapfile"
)

// writeRepo writes n Python files of a few functions each under dir.
func writeRepo(t testing.TB, dir string, n int, version string) {
	t.Helper()
	for i := range n {
		var b strings.Builder
		for j := range 12 {
			fmt.Fprintf(&b, "def f%d_%d(items, total):\n    for item in items:\n        total = total + item.price_%s\n    return total\n\n", i, j, version)
		}
		p := filepath.Join(dir, fmt.Sprintf("pkg%d", i%7), fmt.Sprintf("m%d.py", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func openSnapshot(t *testing.T, idx string) (*db.DB, *db.Snapshot) {
	t.Helper()
	d, err := db.Open(idx, db.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Snapshot()
	if err != nil {
		d.Close()
		t.Fatal(err)
	}
	return d, s
}

// TestOpenAndChanged: the snapshot file holds the generation's files; a
// later generation's changed, added and removed files are what Changed
// and CheckSnapshot report; a reader of other parameters is refused.
func TestOpenAndChanged(t *testing.T) {
	repo, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	writeRepo(t, repo, 5, "a")
	ctx := context.Background()
	if _, err := indexer.Build(ctx, indexer.Options{Repo: repo, IndexDir: idx}); err != nil {
		t.Fatal(err)
	}
	d, s := openSnapshot(t, idx)
	path, gen, ok := s.SnapshotFile()
	if !ok || gen != 1 {
		t.Fatalf("snapshot file %s %d %v", path, gen, ok)
	}
	im, err := snapfile.Open(path, s.Meta(), true)
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Files) != 5 || im.Index.Files() != 5 || im.Symbols.Files() != 5 || len(im.Changed(s.Files())) != 0 {
		t.Fatalf("image: %d files, index %d, symbols %d, changed %v", len(im.Files), im.Index.Files(), im.Symbols.Files(), im.Changed(s.Files()))
	}
	for _, bad := range []func(m *db.Meta){
		func(m *db.Meta) { m.Hops++ },
		func(m *db.Meta) { m.MaxStatements++ },
		func(m *db.Meta) { m.Tokenizer = "cl100k" },
		func(m *db.Meta) { m.Analysis++ },
	} {
		m := s.Meta()
		bad(&m)
		if _, err := snapfile.Open(path, m, false); !errors.Is(err, snapfile.ErrUnusable) {
			t.Errorf("a snapshot file of other parameters opened: %v", err)
		}
	}
	s.Close()
	d.Close()

	// Change one file, add one, remove one: an incremental build keeps
	// the file (under the lag) and readers see three stale files.
	os.WriteFile(filepath.Join(repo, "pkg0", "m0.py"), []byte("x = 1\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "new.py"), []byte("y = 2\n"), 0o644)
	os.Remove(filepath.Join(repo, "pkg1", "m1.py"))
	dw, err := db.Open(idx, db.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	us, err := indexer.Update(ctx, dw, indexer.NewRules(repo, idx, 0), []string{
		filepath.Join(repo, "pkg0", "m0.py"), filepath.Join(repo, "new.py"), filepath.Join(repo, "pkg1", "m1.py")})
	dw.Close()
	if err != nil || !us.Published {
		t.Fatalf("update: %+v, %v", us, err)
	}
	d, s = openSnapshot(t, idx)
	defer d.Close()
	defer s.Close()
	want := []string{"new.py", "pkg0/m0.py", "pkg1/m1.py"}
	if got := im.Changed(s.Files()); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("changed %v, want %v", got, want)
	}
	if n, err := (snapfile.Writer{}).CheckSnapshot(path, s, true); n != 3 || err != nil {
		t.Errorf("CheckSnapshot: %d, %v", n, err)
	}
	im.Close()
	e, err := engine.Open(idx, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if i := e.Info(); i.Snapshot != path || i.SnapshotLag != 3 || i.Changed != 3 || i.Files != 5 {
		t.Errorf("engine over a stale snapshot file: %+v", i)
	}
}

// TestKillHelper is the child process of TestKillDuringSnapshotWrite.
func TestKillHelper(t *testing.T) {
	repo, idx := os.Getenv("GRAPHCODER_KILL_REPO"), os.Getenv("GRAPHCODER_KILL_INDEX")
	if repo == "" {
		t.Skip("helper process only")
	}
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, IndexDir: idx}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(idx+".finished", nil, 0o644)
	select {}
}

// TestKillDuringSnapshotWrite SIGKILLs a build while it writes the new
// generation's snapshot file: the index then opens read-only and answers
// from the previous generation and its snapshot file, and the next build
// publishes and leaves one snapshot file and no temporary one.
func TestKillDuringSnapshotWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	repo, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	ctx := context.Background()
	writeRepo(t, repo, 20, "old")
	if _, err := indexer.Build(ctx, indexer.Options{Repo: repo, IndexDir: idx}); err != nil {
		t.Fatal(err)
	}
	writeRepo(t, repo, 600, "new")
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillHelper$")
	cmd.Env = append(os.Environ(), "GRAPHCODER_KILL_REPO="+repo, "GRAPHCODER_KILL_INDEX="+idx)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if tmp, _ := filepath.Glob(filepath.Join(idx, "snapshot-*.gcs.tmp")); len(tmp) > 0 {
			time.Sleep(20 * time.Millisecond)
			cmd.Process.Signal(syscall.SIGKILL)
			killed = true
			break
		}
		if _, err := os.Stat(idx + ".finished"); err == nil {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if !killed {
		t.Skip("the snapshot write was not caught in time")
	}
	e, err := engine.Open(idx, engine.Options{VerifySnapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	i := e.Info()
	if i.Generation != 1 || i.SnapshotGen != 1 || i.Files != 20 {
		t.Errorf("after the kill: %+v", i)
	}
	res, err := e.Complete(ctx, engine.Request{Path: filepath.Join(repo, "pkg3", "m3.py"), Line: 3})
	if err != nil || len(res.Snippets) == 0 {
		t.Fatalf("after the kill: %v, %d snippets", err, len(res.Snippets))
	}
	e.Close()
	sum, err := indexer.Build(ctx, indexer.Options{Repo: repo, IndexDir: idx})
	if err != nil || !sum.Published || !sum.Snapshot.Written {
		t.Fatalf("build after the kill: %+v, %v", sum, err)
	}
	left, _ := filepath.Glob(filepath.Join(idx, "snapshot-*"))
	if len(left) != 1 || strings.HasSuffix(left[0], ".tmp") {
		t.Errorf("snapshot files after the build: %v", left)
	}
}

// TestStreamedSameAsFromBlobs: the snapshot file a build writes from its
// own records as it produces them (in whatever order its workers finish)
// is byte for byte the one written from the generation's blobs read
// back; a second copy of the same files under another root (blobs reused
// within the build) and files that fail to be read change nothing to that.
func TestStreamedSameAsFromBlobs(t *testing.T) {
	repo, idx := t.TempDir(), filepath.Join(t.TempDir(), "idx")
	writeRepo(t, filepath.Join(repo, "a"), 30, "a")
	writeRepo(t, filepath.Join(repo, "b"), 30, "a") // the same contents
	writeRepo(t, filepath.Join(repo, "c"), 9, "c")
	if err := os.WriteFile(filepath.Join(repo, "bad.py"), []byte{0xff, 0xfe, 0}, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sum, err := indexer.Build(ctx, indexer.Options{Repo: repo, IndexDir: idx, Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Snapshot == nil || !sum.Snapshot.Written || !sum.Snapshot.Streamed {
		t.Fatalf("snapshot %+v: want written from the build's records", sum.Snapshot)
	}
	if sum.Reused == 0 {
		t.Errorf("no blob reused: the second copy was parsed again")
	}
	d, s := openSnapshot(t, idx)
	defer d.Close()
	defer s.Close()
	path, _, ok := s.SnapshotFile()
	if !ok {
		t.Fatal("no snapshot file")
	}
	l, err := snapfile.Load(ctx, s, snapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	if err := snapfile.Write(&want, s.Meta(), l); err != nil {
		t.Fatal(err)
	}
	// Every section alike, the files' PageRank included (computed again
	// from the blobs, bit for bit).
	tmp := filepath.Join(t.TempDir(), "want.gcs")
	if err := os.WriteFile(tmp, []byte(want.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	m1, err := mapfile.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m1.Close()
	m2, err := mapfile.Open(tmp)
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	if len(m1.Sections()) != len(m2.Sections()) {
		t.Errorf("%d sections, want %d", len(m1.Sections()), len(m2.Sections()))
	}
	for _, sec := range m2.Sections() {
		a, err := m1.Section(sec.Name)
		if err != nil {
			t.Error(err)
			continue
		}
		b, _ := m2.Section(sec.Name)
		if string(a) != string(b) {
			t.Errorf("section %s differs from the one written from the blobs", sec.Name)
		}
	}
	if len(l.Files) != sum.Files || sum.Files != 69 {
		t.Errorf("%d files in the snapshot, %d in the build, want 69", len(l.Files), sum.Files)
	}
}
