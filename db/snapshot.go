package db

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"

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
	gen, ok, err := currentGen(txn)
	if err != nil {
		txn.Discard()
		return nil, fmt.Errorf("read index %s: %w", d.dir, err)
	}
	if !ok {
		txn.Discard()
		return nil, fmt.Errorf("%w in %s: run `graphcoder build REPO` first", ErrNoIndex, d.dir)
	}
	meta, files, err := readGen(txn, gen)
	if err != nil {
		txn.Discard()
		return nil, fmt.Errorf("read index %s: %w", d.dir, err)
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

func (s *Snapshot) load(f *FileInfo) (*FileRecord, error) {
	if s.txn == nil {
		return nil, errors.New("snapshot is closed")
	}
	item, err := s.txn.Get(s.meta.blobKey(f))
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", f.Path, err)
	}
	var rec *FileRecord
	err = item.Value(func(v []byte) error {
		var err error
		rec, err = decodeBlob(v)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", f.Path, err)
	}
	rec.Path = f.Path
	return rec, nil
}

// ForEach decodes every file of the snapshot and calls fn with each, in
// path order, from one goroutine. Decoding runs in parallel ahead of fn.
// It stops at the first error, fn's or a decoding one.
func (s *Snapshot) ForEach(ctx context.Context, fn func(*FileRecord) error) error {
	workers := runtime.GOMAXPROCS(0)
	type result struct {
		rec *FileRecord
		err error
	}
	// Files are decoded in windows: each worker fills slots of the
	// current window, then fn consumes the window in order.
	const window = 256
	slots := make([]result, window)
	for lo := 0; lo < len(s.files); lo += window {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+window, len(s.files))
		var wg sync.WaitGroup
		var next int
		var mu sync.Mutex
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					mu.Lock()
					i := lo + next
					next++
					mu.Unlock()
					if i >= hi {
						return
					}
					rec, err := s.load(&s.files[i])
					slots[i-lo] = result{rec, err}
				}
			}()
		}
		wg.Wait()
		for i := range hi - lo {
			r := slots[i]
			slots[i] = result{}
			if r.err != nil {
				return r.err
			}
			if err := fn(r.rec); err != nil {
				return err
			}
		}
	}
	return nil
}
