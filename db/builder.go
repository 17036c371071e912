package db

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dgraph-io/badger/v4"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/slice"
	"github.com/graphcoder/graphcoder/token"
)

// BuildOptions configure a Builder.
type BuildOptions struct {
	// Tokenizer names the tokenizer (token.ByName); "" is the default.
	Tokenizer string
	// Hops and MaxStatements are h and l of the slicing algorithm; zero
	// means the defaults (5 and 20).
	Hops, MaxStatements int
	// Root is the repository root, recorded in the generation metadata.
	Root string
	// Incremental starts the new generation from the published one: its
	// files stay unless Add replaces or Remove drops them, so a build of a
	// few changed paths neither walks nor hashes the rest of the
	// repository. The published generation must have the same tokenizer,
	// h, l and analysis; with nothing published it is an ordinary build.
	Incremental bool
	// Verify checks the checksum of every blob of the published
	// generation before the build reuses it: a damaged or missing blob is
	// not reused, and its file is parsed and written again (counted in
	// Summary.Damaged). A full build sets it; the live path does not.
	Verify bool
	// Snapshot, when set, gives the generation a snapshot file before it
	// is published (see SnapshotWriter): a full build writes a new one;
	// an incremental build writes one only when the newest is unusable or
	// more than SnapshotLag files behind (0: DefaultSnapshotLag), and
	// none when the index has none; a full build that changes nothing
	// writes one when the newest is missing, damaged (every checksum is
	// checked) or behind at all.
	Snapshot    SnapshotWriter
	SnapshotLag int
}

// Summary reports what a build did.
type Summary struct {
	// Generation is the published generation (the previous one when
	// nothing changed and Published is false).
	Generation uint64 `json:"generation"`
	Published  bool   `json:"published"`
	Files      int    `json:"files"`
	Reused     int    `json:"reused"`
	Parsed     int    `json:"parsed"`
	Removed    int    `json:"removed"`
	// SyntaxErrors counts parsed files with recovered syntax errors.
	SyntaxErrors   int `json:"syntax_errors"`
	Lines          int `json:"lines"`
	Statements     int `json:"statements"`
	Entries        int `json:"entries"`
	NewBlobs       int `json:"new_blobs"`
	CollectedBlobs int `json:"collected_blobs"`
	// Damaged counts blobs of the previous generation that failed their
	// checksum or were missing (Verify) and were written again.
	Damaged int `json:"damaged"`
	// Snapshot reports on the snapshot file; nil without a
	// BuildOptions.Snapshot.
	Snapshot *SnapshotSummary `json:"snapshot,omitempty"`
}

// Builder adds files to a new generation and publishes it. Add is safe for
// concurrent use; Finish or Abort must be called exactly once.
type Builder struct {
	db    *DB
	opts  BuildOptions
	tok   token.Tokenizer
	slice slice.Options

	// analyze turns a source file into its graph and slices; tests
	// replace it.
	analyze analyzeFunc

	prevGen   uint64
	havePrev  bool
	prevFiles []FileInfo
	// known maps the key of every blob present at start (or written by
	// this build) to its manifest info, when known.
	mu    sync.Mutex
	known map[string]*FileInfo
	files map[string]FileInfo
	wb    *badger.WriteBatch
	done  bool
	// dirty is set once meta/dirty is stored (before the first blob).
	dirty bool
	// startedDirty records that the mark was already set at start (an
	// interrupted build left blobs nobody knows); written lists the keys
	// of the blobs this build wrote. A build that started clean collects
	// from its previous generation's blobs and its own, without a scan.
	startedDirty bool
	written      [][]byte
	summary      Summary
	// feed gives the snapshot file the build's records (see Plan).
	feed *feed
	// pending counts the bytes set in wb since it was started; at
	// maxPending, wb is flushed in the background (flushes) and a new
	// one started, so that the blobs become readable (a record reused
	// within the build is read back) and the batch holds little memory.
	pending  int
	flushes  sync.WaitGroup
	flushErr error
}

// maxPending bounds the blob bytes a write batch gathers before it is
// flushed: a batch commits by itself only after tens of thousands of
// entries once the blobs are in the value log.
const maxPending = 8 << 20

// rotateBatch flushes the write batch in the background and starts a new
// one; b.mu is held.
func (b *Builder) rotateBatch() {
	old := b.wb
	b.wb, b.pending = b.db.bdb.NewWriteBatch(), 0
	b.flushes.Add(1)
	go func() {
		defer b.flushes.Done()
		if err := guard(old.Flush); err != nil {
			b.mu.Lock()
			if b.flushErr == nil {
				b.flushErr = err
			}
			b.mu.Unlock()
		}
	}()
}

// waitFlushes waits for the background flushes and returns the first
// error.
func (b *Builder) waitFlushes() error {
	b.flushes.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.flushErr
}

// testHookBeforePublish, when set, runs after the blobs and the manifest
// are written and before the generation is switched; an error aborts.
var testHookBeforePublish func() error

// NewBuilder starts a build on d.
func NewBuilder(d *DB, opts BuildOptions) (*Builder, error) {
	if d.readOnly {
		return nil, fmt.Errorf("build index %s: opened read-only", d.dir)
	}
	if err := d.CheckSpace(); err != nil {
		return nil, fmt.Errorf("build index: %w", err)
	}
	if opts.Hops <= 0 {
		opts.Hops = slice.DefaultOptions().Hops
	}
	if opts.MaxStatements <= 0 {
		opts.MaxStatements = slice.DefaultOptions().MaxStatements
	}
	if opts.MaxStatements > 1<<16 {
		return nil, fmt.Errorf("build index: max statements %d is too large", opts.MaxStatements)
	}
	tok, err := token.ByName(opts.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("build index: %w", err)
	}
	opts.Tokenizer = tok.Name()
	if !d.startBuild() {
		return nil, fmt.Errorf("build index %s: another build is in progress", d.dir)
	}

	b := &Builder{
		db: d, opts: opts, tok: tok,
		slice:   slice.Options{Hops: opts.Hops, MaxStatements: opts.MaxStatements},
		known:   make(map[string]*FileInfo),
		files:   make(map[string]FileInfo),
		analyze: analyzeSource,
	}
	err = d.view(func(txn *badger.Txn) error {
		gen, ok, err := currentGen(txn)
		if err != nil {
			return err
		}
		if ok {
			meta, files, err := readGen(txn, gen)
			if err != nil {
				return err
			}
			b.prevGen, b.havePrev, b.prevFiles = gen, true, files
			for i := range files {
				key := meta.blobKey(&files[i])
				if opts.Verify && !intactBlob(txn, key) {
					b.summary.Damaged++
					continue // not reused: parsed and written again
				}
				b.known[string(key)] = &files[i]
			}
			if opts.Incremental {
				if meta.Tokenizer != opts.Tokenizer || meta.Hops != opts.Hops ||
					meta.MaxStatements != opts.MaxStatements || meta.Analysis != analysisVersion {
					return fmt.Errorf("%w: the published generation was built with other parameters or analysis", ErrNotIncremental)
				}
				if b.opts.Root == "" {
					b.opts.Root = meta.Root
				}
				for i := range files {
					b.files[files[i].Path] = files[i]
				}
			}
		}
		// A build that wrote blobs and did not finish collecting left the
		// dirty mark: its blobs are reusable, and unreferenced ones must
		// be found by a full scan. Otherwise the stored blobs are exactly
		// the current manifest's, and no scan is needed.
		if _, err := txn.Get(keyDirty); err == nil {
			b.dirty, b.startedDirty = true, true
			it := txn.NewIterator(badger.IteratorOptions{Prefix: prefixBlob})
			defer it.Close()
			for it.Rewind(); it.Valid(); it.Next() {
				k := string(it.Item().Key())
				if _, ok := b.known[k]; !ok {
					b.known[k] = nil
				}
			}
		} else if !errors.Is(err, badger.ErrKeyNotFound) {
			return err
		}
		return nil
	})
	if err != nil {
		b.release()
		return nil, fmt.Errorf("build index %s: %w", d.dir, storageError(err))
	}
	b.wb = d.bdb.NewWriteBatch()
	return b, nil
}

// intactBlob reports whether the blob under key is present and passes its
// checksum.
func intactBlob(txn *badger.Txn, key []byte) bool {
	it, err := txn.Get(key)
	if err != nil {
		return false
	}
	return blobValue(it, checkBlob) == nil
}

func (b *Builder) release() { b.db.endBuild() }

// startBuild takes the build lock of d (one Builder or Embed at a time),
// reporting whether it was free.
func (d *DB) startBuild() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.building {
		return false
	}
	d.building = true
	return true
}

func (d *DB) endBuild() {
	d.mu.Lock()
	d.building = false
	d.mu.Unlock()
}

// Add indexes the file at path (relative to the root, '/'-separated) with
// the given content. A file whose content, language and parameters match
// a stored blob is not parsed again. Files with syntax errors are indexed
// (the front ends recover). The language comes from the path's extension.
func (b *Builder) Add(ctx context.Context, path string, content []byte) error {
	l := lang.ForPath(path)
	if l == nil {
		return fmt.Errorf("add %s: %w", path, ErrNoLanguage)
	}
	return b.add(ctx, l.Name, path, content, func() (*analysis, error) {
		return b.analyze(ctx, b, l, path, content)
	})
}

// Remove drops path from the new generation (an incremental build's
// deleted file); a path not in it is ignored.
func (b *Builder) Remove(path string) {
	b.mu.Lock()
	delete(b.files, path)
	b.mu.Unlock()
}

var (
	// ErrNotIncremental is returned by NewBuilder when an incremental
	// build cannot start from the published generation; a full build
	// is needed.
	ErrNotIncremental = errors.New("incremental build impossible")
	// ErrNoLanguage is returned by Add for a file no front end handles.
	ErrNoLanguage = errors.New("no registered language for this file")
	// ErrStorage is wrapped by Add errors that concern the index itself
	// rather than the file: the build cannot go on.
	ErrStorage = errors.New("index storage failure")
)

func (b *Builder) add(ctx context.Context, language, path string, content []byte, analyze func() (*analysis, error)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	info := FileInfo{Path: path, Hash: sha256.Sum256(content), Language: language}
	key := blobKey(info.Hash, blobTag(language, b.opts.Tokenizer, b.opts.Hops, b.opts.MaxStatements, analysisVersion))

	b.mu.Lock()
	if b.done {
		b.mu.Unlock()
		return errors.New("add: build already finished")
	}
	prev, ok := b.known[string(key)]
	b.mu.Unlock()
	if ok && prev == nil {
		// A blob with no manifest info (left by an interrupted build):
		// read its counts; a damaged one is simply written again.
		if p, err := b.blobInfo(key); err == nil {
			prev = p
		} else {
			ok = false
		}
	}
	if ok {
		info.Lines, info.Statements, info.BlobBytes = prev.Lines, prev.Statements, prev.BlobBytes
		b.mu.Lock()
		b.files[path] = info
		b.summary.Reused++
		b.mu.Unlock()
		b.settle(path, &feedItem{info: info, key: key})
		return nil
	}

	a, err := analyze()
	if err != nil {
		return fmt.Errorf("add %s: %w", path, err)
	}
	info.Lines, info.Statements = len(a.graph.Lines), len(a.graph.Nodes)
	blob := b.encode(a)
	info.BlobBytes = len(blob)
	syntaxErrors := a.syntaxErrors
	a = nil // the graph is garbage once encoded

	// Compressed here, in the caller's goroutine: the builds' workers
	// compress in parallel.
	if err := b.store(path, key, info, storedBlob(key, blob), syntaxErrors); err != nil {
		return err
	}
	b.settle(path, &feedItem{info: info, blob: blob})
	return nil
}

// store writes the blob of a parsed file, unless the store has it.
func (b *Builder) store(path string, key []byte, info FileInfo, stored *badger.Entry, syntaxErrors int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return errors.New("add: build already finished")
	}
	if k, ok := b.known[string(key)]; !ok || k == nil {
		// Every new blob first makes sure the store has room to write it:
		// on a full disk a memory-mapped write is a fatal signal.
		if err := b.db.CheckSpace(); err != nil {
			return fmt.Errorf("add %s: %w: %w", path, ErrStorage, err)
		}
		if !b.dirty {
			if err := guard(func() error {
				return b.db.bdb.Update(func(txn *badger.Txn) error { return txn.Set(keyDirty, []byte{1}) })
			}); err != nil {
				return fmt.Errorf("add %s: %w: %w", path, ErrStorage, storageError(err))
			}
			b.dirty = true
		}
		if err := guard(func() error { return b.wb.SetEntry(stored) }); err != nil {
			return fmt.Errorf("add %s: %w: %w", path, ErrStorage, storageError(err))
		}
		if b.pending += len(stored.Value); b.pending >= maxPending {
			b.rotateBatch()
		}
		b.written = append(b.written, key)
		b.summary.NewBlobs++
	}
	kept := info
	b.known[string(key)] = &kept
	b.files[path] = info
	b.summary.Parsed++
	if syntaxErrors > 0 {
		b.summary.SyntaxErrors++
	}
	return nil
}

// blobInfo decodes a stored blob to learn its counts.
func (b *Builder) blobInfo(key []byte) (*FileInfo, error) {
	var info *FileInfo
	err := b.db.view(func(txn *badger.Txn) error {
		it, err := txn.Get(key)
		if err != nil {
			return err
		}
		return blobValue(it, func(v []byte) error {
			rec, err := decodeBlob(v)
			if err != nil {
				return err
			}
			info = &FileInfo{Lines: len(rec.Lines), Statements: len(rec.Stmts), BlobBytes: len(v)}
			return nil
		})
	})
	return info, err
}

// graphStmts are a graph's statements with their token lists, as the
// head writes them: the tokens of statement i are tokens[span[i].from:
// span[i].to], sorted and distinct. It holds 8 bytes a statement beside the
// tokens, where a StmtRecord takes 88.
type graphStmts struct {
	g      *ccg.Graph
	tokens []uint32
	span   []tokenSpan
}

type tokenSpan struct{ from, to uint32 }

func (s *graphStmts) len() int { return len(s.g.Nodes) }

func (s *graphStmts) stmt(i int) (lang.Kind, int, int, []uint32) {
	n := &s.g.Nodes[i]
	sp := s.span[i]
	return n.Kind, n.StartRow, n.EndRow, s.tokens[sp.from:sp.to:sp.to]
}

func (s *graphStmts) defs(i int) []string   { return s.g.Defs(int32(i)) }
func (s *graphStmts) params(i int) []string { return s.g.Params(int32(i)) }

// tokenize returns the statements of g with their token sets over a
// file-local vocabulary, and the vocabulary (encode writes them).
func (b *Builder) tokenize(g *ccg.Graph) (*graphStmts, []string) {
	ids := make(map[string]uint32)
	out := &graphStmts{g: g, span: make([]tokenSpan, len(g.Nodes))}
	var toks []string
	var buf []uint32
	all := make([]uint32, 0, 8*len(g.Nodes))
	// Statements sharing rows (several on one line) have the same text:
	// it is split once, and their token lists share storage, so a file of
	// many statements per line costs no more than one of short lines.
	type rows struct{ start, end int }
	var prev rows
	var prevSpan tokenSpan
	havePrev := false
	for v := range g.Nodes {
		n := &g.Nodes[v]
		r := rows{n.StartRow, n.EndRow}
		if havePrev && r == prev && !n.Dummy {
			out.span[v] = prevSpan
			continue
		}
		toks = b.tok.Split(toks[:0], g.Text(int32(v)))
		buf = buf[:0]
		for _, t := range toks {
			id, ok := ids[t]
			if !ok {
				id = uint32(len(ids))
				ids[strings.Clone(t)] = id
			}
			buf = append(buf, id)
		}
		slices.Sort(buf)
		buf = slices.Compact(buf)
		start := len(all)
		all = append(all, buf...)
		out.span[v] = tokenSpan{uint32(start), uint32(len(all))}
		prev, prevSpan, havePrev = r, out.span[v], !n.Dummy
	}
	out.tokens = all
	// The vocabulary is made once its size is known: grown by append, a
	// large one would allocate several times its size on the way.
	vocab := byID(ids)
	return out, vocab
}

// Finish writes the manifest of the new generation, publishes it and
// collects what no longer belongs to it. When every file is unchanged and
// none was removed, nothing is written and the current generation stays.
func (b *Builder) Finish(ctx context.Context) (Summary, error) {
	b.mu.Lock()
	if b.done {
		b.mu.Unlock()
		return Summary{}, errors.New("finish: build already finished")
	}
	b.done = true
	b.mu.Unlock()
	defer b.release()

	err := b.waitFlushes()
	if err == nil {
		err = guard(b.wb.Flush)
	}
	if err != nil {
		return Summary{}, fmt.Errorf("write index %s: %w", b.db.dir, storageError(err))
	}
	files := make([]FileInfo, 0, len(b.files))
	for _, f := range b.files {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	s := b.summary
	s.Files = len(files)
	for i := range files {
		s.Lines += files[i].Lines
		s.Statements += files[i].Statements
	}
	s.Entries = s.Statements
	newPaths := make(map[string]bool, len(files))
	for i := range files {
		newPaths[files[i].Path] = true
	}
	for i := range b.prevFiles {
		if !newPaths[b.prevFiles[i].Path] {
			s.Removed++
		}
	}
	if err := ctx.Err(); err != nil {
		return Summary{}, err
	}

	meta := GenMeta{
		Tokenizer: b.opts.Tokenizer, Hops: b.opts.Hops, MaxStatements: b.opts.MaxStatements,
		Analysis: analysisVersion, Root: b.opts.Root, Created: time.Now().UTC().Truncate(time.Second),
		Files: len(files), Lines: s.Lines, Statements: s.Statements, Entries: s.Entries,
	}
	same, err := b.sameAsPrevious(files, &meta)
	if err != nil {
		return Summary{}, fmt.Errorf("read index %s: %w", b.db.dir, storageError(err))
	}
	if same && s.Damaged == 0 {
		s.Generation = b.prevGen
		ss, err := b.snapshot(ctx, b.prevGen, false, true)
		if err != nil {
			return Summary{}, err
		}
		if s.Snapshot = ss; ss != nil && ss.Written {
			if err := b.db.collectSnapshots(b.prevGen); err != nil {
				return s, fmt.Errorf("collect index %s: %w", b.db.dir, storageError(err))
			}
		}
		return s, nil
	}
	// Read what collection will need before anything is published.
	prevKeys, err := b.prevKeys()
	if err != nil {
		return Summary{}, fmt.Errorf("read index %s: %w", b.db.dir, storageError(err))
	}
	if err := b.db.CheckSpace(); err != nil {
		return Summary{}, fmt.Errorf("write index: %w", err)
	}
	gen, err := b.nextGen()
	if err != nil {
		return Summary{}, fmt.Errorf("write index %s: %w", b.db.dir, storageError(err))
	}
	meta.Generation = gen
	if err := guard(func() error { return b.writeManifest(&meta, files) }); err != nil {
		return Summary{}, fmt.Errorf("write index %s: %w", b.db.dir, storageError(err))
	}
	if s.Snapshot, err = b.snapshot(ctx, gen, !b.opts.Incremental, false); err != nil {
		return Summary{}, err
	}
	if testHookBeforePublish != nil {
		if err := testHookBeforePublish(); err != nil {
			return Summary{}, err
		}
	}
	if err := guard(b.db.bdb.Sync); err != nil {
		return Summary{}, fmt.Errorf("write index %s: %w", b.db.dir, storageError(err))
	}
	// The switch: one transaction, one key.
	err = guard(func() error {
		return b.db.bdb.Update(func(txn *badger.Txn) error {
			return txn.Set(keyCurrent, binary.BigEndian.AppendUint64(nil, gen))
		})
	})
	if err != nil {
		return Summary{}, fmt.Errorf("publish index %s: %w", b.db.dir, storageError(err))
	}
	if err := guard(b.db.bdb.Sync); err != nil {
		return Summary{}, fmt.Errorf("publish index %s: %w", b.db.dir, storageError(err))
	}
	s.Generation, s.Published = gen, true
	n, err := b.db.collect(gen, &meta, files, append(prevKeys, b.written...), b.startedDirty)
	s.CollectedBlobs = n
	if err == nil {
		err = b.db.collectSnapshots(gen)
	}
	if err != nil {
		return s, fmt.Errorf("collect index %s: %w", b.db.dir, storageError(err))
	}
	return s, nil
}

// sameAsPrevious reports whether files and meta describe exactly the
// current generation.
func (b *Builder) sameAsPrevious(files []FileInfo, meta *GenMeta) (bool, error) {
	if !b.havePrev || len(files) != len(b.prevFiles) {
		return false, nil
	}
	var prev *GenMeta
	err := b.db.view(func(txn *badger.Txn) error {
		m, _, err := readGen(txn, b.prevGen)
		prev = m
		return err
	})
	if err != nil {
		return false, err
	}
	if prev.Tokenizer != meta.Tokenizer || prev.Hops != meta.Hops ||
		prev.MaxStatements != meta.MaxStatements || prev.Root != meta.Root || prev.Analysis != meta.Analysis {
		return false, nil
	}
	for i := range files {
		if files[i] != b.prevFiles[i] {
			return false, nil
		}
	}
	return true, nil
}

// nextGen returns one more than any generation present, published or not.
func (b *Builder) nextGen() (uint64, error) {
	next := b.prevGen + 1
	err := b.db.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefixGen})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if g, ok := parseGen(it.Item().Key()); ok && g >= next {
				next = g + 1
			}
		}
		return nil
	})
	return next, err
}

// maxChunk bounds the size of one manifest chunk.
const maxChunk = 1 << 20

func (b *Builder) writeManifest(meta *GenMeta, files []FileInfo) error {
	wb := b.db.bdb.NewWriteBatch()
	defer wb.Cancel()
	var chunk []byte
	n := 0
	flush := func() error {
		if err := wb.Set(chunkKey(meta.Generation, n), chunk); err != nil {
			return err
		}
		n++
		chunk = nil
		return nil
	}
	for i := range files {
		chunk = appendManifest(chunk, &files[i])
		if len(chunk) >= maxChunk {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if len(chunk) > 0 {
		if err := flush(); err != nil {
			return err
		}
	}
	meta.Chunks = n
	js, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	if err := wb.Set(genMetaKey(meta.Generation), js); err != nil {
		return err
	}
	return wb.Flush()
}

// prevKeys returns the blob keys of the generation the build started from.
// An error must stop the build: without these keys, collection would keep
// the previous generation's blobs forever.
func (b *Builder) prevKeys() ([][]byte, error) {
	if !b.havePrev {
		return nil, nil
	}
	var meta *GenMeta
	err := b.db.view(func(txn *badger.Txn) error {
		m, _, err := readGen(txn, b.prevGen)
		meta = m
		return err
	})
	if err != nil {
		return nil, err
	}
	keys := make([][]byte, len(b.prevFiles))
	for i := range b.prevFiles {
		keys[i] = meta.blobKey(&b.prevFiles[i])
	}
	return keys, nil
}

// collect deletes every generation but gen and every blob gen does not
// reference, then reclaims value-log space and clears the dirty mark. With
// dirty unset (the build started clean), the only candidates are prevKeys
// (the blobs of the previous generation and those the build wrote);
// otherwise all blobs are scanned. It returns the number of
// blobs deleted.
func (d *DB) collect(gen uint64, meta *GenMeta, files []FileInfo, prevKeys [][]byte, dirty bool) (int, error) {
	keep := make(map[string]bool, len(files))
	for i := range files {
		keep[string(meta.blobKey(&files[i]))] = true
	}
	var dead [][]byte
	blobs := 0
	err := d.view(func(txn *badger.Txn) error {
		it := txn.NewIterator(badger.IteratorOptions{Prefix: prefixGen})
		for it.Rewind(); it.Valid(); it.Next() {
			if g, ok := parseGen(it.Item().Key()); !ok || g != gen {
				dead = append(dead, it.Item().KeyCopy(nil))
			}
		}
		it.Close()
		// The vectors of every blob the generation does not keep.
		it = txn.NewIterator(badger.IteratorOptions{Prefix: prefixVectors, PrefetchValues: false})
		for it.Rewind(); it.Valid(); it.Next() {
			if bk, ok := blobKeyOfVector(it.Item().Key()); !ok || !keep[string(bk)] {
				dead = append(dead, it.Item().KeyCopy(nil))
			}
		}
		it.Close()
		if !dirty {
			for _, k := range prevKeys {
				if !keep[string(k)] {
					keep[string(k)] = true // once
					dead = append(dead, k)
					blobs++
				}
			}
			return nil
		}
		it = txn.NewIterator(badger.IteratorOptions{Prefix: prefixBlob})
		defer it.Close()
		for it.Rewind(); it.Valid(); it.Next() {
			if !keep[string(it.Item().Key())] {
				dead = append(dead, it.Item().KeyCopy(nil))
				blobs++
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	err = guard(func() error {
		wb := d.bdb.NewWriteBatch()
		defer wb.Cancel()
		for _, k := range dead {
			if err := wb.Delete(k); err != nil {
				return err
			}
		}
		if err := wb.Delete(keyDirty); err != nil {
			return err
		}
		if err := wb.Flush(); err != nil {
			return err
		}
		for len(dead) > 0 && d.bdb.RunValueLogGC(0.5) == nil {
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return blobs, nil
}

// Abort abandons the build: the published generation stays as it was.
// Blobs already written are collected by the next successful build.
func (b *Builder) Abort() {
	b.mu.Lock()
	if b.done {
		b.mu.Unlock()
		return
	}
	b.done = true
	b.mu.Unlock()
	b.flushes.Wait()
	b.wb.Cancel()
	b.release()
}
