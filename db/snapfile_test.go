package db

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sync/errgroup"
)

// fakeSnapshots writes snapshot files that list the generation's files
// and content hashes, as package snapfile's do, and checks them back.
type fakeSnapshots struct{ writes int }

func (w *fakeSnapshots) StartSnapshot(Meta) (SnapshotStream, error) {
	return &fakeStream{w: w}, nil
}

type fakeStream struct {
	w     *fakeSnapshots
	lines []string
}

func (s *fakeStream) Add(r *FileRecord, f FileInfo) error {
	if r.Path != f.Path {
		return fmt.Errorf("record of %s with the manifest entry of %s", r.Path, f.Path)
	}
	s.lines = append(s.lines, fmt.Sprintf("%s %x\n", f.Path, f.Hash))
	return nil
}

func (s *fakeStream) Write(ctx context.Context, meta Meta, out io.Writer) error {
	s.w.writes++
	for _, l := range s.lines {
		if _, err := io.WriteString(out, l); err != nil {
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

// TestPlannedFeed: with Plan, the snapshot file is written from the
// build's own records as they come (Streamed), in path order whatever the
// order of the concurrent Adds, with skipped paths left out and a blob
// reused within the build (the same content under two paths) read back
// from the store; a path that was not planned, or a planned one never
// settled, drops the feed, and the file is written from the blobs, the
// same.
func TestPlannedFeed(t *testing.T) {
	files := map[string]string{}
	for i := range 60 {
		files[fmt.Sprintf("p%d/m%02d.fk", i%5, i)] = fmt.Sprintf("x%d = 1\ny = x%d\n", i%45, i%45) // m45 on: the contents of m00 on
	}
	paths := slices.Sorted(maps.Keys(files))
	want := func(skipped ...string) string {
		var sb strings.Builder
		for _, p := range paths {
			if !slices.Contains(skipped, p) {
				fmt.Fprintf(&sb, "%s %x\n", p, sha256.Sum256([]byte(files[p])))
			}
		}
		return sb.String() + "end\n"
	}
	ctx := context.Background()
	for _, tt := range []struct {
		name     string
		plan     []string
		add      []string
		skip     []string
		streamed bool
	}{
		{"all planned", paths, paths, nil, true},
		{"some skipped", paths, paths[5:], paths[:5], true},
		{"one not planned", paths[1:], paths, nil, false},
		{"one never settled", paths, paths[1:], nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			d := openTest(t, dir)
			b := testBuilder(t, d, BuildOptions{Root: "/repo", Snapshot: &fakeSnapshots{}})
			if err := b.Plan(tt.plan); err != nil {
				t.Fatal(err)
			}
			order := slices.Clone(tt.add)
			rand.New(rand.NewPCG(1, 2)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			// The second path of a content waits for the first's Add, so
			// that its blob is one the build has stored: a content whose
			// two copies are in flight together is parsed twice, and
			// which are is up to the scheduler.
			first := map[string]chan struct{}{}
			var g errgroup.Group
			g.SetLimit(4)
			for _, p := range order {
				done, seen := first[files[p]]
				if !seen {
					first[files[p]] = make(chan struct{})
				}
				mine := first[files[p]]
				g.Go(func() error {
					if seen {
						<-done
						return b.Add(ctx, p, []byte(files[p]))
					}
					defer close(mine)
					return b.Add(ctx, p, []byte(files[p]))
				})
			}
			for _, p := range tt.skip {
				b.Skip(p)
			}
			if err := g.Wait(); err != nil {
				t.Fatal(err)
			}
			s, err := b.Finish(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if len(tt.add) == len(paths) && (s.Reused != 15 || s.NewBlobs != 45) {
				t.Errorf("%d blobs reused and %d written, want the 15 repeated contents' and the 45 others", s.Reused, s.NewBlobs)
			}
			if !s.Snapshot.Written || s.Snapshot.Streamed != tt.streamed {
				t.Errorf("snapshot %+v, want written, streamed %v", s.Snapshot, tt.streamed)
			}
			got, err := os.ReadFile(filepath.Join(dir, snapshotName(s.Generation)))
			if err != nil {
				t.Fatal(err)
			}
			missing := tt.skip
			if tt.name == "one never settled" {
				missing = paths[:1]
			}
			if string(got) != want(missing...) {
				t.Errorf("snapshot file:\n%s\nwant:\n%s", got, want(missing...))
			}
		})
	}
}
