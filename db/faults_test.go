package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"
)

// folderState lists the files of dir with their sizes and times, to show
// that a reader changed nothing.
func folderSnapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %d %d\n", e.Name(), fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String()
}

// Damage to the store's files is ErrCorrupt (never a panic, never a
// missing key taken for an absent file): bytes overwritten in a table, a
// truncated table, a MANIFEST deleted. A folder without its MANIFEST is
// still an index, so that a rebuild may remove it.
func TestDamagedFiles(t *testing.T) {
	good := t.TempDir()
	func() {
		d := openTest(t, good)
		build(t, d, crashRepo(400, "v"))
		d.Close()
	}()
	var sst string
	entries, _ := os.ReadDir(good)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sst") {
			sst = e.Name()
		}
	}
	if sst == "" {
		t.Fatal("no table written")
	}
	fi, _ := os.Stat(filepath.Join(good, sst))
	size := fi.Size()
	copyDir := func(t *testing.T) string {
		dst := t.TempDir()
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(good, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dst
	}
	overwrite := func(off int64) func(string) {
		return func(dir string) {
			f, err := os.OpenFile(filepath.Join(dir, sst), os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			f.WriteAt([]byte(strings.Repeat("X", 64)), off)
		}
	}
	tests := []struct {
		name   string
		damage func(dir string)
	}{
		{"64 bytes overwritten at the start of the data", overwrite(size / 10)},
		{"64 bytes overwritten in the middle", overwrite(size / 2)},
		{"64 bytes overwritten in the table index", overwrite(size - 100)},
		{"table truncated to half", func(dir string) { os.Truncate(filepath.Join(dir, sst), size/2) }},
		{"table truncated to 10 bytes", func(dir string) { os.Truncate(filepath.Join(dir, sst), 10) }},
		{"table removed", func(dir string) { os.Remove(filepath.Join(dir, sst)) }},
		{"MANIFEST removed", func(dir string) { os.Remove(filepath.Join(dir, "MANIFEST")) }},
		{"MANIFEST overwritten", func(dir string) { os.WriteFile(filepath.Join(dir, "MANIFEST"), []byte("garbage"), 0o644) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := copyDir(t)
			tt.damage(dir)
			if !IsIndex(dir) {
				t.Error("IsIndex is false: a rebuild would refuse to remove the folder")
			}
			for _, ro := range []bool{true, false} {
				err := func() (err error) {
					defer func() {
						if r := recover(); r != nil {
							err = fmt.Errorf("panic: %v", r)
						}
					}()
					d, err := Open(dir, OpenOptions{ReadOnly: ro})
					if err != nil {
						return err
					}
					defer d.Close()
					s, err := d.Snapshot()
					if err != nil {
						return err
					}
					defer s.Close()
					return s.ForEach(context.Background(), func(*FileRecord) error { return nil })
				}()
				if !errors.Is(err, ErrCorrupt) {
					t.Errorf("read-only %v: %v, want %v", ro, err, ErrCorrupt)
				}
			}
		})
	}
}

// A read-only open after a killed writer reads the last published
// generation without writing a byte to the index folder.
func TestReadOnlyAfterKillWritesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	root := t.TempDir()
	dir := filepath.Join(root, "index")
	func() {
		d := openTest(t, dir)
		build(t, d, crashRepo(200, "old"))
		d.Close()
	}()
	if !killCrashHelper(t, dir, "finished", 60*time.Second, 0) {
		t.Skip("the writer did not finish in time")
	}
	before := folderSnapshot(t, dir)
	if !strings.Contains(before, ".mem") {
		t.Fatalf("the killed writer left no log to replay:\n%s", before)
	}
	// The folder itself may not be written: a reader that tried would fail.
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Chmod(dir, 0o555))
	defer os.Chmod(dir, 0o755)
	for range 2 {
		d, err := Open(dir, OpenOptions{ReadOnly: true})
		must(err)
		if files := snapshotFiles(t, d); len(files) != 3000 {
			t.Errorf("read-only open reads %d files, want the published 3000", len(files))
		}
		must(d.Close())
	}
	if after := folderSnapshot(t, dir); after != before {
		t.Errorf("the reader changed the folder:\n%s\nto\n%s", before, after)
	}
}

// The lock error names the process that holds the index.
func TestLockedNamesHolder(t *testing.T) {
	dir := t.TempDir()
	openTest(t, dir)
	_, err := Open(dir, OpenOptions{})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("process %d", os.Getpid())) ||
		!strings.Contains(err.Error(), filepath.Base(os.Args[0])) {
		t.Errorf("second open: %v", err)
	}
	if _, err := Open(dir, OpenOptions{ReadOnly: true}); !errors.Is(err, ErrLocked) {
		t.Errorf("reader beside a writer: %v", err)
	}
}

// mountTmpfs mounts a tmpfs of size bytes, or skips the test.
func mountTmpfs(t *testing.T, size int64) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a small tmpfs")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, fmt.Sprintf("size=%d", size)); err != nil {
		t.Skipf("cannot mount a tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// fill writes a file that leaves about left bytes free on the file system
// of dir, and returns its path.
func fill(t *testing.T, dir string, left int64) string {
	t.Helper()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	free := int64(st.Bavail) * st.Bsize
	p := filepath.Join(dir, "filler")
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := make([]byte, 1<<20)
	for n := free - left; n > 0; n -= int64(len(chunk)) {
		if _, err := f.Write(chunk[:min(int64(len(chunk)), n)]); err != nil {
			break // full
		}
	}
	return p
}

// A full disk is ErrNoSpace, never a fatal signal from a memory-mapped
// write: a writer refuses to open, a build stops with the previous
// generation intact, a reader still reads, and the next build after space
// is freed collects what the failed one left.
func TestDiskFull(t *testing.T) {
	mnt := mountTmpfs(t, 96<<20)
	dir := filepath.Join(mnt, "index")
	opts := OpenOptions{MinFree: 16 << 20}
	old := crashRepo(200, "old")
	func() {
		d, err := Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		build(t, d, old)
	}()

	// Too little room to open for writing: refused, nothing written.
	filler := fill(t, mnt, 8<<20)
	before := folderSnapshot(t, dir)
	if _, err := Open(dir, opts); !errors.Is(err, ErrNoSpace) {
		t.Fatalf("open with 8 MiB free: %v, want %v", err, ErrNoSpace)
	}
	if after := folderSnapshot(t, dir); after != before {
		t.Errorf("the refused open wrote to the index:\n%s", after)
	}
	// A reader needs no room at all.
	os.Remove(filler)
	fill(t, mnt, 0)
	func() {
		d, err := Open(dir, OpenOptions{ReadOnly: true})
		if err != nil {
			t.Fatalf("read-only open on a full disk: %v", err)
		}
		defer d.Close()
		if n := len(snapshotFiles(t, d)); n != len(old) {
			t.Errorf("a reader on a full disk reads %d files", n)
		}
	}()

	// A build that runs out of room midway stops with ErrNoSpace.
	os.Remove(filepath.Join(mnt, "filler"))
	fill(t, mnt, 22<<20)
	func() {
		d, err := Open(dir, opts)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		b := testBuilder(t, d, BuildOptions{Root: "/repo"})
		var addErr error
		for p, c := range crashRepo(20000, "new") {
			if addErr = b.Add(context.Background(), p, []byte(c)); addErr != nil {
				break
			}
		}
		if !errors.Is(addErr, ErrNoSpace) || !errors.Is(addErr, ErrStorage) {
			t.Fatalf("build on a filling disk: %v, want %v", addErr, ErrNoSpace)
		}
		b.Abort()
	}()
	func() {
		d, err := Open(dir, OpenOptions{ReadOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		got := snapshotFiles(t, d)
		if len(got) != len(old) {
			t.Fatalf("after the failed build %d files, want the previous %d", len(got), len(old))
		}
		for p, c := range old {
			if r := got[p]; r == nil || strings.Join(r.Lines, "\n") != c {
				t.Fatalf("%s is missing or changed", p)
			}
		}
	}()

	// Room again: the next build collects the failed build's blobs.
	os.Remove(filepath.Join(mnt, "filler"))
	d, err := Open(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if n := blobCount(t, d); n <= len(old) {
		t.Fatalf("the failed build left no blobs (%d)", n)
	}
	s := build(t, d, map[string]string{"a.fk": "a = 1"})
	if n := blobCount(t, d); n != 1 || s.CollectedBlobs == 0 {
		t.Errorf("after the next build %d blobs are stored (collected %d), want 1", n, s.CollectedBlobs)
	}
}

// A writer killed right after creating a log leaves it empty or shorter
// than its header; a read-only open (which cannot size it, and which
// Badger would end with a failed assertion) reads the published
// generation anyway.
func TestReadOnlyWithEmptyLog(t *testing.T) {
	dir := t.TempDir()
	func() {
		d := openTest(t, dir)
		build(t, d, crashRepo(50, "v"))
		d.Close()
	}()
	for _, c := range []struct {
		name string
		size int64
	}{{"00009.mem", 0}, {"00009.mem", 7}, {"000009.vlog", 0}} {
		name, size := c.name, c.size
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, size), 0o644); err != nil {
			t.Fatal(err)
		}
		before := folderSnapshot(t, dir)
		d, err := Open(dir, OpenOptions{ReadOnly: true})
		if err != nil {
			t.Fatalf("read-only open beside a %d-byte %s: %v", size, name, err)
		}
		if n := len(snapshotFiles(t, d)); n != 50 {
			t.Errorf("%d files", n)
		}
		d.Close()
		if folderSnapshot(t, dir) != before {
			t.Error("the reader changed the folder")
		}
		os.Remove(p)
	}
}

// The next writer after such a kill opens the index too (Badger alone
// cannot reopen an empty value log or write-ahead log).
func TestWriterAfterUnsizedLogs(t *testing.T) {
	dir := t.TempDir()
	func() {
		d := openTest(t, dir)
		build(t, d, crashRepo(50, "v"))
		d.Close()
	}()
	os.WriteFile(filepath.Join(dir, "000009.vlog"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "00009.mem"), nil, 0o644)
	d, err := Open(dir, OpenOptions{})
	if err != nil {
		t.Fatalf("open for writing: %v", err)
	}
	defer d.Close()
	if n := len(snapshotFiles(t, d)); n != 50 {
		t.Errorf("%d files", n)
	}
	build(t, d, crashRepo(60, "w"))
}

// A build whose previous generation cannot be read at the end fails
// instead of publishing without collecting the old blobs.
func TestFinishFailsWhenThePreviousGenerationIsUnreadable(t *testing.T) {
	d := openTest(t, filepath.Join(t.TempDir(), "index"))
	old := build(t, d, map[string]string{"a.py": "x = 1\n", "b.py": "y = 2\n"})
	ctx := context.Background()
	b := testBuilder(t, d, BuildOptions{Root: "/repo"})
	for p, c := range map[string]string{"a.py": "x = 3\n", "b.py": "y = 4\n"} {
		if err := b.Add(ctx, p, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.bdb.Update(func(txn *badger.Txn) error { return txn.Delete(genMetaKey(old.Generation)) }); err != nil {
		t.Fatal(err)
	}
	s, err := b.Finish(ctx)
	if err == nil || !strings.Contains(err.Error(), "read generation") {
		t.Fatalf("finish: %+v, %v; want the previous generation's read error", s, err)
	}
}

// Blobs live compressed in the value log (stored.go): bytes overwritten
// there make the files whose blobs they hit damaged (ErrCorrupt when
// loaded), never a panic or other content, and the others still load.
func TestDamagedValueLog(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 40 {
		var sb strings.Builder
		for j := range 300 {
			fmt.Fprintf(&sb, "w%d_%d = g%d(w%d_%d, %d)\n", j, i, (i*j)%11, j, i-1, i*j)
		}
		files[fmt.Sprintf("m%02d.fk", i)] = sb.String()
	}
	func() {
		d := openTest(t, dir)
		defer d.Close()
		build(t, d, files)
	}()
	var vlog string
	var size int64
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if fi, _ := e.Info(); strings.HasSuffix(e.Name(), ".vlog") && fi.Size() > size {
			vlog, size = e.Name(), fi.Size()
		}
	}
	if size < 10<<10 {
		t.Fatalf("value log of %d bytes: the blobs were not written there", size)
	}
	f, err := os.OpenFile(filepath.Join(dir, vlog), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte(strings.Repeat("X", 64)), size/2)
	f.Close()

	d, err := Open(dir, OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, err := d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	bad := 0
	for _, fi := range s.Files() {
		rec, err := s.Load(fi.Path)
		switch {
		case errors.Is(err, ErrCorrupt):
			bad++
		case err != nil:
			t.Errorf("%s: %v, want %v", fi.Path, err, ErrCorrupt)
		case strings.TrimSuffix(strings.Join(rec.Lines, "\n"), "\n")+"\n" != files[fi.Path]:
			t.Errorf("%s: other content than was stored", fi.Path)
		}
	}
	if bad == 0 || bad == len(files) {
		t.Errorf("%d of %d files damaged, want some", bad, len(files))
	}
}
