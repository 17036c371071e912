package db

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/graphcoder/graphcoder/internal/mapfile"
)

// A SnapshotWriter writes and checks the snapshot files of generations:
// the retrieval-ready form of a generation that readers map instead of
// decoding every blob (package snapfile owns their content). The store
// of record stays the blobs; a snapshot file is derived from the same
// records and is rebuilt from the blobs whenever it is missing, stale or
// damaged.
type SnapshotWriter interface {
	// StartSnapshot starts the snapshot file of a generation built with
	// meta's parameters (tokenizer, h, l, root, analysis): the build
	// gives it the generation's files in path order, then has it written.
	StartSnapshot(meta Meta) (SnapshotStream, error)
	// CheckSnapshot reports how many files of the generation s reads
	// the snapshot file at path does not hold as they are (0: it is the
	// generation's), or an error when the file is not an intact snapshot
	// for the generation's parameters. With verify, every checksum is
	// checked; otherwise only its structure.
	CheckSnapshot(path string, s *Snapshot, verify bool) (stale int, err error)
}

// A SnapshotStream takes the files of one generation, in path order, and
// writes their snapshot file. A full build gives it each file's record
// as the build produces it (see Builder.Plan); otherwise the records are
// decoded from the generation's blobs one at a time.
type SnapshotStream interface {
	// Add takes the next file: its record (Path set) and manifest entry.
	// The stream keeps nothing of rec it does not copy, except the
	// outline (Package, Symbols, Imports).
	Add(rec *FileRecord, info FileInfo) error
	// Write writes the snapshot file of generation meta, whose files
	// were added, to w. The stream is done afterwards.
	Write(ctx context.Context, meta Meta, w io.Writer) error
}

// DefaultSnapshotLag is the default of BuildOptions.SnapshotLag.
const DefaultSnapshotLag = 64

// SnapshotSummary reports what a build did about the snapshot file.
type SnapshotSummary struct {
	// Written is set when the build wrote a new snapshot file, of Bytes
	// bytes, in Seconds; otherwise Stale counts the files of the new
	// generation the newest snapshot file does not hold as they are
	// (readers load those from the blobs).
	Written bool    `json:"written"`
	Bytes   int64   `json:"bytes,omitempty"`
	Seconds float64 `json:"seconds,omitempty"`
	Stale   int     `json:"stale"`
	// Streamed is set when the file was written from the build's own
	// records as it produced them (Builder.Plan), rather than from the
	// generation's blobs read back.
	Streamed bool `json:"streamed,omitempty"`
	// Reason says why a snapshot file was written or found unusable.
	Reason string `json:"reason,omitempty"`
}

const (
	snapPrefix = "snapshot-"
	snapSuffix = ".gcs"
	tmpSuffix  = ".tmp"
)

// snapshotName is the file name of generation gen's snapshot file.
func snapshotName(gen uint64) string { return fmt.Sprintf("%s%016x%s", snapPrefix, gen, snapSuffix) }

// snapshotFileGen parses a snapshot file name: its generation, and
// whether it is a finished file (not a temporary one).
func snapshotFileGen(name string) (gen uint64, done, ok bool) {
	rest, found := strings.CutPrefix(name, snapPrefix)
	if !found {
		return 0, false, false
	}
	done = true
	if r, tmp := strings.CutSuffix(rest, snapSuffix+tmpSuffix); tmp {
		rest, done = r, false
	} else if r, fin := strings.CutSuffix(rest, snapSuffix); fin {
		rest = r
	} else {
		return 0, false, false
	}
	if len(rest) != 16 {
		return 0, false, false
	}
	gen, err := strconv.ParseUint(rest, 16, 64)
	return gen, done, err == nil
}

type snapFile struct {
	gen  uint64
	name string
	done bool
}

// snapshotFiles lists the snapshot files of the index folder by
// generation.
func (d *DB) snapshotFiles() ([]snapFile, error) {
	entries, err := os.ReadDir(d.dir)
	if err != nil {
		return nil, err
	}
	var out []snapFile
	for _, e := range entries {
		if gen, done, ok := snapshotFileGen(e.Name()); ok {
			out = append(out, snapFile{gen, e.Name(), done})
		}
	}
	slices.SortFunc(out, func(a, b snapFile) int {
		if a.gen != b.gen {
			return cmpUint(a.gen, b.gen)
		}
		return strings.Compare(a.name, b.name)
	})
	return out, nil
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// newestSnapshot returns the name and generation of the newest finished
// snapshot file written for a generation at or before gen.
func (d *DB) newestSnapshot(gen uint64) (string, uint64, bool) {
	files, err := d.snapshotFiles()
	if err != nil {
		return "", 0, false
	}
	for i := len(files) - 1; i >= 0; i-- {
		if f := files[i]; f.done && f.gen <= gen {
			return f.name, f.gen, true
		}
	}
	return "", 0, false
}

// SnapshotFile returns the path of the snapshot file readers of this
// generation map: the newest written for it or an earlier generation
// (a snapshot file says which files it holds, so a reader takes the files
// changed since from the blobs). ok is false when there is none.
func (s *Snapshot) SnapshotFile() (path string, gen uint64, ok bool) {
	name, gen, ok := s.db.newestSnapshot(s.meta.Generation)
	if !ok {
		return "", 0, false
	}
	return filepath.Join(s.db.dir, name), gen, true
}

// snapshotAt opens a view of generation gen, published or not (the
// builder's, before the switch).
func (d *DB) snapshotAt(gen uint64) (*Snapshot, error) {
	txn := d.bdb.NewTransaction(false)
	var meta *GenMeta
	var files []FileInfo
	err := guard(func() error {
		var err error
		meta, files, err = readGen(txn, gen)
		return err
	})
	if err != nil {
		txn.Discard()
		return nil, storageError(err)
	}
	return &Snapshot{db: d, txn: txn, meta: *meta, files: files}, nil
}

// testHookSnapshotWrite, when set, wraps the writer of a snapshot file
// (tests: a write cut short, a process killed in the middle).
var testHookSnapshotWrite func(io.Writer) io.Writer

// snapshot makes sure generation gen (written, published or about to be)
// has a usable snapshot file: a full build (always) writes one; a build
// that changed nothing writes one when the newest is missing, damaged
// (checked in full with verify) or behind; an incremental build when the
// newest is unusable or more than BuildOptions.SnapshotLag files behind,
// and none when there is none.
func (b *Builder) snapshot(ctx context.Context, gen uint64, always, verify bool) (*SnapshotSummary, error) {
	w := b.opts.Snapshot
	if w == nil {
		return nil, nil
	}
	s, err := b.db.snapshotAt(gen)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	defer s.Close()
	sum := &SnapshotSummary{}
	lag := b.opts.SnapshotLag
	if lag <= 0 {
		lag = DefaultSnapshotLag
	}
	switch name, _, ok := b.db.newestSnapshot(gen); {
	case always:
		sum.Reason = "a full build writes its own"
	case !ok && b.opts.Incremental:
		// An incremental build keeps a snapshot file up, it does not
		// start one (that is a full build's cost).
		sum.Reason = "the index has no snapshot file"
		return sum, nil
	case !ok:
		sum.Reason = "there was none"
	default:
		stale, err := w.CheckSnapshot(filepath.Join(b.db.dir, name), s, verify)
		switch {
		case err != nil:
			sum.Reason = fmt.Sprintf("%s is unusable (%v)", name, err)
		case stale > lag || stale > 0 && !b.opts.Incremental:
			sum.Reason = fmt.Sprintf("%s is %d files behind", name, stale)
		default:
			sum.Stale = stale
			return sum, nil
		}
	}
	t0 := time.Now()
	st, err := b.planned(ctx, s.Files())
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	sum.Streamed = st != nil
	if st == nil {
		if st, err = streamBlobs(ctx, w, s); err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
	}
	n, err := b.db.writeSnapshot(ctx, gen, func(out io.Writer) error { return st.Write(ctx, s.Meta(), out) })
	if err != nil {
		return nil, err
	}
	sum.Written, sum.Bytes, sum.Seconds = true, n, time.Since(t0).Seconds()
	return sum, nil
}

// streamBlobs gives a new stream of w the files of the generation s
// reads, decoded from their blobs one at a time; a file whose blob is
// damaged is left out (readers load it from its blob, and fail there).
func streamBlobs(ctx context.Context, w SnapshotWriter, s *Snapshot) (SnapshotStream, error) {
	st, err := w.StartSnapshot(s.Meta())
	if err != nil {
		return nil, err
	}
	err = s.ForEachIntact(ctx, func(r *FileRecord) error {
		f, _ := s.File(r.Path)
		return st.Add(r, f)
	}, func(string, error) {})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// writeSnapshot writes generation gen's snapshot file through write: to a
// temporary file, synced, then renamed into place and the folder synced,
// so that a snapshot file is whole or absent whatever happens.
func (d *DB) writeSnapshot(ctx context.Context, gen uint64, write func(io.Writer) error) (int64, error) {
	if err := d.CheckSpace(); err != nil {
		return 0, fmt.Errorf("write snapshot: %w", err)
	}
	final := filepath.Join(d.dir, snapshotName(gen))
	tmp := final + tmpSuffix
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o644)
	if err != nil {
		return 0, fmt.Errorf("write snapshot: %w", storageError(err))
	}
	cw := &countingWriter{w: f}
	var out io.Writer = cw
	if testHookSnapshotWrite != nil {
		out = testHookSnapshotWrite(cw)
	}
	err = write(out)
	if err == nil {
		err = ctx.Err()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, final)
	}
	if err == nil {
		err = syncDir(d.dir)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("write snapshot %s: %w", final, storageError(err))
	}
	// Readers map the file: have the page cache hold it in base pages
	// rather than the large folios of the writes, which would make
	// whole megabytes resident in them for every few bytes a search
	// reads. Best effort: the file is complete either way.
	mapfile.Recache(final)
	return cw.n, nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// collectSnapshots removes every snapshot file but the one readers of
// generation gen map (see Snapshot.SnapshotFile), and temporary files
// left by interrupted writes. A process that mapped a removed file keeps
// reading it until it unmaps it.
func (d *DB) collectSnapshots(gen uint64) error {
	keep, _, _ := d.newestSnapshot(gen)
	files, err := d.snapshotFiles()
	if err != nil {
		return err
	}
	var errs []error
	for _, f := range files {
		if f.name != keep {
			if err := os.Remove(filepath.Join(d.dir, f.name)); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}
