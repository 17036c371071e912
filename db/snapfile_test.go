package db

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fakeSnapshots writes snapshot files that list the generation's files
// and content hashes, as package snapfile's do, and checks them back.
type fakeSnapshots struct{ writes int }

func (w *fakeSnapshots) WriteSnapshot(ctx context.Context, s *Snapshot, out io.Writer) error {
	w.writes++
	for _, f := range s.Files() {
		if _, err := fmt.Fprintf(out, "%s %x\n", f.Path, f.Hash); err != nil {
			return err
		}
	}
	_, err := io.WriteString(out, "end\n")
	return err
}

func (w *fakeSnapshots) CheckSnapshot(path string, s *Snapshot, verify bool) (int, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	text, ok := strings.CutSuffix(string(b), "end\n")
	if !ok {
		return 0, errors.New("damaged")
	}
	held := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		held[l] = true
	}
	stale := 0
	for _, f := range s.Files() {
		if !held[fmt.Sprintf("%s %x", f.Path, f.Hash)] {
			stale++
		}
	}
	return stale, nil
}

func snapshotNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), snapPrefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

func buildWith(t *testing.T, d *DB, opts BuildOptions, files map[string]string, removed ...string) (Summary, error) {
	t.Helper()
	ctx := context.Background()
	b := testBuilder(t, d, opts)
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range files {
			if !yield(p) {
				return
			}
		}
	}) {
		if err := b.Add(ctx, p, []byte(files[p])); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range removed {
		b.Remove(p)
	}
	return b.Finish(ctx)
}

// TestSnapshotFiles: a full build writes its generation's snapshot file
// before the switch and collects the previous one; an incremental build
// keeps the newest until it is more than SnapshotLag files behind; a build
// that changes nothing rewrites a missing, damaged or stale one; a write
// that fails leaves the published generation and its file as they were.
func TestSnapshotFiles(t *testing.T) {
	dir := t.TempDir()
	d := openTest(t, dir)
	w := &fakeSnapshots{}
	full := BuildOptions{Root: "/repo", Snapshot: w}
	inc := BuildOptions{Root: "/repo", Snapshot: w, Incremental: true, SnapshotLag: 2}

	testHookBeforePublish = func() error {
		if got := snapshotNames(t, dir); !slices.Contains(got, snapshotName(1)) {
			t.Errorf("before the switch: %v", got)
		}
		return nil
	}
	s, err := buildWith(t, d, full, map[string]string{"a.fk": "x = 1\n", "b.fk": "y = 2\n"})
	testHookBeforePublish = nil
	if err != nil || !s.Snapshot.Written || s.Snapshot.Bytes == 0 {
		t.Fatalf("first build: %+v, %v", s.Snapshot, err)
	}
	if got := snapshotNames(t, dir); !slices.Equal(got, []string{snapshotName(1)}) {
		t.Fatalf("after the first build: %v", got)
	}
	if !IsIndex(dir) {
		t.Fatal("a folder with a snapshot file is not taken for an index")
	}

	// Incremental builds, up to the lag.
	for i, c := range []string{"c.fk", "d.fk"} {
		s, err := buildWith(t, d, inc, map[string]string{c: "z = 3\n"})
		if err != nil || s.Snapshot.Written || s.Snapshot.Stale != i+1 {
			t.Fatalf("incremental %d: %+v, %v", i, s.Snapshot, err)
		}
	}
	snap, _ := d.Snapshot()
	if p, gen, ok := snap.SnapshotFile(); !ok || gen != 1 || filepath.Base(p) != snapshotName(1) {
		t.Errorf("readers of generation 3 map %s (%d)", p, gen)
	}
	snap.Close()
	// Past the lag: a new file, the old one collected.
	s, err = buildWith(t, d, inc, map[string]string{"e.fk": "w = 4\n"})
	if err != nil || !s.Snapshot.Written || !strings.Contains(s.Snapshot.Reason, "3 files behind") {
		t.Fatalf("past the lag: %+v, %v", s.Snapshot, err)
	}
	if got := snapshotNames(t, dir); !slices.Equal(got, []string{snapshotName(4)}) {
		t.Fatalf("after the lag: %v", got)
	}

	// A build that changes nothing: keeps an intact file, rewrites a
	// damaged or missing one, collects a temporary one.
	all := map[string]string{"a.fk": "x = 1\n", "b.fk": "y = 2\n", "c.fk": "z = 3\n", "d.fk": "z = 3\n", "e.fk": "w = 4\n"}
	s, err = buildWith(t, d, full, all)
	if err != nil || s.Published || s.Snapshot.Written {
		t.Fatalf("unchanged: %+v %+v, %v", s, s.Snapshot, err)
	}
	os.WriteFile(filepath.Join(dir, snapshotName(4)), []byte("cut"), 0o644)
	os.WriteFile(filepath.Join(dir, snapshotName(2)+tmpSuffix), []byte("half"), 0o644)
	s, err = buildWith(t, d, full, all)
	if err != nil || s.Published || !s.Snapshot.Written || !strings.Contains(s.Snapshot.Reason, "unusable") {
		t.Fatalf("damaged: %+v, %v", s.Snapshot, err)
	}
	if got := snapshotNames(t, dir); !slices.Equal(got, []string{snapshotName(4)}) {
		t.Fatalf("after the repair: %v", got)
	}
	os.Remove(filepath.Join(dir, snapshotName(4)))
	s, err = buildWith(t, d, full, all)
	if err != nil || !s.Snapshot.Written || s.Snapshot.Reason != "there was none" {
		t.Fatalf("missing: %+v, %v", s.Snapshot, err)
	}

	// A write that fails: no generation, no file, the old ones intact.
	testHookSnapshotWrite = func(w io.Writer) io.Writer { return &failingWriter{w, 1} }
	_, err = buildWith(t, d, full, map[string]string{"a.fk": "x = 10\n"})
	testHookSnapshotWrite = nil
	if err == nil {
		t.Fatal("a failed snapshot write published")
	}
	if got := snapshotNames(t, dir); !slices.Equal(got, []string{snapshotName(4)}) {
		t.Fatalf("after a failed write: %v", got)
	}
	if snap, _ := d.Snapshot(); snap.Meta().Generation != 4 {
		t.Errorf("after a failed write the index is at generation %d", snap.Meta().Generation)
	} else {
		snap.Close()
	}

	// An incremental build of an index without a snapshot file starts
	// none.
	d2 := openTest(t, t.TempDir())
	if _, err := buildWith(t, d2, BuildOptions{Root: "/repo"}, map[string]string{"a.fk": "x = 1\n"}); err != nil {
		t.Fatal(err)
	}
	s, err = buildWith(t, d2, inc, map[string]string{"b.fk": "x = 1\n"})
	if err != nil || s.Snapshot.Written {
		t.Fatalf("incremental without a file: %+v, %v", s.Snapshot, err)
	}
}

type failingWriter struct {
	w    io.Writer
	left int
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.left <= 0 {
		return 0, errors.New("disk went away")
	}
	f.left--
	return f.w.Write(p)
}

func TestSnapshotFileNames(t *testing.T) {
	for name, want := range map[string]bool{
		snapshotName(7): true, snapshotName(7) + tmpSuffix: true,
		"snapshot-0000000000000007": false, "snapshot-7.gcs": false, "snapshot-000000000000000g.gcs": false,
	} {
		if _, _, ok := snapshotFileGen(name); ok != want || storeFile(name) != want {
			t.Errorf("%s: %v, want %v", name, ok, want)
		}
	}
}
