package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/slice"
)

func sampleRecord() *FileRecord {
	return &FileRecord{
		Language: "python",
		Lines:    []string{"import os", "", "def f(x):", "    return x + 1", ""},
		Vocab:    []string{"import", "os", "def", "f", "(", "x", ")", ":", "return", "+", "1"},
		Stmts: []StmtRecord{
			{Kind: lang.Simple, StartRow: 0, EndRow: 0, Tokens: []uint32{0, 1}, Defs: []string{"os"}},
			{Kind: lang.Func, StartRow: 2, EndRow: 2, Tokens: []uint32{2, 3, 4, 5, 6, 7}, Defs: []string{"f"}, Params: []string{"x"}},
			{Kind: lang.Return, StartRow: 3, EndRow: 3, Tokens: []uint32{5, 8, 9, 10}},
		},
		Entries: []Entry{
			{Target: 0, Nodes: []uint32{0}, Hop: []uint8{0}, Edges: []slice.Edge{}},
			{Target: 1, Nodes: []uint32{0, 1}, Hop: []uint8{1, 0}, Edges: []slice.Edge{{From: 0, To: 1, Type: ccg.CF}}},
			{Target: 2, Nodes: []uint32{0, 1, 2}, Hop: []uint8{2, 1, 0}, Edges: []slice.Edge{
				{From: 0, To: 1, Type: ccg.CF}, {From: 1, To: 2, Type: ccg.CF}, {From: 1, To: 2, Type: ccg.CD}, {From: 1, To: 2, Type: ccg.DD}}},
		},
		Symbols: []lang.Symbol{
			{Kind: lang.SymClass, Name: "C", Parent: -1, StartRow: 2, EndRow: 3, SigStart: 2, SigEnd: 2, NameRow: 2, DocRow: -1, Bases: []string{"base.B", "M"}},
			{Kind: lang.SymMethod, Name: "f", Parent: 0, StartRow: 2, EndRow: 3, SigStart: 2, SigEnd: 2, NameRow: 2, DocRow: 0, Type: "int"},
		},
		Imports: []lang.Import{{Row: 0, Module: "os"}, {Row: 0, Module: "..a", Name: "b", Alias: "c", Static: true}},
	}
}

func TestBlobRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		rec  *FileRecord
	}{
		{"sample", sampleRecord()},
		{"empty", &FileRecord{Language: "java", Vocab: []string{}, Stmts: []StmtRecord{}, Entries: []Entry{}}},
		{"package", &FileRecord{Language: "java", Lines: []string{"package a.b;"}, Vocab: []string{}, Stmts: []StmtRecord{}, Entries: []Entry{}, Package: "a.b"}},
		{"one empty line", &FileRecord{Language: "python", Lines: []string{""}, Vocab: []string{}, Stmts: []StmtRecord{}, Entries: []Entry{}}},
		{"rows going back", &FileRecord{Language: "java", Lines: []string{"a", "b", "c"}, Vocab: []string{"a"},
			Stmts:   []StmtRecord{{StartRow: 2, EndRow: 2, Tokens: []uint32{0}}, {StartRow: 0, EndRow: 1, Tokens: []uint32{}}},
			Entries: []Entry{{Target: 1, Nodes: []uint32{1, 0}, Hop: []uint8{0, 1}, Edges: []slice.Edge{{From: 1, To: 0, Type: ccg.DD}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			blob := encodeBlob(nil, tt.rec)
			got, err := decodeBlob(blob)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.rec) {
				t.Errorf("round trip:\n got %+v\nwant %+v", got, tt.rec)
			}
		})
	}
}

func TestBlobCorrupt(t *testing.T) {
	blob := encodeBlob(nil, sampleRecord())
	for i := range blob {
		bad := append([]byte(nil), blob...)
		bad[i] ^= 0x40
		if _, err := decodeBlob(bad); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("flipping byte %d: err = %v, want a corruption error", i, err)
		}
	}
	for n := 0; n < len(blob); n++ {
		if _, err := decodeBlob(blob[:n]); !errors.Is(err, ErrCorrupt) {
			t.Fatalf("truncated to %d bytes: err = %v", n, err)
		}
	}
}

func TestKeyTokensAndWindow(t *testing.T) {
	r := sampleRecord()
	if got, want := r.KeyTokens(&r.Entries[2], nil), []uint32{0, 1, 2, 3, 4, 5, 6, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("KeyTokens = %v, want %v", got, want)
	}
	if got := r.Entries[2].TargetIndex(); got != 2 {
		t.Errorf("TargetIndex = %d", got)
	}
	lines, first := r.Window(2)
	if first != 0 || len(lines) != 5 {
		t.Errorf("Window = %q from %d", lines, first)
	}
	if got := r.Text(1); got != "def f(x):" {
		t.Errorf("Text = %q", got)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(encodeBlob(nil, sampleRecord()))
	f.Add([]byte{})
	f.Add([]byte{1, 2, 3, 4, 5})
	f.Fuzz(func(t *testing.T, b []byte) {
		decodeBlob(b)
		// Reach the structural checks past the checksum too.
		if rec, err := decodeBody(b); err == nil {
			// A valid record re-encodes to the same bytes.
			if again := encodeBlob(nil, rec); string(again[:len(again)-4]) != string(b) {
				t.Errorf("re-encoding differs")
			}
		}
	})
}

// testBuilder starts a build that uses the fake analyzer.
func testBuilder(t testing.TB, d *DB, opts BuildOptions) *Builder {
	t.Helper()
	b, err := NewBuilder(d, opts)
	if err != nil {
		t.Fatal(err)
	}
	b.analyze = fakeAnalyze
	return b
}

// build indexes files (path -> content) as one generation.
func build(t testing.TB, d *DB, files map[string]string) Summary {
	t.Helper()
	ctx := context.Background()
	b := testBuilder(t, d, BuildOptions{Root: "/repo"})
	for p, c := range files {
		if err := b.Add(ctx, p, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	s, err := b.Finish(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func openTest(t testing.TB, dir string) *DB {
	t.Helper()
	d, err := Open(dir, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func snapshotFiles(t testing.TB, d *DB) map[string]*FileRecord {
	t.Helper()
	s, err := d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := map[string]*FileRecord{}
	err = s.ForEach(context.Background(), func(r *FileRecord) error {
		out[r.Path] = r
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// blobCount counts the blob keys actually stored.
func blobCount(t testing.TB, d *DB) int {
	n := 0
	d.bdb.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefixBlob})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			n++
		}
		return nil
	})
	return n
}

func TestBuildAndRead(t *testing.T) {
	d := openTest(t, t.TempDir())
	if _, err := d.Snapshot(); !errors.Is(err, ErrNoIndex) {
		t.Fatalf("Snapshot of an empty index: %v, want ErrNoIndex", err)
	}
	files := map[string]string{
		"a.fk":     "x = 1\ny = x\n\nif y\nERROR here",
		"sub/b.fk": "z = 2",
		"copy.fk":  "z = 2", // same content: shares a blob
	}
	s := build(t, d, files)
	// copy.fk and sub/b.fk share a blob: whichever comes second reuses it.
	want := Summary{Generation: 1, Published: true, Files: 3, Parsed: 2, Reused: 1, SyntaxErrors: 1, Lines: 7, Statements: 6, Entries: 6, NewBlobs: 2}
	if s != want {
		t.Errorf("summary = %+v, want %+v", s, want)
	}
	snap, err := d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	m := snap.Meta()
	if m.Generation != 1 || m.Tokenizer != "code" || m.Hops != 5 || m.MaxStatements != 20 || m.Root != "/repo" || m.Files != 3 || m.Created.IsZero() {
		t.Errorf("meta = %+v", m)
	}
	var paths []string
	for _, f := range snap.Files() {
		paths = append(paths, f.Path)
	}
	if want := []string{"a.fk", "copy.fk", "sub/b.fk"}; !reflect.DeepEqual(paths, want) {
		t.Errorf("files = %q, want %q", paths, want)
	}
	r, err := snap.Load("a.fk")
	if err != nil {
		t.Fatal(err)
	}
	if r.Path != "a.fk" || r.Language != "fake" || len(r.Lines) != 5 || len(r.Stmts) != 4 || len(r.Entries) != 4 {
		t.Fatalf("record = %+v", r)
	}
	if r.Stmts[2].Kind != lang.If || r.Stmts[2].StartRow != 3 {
		t.Errorf("stmt 2 = %+v", r.Stmts[2])
	}
	var toks []string
	for _, id := range r.Stmts[1].Tokens {
		toks = append(toks, r.Vocab[id])
	}
	sort.Strings(toks)
	if want := []string{"=", "x", "y"}; !reflect.DeepEqual(toks, want) {
		t.Errorf("tokens of stmt 1 = %q, want %q", toks, want)
	}
	e := r.Entries[3]
	if e.Target != 3 || !reflect.DeepEqual(e.Nodes, []uint32{0, 1, 2, 3}) || !reflect.DeepEqual(e.Hop, []uint8{3, 2, 1, 0}) || len(e.Edges) != 3 {
		t.Errorf("entry 3 = %+v", e)
	}
	if _, err := snap.Load("nope.fk"); err == nil {
		t.Error("Load of a missing file succeeded")
	}
	if got := snapshotFiles(t, d); len(got) != 3 || got["copy.fk"].Lines[0] != "z = 2" {
		t.Errorf("ForEach = %v", got)
	}
}

func TestIncremental(t *testing.T) {
	dir := t.TempDir()
	d := openTest(t, dir)
	files := map[string]string{"a.fk": "a = 1\nb = a", "b.fk": "c = 3", "c.fk": "d = 4\ne = d"}
	build(t, d, files)

	// Unchanged: nothing parsed, nothing published.
	s := build(t, d, files)
	if s.Parsed != 0 || s.Reused != 3 || s.Published || s.Generation != 1 {
		t.Errorf("unchanged rebuild: %+v", s)
	}

	// Edit one file: only it is parsed again.
	files["b.fk"] = "c = 33\nf = c"
	s = build(t, d, files)
	if s.Parsed != 1 || s.Reused != 2 || !s.Published || s.Generation != 2 || s.CollectedBlobs != 1 || s.Statements != 6 {
		t.Errorf("edit rebuild: %+v", s)
	}
	if got := snapshotFiles(t, d)["b.fk"].Lines; !reflect.DeepEqual(got, []string{"c = 33", "f = c"}) {
		t.Errorf("b.fk lines = %q", got)
	}

	// Delete one file: it disappears and its blob is collected.
	delete(files, "c.fk")
	s = build(t, d, files)
	if s.Parsed != 0 || s.Removed != 1 || s.Files != 2 || s.CollectedBlobs != 1 {
		t.Errorf("delete rebuild: %+v", s)
	}
	if got := snapshotFiles(t, d); got["c.fk"] != nil || len(got) != 2 {
		t.Errorf("after delete: %v", got)
	}
	if n := blobCount(t, d); n != 2 {
		t.Errorf("%d blobs stored, want 2", n)
	}

	// Changing a slicing parameter re-parses everything.
	b := testBuilder(t, d, BuildOptions{Root: "/repo", MaxStatements: 3})
	for p, c := range files {
		b.Add(context.Background(), p, []byte(c))
	}
	s, err := b.Finish(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if s.Parsed != 2 || s.Reused != 0 {
		t.Errorf("new parameters: %+v", s)
	}
}

// TestAnalysisVersion checks that blobs of another analysis version are
// never reused: a graphcoder whose front end changed parses every file
// again, and the old generation stays readable until it is replaced.
func TestAnalysisVersion(t *testing.T) {
	defer func(v int) { analysisVersion = v }(analysisVersion)
	d := openTest(t, t.TempDir())
	files := map[string]string{"a.fk": "a = 1\nb = a", "b.fk": "c = 3"}
	build(t, d, files)
	if s := build(t, d, files); s.Parsed != 0 || s.Reused != 2 {
		t.Fatalf("same analysis: %+v", s)
	}

	analysisVersion++
	if got := snapshotFiles(t, d); len(got) != 2 || got["a.fk"] == nil {
		t.Fatalf("an index of the previous analysis must stay readable: %v", got)
	}
	s := build(t, d, files)
	if s.Parsed != 2 || s.Reused != 0 || !s.Published || s.CollectedBlobs != 2 {
		t.Errorf("new analysis: %+v", s)
	}
	snap, err := d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	if got := snap.Meta().Analysis; got != analysisVersion {
		t.Errorf("generation analysis = %d, want %d", got, analysisVersion)
	}
	if tag := blobTag("fake", "code", 5, 20, 7); !strings.HasSuffix(tag, "/a7") {
		t.Errorf("blob tag %q does not name the analysis version", tag)
	}
}

func TestCL100KBuild(t *testing.T) {
	d := openTest(t, t.TempDir())
	b := testBuilder(t, d, BuildOptions{Tokenizer: "cl100k"})
	if err := b.Add(context.Background(), "a.fk", []byte("total = price * count")); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Finish(context.Background()); err != nil {
		t.Fatal(err)
	}
	snap, _ := d.Snapshot()
	defer snap.Close()
	r, err := snap.Load("a.fk")
	if err != nil {
		t.Fatal(err)
	}
	var toks []string
	for _, id := range r.Stmts[0].Tokens {
		toks = append(toks, r.Vocab[id])
	}
	sort.Strings(toks)
	if snap.Meta().Tokenizer != "cl100k" || strings.Join(toks, "|") != " *| =| count| price|total" {
		t.Errorf("tokenizer %q, tokens %q", snap.Meta().Tokenizer, toks)
	}
}

func TestSchemaRefusal(t *testing.T) {
	dir := t.TempDir()
	d := openTest(t, dir)
	build(t, d, map[string]string{"a.fk": "a = 1"})
	if err := d.bdb.Update(func(txn *badger.Txn) error { return txn.Set(keySchema, []byte("999")) }); err != nil {
		t.Fatal(err)
	}
	d.Close()
	for _, ro := range []bool{false, true} {
		_, err := Open(dir, OpenOptions{ReadOnly: ro})
		var se *SchemaError
		if !errors.As(err, &se) || se.Have != 999 || !strings.Contains(err.Error(), "--rebuild") {
			t.Errorf("Open(readOnly=%v) = %v, want a schema error saying how to rebuild", ro, err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(filepath.Join(t.TempDir(), "none"), OpenOptions{ReadOnly: true}); !errors.Is(err, ErrNoIndex) {
		t.Errorf("read-only open of a missing index: %v", err)
	}
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, "notes.txt"), nil, 0o644)
	if _, err := Open(other, OpenOptions{}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("open of a non-empty folder: %v", err)
	}
	dir := t.TempDir()
	openTest(t, dir)
	if _, err := Open(dir, OpenOptions{}); !errors.Is(err, ErrLocked) {
		t.Errorf("second open: %v, want ErrLocked", err)
	}
}

func TestCorruptBlobInIndex(t *testing.T) {
	d := openTest(t, t.TempDir())
	build(t, d, map[string]string{"a.fk": "a = 1", "b.fk": "b = 2"})
	snap, err := d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	f, _ := snap.File("a.fk")
	key := snap.meta.blobKey(&f)
	snap.Close()
	err = d.bdb.Update(func(txn *badger.Txn) error {
		it, err := txn.Get(key)
		if err != nil {
			return err
		}
		v, _ := it.ValueCopy(nil)
		v[len(v)/2] ^= 1
		return txn.Set(key, v)
	})
	if err != nil {
		t.Fatal(err)
	}
	snap, _ = d.Snapshot()
	defer snap.Close()
	if _, err := snap.Load("a.fk"); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "a.fk") {
		t.Errorf("Load of a corrupt blob: %v", err)
	}
	if err := snap.ForEach(context.Background(), func(*FileRecord) error { return nil }); !errors.Is(err, ErrCorrupt) {
		t.Errorf("ForEach over a corrupt blob: %v", err)
	}
	// One bad blob costs only its file ...
	var got, damaged []string
	err = snap.ForEachIntact(context.Background(), func(r *FileRecord) error { got = append(got, r.Path); return nil },
		func(p string, err error) { damaged = append(damaged, p) })
	if err != nil || fmt.Sprint(got) != "[b.fk]" || fmt.Sprint(damaged) != "[a.fk]" {
		t.Errorf("ForEachIntact: read %v, damaged %v, %v", got, damaged, err)
	}
	snap.Close()
	// ... until a verifying build writes it again.
	b := testBuilder(t, d, BuildOptions{Root: "/repo", Verify: true})
	for p, c := range map[string]string{"a.fk": "a = 1", "b.fk": "b = 2"} {
		if err := b.Add(context.Background(), p, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	sum, err := b.Finish(context.Background())
	if err != nil || sum.Damaged != 1 || sum.Reused != 1 || sum.Parsed != 1 {
		t.Fatalf("verifying build: %+v, %v", sum, err)
	}
	if files := snapshotFiles(t, d); len(files) != 2 {
		t.Errorf("after the repair %d files read", len(files))
	}
}

// TestInjectedFailure fails a build between writing its blobs and
// manifest and switching generations: the old generation must stay whole,
// and the next build must collect the leftovers.
func TestInjectedFailure(t *testing.T) {
	d := openTest(t, t.TempDir())
	old := map[string]string{"a.fk": "a = 1", "b.fk": "b = 2"}
	build(t, d, old)
	boom := errors.New("boom")
	testHookBeforePublish = func() error { return boom }
	b := testBuilder(t, d, BuildOptions{Root: "/repo"})
	b.Add(context.Background(), "a.fk", []byte("a = 100"))
	b.Add(context.Background(), "c.fk", []byte("c = 3"))
	_, err := b.Finish(context.Background())
	testHookBeforePublish = nil
	if !errors.Is(err, boom) {
		t.Fatalf("Finish = %v, want the injected failure", err)
	}
	got := snapshotFiles(t, d)
	if len(got) != 2 || got["a.fk"].Lines[0] != "a = 1" || got["b.fk"] == nil {
		t.Fatalf("after a failed build the index reads %v", got)
	}
	// The failed build's blob for "a = 100" is reused, the orphan "c = 3"
	// blob and generation 2 are collected.
	s := build(t, d, map[string]string{"a.fk": "a = 100", "b.fk": "b = 2"})
	if s.Parsed != 0 || s.Generation != 3 || s.CollectedBlobs != 2 {
		t.Errorf("rebuild after failure: %+v", s)
	}
	if n := blobCount(t, d); n != 2 {
		t.Errorf("%d blobs stored, want 2", n)
	}
}

// TestSnapshotIsolation: a snapshot keeps reading its generation while a
// build publishes and collects.
func TestSnapshotIsolation(t *testing.T) {
	d := openTest(t, t.TempDir())
	build(t, d, map[string]string{"a.fk": "a = 1"})
	snap, err := d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	build(t, d, map[string]string{"b.fk": "b = 2"})
	r, err := snap.Load("a.fk")
	if err != nil || r.Lines[0] != "a = 1" {
		t.Fatalf("old snapshot after a new build: %v, %v", r, err)
	}
	if got := snapshotFiles(t, d); got["b.fk"] == nil || got["a.fk"] != nil {
		t.Errorf("new snapshot = %v", got)
	}
}

func TestConcurrentBuilders(t *testing.T) {
	d := openTest(t, t.TempDir())
	b := testBuilder(t, d, BuildOptions{})
	defer b.Abort()
	if _, err := NewBuilder(d, BuildOptions{}); err == nil {
		t.Error("a second concurrent builder was allowed")
	}
}

// crashRepo generates the files of the crash test's big build.
func crashRepo(n int, version string) map[string]string {
	files := make(map[string]string, n)
	for i := 0; i < n; i++ {
		var sb strings.Builder
		for j := 0; j < 40; j++ {
			fmt.Fprintf(&sb, "v%d_%d = f%d(v%d_%d, %q)\n", j, i, j%7, j, i-1, version)
		}
		files[fmt.Sprintf("pkg%d/m%d.fk", i%17, i)] = sb.String()
	}
	return files
}

// TestCrashHelper is the child process of TestKillDuringBuild: it builds a
// big new generation and is SIGKILLed at some point.
func TestCrashHelper(t *testing.T) {
	dir := os.Getenv("GRAPHCODER_CRASH_DIR")
	if dir == "" {
		t.Skip("helper process only")
	}
	d, err := Open(dir, OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := testBuilder(t, d, BuildOptions{Root: "/repo"})
	i := 0
	for p, c := range crashRepo(3000, "new") {
		if err := b.Add(context.Background(), p, []byte(c)); err != nil {
			t.Fatal(err)
		}
		if i++; i == 300 {
			os.WriteFile(filepath.Join(dir, "..", "started"), nil, 0o644)
		}
	}
	if _, err := b.Finish(context.Background()); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "..", "finished"), nil, 0o644)
	select {} // wait for the kill
}

// TestKillDuringBuild SIGKILLs a real build process at several moments
// and checks that the index then opens and reads a complete generation:
// the old one, or the new one once the switch happened.
func TestKillDuringBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	old := crashRepo(200, "old")
	for _, delay := range []time.Duration{0, 30 * time.Millisecond, 150 * time.Millisecond, 300 * time.Millisecond, 400 * time.Millisecond, 3 * time.Second} {
		t.Run(delay.String(), func(t *testing.T) {
			root := t.TempDir()
			dir := filepath.Join(root, "index")
			d, err := Open(dir, OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			build(t, d, old)
			d.Close()

			finished := killCrashHelper(t, dir, "started", 30*time.Second, delay)

			for _, ro := range []bool{true, false} {
				d, err := Open(dir, OpenOptions{ReadOnly: ro})
				if err != nil {
					t.Fatalf("open after kill (read-only %v): %v", ro, err)
				}
				got := snapshotFiles(t, d)
				d.Close()
				want := old
				if len(got) != len(old) {
					want = crashRepo(3000, "new")
				}
				if finished && len(got) != 3000 {
					t.Errorf("build finished but the index has %d files", len(got))
				}
				if len(got) != len(want) {
					t.Fatalf("index has %d files, want %d (old) or 3000 (new)", len(got), len(old))
				}
				for p, c := range want {
					r := got[p]
					if r == nil || strings.Join(r.Lines, "\n") != c {
						t.Fatalf("file %s is missing or wrong after the kill", p)
					}
				}
				t.Logf("delay %v: read-only %v reads %d files (finished %v)", delay, ro, len(got), finished)
			}
		})
	}
}

// TestOutlineRefused checks that an outline whose rows leave the file or
// whose parent does not come first is refused, never trusted.
func TestOutlineRefused(t *testing.T) {
	for name, mutate := range map[string]func(r *FileRecord){
		"row past the end": func(r *FileRecord) { r.Symbols[1].EndRow = len(r.Lines) },
		"doc row past":     func(r *FileRecord) { r.Symbols[0].DocRow = 99 },
		"import row":       func(r *FileRecord) { r.Imports[1].Row = len(r.Lines) + 3 },
		"parent after":     func(r *FileRecord) { r.Symbols[0].Parent = 1 },
		"bad kind":         func(r *FileRecord) { r.Symbols[0].Kind = 200 },
	} {
		t.Run(name, func(t *testing.T) {
			r := sampleRecord()
			mutate(r)
			if _, err := decodeBlob(encodeBlob(nil, r)); err == nil {
				t.Error("decoded without error")
			}
		})
	}
}

// killCrashHelper runs TestCrashHelper in a child process writing the
// index in dir, waits up to wait for it to create the file marker
// ("started" or "finished") beside dir, then delay more, and kills it.
// It reports whether the writer had finished.
func killCrashHelper(t *testing.T, dir, marker string, wait, delay time.Duration) bool {
	t.Helper()
	root := filepath.Dir(dir)
	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashHelper$")
	cmd.Env = append(os.Environ(), "GRAPHCODER_CRASH_DIR="+dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(root, marker)); err == nil {
			break
		}
	}
	time.Sleep(delay)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	_, err := os.Stat(filepath.Join(root, "finished"))
	return err == nil
}

// encodeBlob appends the blob of r to dst (see the layout in doc.go), whole:
// the tests' encoder; the builder encodes entries as it slices them
// (Builder.encode).
func encodeBlob(dst []byte, r *FileRecord) []byte {
	start := len(dst)
	dst = appendHead(dst, r)
	var entries []byte
	nNodes, nEdges := 0, 0
	for i := range r.Entries {
		e := &r.Entries[i]
		entries = appendEntry(entries, e.Target, e.Nodes, e.Hop, e.Edges)
		nNodes += len(e.Nodes)
		nEdges += len(e.Edges)
	}
	dst = appendEntries(dst, len(r.Entries), nNodes, nEdges, entries)
	return appendCRC(dst, start)
}
