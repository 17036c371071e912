package engine

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/internal/mapfile"
	"github.com/graphcoder/graphcoder/internal/realcode"
	"github.com/graphcoder/graphcoder/retrieve"
)

// answer is what a completion returns, without the timings.
func answer(t *testing.T, e *Engine, req Request) string {
	t.Helper()
	res, err := e.Complete(context.Background(), req)
	if err != nil {
		t.Fatalf("%s:%d: %v", req.Path, req.Line, err)
	}
	res.Stats = Stats{}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// cursors draws n cursors of the repository's indexed files.
func cursors(t *testing.T, e *Engine, n int, seed uint64) []Request {
	st := e.cur.Load()
	snap, err := e.d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range snap.Files() {
		paths = append(paths, f.Path)
	}
	snap.Close()
	r := rand.New(rand.NewPCG(seed, 1))
	var out []Request
	for len(out) < n && len(paths) > 0 {
		p := paths[r.IntN(len(paths))]
		lines := st.ix.Lines(p)
		if len(lines) < 3 {
			continue
		}
		out = append(out, Request{Path: p, Line: 2 + r.IntN(len(lines)-1)})
	}
	return out
}

// TestSnapshotAnswersAsBlobs: an engine that maps the snapshot file the
// build wrote answers every request exactly as one that decodes every
// blob, in every coarse mode; on the demo repository and on a sample of
// the Python standard library.
func TestSnapshotAnswersAsBlobs(t *testing.T) {
	repos := []string{filepath.Join("..", "testdata", "demo")}
	if py := realcode.PythonStdlib(); py != "" {
		repos = append(repos, filepath.Join(py, "json"), filepath.Join(py, "email"))
	}
	for _, repo := range repos {
		idx := filepath.Join(t.TempDir(), "idx")
		sum, err := indexer.Build(context.Background(), indexer.Options{Repo: repo, IndexDir: idx})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Snapshot == nil || !sum.Snapshot.Written {
			t.Fatalf("%s: no snapshot file written: %+v", repo, sum.Snapshot)
		}
		mapped, err := Open(idx, Options{VerifySnapshot: true})
		if err != nil {
			t.Fatal(err)
		}
		decoded, err := Open(idx, Options{NoSnapshot: true})
		if err != nil {
			t.Fatal(err)
		}
		if i := mapped.Info(); i.Snapshot == "" || i.SnapshotLag != 0 || i.Entries != sum.Entries {
			t.Fatalf("%s: mapped engine %+v", repo, i)
		}
		if i := decoded.Info(); i.Snapshot != "" || i.SnapshotError != "not asked for" || i.Entries != sum.Entries {
			t.Fatalf("%s: decoding engine %+v", repo, i)
		}
		for i, req := range cursors(t, decoded, 40, 7) {
			req.Mode = []retrieve.Mode{"", retrieve.Coarse, retrieve.BM25Only, retrieve.Hybrid}[i%4]
			if a, b := answer(t, mapped, req), answer(t, decoded, req); a != b {
				t.Fatalf("%s %s:%d mode %q: mapped\n%s\ndecoded\n%s", repo, req.Path, req.Line, req.Mode, a, b)
			}
		}
		mapped.Close()
		decoded.Close()
	}
}

// TestSnapshotDamaged: a snapshot file whose bytes are damaged leaves an
// index that opens and answers every request: refused at open when its
// checksums are checked, else failing over to the blobs when a search
// meets the damage; the next build writes it again.
func TestSnapshotDamaged(t *testing.T) {
	idx, decoded := buildDemo(t)
	reqs := cursors(t, decoded, 12, 3)
	want := make([]string, len(reqs))
	for i, req := range reqs {
		want[i] = answer(t, decoded, req)
	}
	decoded.Close()
	files, _ := filepath.Glob(filepath.Join(idx, "snapshot-*.gcs"))
	if len(files) != 1 {
		t.Fatalf("snapshot files %v", files)
	}
	good, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	// The bytes a reader reads: the sections, and the table of contents
	// after them (the padding that aligns a section is read by none).
	m, err := mapfile.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	secs := m.Sections()
	m.Close()
	read := func(i int) bool {
		for _, sec := range secs {
			if int64(i) >= sec.Offset && int64(i) < sec.Offset+sec.Length {
				return true
			}
		}
		last := secs[len(secs)-1]
		return int64(i) >= last.Offset+last.Length
	}
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 30 {
		bad := slices.Clone(good)
		for range 1 + trial%4 {
			i := r.IntN(len(bad))
			for !read(i) {
				i = r.IntN(len(bad))
			}
			bad[i] ^= byte(1 + r.IntN(255))
		}
		if err := os.WriteFile(files[0], bad, 0o644); err != nil {
			t.Fatal(err)
		}
		verified, err := Open(idx, Options{VerifySnapshot: true})
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		if i := verified.Info(); i.Snapshot != "" || i.SnapshotError == "" {
			t.Fatalf("trial %d: a damaged file was mapped: %+v", trial, i)
		}
		for i, req := range reqs {
			if got := answer(t, verified, req); got != want[i] {
				t.Fatalf("trial %d: the blobs answer otherwise:\n%s\nwant\n%s", trial, got, want[i])
			}
		}
		verified.Close()
		// Without the checksums: it opens and answers (the damage may
		// change an answer it does not make fail).
		unverified, err := Open(idx, Options{})
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		for _, req := range reqs {
			if _, err := unverified.Complete(context.Background(), req); err != nil {
				t.Fatalf("trial %d: %s:%d: %v", trial, req.Path, req.Line, err)
			}
		}
		unverified.Close()
	}
	sum, err := indexer.Build(context.Background(), indexer.Options{Repo: filepath.Join("..", "testdata", "demo"), IndexDir: idx})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Published || sum.Snapshot == nil || !sum.Snapshot.Written || !strings.Contains(sum.Snapshot.Reason, "unusable") {
		t.Fatalf("the rebuild did not repair the snapshot file: %+v", sum.Snapshot)
	}
	e, err := Open(idx, Options{VerifySnapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Info().Snapshot == "" {
		t.Fatalf("after the repair: %+v", e.Info())
	}
	for i, req := range reqs {
		if got := answer(t, e, req); got != want[i] {
			t.Fatalf("after the repair:\n%s\nwant\n%s", got, want[i])
		}
	}
}

// TestSnapshotFailover: a search that meets damage in the mapped file
// (entries that do not decode, past what opening checks) reloads the index
// from the blobs and answers as they do.
func TestSnapshotFailover(t *testing.T) {
	idx, decoded := buildDemo(t)
	req := cursors(t, decoded, 1, 5)[0]
	want := answer(t, decoded, req)
	decoded.Close()
	files, _ := filepath.Glob(filepath.Join(idx, "snapshot-*.gcs"))
	m, err := mapfile.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(files[0])
	for _, sec := range m.Sections() {
		if sec.Name == "ix.entryBytes" {
			for i := sec.Offset; i < sec.Offset+sec.Length; i++ {
				data[i] = 0xff // no varint ends
			}
		}
	}
	m.Close()
	os.WriteFile(files[0], data, 0o644)
	e, err := Open(idx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Info().Snapshot == "" {
		t.Fatalf("the file was not mapped: %+v", e.Info())
	}
	if got := answer(t, e, req); got != want {
		t.Fatalf("after failover:\n%s\nwant\n%s", got, want)
	}
	if i := e.Info(); i.Snapshot != "" || !strings.Contains(i.SnapshotError, "damaged") {
		t.Fatalf("after failover: %+v", i)
	}
}

// buildDemo builds the demo repository's index with its snapshot file and
// opens it from the blobs alone.
func buildDemo(t *testing.T) (string, *Engine) {
	t.Helper()
	repo := filepath.Join("..", "testdata", "demo")
	idx := filepath.Join(t.TempDir(), "idx")
	buildIndex(t, repo, idx)
	decoded, err := Open(idx, Options{NoSnapshot: true})
	if err != nil {
		t.Fatal(err)
	}
	return idx, decoded
}

// TestReleaseMapped: an engine that releases the snapshot file's pages
// after each request (the default) answers as one that keeps them
// mapped, and its memory limit grows with the searches it runs at once.
func TestReleaseMapped(t *testing.T) {
	idx := filepath.Join(t.TempDir(), "idx")
	buildIndex(t, filepath.Join("..", "testdata", "demo"), idx)
	released, err := Open(idx, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer released.Close()
	kept, err := Open(idx, Options{KeepMapped: true})
	if err != nil {
		t.Fatal(err)
	}
	defer kept.Close()
	if released.cur.Load().mapped == nil {
		t.Fatal("the engine maps no snapshot file")
	}
	for i, req := range cursors(t, kept, 20, 3) {
		req.Mode = []retrieve.Mode{"", retrieve.Hybrid}[i%2]
		if a, b := answer(t, released, req), answer(t, kept, req); a != b {
			t.Fatalf("%s:%d: released\n%s\nkept\n%s", req.Path, req.Line, a, b)
		}
	}
	if released.running.Load() != 0 {
		t.Errorf("%d requests still counted as running", released.running.Load())
	}
	entries := int64(released.Info().Entries)
	one, two := released.MemoryLimit(1), released.MemoryLimit(2)
	if min := memoryLimitBase + released.d.MemoryBudget() + 16*entries; one < min || two-one != 2*retrieve.ScratchBytes(int(entries)) {
		t.Errorf("memory limits %d (one search), %d (two): want at least %d, and twice the scratch more per search", one, two, min)
	}
}

// TestReleaseRule: a request that ends releases the mapped pages when
// the resident set is over the budget and its file-backed part grew by
// releaseGain since the last release.
func TestReleaseRule(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		total, file, fileLow, budget int64
		want                         bool
	}{
		{300 * mib, 150 * mib, 30 * mib, 224 * mib, true},
		{200 * mib, 150 * mib, 30 * mib, 224 * mib, false}, // under the budget
		{224 * mib, 150 * mib, 30 * mib, 224 * mib, false}, // at it
		{300 * mib, 40 * mib, 30 * mib, 224 * mib, false},  // the heap is over, the file grew 10 MiB
		{300 * mib, 61 * mib, 30 * mib, 224 * mib, false},  // grew by less than releaseGain
		{300 * mib, 62 * mib, 30 * mib, 224 * mib, true},   // grew by releaseGain
		{100 * mib, 70 * mib, 30 * mib, 1, true},           // a budget of a byte
		{300 * mib, 150 * mib, 30 * mib, -1, false},        // no budget
	} {
		if got := releaseDue(mapfile.Resident{Total: c.total, File: c.file}, c.fileLow, c.budget); got != c.want {
			t.Errorf("resident %d MiB, file-backed %d MiB (%d after the last release), budget %d: due %v, want %v",
				c.total/mib, c.file/mib, c.fileLow/mib, c.budget, got, c.want)
		}
	}
}

// TestReleaseEvery: with a negative Options.ReleaseEvery every request
// releases the mapped pages (after its search, and as it ends); with a
// budget no test process reaches, requests release nothing, and the idle
// engine releases once ReleaseEvery has passed without a request.
func TestReleaseEvery(t *testing.T) {
	if got := (&Engine{}).releaseEvery(); got != DefaultReleaseEvery {
		t.Errorf("default: %v between releases, want %v", got, DefaultReleaseEvery)
	}
	if got := (&Engine{}).residentBudget(); got != DefaultResidentBudget {
		t.Errorf("default budget %d, want %d", got, DefaultResidentBudget)
	}
	idx := filepath.Join(t.TempDir(), "idx")
	buildIndex(t, filepath.Join("..", "testdata", "demo"), idx)
	for _, c := range []struct {
		every    time.Duration
		releases int64
	}{{-1, 6}, {time.Hour, 0}} {
		e, err := Open(idx, Options{ReleaseEvery: c.every, ResidentBudget: 1 << 50})
		if err != nil {
			t.Fatal(err)
		}
		opened := e.mapped.count.Load()
		for _, req := range cursors(t, e, 3, 5) {
			answer(t, e, req)
		}
		e.Close()
		if got := e.mapped.count.Load() - opened; got != c.releases {
			t.Errorf("ReleaseEvery %v: %d releases in 3 requests, want %d", c.every, got, c.releases)
		}
	}
	e, err := Open(idx, Options{ReleaseEvery: time.Millisecond, ResidentBudget: 1 << 50})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	opened := e.mapped.count.Load()
	answer(t, e, cursors(t, e, 1, 5)[0])
	for deadline := time.Now().Add(10 * time.Second); e.mapped.count.Load() == opened; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the idle engine did not release the mapped pages")
		}
	}
}
