package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/engine"
)

// attack is one row: run tries and fills r.
type attack struct {
	name string
	run  func(e *env, r *result)
}

var attacks = []attack{
	{"disk full: build, complete and the next build on a full tmpfs", diskFull},
	{"damaged table: 64 bytes overwritten", overwrittenTable},
	{"damaged table: truncated", truncatedTable},
	{"damaged blob: one bad checksum", badBlob},
	{"damaged snapshot file: 64 bytes overwritten, truncated, deleted", damagedSnapshot},
	{"MANIFEST deleted (build, build --rebuild)", deletedManifest},
	{"kill -9 during a build at random moments", killedBuild},
	{"complete and ccg on a FIFO, /dev/zero and a link out of the repository", specialFiles},
	{"LSP: completions on an unopened FIFO, then exit", lspFIFO},
	{"LSP framing: bad Content-Length, no header, huge header lines", lspFraming},
	{"HTTP: abandoned requests of ~1 MB prefixes", abandonedHTTP},
	{"HTTP: bad bodies (trailing bytes, too large, NUL past 8 KiB)", badBodies},
	{"flags: negative and zero values", badFlags},
	{"memory per file: one 1 MiB line, 20,000 definitions, a 15 MB LSP buffer", memoryPerFile},
	{".gitignore: a root pattern workspace/* at depth", gitignoreDepth},
	{"eval reads the build's walk", evalWalk},
	{"small: lock holder, busy port, lone CR, non-UTF-8 name", smallFaults},
}

// intact reports whether the index in dir reads whole, read-only, with
// want files (0: any).
func intact(dir string, want int) error {
	d, err := db.Open(dir, db.OpenOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer d.Close()
	s, err := d.Snapshot()
	if err != nil {
		return err
	}
	defer s.Close()
	n := 0
	if err := s.ForEach(context.Background(), func(*db.FileRecord) error { n++; return nil }); err != nil {
		return err
	}
	if want > 0 && n != want {
		return fmt.Errorf("%d files, want %d", n, want)
	}
	return nil
}

// buildSummary is the part of build --json the attacks read.
type buildSummary struct {
	Files    int            `json:"files"`
	Parsed   int            `json:"parsed"`
	Skipped  map[string]int `json:"skipped"`
	Repaired string         `json:"repaired"`
}

func (e *env) build(repo string, extra ...string) (outcome, buildSummary) {
	o := e.run(5*time.Minute, nil, append(append([]string{"build", "--json"}, extra...), repo)...)
	var s buildSummary
	json.Unmarshal([]byte(o.stdout), &s)
	return o, s
}

// fixture writes a repository of n modules and builds its index.
func (e *env) fixture(name string, n int) (repo string, files int, err error) {
	repo = filepath.Join(e.work, name)
	if err := genRepo(repo, n, "v1"); err != nil {
		return "", 0, err
	}
	o, s := e.build(repo)
	if o.code != 0 {
		return "", 0, fmt.Errorf("build: %s", o.stderr)
	}
	return repo, s.Files, nil
}

// query is a completion that must work on every fixture.
func query(repo string) string { return filepath.Join(repo, "pkg0", "m0.py") + ":6" }

func diskFull(e *env, r *result) {
	if os.Geteuid() != 0 {
		r.skipped = "needs root to mount a tmpfs"
		return
	}
	mnt := filepath.Join(e.work, "tmpfs")
	os.MkdirAll(mnt, 0o755)
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, "size=512m"); err != nil {
		r.skipped = "cannot mount a tmpfs: " + err.Error()
		return
	}
	defer syscall.Unmount(mnt, syscall.MNT_DETACH)
	repo := filepath.Join(e.work, "full-repo")
	const files = 1500
	if err := genRepo(repo, files, "v1"); err != nil {
		r.skipped = err.Error()
		return
	}
	idx := filepath.Join(mnt, "idx")
	if o, _ := e.build(repo, "--index", idx); o.code != 0 {
		r.skipped = "first build: " + o.stderr
		return
	}
	_, base := e.build(repo, "--index", idx)
	filler := filepath.Join(mnt, "filler")
	// Free space left by the filler: too little to open for writing; a
	// little over the reserve (the build runs out midway); none at all.
	for _, left := range []int64{100 << 20, db.DefaultMinFree + 1<<20, 0} {
		os.Remove(filler)
		fill(filler, left)
		genRepo(repo, files, fmt.Sprintf("v%d", left)) // new content: new blobs to write
		o, _ := e.build(repo, "--index", idx)
		r.count(o)
		before := folderState(idx)
		c := e.run(time.Minute, nil, "complete", "--index", idx, "--format", "json", query(repo))
		r.count(c)
		after := folderState(idx)
		lostNow := intact(idx, base.Files) != nil || before != after
		// Room again: the next build publishes and collects the leftovers.
		os.Remove(filler)
		n, s := e.build(repo, "--index", idx)
		r.count(n)
		blobs, berr := countBlobs(idx)
		if lostNow || n.code != 0 || berr != nil || blobs != s.Files {
			r.lost++
			r.note("free %d MiB: intact after the failed build %v, unchanged by complete %v; next build exit %d, %d blobs for %d files (%v)",
				left>>20, !lostNow, before == after, n.code, blobs, s.Files, berr)
		}
		if o.code == 4 && strings.Contains(o.stderr, "no space left") && c.code == 0 {
			r.clear += 2
		} else {
			r.note("free %d MiB: build exit %d (%s), complete exit %d (%s)", left>>20, o.code, firstLines(o.stderr, 2), c.code, firstLines(c.stderr, 2))
		}
		if n.code == 0 {
			r.clear++
		}
		r.note("free %d MiB: build exit %d: %s; complete (read-only) exit %d; the next build with room: exit %d, %d blobs stored for %d files",
			left>>20, o.code, lastLine(o.stderr), c.code, n.code, blobs, s.Files)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// fill writes path until about left bytes stay free on its file system.
func fill(path string, left int64) {
	var st syscall.Statfs_t
	if syscall.Statfs(filepath.Dir(path), &st) != nil {
		return
	}
	free := int64(st.Bavail) * st.Bsize
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	chunk := make([]byte, 1<<20)
	for n := free - left; n > 0; n -= int64(len(chunk)) {
		if _, err := f.Write(chunk[:min(int64(len(chunk)), n)]); err != nil {
			return
		}
	}
}

// countBlobs counts the blobs the index in dir stores, published or not.
func countBlobs(dir string) (int, error) {
	bdb, err := badger.Open(badger.DefaultOptions(dir).WithReadOnly(true).WithLogger(nil))
	if err != nil {
		return 0, err
	}
	defer bdb.Close()
	n := 0
	err = bdb.View(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte("f/")})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			n++
		}
		return nil
	})
	return n, err
}

// damaged copies the fixture's index, damages the copy, and checks that
// complete names the damage (or answers, the damage costing files only),
// that build repairs it, and that the repaired index is whole.
func (e *env) damaged(r *result, repo string, files int, damage func(idx string) error) {
	idx := filepath.Join(e.work, fmt.Sprintf("damaged-%d", r.tries))
	os.RemoveAll(idx)
	if err := copyTree(filepath.Join(repo, ".graphcoder"), idx); err != nil {
		r.note("copy: %v", err)
		return
	}
	if err := damage(idx); err != nil {
		r.note("damage: %v", err)
		return
	}
	c := e.run(time.Minute, nil, "complete", "--index", idx, "--format", "json", query(repo))
	r.count(c)
	// The answer of the undamaged index: a complete that reads a
	// derived copy the damage did not reach (the mapped snapshot file)
	// may give it without a warning.
	ref := e.run(time.Minute, nil, "complete", "--index", filepath.Join(repo, ".graphcoder"), "--format", "json", query(repo))
	correct := c.code == 0 && ref.code == 0 && sameAnswer(c.stdout, ref.stdout)
	b, s := e.build(repo, "--index", idx)
	r.count(b)
	after := e.run(time.Minute, nil, "complete", "--index", idx, "--format", "json", query(repo))
	r.count(after)
	if err := intact(idx, files); err != nil || b.code != 0 || after.code != 0 || strings.Contains(after.stderr, "damaged") {
		r.lost++
		r.note("not repaired: build exit %d %s; %v", b.code, firstLines(b.stderr, 2), err)
	}
	named := c.code == 3 && strings.Contains(c.stderr, "damaged") ||
		c.code == 0 && (strings.Contains(c.stderr, "damaged") || s.Repaired == "" || correct)
	if named {
		r.clear += 3
	} else {
		r.note("complete exit %d: %s (repaired %q)", c.code, firstLines(c.stderr, 2), s.Repaired)
	}
	answer := ""
	if correct && !strings.Contains(c.stderr, "damaged") {
		answer = "the undamaged index's answer"
	}
	r.note("complete: exit %d %s%s; build: %s", c.code, shortErr(c.stderr), answer, orNone(s.Repaired))
}

// sameAnswer reports whether two complete --format json outputs give the
// same prompt and prediction.
func sameAnswer(a, b string) bool {
	type answer struct {
		Prompt     string `json:"prompt"`
		Prediction string `json:"prediction"`
	}
	var x, y answer
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return x.Prompt != "" && x == y
}

func shortErr(s string) string {
	s = lastLine(s)
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "nothing to repair"
	}
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return "repaired: " + s
}

func overwrittenTable(e *env, r *result) {
	repo, files, err := e.fixture("damage-repo", 300)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	for range 10 {
		e.damaged(r, repo, files, func(idx string) error {
			t, err := firstTable(idx)
			if err != nil {
				return err
			}
			return e.overwrite(t)
		})
	}
}

// overwrite writes 64 bytes of X at a random offset of the file at p.
func (e *env) overwrite(p string) error {
	fi, err := os.Stat(p)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteAt([]byte(strings.Repeat("X", 64)), e.rng.Int64N(fi.Size()-64))
	return err
}

func truncatedTable(e *env, r *result) {
	repo, files, err := e.fixture("truncate-repo", 300)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	for _, frac := range []float64{0, 0.001, 0.3, 0.7, 0.999} {
		e.damaged(r, repo, files, func(idx string) error {
			t, err := firstTable(idx)
			if err != nil {
				return err
			}
			fi, _ := os.Stat(t)
			return os.Truncate(t, int64(frac*float64(fi.Size())))
		})
	}
}

func badBlob(e *env, r *result) {
	repo, files, err := e.fixture("blob-repo", 100)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	for range 3 {
		e.damaged(r, repo, files, func(idx string) error {
			bdb, err := badger.Open(badger.DefaultOptions(idx).WithLogger(nil).WithCompression(0))
			if err != nil {
				return err
			}
			defer bdb.Close()
			var key, val []byte
			skip := e.rng.IntN(files)
			bdb.View(func(txn *badger.Txn) error {
				it := txn.NewIterator(badger.IteratorOptions{Prefix: []byte("f/")})
				defer it.Close()
				for it.Rewind(); it.Valid(); it.Next() {
					if skip--; skip < 0 {
						key = it.Item().KeyCopy(nil)
						val, _ = it.Item().ValueCopy(nil)
						return nil
					}
				}
				return nil
			})
			if key == nil {
				return errors.New("no blob")
			}
			val[len(val)/2] ^= 0x55
			return bdb.Update(func(txn *badger.Txn) error { return txn.Set(key, val) })
		})
	}
}

// damagedSnapshot damages the mapped snapshot file of the published
// generation: complete must answer from the blobs (or name the damage),
// and the next build must leave an index that reads whole.
func damagedSnapshot(e *env, r *result) {
	repo, files, err := e.fixture("snapshot-repo", 100)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	snapshotFile := func(idx string) (string, error) {
		m, _ := filepath.Glob(filepath.Join(idx, "snapshot-*"))
		if len(m) == 0 {
			return "", errors.New("no snapshot file")
		}
		return m[len(m)-1], nil
	}
	damages := []func(p string) error{
		e.overwrite,
		func(p string) error {
			fi, err := os.Stat(p)
			if err != nil {
				return err
			}
			return os.Truncate(p, e.rng.Int64N(fi.Size()))
		},
		os.Remove,
	}
	for i := range 9 {
		idx := filepath.Join(e.work, fmt.Sprintf("damaged-%d", r.tries)) // the folder e.damaged uses
		e.damaged(r, repo, files, func(idx string) error {
			p, err := snapshotFile(idx)
			if err != nil {
				return err
			}
			return damages[i%len(damages)](p)
		})
		// After the build the engine maps a whole snapshot file again.
		eng, err := engine.Open(idx, engine.Options{})
		if err != nil {
			r.lost++
			r.note("open after the build: %v", err)
			continue
		}
		if info := eng.Info(); info.Snapshot == "" || info.SnapshotError != "" {
			r.lost++
			r.note("after the build the index loads from the blobs: snapshot %q, %s", info.Snapshot, info.SnapshotError)
		}
		eng.Close()
	}
}

func deletedManifest(e *env, r *result) {
	repo, files, err := e.fixture("manifest-repo", 100)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	e.damaged(r, repo, files, func(idx string) error { return os.Remove(filepath.Join(idx, "MANIFEST")) })
	// --rebuild on a folder that held an index.
	idx := filepath.Join(e.work, "rebuild-idx")
	copyTree(filepath.Join(repo, ".graphcoder"), idx)
	os.Remove(filepath.Join(idx, "MANIFEST"))
	o, s := e.build(repo, "--index", idx, "--rebuild")
	r.count(o)
	if o.code == 0 && s.Files == files {
		r.clear++
	} else {
		r.note("build --rebuild: exit %d %s", o.code, firstLines(o.stderr, 2))
	}
	if intact(idx, files) != nil {
		r.lost++
	}
}
