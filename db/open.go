package db

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/dgraph-io/badger/v4"
	"github.com/dgraph-io/badger/v4/options"
	"github.com/dgraph-io/badger/v4/table"
	"github.com/dgraph-io/ristretto/v2/z"
)

var (
	// ErrNoIndex is returned when a directory holds no published index.
	ErrNoIndex = errors.New("no index")
	// ErrLocked is returned when another process holds the index open in
	// a way that excludes this one; the message names that process.
	ErrLocked = errors.New("index is in use by another process")
	// ErrCorrupt is wrapped by every error that finds the index damaged:
	// a store file that is truncated, fails its checksum or is missing, or
	// a record that does not decode. graphcoder build rebuilds such an
	// index from the sources.
	ErrCorrupt = errors.New("index is damaged")
	// ErrNoSpace is returned when the index's file system has too little
	// free space for the store to write safely. Badger writes through
	// memory-mapped files, where a full disk is not an error but a fatal
	// signal, so writers check the free space before they write.
	ErrNoSpace = errors.New("no space left for the index")
)

// DefaultMinFree is the free space a writer keeps on the index's file
// system: enough for the store to flush its write-ahead logs and
// memtables (2 x 32 MiB each) into tables and to compact them.
const DefaultMinFree = 256 << 20

// OpenOptions configure Open.
type OpenOptions struct {
	// ReadOnly opens an existing index for reading only. It never writes
	// to the index folder: after a writer was killed, the last published
	// generation is read through a private copy of the unfinished logs.
	// Several readers may share an index, but not with a writer.
	ReadOnly bool
	// MinFree is the free space (in bytes) a writer requires on the
	// index's file system before it opens or writes; 0 means
	// DefaultMinFree.
	MinFree int64
}

// DB is an open index. It is safe for concurrent use; at most one Builder
// may be active at a time.
type DB struct {
	dir      string
	bdb      *badger.DB
	readOnly bool
	minFree  int64

	// lock is the directory lock a reader holds while it reads through a
	// shadow folder, which is removed on Close.
	lock   *os.File
	shadow string

	mu       sync.Mutex
	building bool
}

// storeFile reports whether name is a file the store keeps in an index
// folder.
func storeFile(name string) bool {
	if _, _, ok := snapshotFileGen(name); ok {
		return true
	}
	switch name {
	case "MANIFEST", "KEYREGISTRY", "DISCARD", "LOCK", "MANIFEST-REWRITE":
		return true
	}
	for _, ext := range []string{".sst", ".vlog", ".mem"} {
		if strings.HasSuffix(name, ext) {
			_, err := strconv.ParseUint(strings.TrimSuffix(name, ext), 10, 64)
			return err == nil
		}
	}
	return false
}

// folderState describes what an index folder holds.
type folderState int

const (
	folderMissing folderState = iota // no folder, or an empty one
	folderIndex                      // the store's files, MANIFEST among them
	folderDamaged                    // only store files, but no MANIFEST
	folderForeign                    // anything else
)

func inspect(dir string) (folderState, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return folderMissing, nil
	}
	if err != nil {
		return folderForeign, err
	}
	if len(entries) == 0 {
		return folderMissing, nil
	}
	manifest := false
	for _, e := range entries {
		if !storeFile(e.Name()) {
			return folderForeign, nil
		}
		manifest = manifest || e.Name() == "MANIFEST"
	}
	if !manifest {
		return folderDamaged, nil
	}
	return folderIndex, nil
}

// IsIndex reports whether dir holds an index, intact or damaged: a folder
// of nothing but the store's files, so that a rebuild may remove it.
func IsIndex(dir string) bool {
	st, _ := inspect(dir)
	return st == folderIndex || st == folderDamaged
}

func badgerOptions(dir string, readOnly bool) badger.Options {
	bo := badger.DefaultOptions(dir).
		WithLogger(nil).
		WithReadOnly(readOnly).
		WithCompression(options.ZSTD).
		WithZSTDCompressionLevel(1).
		// Every block read is checked, so a damaged table is an error,
		// never a missing key or wrong bytes.
		WithChecksumVerificationMode(options.OnBlockRead).
		// Blobs, compressed by the build, go to the value log (stored.go).
		WithValueThreshold(valueThreshold).
		WithMemTableSize(32 << 20).
		WithNumMemtables(2).
		WithNumLevelZeroTables(4).
		WithNumLevelZeroTablesStall(8).
		WithBlockCacheSize(32 << 20).
		WithIndexCacheSize(16 << 20).
		WithValueLogFileSize(64 << 20).
		WithNumVersionsToKeep(1).
		WithNumCompactors(2).
		WithDetectConflicts(false)
	if readOnly {
		// A reader decodes every blob once to load an index: a block
		// cache would only hold tens of megabytes it never reads again.
		// (Badger requires some cache when blocks are compressed.)
		bo = bo.WithBlockCacheSize(1 << 20)
	}
	return bo
}

// Open opens the index in dir, creating it unless opts.ReadOnly.
func Open(dir string, opts OpenOptions) (*DB, error) {
	if opts.MinFree <= 0 {
		opts.MinFree = DefaultMinFree
	}
	st, err := inspect(dir)
	switch {
	case err != nil:
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	case st == folderDamaged:
		return nil, fmt.Errorf("open index %s: %w: its MANIFEST is missing; run `graphcoder build REPO` to rebuild it", dir, ErrCorrupt)
	case opts.ReadOnly && st != folderIndex:
		return nil, fmt.Errorf("%w in %s: run `graphcoder build REPO` first", ErrNoIndex, dir)
	case st == folderForeign:
		// Never scatter index files into a folder holding other things.
		return nil, fmt.Errorf("open index %s: the folder is not empty and holds no index", dir)
	}
	d := &DB{dir: dir, readOnly: opts.ReadOnly, minFree: opts.MinFree}
	if !opts.ReadOnly {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, fmt.Errorf("open index %s: %w", dir, storageError(err))
		}
		if err := d.CheckSpace(); err != nil {
			return nil, err
		}
	}
	// Hold the folder's lock while the tables are checked, so that no
	// writer changes them meanwhile; a reader keeps it (shared, as Badger
	// takes it) until Close, a writer hands it over to Badger.
	lock, err := lockDir(dir, opts.ReadOnly)
	if err != nil {
		return nil, err
	}
	if err := checkTables(dir); err != nil {
		lock.Close()
		return nil, err
	}
	if !opts.ReadOnly {
		err := removeUnsizedLogs(dir)
		lock.Close()
		lock = nil
		if err != nil {
			return nil, fmt.Errorf("open index %s: %w", dir, storageError(err))
		}
	}
	d.lock = lock
	if opts.ReadOnly && hasLogs(dir) {
		// A killed writer's logs: Badger replays them only when it may
		// truncate them (a read-only open fails with "Log truncate
		// required", and one shorter than its header even ends the
		// process) and sizes an empty value log, so a reader reads
		// through a shadow of them.
		d.bdb, err = d.openShadow()
	} else {
		d.bdb, err = openBadger(badgerOptions(dir, opts.ReadOnly))
	}
	if err != nil {
		d.release()
		if strings.Contains(err.Error(), "Cannot acquire directory lock") {
			return nil, lockedError(dir)
		}
		return nil, fmt.Errorf("open index %s: %w", dir, storageError(err))
	}
	if err := d.checkSchema(); err != nil {
		d.bdb.Close()
		d.release()
		return nil, err
	}
	return d, nil
}

// hasLogs reports whether dir holds what a killed writer leaves and a
// read-only Badger cannot open: write-ahead logs (NNNNN.mem), or a value
// log created and not yet sized (an empty NNNNN.vlog).
func hasLogs(dir string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".mem") {
			return true
		}
		if fi, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".vlog") && fi.Size() == 0 {
			return true
		}
	}
	return false
}

// removeUnsizedLogs removes the empty value logs and write-ahead logs a
// writer killed right after creating them leaves: they hold nothing, and
// Badger cannot reopen them ("Create a new file"). The caller holds the
// folder's exclusive lock.
func removeUnsizedLogs(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".vlog") && !strings.HasSuffix(name, ".mem") {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Size() == 0 {
			if err := os.Remove(filepath.Join(dir, name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// openBadger opens the store, turning a panic on damaged files into
// ErrCorrupt.
func openBadger(bo badger.Options) (bdb *badger.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			bdb, err = nil, fmt.Errorf("%w: %v", ErrCorrupt, r)
		}
	}()
	return badger.Open(bo)
}

// openShadow opens, read-only, a private folder of links to the index's
// files with the write-ahead logs copied up to their valid end (see
// walEnd). The folder's lock, held since Open, keeps writers out until
// Close.
func (d *DB) openShadow() (*badger.DB, error) {
	shadow, err := os.MkdirTemp("", "graphcoder-read-")
	if err != nil {
		return nil, storageError(err)
	}
	d.shadow = shadow
	if err := makeShadow(d.dir, shadow); err != nil {
		return nil, fmt.Errorf("read the logs of an interrupted writer: %w", storageError(err))
	}
	return openBadger(badgerOptions(shadow, true))
}

// release drops the reader's lock and shadow folder.
func (d *DB) release() {
	if d.shadow != "" {
		os.RemoveAll(d.shadow)
		d.shadow = ""
	}
	if d.lock != nil {
		d.lock.Close()
		d.lock = nil
	}
}

// Close closes the index. Open snapshots must be closed first.
func (d *DB) Close() error {
	err := d.bdb.Close()
	d.release()
	if err != nil {
		return fmt.Errorf("close index %s: %w", d.dir, storageError(err))
	}
	return nil
}

// lockDir takes the lock Badger takes on an index folder (flock: shared
// for a reader, exclusive for a writer), without waiting.
func lockDir(dir string, shared bool) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", dir, err)
	}
	how := syscall.LOCK_EX
	if shared {
		how = syscall.LOCK_SH
	}
	if err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, lockedError(dir)
		}
		return nil, fmt.Errorf("lock index %s: %w", dir, err)
	}
	return f, nil
}

// lockedError says who holds the index: a writer records its process id
// in the folder's LOCK file; readers record nothing.
func lockedError(dir string) error {
	holder := "one or more readers (graphcoder complete, eval or another read-only process)"
	if b, err := os.ReadFile(filepath.Join(dir, "LOCK")); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			if cmd, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && len(cmd) > 0 {
				holder = fmt.Sprintf("process %d (%s)", pid, strings.TrimSpace(strings.ReplaceAll(string(cmd), "\x00", " ")))
			}
		}
	}
	return fmt.Errorf("open index %s: %w: held by %s", dir, ErrLocked, holder)
}

// CheckSpace returns ErrNoSpace when the index's file system has less free
// space than the writer's MinFree.
func (d *DB) CheckSpace() error {
	var fs syscall.Statfs_t
	if err := syscall.Statfs(d.dir, &fs); err != nil {
		return nil // cannot tell: let the writes report it
	}
	free := int64(fs.Bavail) * int64(fs.Bsize)
	if free < d.minFree {
		return fmt.Errorf("%w: %s free on the file system of %s, a writer needs %s",
			ErrNoSpace, humanBytes(free), d.dir, humanBytes(d.minFree))
	}
	return nil
}

func humanBytes(n int64) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
}

// storageError marks errors of a full file system as ErrNoSpace.
func storageError(err error) error {
	if err == nil || errors.Is(err, ErrNoSpace) || errors.Is(err, ErrCorrupt) {
		return err
	}
	if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) ||
		strings.Contains(err.Error(), "no space left on device") {
		return fmt.Errorf("%w: %w", ErrNoSpace, err)
	}
	if strings.Contains(err.Error(), "checksum mismatch") || strings.Contains(err.Error(), "failed to read index") {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return err
}

// checkTables opens every table the folder's MANIFEST lists the way
// Badger will (its index, checksum and last block, with the table's own
// compression), in parallel, so that a missing, truncated or damaged table
// is an error here instead of a panic in one of Badger's goroutines, which
// no caller could recover from.
func checkTables(dir string) error {
	damaged := func(what string, err error) error {
		return fmt.Errorf("open index %s: %w: %s: %v; run `graphcoder build REPO` to rebuild it", dir, ErrCorrupt, what, err)
	}
	f, err := os.Open(filepath.Join(dir, badger.ManifestFilename))
	if errors.Is(err, os.ErrNotExist) {
		return nil // a new index
	}
	if err != nil {
		return fmt.Errorf("open index %s: %w", dir, err)
	}
	var m badger.Manifest
	err = guard(func() error {
		var err error
		m, _, err = badger.ReplayManifestFile(f, 0, badgerOptions(dir, true))
		return err
	})
	f.Close()
	if err != nil {
		return damaged("MANIFEST", err)
	}
	ids := make([]uint64, 0, len(m.Tables))
	for id := range m.Tables {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	errs := make([]error, len(ids))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = checkTable(table.NewFilename(id, dir), m.Tables[id].Compression)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return damaged("table "+filepath.Base(table.NewFilename(ids[i], dir)), err)
		}
	}
	return nil
}

func checkTable(path string, compression options.CompressionType) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("unreadable (truncated or overwritten)")
		}
	}()
	mf, err := z.OpenMmapFile(path, os.O_RDONLY, 0)
	if err != nil && !errors.Is(err, z.NewFile) {
		return err
	}
	t, err := table.OpenTable(mf, table.Options{ReadOnly: true, BlockSize: badgerOptions("", true).BlockSize,
		Compression: compression, ChkMode: options.NoVerification})
	if err != nil {
		_ = guard(func() error { return mf.Close(-1) }) // not always closed by OpenTable
		return err
	}
	return t.MmapFile.Close(-1)
}

// firstLine returns the first non-blank line of a panic's message.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "==") {
			return l
		}
	}
	return strings.TrimSpace(s)
}

// guard runs fn, a call into the store, turning a panic on damaged data
// into ErrCorrupt.
func guard(fn func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: the store failed reading it (%v)", ErrCorrupt, firstLine(fmt.Sprint(r)))
		}
	}()
	return fn()
}

// view runs a read transaction under guard.
func (d *DB) view(fn func(*badger.Txn) error) error {
	return guard(func() error { return d.bdb.View(fn) })
}

// Verify checks every block of every table against its checksum; an error
// wraps ErrCorrupt. A full build runs it before it trusts what is stored.
func (d *DB) Verify(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := guard(d.bdb.VerifyChecksum); err != nil {
		if !errors.Is(err, ErrCorrupt) {
			err = fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		return fmt.Errorf("verify index %s: %w", d.dir, err)
	}
	return nil
}
