package db

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/dgraph-io/badger/v4"
)

// Meta describes the generation a Snapshot reads.
type Meta = GenMeta

// Snapshot is a consistent view of the published generation: builds that
// publish later do not change what it reads. Close it when done.
type Snapshot struct {
	db    *DB
	txn   *badger.Txn
	meta  GenMeta
	files []FileInfo // sorted by path
}

// Snapshot opens a view of the current generation. It returns an error
// wrapping ErrNoIndex when nothing was published yet.
func (d *DB) Snapshot() (*Snapshot, error) {
	txn := d.bdb.NewTransaction(false)
	var (
		gen   uint64
		ok    bool
		meta  *GenMeta
		files []FileInfo
	)
	err := guard(func() error {
		var err error
		if gen, ok, err = currentGen(txn); err != nil || !ok {
			return err
		}
		meta, files, err = readGen(txn, gen)
		return err
	})
	if err == nil && !ok {
		txn.Discard()
		return nil, fmt.Errorf("%w in %s: run `graphcoder build REPO` first", ErrNoIndex, d.dir)
	}
	if err != nil {
		txn.Discard()
		// The published generation's metadata and manifest are written
		// before it is published: failing to read them is damage.
		if !errors.Is(storageError(err), ErrCorrupt) {
			err = fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		return nil, fmt.Errorf("read index %s: %w; run `graphcoder build REPO` to rebuild it", d.dir, err)
	}
	return &Snapshot{db: d, txn: txn, meta: *meta, files: files}, nil
}

// Close releases the snapshot.
func (s *Snapshot) Close() {
	if s.txn != nil {
		s.txn.Discard()
		s.txn = nil
	}
}

// Meta returns the generation's metadata.
func (s *Snapshot) Meta() Meta { return s.meta }

// Files lists the generation's files sorted by path. The slice must not be
// modified.
func (s *Snapshot) Files() []FileInfo { return s.files }

// File returns the manifest entry of path.
func (s *Snapshot) File(path string) (FileInfo, bool) {
	i := sort.Search(len(s.files), func(i int) bool { return s.files[i].Path >= path })
	if i < len(s.files) && s.files[i].Path == path {
		return s.files[i], true
	}
	return FileInfo{}, false
}

// Load decodes the record of path.
func (s *Snapshot) Load(path string) (*FileRecord, error) {
	f, ok := s.File(path)
	if !ok {
		return nil, fmt.Errorf("load %s: %w", path, errNotIndexed)
	}
	return s.load(&f)
}

var errNotIndexed = errors.New("file is not in the index")

// load reads and decodes the blob of f. Every failure but a closed
// snapshot is damage: the manifest names only blobs written before it.
func (s *Snapshot) load(f *FileInfo) (*FileRecord, error) {
	if s.txn == nil {
		return nil, errors.New("snapshot is closed")
	}
	var rec *FileRecord
	err := guard(func() error {
		item, err := s.txn.Get(s.meta.blobKey(f))
		if errors.Is(err, badger.ErrKeyNotFound) {
			return fmt.Errorf("%w: its blob is missing or unreadable", ErrCorrupt)
		}
		if err != nil {
			return err
		}
		return blobValue(item, func(v []byte) error {
			var err error
			rec, err = decodeBlob(v)
			return err
		})
	})
	if err != nil {
		if err = storageError(err); !errors.Is(err, ErrCorrupt) {
			err = fmt.Errorf("%w: %w", ErrCorrupt, err)
		}
		return nil, fmt.Errorf("load %s: %w", f.Path, err)
	}
	rec.Path = f.Path
	return rec, nil
}

// ForEach decodes every file of the snapshot and calls fn with each, in
// path order, from one goroutine. Decoding runs in parallel ahead of fn,
// at most a bounded number of files ahead. It stops at the first error,
// fn's or a decoding one.
func (s *Snapshot) ForEach(ctx context.Context, fn func(*FileRecord) error) error {
	return s.forEach(ctx, fn, nil)
}

// ForEachIntact is ForEach, except that a file whose blob is damaged
// (ErrCorrupt) is skipped and passed to damaged instead of stopping the
// walk: one bad blob costs its file, not the index.
func (s *Snapshot) ForEachIntact(ctx context.Context, fn func(*FileRecord) error, damaged func(path string, err error)) error {
	return s.forEach(ctx, fn, damaged)
}

func (s *Snapshot) forEach(ctx context.Context, fn func(*FileRecord) error, damaged func(string, error)) error {
	type result struct {
		rec *FileRecord
		err error
	}
	n := len(s.files)
	// ready[i] receives file i; a token of ahead is held from the moment a
	// worker takes a file until fn has consumed it. Workers take a token
	// before a file, so the files holding tokens are always the oldest
	// unconsumed ones and the file fn waits for is always being decoded.
	ready := make([]chan result, n)
	for i := range ready {
		ready[i] = make(chan result, 1)
	}
	ahead := make(chan struct{}, 64)
	done := make(chan struct{})
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case ahead <- struct{}{}:
				case <-done:
					return
				}
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				rec, err := s.load(&s.files[i])
				ready[i] <- result{rec, err}
			}
		}()
	}
	defer wg.Wait()
	defer close(done)
	for i := range n {
		if err := ctx.Err(); err != nil {
			return err
		}
		r := <-ready[i]
		<-ahead
		if r.err != nil && damaged != nil && errors.Is(r.err, ErrCorrupt) {
			damaged(s.files[i].Path, r.err)
			continue
		}
		if r.err != nil {
			return r.err
		}
		if err := fn(r.rec); err != nil {
			return err
		}
	}
	return nil
}
