package indexer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/embed"
	"github.com/graphcoder/graphcoder/snapfile"
)

// DefaultMaxFileSize is the size above which a file is not indexed.
const DefaultMaxFileSize = 1 << 20

// Options configure Build.
type Options struct {
	// Repo is the repository root.
	Repo string
	// IndexDir is the index folder; "" means Repo/.graphcoder.
	IndexDir string
	// Workers bounds parallel parsing; 0 means GOMAXPROCS. Embedding
	// requests run at most min(Workers, 2) at a time.
	Workers int
	// MaxFileSize skips larger files; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// Tokenizer, Hops and MaxStatements shape the entries (see db.BuildOptions).
	Tokenizer           string
	Hops, MaxStatements int
	// Progress, if set, is called from one goroutine at a time as the
	// build advances.
	Progress func(Progress)
	// Rebuild removes an existing index (of any schema, or damaged) first.
	Rebuild bool
	// Embedder, when set, stores dense vectors for the published
	// generation's entries after the build (db.DB.Embed): only for files
	// that have none for its model yet.
	Embedder embed.Embedder
	// MinFree is the free space the index's file system must keep (see
	// db.OpenOptions); 0 means db.DefaultMinFree.
	MinFree int64
	// NoSnapshot publishes the generation without a snapshot file
	// (package snapfile): readers then decode every blob to load it.
	NoSnapshot bool
}

// Progress reports how far a build is.
type Progress struct {
	// Phase is "walk", "index", "publish" or "embed" (FilesDone of
	// FilesTotal files have vectors).
	Phase      string
	FilesTotal int
	FilesDone  int
	BytesTotal int64
	BytesDone  int64
	Elapsed    time.Duration
}

// Summary reports a finished build. Files is the number of files in the
// new index.
type Summary struct {
	Repo    string         `json:"repo"`
	Index   string         `json:"index"`
	Seen    int            `json:"seen"`
	Files   int            `json:"files"`
	Reused  int            `json:"reused"`
	Parsed  int            `json:"parsed"`
	Removed int            `json:"removed"`
	Skipped map[string]int `json:"skipped"`
	// Failures holds the first messages of files that failed to index.
	Failures []string `json:"failures,omitempty"`
	// Unsupported counts files of no registered language (not in Seen).
	Unsupported  int     `json:"unsupported"`
	SyntaxErrors int     `json:"syntax_errors"`
	Lines        int     `json:"lines"`
	Statements   int     `json:"statements"`
	Entries      int     `json:"entries"`
	IndexBytes   int64   `json:"index_bytes"`
	Seconds      float64 `json:"seconds"`
	Generation   uint64  `json:"generation"`
	Published    bool    `json:"published"`
	Tokenizer    string  `json:"tokenizer"`
	// Dense reports the embedding step; nil without an Embedder.
	Dense *db.EmbedSummary `json:"dense,omitempty"`
	// Repaired says what damage the build found in the index and
	// repaired from the sources; empty when there was none.
	Repaired string `json:"repaired,omitempty"`
	// Snapshot reports on the generation's snapshot file; nil with
	// Options.NoSnapshot.
	Snapshot *db.SnapshotSummary `json:"snapshot,omitempty"`
}

// readSource reads a file to index; tests replace it to simulate failures
// that running as root cannot produce.
var readSource = ReadRepoFile

// Build indexes opts.Repo into opts.IndexDir and publishes the new
// generation. Only problems with the index itself or cancellation fail it;
// problems with single files are counted in Summary.Skipped.
func Build(ctx context.Context, opts Options) (Summary, error) {
	start := time.Now()
	root := realPath(opts.Repo)
	if st, err := os.Stat(root); err != nil {
		return Summary{}, fmt.Errorf("repository: %w", err)
	} else if !st.IsDir() {
		return Summary{}, fmt.Errorf("repository %s is not a directory", opts.Repo)
	}
	if opts.IndexDir == "" {
		opts.IndexDir = filepath.Join(root, ".graphcoder")
	}
	indexDir := realPath(opts.IndexDir)
	if opts.Workers <= 0 {
		opts.Workers = runtime.GOMAXPROCS(0)
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	progress := func(p Progress) {
		if opts.Progress != nil {
			p.Elapsed = time.Since(start)
			opts.Progress(p)
		}
	}

	if opts.Rebuild {
		if err := removeIndex(indexDir); err != nil {
			return Summary{}, err
		}
	}

	progress(Progress{Phase: "walk"})
	rules := NewRules(root, indexDir, opts.MaxFileSize)
	w, err := rules.Walk(ctx, root)
	if err != nil {
		return Summary{}, fmt.Errorf("walk %s: %w", root, err)
	}

	bo := db.BuildOptions{Tokenizer: opts.Tokenizer, Hops: opts.Hops,
		MaxStatements: opts.MaxStatements, Root: root, Verify: true}
	if !opts.NoSnapshot {
		bo.Snapshot = snapfile.Writer{}
	}
	d, b, repaired, err := openForBuild(ctx, indexDir, bo, opts.MinFree)
	if err != nil {
		return Summary{}, err
	}
	closed := false
	defer func() {
		if !closed {
			d.Close()
		}
	}()

	// The files go to the workers in path order, so that their records
	// reach the snapshot file (db.Builder.Plan) about in the order it is
	// written in, and few wait for their turn.
	slices.SortFunc(w.Files, func(a, b File) int { return strings.Compare(a.Rel, b.Rel) })
	var total int64
	paths := make([]string, len(w.Files))
	for i, f := range w.Files {
		total += f.Size
		paths[i] = f.Rel
	}
	if err := b.Plan(paths); err != nil {
		b.Abort()
		return Summary{}, err
	}
	var mu sync.Mutex // guards w.skipped, failures and the progress counters
	var failures []string
	p := Progress{Phase: "index", FilesTotal: len(w.Files), BytesTotal: total}
	progress(p)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.Workers)
	for _, f := range w.Files {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			reason, err := indexFile(gctx, b, root, f, opts.MaxFileSize)
			if reason != "" || err != nil {
				b.Skip(f.Rel)
			}
			mu.Lock()
			defer mu.Unlock()
			var fe *fileError
			if errors.As(err, &fe) {
				if len(failures) < maxFailures {
					failures = append(failures, fe.Error())
				}
				err = nil
			}
			if err != nil {
				return err
			}
			if reason != "" {
				w.Skipped[reason]++
			}
			p.FilesDone++
			p.BytesDone += f.Size
			progress(p)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		b.Abort()
		return Summary{}, err
	}
	if err := ctx.Err(); err != nil {
		b.Abort()
		return Summary{}, err
	}

	progress(Progress{Phase: "publish", FilesTotal: len(w.Files), FilesDone: len(w.Files), BytesTotal: total, BytesDone: total})
	ds, err := b.Finish(ctx)
	if err != nil {
		return Summary{}, err
	}
	var dense *db.EmbedSummary
	var denseErr error
	if opts.Embedder != nil {
		progress(Progress{Phase: "embed", FilesTotal: ds.Files})
		es, err := d.Embed(ctx, db.EmbedOptions{Embedder: opts.Embedder, Workers: min(opts.Workers, 2), Progress: func(done, total int) {
			progress(Progress{Phase: "embed", FilesTotal: total, FilesDone: done})
		}})
		dense, denseErr = &es, err
	}
	closed = true
	if err := d.Close(); err != nil {
		return Summary{}, err
	}
	if ds.Damaged > 0 && repaired == "" {
		repaired = fmt.Sprintf("%d damaged blobs written again", ds.Damaged)
	}
	sum := Summary{
		Repo: root, Index: indexDir, Seen: w.Seen, Files: ds.Files, Reused: ds.Reused,
		Parsed: ds.Parsed, Removed: ds.Removed, Skipped: w.Skipped, Failures: failures, Unsupported: w.Unsupported,
		SyntaxErrors: ds.SyntaxErrors, Lines: ds.Lines, Statements: ds.Statements,
		Entries: ds.Entries, Generation: ds.Generation, Published: ds.Published,
		Tokenizer: opts.Tokenizer, Repaired: repaired, Snapshot: ds.Snapshot,
	}
	if sum.Tokenizer == "" {
		sum.Tokenizer = "code"
	}
	sum.Dense = dense
	if sum.IndexBytes, err = diskUsage(indexDir); err != nil {
		return Summary{}, fmt.Errorf("index size: %w", err)
	}
	sum.Seconds = time.Since(start).Seconds()
	if denseErr != nil {
		return sum, fmt.Errorf("%w: %w", ErrDense, denseErr)
	}
	return sum, nil
}

// ErrDense wraps the failure of the embedding step of a build whose graph
// index was published: the index is usable without dense vectors (or
// with those stored before the failure), and the next build embeds only
// the files still without.
var ErrDense = errors.New("the graph index is published; dense vectors are incomplete")

// openForBuild opens the index for a full build and starts its builder.
// The stored index is only a cache of what the sources give, so damage is
// repaired here: an index the store cannot open, whose tables fail their
// checksums or whose published generation cannot be read is removed and
// built anew (repaired says why); damaged blobs of an intact index are
// left to the builder, which writes them again (db.BuildOptions.Verify).
func openForBuild(ctx context.Context, dir string, bo db.BuildOptions, minFree int64) (*db.DB, *db.Builder, string, error) {
	repaired := ""
	for attempt := 0; ; attempt++ {
		d, b, err := startBuild(ctx, dir, bo, minFree)
		if err == nil || !errors.Is(err, db.ErrCorrupt) || attempt > 0 {
			return d, b, repaired, err
		}
		repaired = fmt.Sprintf("the index was damaged (%v) and is rebuilt from the sources", err)
		if err := removeIndex(dir); err != nil {
			return nil, nil, "", err
		}
	}
}

func startBuild(ctx context.Context, dir string, bo db.BuildOptions, minFree int64) (*db.DB, *db.Builder, error) {
	d, err := db.Open(dir, db.OpenOptions{MinFree: minFree})
	if err != nil {
		return nil, nil, err
	}
	if err := d.Verify(ctx); err != nil {
		d.Close()
		return nil, nil, err
	}
	b, err := db.NewBuilder(d, bo)
	if err != nil {
		d.Close()
		return nil, nil, err
	}
	return d, b, nil
}

// indexFile reads and adds one file. It returns a skip reason for a file
// left out, or an error only for cancellation and index failures.
func indexFile(ctx context.Context, b *db.Builder, root string, f File, maxSize int64) (string, error) {
	content, err := readSource(root, f.Rel, maxSize)
	if err != nil {
		return skipReason(err), nil
	}
	if err := b.Add(ctx, f.Rel, content); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if errors.Is(err, db.ErrStorage) {
			return "", err
		}
		if errors.Is(err, ErrTooLarge) {
			return SkipTooLarge, nil // over the limits of what a file may hold
		}
		return SkipFailed, &fileError{err}
	}
	return "", nil
}

// maxFailures bounds Summary.Failures.
const maxFailures = 20

// fileError is a failure confined to one file.
type fileError struct{ err error }

func (e *fileError) Error() string { return e.err.Error() }

// removeIndex deletes an index folder, refusing folders that hold
// anything else.
func removeIndex(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	if len(entries) > 0 && !db.IsIndex(dir) {
		return fmt.Errorf("rebuild: refusing to remove %s: it holds files that are not an index's", dir)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("rebuild: %w", err)
	}
	return nil
}

// diskUsage is DiskUsage; a test makes it fail.
var diskUsage = DiskUsage

// DiskUsage returns the space the files under dir occupy on disk
// (allocated blocks, as du counts them, so sparse files count what they
// use).
func DiskUsage(dir string) (int64, error) {
	var n int64
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := e.Info()
		if err != nil {
			return err
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			n += st.Blocks * 512
		} else {
			n += fi.Size()
		}
		return nil
	})
	return n, err
}
