package db

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/dgraph-io/badger/v4"
)

// A build that writes a snapshot file gives it the records it produces as
// it produces them (a feed), instead of reading the whole generation back
// from its blobs before publishing it: Builder.Plan lists the paths the
// build will add, Add and Skip settle them in any order, and the records
// go to the SnapshotStream in path order. A record settled before its turn
// waits as its blob (the compact form the build has anyway); a file whose
// blob the build reuses waits as its key, and is decoded from that blob
// when its turn comes, one at a time.
//
// Nothing is decoded for reused files until the build parses a file: a
// build that finds everything unchanged costs no more than hashing. Any
// surprise (a path added that was not planned or twice, a record the
// stream refuses, a blob that cannot be read) drops the feed, and Finish
// reads the records back from the blobs as a build without a plan does.

// feedItem is one planned file once settled.
type feedItem struct {
	info FileInfo
	blob []byte // the new blob of a parsed file
	key  []byte // the blob key of a reused file
	skip bool   // not added
}

type feed struct {
	paths []string // planned paths, sorted: a path's index is its turn

	// Under Builder.mu.
	held    map[int]*feedItem
	next    int   // the turn to feed next (changed by the feeding goroutine)
	started bool  // a file was parsed: reused files are decoded too
	failed  error // the feed was dropped

	// mu is held by the one goroutine feeding at a time.
	mu     sync.Mutex
	stream SnapshotStream
	fed    []FileInfo // what the stream was given, in order
}

// Plan announces the paths this build will Add (or Skip), in any order,
// before the first Add. With BuildOptions.Snapshot, the snapshot file is
// then written from the build's own records as they are produced (in
// path order, whatever order they come in) rather than from the blobs
// read back at Finish; a record that comes ahead of its turn waits as its
// blob, so Add is best called about in path order. Plan is optional, and
// ignored by builds that do not always write a snapshot file
// (incremental ones); calling it twice or after Add is an error.
func (b *Builder) Plan(paths []string) error {
	if b.opts.Snapshot == nil || b.opts.Incremental {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.feed != nil || len(b.files) > 0 || b.done {
		return errors.New("plan: the build has started")
	}
	sorted := slices.Clone(paths)
	slices.Sort(sorted)
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return fmt.Errorf("plan: %s listed twice", sorted[i])
		}
	}
	f := &feed{paths: sorted, held: map[int]*feedItem{}}
	st, err := b.opts.Snapshot.StartSnapshot(Meta{Tokenizer: b.opts.Tokenizer, Hops: b.opts.Hops,
		MaxStatements: b.opts.MaxStatements, Root: b.opts.Root, Analysis: analysisVersion})
	if err != nil {
		return fmt.Errorf("plan: %w", err)
	}
	f.stream = st
	b.feed = f
	return nil
}

// Skip tells the build that a planned path will not be added (its file
// could not be read, or failed to index).
func (b *Builder) Skip(path string) { b.settle(path, &feedItem{skip: true}) }

// settle records what became of a planned path and feeds what is ready.
func (b *Builder) settle(path string, it *feedItem) {
	b.mu.Lock()
	f := b.feed
	if f == nil || f.failed != nil {
		b.mu.Unlock()
		return
	}
	i, ok := slices.BinarySearch(f.paths, path)
	if _, dup := f.held[i]; !ok || dup || i < f.next {
		f.drop(fmt.Errorf("%s was not planned, or was settled twice", path))
		b.mu.Unlock()
		return
	}
	f.held[i] = it
	if it.blob != nil {
		f.started = true
	}
	b.mu.Unlock()
	b.pump(context.Background(), false)
}

// pump feeds the stream the items whose turn has come, from the goroutine
// that finds the feed idle; the others return at once, and the feeding
// goroutine looks again after it lets go, so that nothing ready is left
// waiting. With all (Finish), every planned path must be settled, and
// reused files are fed even when nothing was parsed.
func (b *Builder) pump(ctx context.Context, all bool) error {
	f := b.feed
	for {
		if all {
			f.mu.Lock()
		} else if !f.mu.TryLock() {
			return nil
		}
		err := b.feedReady(ctx, f, all)
		f.mu.Unlock()
		if err != nil || all {
			return err
		}
		b.mu.Lock()
		_, more := f.held[f.next]
		more = more && f.started && f.failed == nil
		b.mu.Unlock()
		if !more {
			return nil
		}
	}
}

// feedReady feeds the items whose turn has come; f.mu is held.
func (b *Builder) feedReady(ctx context.Context, f *feed, all bool) error {
	for {
		b.mu.Lock()
		n := f.next
		it, ok := f.held[n]
		failed, started := f.failed, f.started || all
		if ok && started && failed == nil {
			delete(f.held, n)
		}
		b.mu.Unlock()
		switch {
		case failed != nil:
			return failed
		case n == len(f.paths):
			return nil
		case !ok && all:
			return b.dropFeed(fmt.Errorf("%s was neither added nor skipped", f.paths[n]))
		case !ok || !started:
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := b.feedOne(f, f.paths[n], it); err != nil {
			return b.dropFeed(err)
		}
		b.mu.Lock()
		f.next++
		b.mu.Unlock()
	}
}

func (b *Builder) dropFeed(err error) error {
	b.mu.Lock()
	b.feed.drop(err)
	b.mu.Unlock()
	return err
}

// drop drops the feed for err, unless it was dropped already; Builder.mu
// is held.
func (f *feed) drop(err error) {
	if f.failed == nil {
		f.failed = err
	}
	clear(f.held)
}

// feedOne gives the stream one settled file.
func (b *Builder) feedOne(f *feed, path string, it *feedItem) error {
	if it.skip {
		return nil
	}
	blob := it.blob
	if blob == nil {
		var err error
		if blob, err = b.readBlob(it.key); err != nil {
			return fmt.Errorf("read the blob of %s: %w", path, err)
		}
	}
	rec, err := decodeBlob(blob)
	if err != nil {
		return fmt.Errorf("decode the blob of %s: %w", path, err)
	}
	rec.Path = path
	if err := f.stream.Add(rec, it.info); err != nil {
		return err
	}
	f.fed = append(f.fed, it.info)
	return nil
}

// readBlob returns a copy of the blob under key: one the build started
// with, or one it wrote (flushing the write batch when the blob is still
// in it).
func (b *Builder) readBlob(key []byte) ([]byte, error) {
	for attempt := 0; ; attempt++ {
		var blob []byte
		err := b.db.view(func(txn *badger.Txn) error {
			it, err := txn.Get(key)
			if err != nil {
				return err
			}
			blob, err = blobCopy(it)
			return err
		})
		if !errors.Is(err, badger.ErrKeyNotFound) || attempt > 0 {
			return blob, err
		}
		// Written by this build, and not flushed yet.
		b.mu.Lock()
		if b.done {
			b.mu.Unlock()
			return nil, err // Finish flushed the batch already
		}
		b.rotateBatch()
		b.mu.Unlock()
		if err := b.waitFlushes(); err != nil {
			return nil, storageError(err)
		}
	}
}

// planned returns the build's stream when it was fed exactly files (the
// new generation's manifest), after feeding what was left; nil when the
// build had no plan or dropped it.
func (b *Builder) planned(ctx context.Context, files []FileInfo) (SnapshotStream, error) {
	if b.feed == nil {
		return nil, nil
	}
	if err := b.pump(ctx, true); err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		return nil, nil // dropped: read back from the blobs
	}
	f := b.feed
	if !slices.Equal(f.fed, files) {
		return nil, nil
	}
	return f.stream, nil
}
