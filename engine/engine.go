package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/defctx"
	"github.com/graphcoder/graphcoder/embed"
	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/lang"
	_ "github.com/graphcoder/graphcoder/lang/golang"     // registers Go
	_ "github.com/graphcoder/graphcoder/lang/java"       // registers Java
	_ "github.com/graphcoder/graphcoder/lang/javascript" // registers JavaScript
	_ "github.com/graphcoder/graphcoder/lang/python"     // registers Python
	_ "github.com/graphcoder/graphcoder/lang/typescript" // registers TypeScript
	"github.com/graphcoder/graphcoder/prompt"
	"github.com/graphcoder/graphcoder/retrieve"
	"github.com/graphcoder/graphcoder/slice"
	"github.com/graphcoder/graphcoder/snapfile"
	"github.com/graphcoder/graphcoder/symtab"
	"github.com/graphcoder/graphcoder/token"
)

// DefaultMode is the retrieval mode of a request that names none, by
// language: mode hybrid where it retrieved better than coarse2fine on both
// hit@10 and novel-identifier recall, at line and API level, in the
// evaluation of docs/EVAL.md (Java); coarse2fine elsewhere (Python, Go,
// TypeScript and JavaScript, where hybrid loses one of the two somewhere).
func DefaultMode(language string) retrieve.Mode {
	if language == "java" {
		return retrieve.Hybrid
	}
	return retrieve.CoarseToFine
}

// DefaultContextPool is the default of Options.ContextPool.
const DefaultContextPool = 50

// Errors of bad requests; test them with errors.Is, or all at once with
// IsBadRequest. The file errors are the indexer's: a request is held to the
// rules of the build.
var (
	ErrOutsideRepo = indexer.ErrOutsideRepo
	ErrLine        = errors.New("line out of range")
	ErrBinary      = indexer.ErrBinary
	ErrNotUTF8     = indexer.ErrNotUTF8
	ErrTooLarge    = indexer.ErrTooLarge
	ErrNotRegular  = indexer.ErrNotRegular
	ErrLanguage    = errors.New("unsupported language")
	// ErrNoSource reports a request with neither a file nor a buffer.
	ErrNoSource = errors.New("no file path and no source text")
)

// IsBadRequest reports whether err is one of the errors of a request that
// can never succeed as asked (the file or the line, not the index).
func IsBadRequest(err error) bool {
	for _, bad := range []error{ErrOutsideRepo, ErrLine, ErrBinary, ErrNotUTF8, ErrTooLarge, ErrNotRegular, ErrLanguage, ErrNoSource, os.ErrNotExist} {
		if errors.Is(err, bad) {
			return true
		}
	}
	return false
}

// Options configure an Engine. Zero values select the defaults.
type Options struct {
	// Prompt sets the budget, layout and packing policy of the context
	// handed to a model (see package prompt); the comment prefix and the
	// tokenizer are the language's and the index's.
	Prompt prompt.Options
	// Root overrides the repository root recorded in the index (for a
	// repository that moved since it was indexed).
	Root string
	// ContextPool is the number of candidates retrieved for the context
	// handed to a model (default DefaultContextPool): the top k of a
	// request, then the next ones, for the assembler to pack what the
	// top k leave room for. The top k are the same whatever the pool
	// (unless the time budget ends the fine stage early).
	ContextPool int
	// FoldAfter is the number of files changed since the last full load
	// past which Update folds them into a new base index in the
	// background (default 32).
	FoldAfter int
	// MaxFileSize bounds the source a request may complete in, as the
	// build bounds the files it indexes (default
	// indexer.DefaultMaxFileSize); a larger one is ErrTooLarge.
	MaxFileSize int64
	// Embedder, when set, loads the dense vectors the index holds for its
	// model and embeds each query of mode hybrid for the dense ranker
	// (spec section 9). Without it, or when the index holds no vectors for
	// the model, mode hybrid fuses Jaccard and BM25.
	Embedder embed.Embedder
	// Vote is the number of best candidates whose aligned statements vote
	// for the model-free prediction when a request does not say (0 or 1:
	// the first candidate's alone; see retrieve.Snapshot.Vote).
	Vote int
	// BM25 holds k1, b and the query term cap of the BM25 ranker of modes bm25 and hybrid
	// (k1 and b zero: retrieve.DefaultBM25's).
	BM25 retrieve.BM25Params
	// Definitions tunes the definition context (package defctx): the
	// repository definitions of the APIs the code at the cursor reads or
	// probably calls, offered to the assembler as blocks of source
	// prompt.Definition. NoDefinitions leaves it out.
	Definitions   defctx.Options
	NoDefinitions bool
	// NoSnapshot loads the index from the blobs even when it has a
	// snapshot file (package snapfile); VerifySnapshot checks every
	// checksum of the snapshot file before mapping it (it reads the
	// whole file once, which a long-running server can afford and a
	// one-shot command need not: without it, only the file's structure
	// is checked, and a search that meets damage fails over to the
	// blobs).
	NoSnapshot, VerifySnapshot bool
	// KeepMapped leaves the pages of the snapshot file a request read
	// mapped after it. By default they are taken out of the process's
	// resident memory (snapfile.Image.Release; the page cache keeps them,
	// so the next request maps them again in a fraction of a
	// millisecond) when a request ends with the process's resident set
	// over ResidentBudget, and once the engine has been idle for
	// ReleaseEvery: a server of a large index would otherwise end up with
	// most of the file resident, since the kernel maps pages in blocks of
	// hundreds of kilobytes (release.go).
	KeepMapped bool
	// ReleaseEvery is how long the engine must have been idle before it
	// releases the mapped pages (and, where the resident set cannot be
	// read, the least time between two releases): 0 means
	// DefaultReleaseEvery, a negative value releases all of the file after
	// every request (the least resident memory, for the page faults of
	// mapping it again each time: a one-shot command's choice).
	ReleaseEvery time.Duration
	// ResidentBudget is the resident set (bytes) above which a request
	// that ends releases the mapped pages: 0 means DefaultResidentBudget,
	// a negative value never releases for size (only when idle).
	ResidentBudget int64
	// ImportBoost re-ranks retrieved candidates by the import graph: a
	// candidate's ranking score is multiplied by 1 + ImportBoost x its
	// file's relation to the file being completed (symtab.Relations: 1
	// when one imports the other, else the share of imports they have in
	// common). 0 means DefaultImportBoost, a negative value turns it off.
	ImportBoost float64
	// WholePrefixParse parses every line before the cursor for the query,
	// as before the bounded query parse (bounded.go), which blanks the
	// bodies the query slice cannot reach; tests and measurements compare
	// the two.
	WholePrefixParse bool
	// NoQueryRecovery parses the query from the lines before the cursor
	// as they are even when they make one syntax error around the cursor
	// (recover.go), as before the recovered parse; for tests and
	// measurements.
	NoQueryRecovery bool
}

// DefaultImportBoost is the default of Options.ImportBoost, chosen by
// measurement (docs/EVAL.md).
const DefaultImportBoost = -1

// Engine answers completion requests from one index. It is safe for
// concurrent use.
type Engine struct {
	d      *db.DB
	ownsDB bool
	opts   Options
	cur    atomic.Pointer[state]
	reload sync.Mutex

	// Guarded by reload: a background fold is running, and the paths
	// updated since it started.
	folding   bool
	sinceFold map[string]bool
	folds     sync.WaitGroup

	// badImages are the snapshot files a search found damaged, with why:
	// the engine loads from the blobs instead until a build replaces them.
	badMu     sync.Mutex
	badImages map[string]string

	// running counts the requests being answered; the rest is the state
	// of the release of the snapshot file's mapped pages (release.go).
	running atomic.Int32
	mapped  releaseState
}

// state is one loaded snapshot: a base index loaded in full and a delta
// of the files changed since.
type state struct {
	ix      *retrieve.Snapshot
	base    *retrieve.Index
	changed []string // sorted paths changed since base was loaded
	meta    db.Meta
	tok     token.Tokenizer
	root    string
	load    time.Duration
	dense   denseLoad // of the base
	// damaged are the files whose stored record is damaged: left out
	// until a build writes them again (sorted).
	damaged []string
	// The outlines of the files (package symtab): the base's, and with the
	// changed files on top.
	symBase, syms *symtab.View
	rootName      string
	repo          *symtab.Repo // rootName's module configuration
	sources       *sourceCache
	buffers       *bufferCache // what the last requests parsed
	// image is the snapshot file the base is mapped from ("" when it was
	// loaded from the blobs: imageError says why), written for
	// generation imageGen, of imageBytes bytes; baseLag is the number of
	// files it did not hold as the generation loaded with it has them
	// (those are in the delta from the start).
	image      string
	mapped     *snapfile.Image
	imageGen   uint64
	imageBytes int64
	imageError string
	baseLag    int
}

// Open opens the index in dir read-only and loads it.
func Open(dir string, o Options) (*Engine, error) {
	d, err := db.Open(dir, db.OpenOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	e, err := New(d, o)
	if err != nil {
		d.Close()
		return nil, err
	}
	e.ownsDB = true
	return e, nil
}

// New loads the current snapshot of an already open index. The engine does
// not close d.
func New(d *db.DB, o Options) (*Engine, error) {
	if err := o.Prompt.Validate(); err != nil {
		return nil, err
	}
	if err := o.BM25.WithDefaults().Validate(); err != nil {
		return nil, err
	}
	e := &Engine{d: d, opts: o}
	if err := e.Reload(); err != nil {
		return nil, err
	}
	return e, nil
}

// Close releases the index if Open opened it, after any background fold
// and release of mapped pages.
func (e *Engine) Close() error {
	e.folds.Wait()
	e.mapped.running.Wait()
	if e.ownsDB {
		return e.d.Close()
	}
	return nil
}

// Reload builds an index from the current snapshot and swaps it in
// atomically. Requests already running finish on the previous one.
func (e *Engine) Reload() error {
	e.reload.Lock()
	defer e.reload.Unlock()
	if e.folding {
		// The running fold started from an older generation: have it
		// refresh everything once it lands.
		e.sinceFold = nil
	}
	st, err := e.loadBase()
	if err != nil {
		return err
	}
	e.cur.Store(st)
	return nil
}

// loadBase reads the database's current generation into a new base
// index: the snapshot file's, mapped, when there is a usable one (the
// files changed since it was written go into a delta, from the blobs),
// else every blob decoded into memory.
func (e *Engine) loadBase() (*state, error) {
	t0 := time.Now()
	snap, err := e.d.Snapshot()
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	meta := snap.Meta()
	tok, err := token.ByName(meta.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("load index %s: %w", e.d.Dir(), err)
	}
	root := meta.Root
	if e.opts.Root != "" {
		root = e.opts.Root
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	rootName := filepath.Base(root)
	st := &state{meta: meta, tok: tok, root: root, rootName: rootName, repo: symtab.NewRepo(root), sources: &sourceCache{}, buffers: &bufferCache{}}
	var changed []string
	if im, why := e.openImage(snap); im != nil {
		st.base, st.image, st.imageGen, st.imageBytes = im.Index, im.Path(), im.Generation, im.Size()
		st.mapped = im
		if !e.opts.KeepMapped {
			// What opening read (the file lists, the checks of the
			// symbol table's ids) is not what requests read.
			e.releaseNow(st, time.Now().UnixNano(), true)
		}
		st.symBase = symtab.NewView(im.Symbols)
		changed = im.Changed(snap.Files())
	} else {
		st.imageError = why
		var dense denseLoad
		o := snapfile.Options{}
		if e.opts.Embedder != nil {
			o.Vectors = func(s *db.Snapshot, r *db.FileRecord) []embed.Vector { return e.vectors(s, r, &dense) }
		}
		l, err := snapfile.Load(context.Background(), snap, o)
		if err != nil {
			return nil, fmt.Errorf("load index %s: %w", e.d.Dir(), err)
		}
		st.base, st.damaged, st.dense = l.Index, l.Damaged, dense
		st.symBase = symtab.NewView(l.Symbols)
	}
	st.syms = st.symBase
	if st.ix, err = retrieve.NewSnapshot(st.base, nil, nil); err != nil {
		return nil, err
	}
	if len(changed) > 0 {
		set := make(map[string]bool, len(changed))
		for _, p := range changed {
			set[p] = true
		}
		next, err := e.withDelta(st, set)
		if err != nil {
			return nil, err
		}
		if next != nil {
			st = next
		}
		st.baseLag = len(changed)
	}
	st.load = time.Since(t0)
	return st, nil
}

// openImage maps the snapshot file of the generation s reads, or says
// why there is none to use.
func (e *Engine) openImage(s *db.Snapshot) (*snapfile.Image, string) {
	if e.opts.NoSnapshot {
		return nil, "not asked for"
	}
	if e.opts.Embedder != nil {
		// A snapshot file holds no vectors: they come with the blobs.
		return nil, "dense vectors are loaded from the blobs"
	}
	path, _, ok := s.SnapshotFile()
	if !ok {
		return nil, "the index has no snapshot file; graphcoder build writes one"
	}
	e.badMu.Lock()
	bad := e.badImages[path]
	e.badMu.Unlock()
	if bad != "" {
		return nil, bad
	}
	im, err := snapfile.Open(path, s.Meta(), e.opts.VerifySnapshot)
	if err != nil {
		return nil, fmt.Sprintf("%v; graphcoder build writes it again", err)
	}
	return im, ""
}

// denseLoad counts the vectors a load found.
type denseLoad struct {
	dim     int
	files   int // files with vectors
	damaged int // files whose vector records were refused
}

// vectors returns the vectors the snapshot holds for r in the engine's
// embeddings model. A damaged record, or vectors of another dimension
// than the first file's, leave the file without vectors (dense retrieval
// then misses its entries; the rest of the index is unharmed).
func (e *Engine) vectors(snap *db.Snapshot, r *db.FileRecord, dl *denseLoad) []embed.Vector {
	vs, err := snap.Vectors(r.Path, e.opts.Embedder.Name())
	if err != nil || len(vs) != len(r.Entries) {
		if err != nil || vs != nil {
			dl.damaged++
		}
		return nil
	}
	for _, v := range vs {
		if len(v.Values) == 0 {
			continue
		}
		if dl.dim == 0 {
			dl.dim = len(v.Values)
		}
		if len(v.Values) != dl.dim {
			dl.damaged++
			return nil
		}
	}
	dl.files++
	return vs
}

// Update makes the current versions of the given files (paths relative to
// the repository root, as the index names them) visible to requests, as
// the database's current generation holds them: a file absent from it is
// removed. It does not reload the whole index: the files changed since
// the last full load are read into a small delta index over the loaded
// base, in milliseconds, and swapped in atomically. Once more than
// Options.FoldAfter files have changed, a new base is built in the
// background and swapped in when done; requests and updates go on
// meanwhile.
func (e *Engine) Update(paths []string) error {
	e.reload.Lock()
	defer e.reload.Unlock()
	st := e.cur.Load()
	set := make(map[string]bool, len(st.changed)+len(paths))
	for _, p := range st.changed {
		set[p] = true
	}
	for _, p := range paths {
		set[p] = true
		if e.folding && e.sinceFold != nil {
			e.sinceFold[p] = true
		}
	}
	next, err := e.withDelta(st, set)
	if err != nil {
		return err
	}
	if next == nil { // the generation's parameters changed: load it whole
		if next, err = e.loadBase(); err != nil {
			return err
		}
	}
	e.cur.Store(next)
	foldAfter := e.opts.FoldAfter
	if foldAfter <= 0 {
		foldAfter = 32
	}
	if len(next.changed)-next.baseLag > foldAfter && !e.folding {
		e.folding, e.sinceFold = true, map[string]bool{}
		e.folds.Add(1)
		go e.fold()
	}
	return nil
}

// withDelta returns st's base with the files in changed read from the
// database's current generation into a delta, or nil when the generation
// was built with other parameters than the base.
func (e *Engine) withDelta(st *state, changed map[string]bool) (*state, error) {
	t0 := time.Now()
	snap, err := e.d.Snapshot()
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	meta := snap.Meta()
	if meta.Tokenizer != st.meta.Tokenizer || meta.Hops != st.meta.Hops || meta.MaxStatements != st.meta.MaxStatements {
		return nil, nil
	}
	paths := make([]string, 0, len(changed))
	for p := range changed {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	b := retrieve.NewBuilder(st.tok, st.base.Params())
	var damaged []string
	for _, p := range st.damaged {
		if !changed[p] {
			damaged = append(damaged, p)
		}
	}
	sb := symtab.NewBuilder(st.rootName, false)
	var removed []string
	for _, p := range paths {
		if _, ok := snap.File(p); !ok {
			removed = append(removed, p)
			continue // removed: masked out below
		}
		r, err := snap.Load(p)
		if errors.Is(err, db.ErrCorrupt) {
			damaged = append(damaged, p) // masked out like a removed file
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("update index %s: %w", e.d.Dir(), err)
		}
		if err := sb.Add(snapfile.Outline(r, st.repo)); err != nil {
			return nil, fmt.Errorf("update index %s: %w", e.d.Dir(), err)
		}
		if e.opts.Embedder != nil {
			dl := st.dense
			r.Vectors = e.vectors(snap, r, &dl)
		}
		if err := b.Add(r); err != nil {
			return nil, fmt.Errorf("update index %s: %w", e.d.Dir(), err)
		}
	}
	ix, err := retrieve.NewSnapshot(st.base, b.Index(), paths)
	if err != nil {
		return nil, fmt.Errorf("update index %s: %w", e.d.Dir(), err)
	}
	slices.Sort(damaged)
	next := *st
	next.ix, next.changed, next.meta, next.load, next.damaged = ix, paths, meta, time.Since(t0), damaged
	next.sources, next.buffers = &sourceCache{}, &bufferCache{}
	next.syms = st.symBase.With(sb.Finish(), append(removed, damaged...))
	return &next, nil
}

// fold builds a new base from the current generation in the background
// and swaps it in, with the files updated meanwhile as its delta.
func (e *Engine) fold() {
	defer e.folds.Done()
	st, err := e.loadBase()
	e.reload.Lock()
	defer e.reload.Unlock()
	since := e.sinceFold
	e.folding, e.sinceFold = false, nil
	if err != nil {
		return // the delta stays; the next Update tries again
	}
	if since == nil { // a full Reload ran meanwhile
		return
	}
	if len(since) > 0 {
		next, err := e.withDelta(st, since)
		if err != nil || next == nil {
			return // as above
		}
		st = next
	}
	e.cur.Store(st)
}

// Info describes the loaded index.
type Info struct {
	Root       string        `json:"root"`
	Generation uint64        `json:"generation"`
	Tokenizer  string        `json:"tokenizer"`
	Hops       int           `json:"hops"`
	MaxStmts   int           `json:"max_statements"`
	Files      int           `json:"files"`
	Entries    int           `json:"entries"`
	Bytes      int64         `json:"bytes"` // estimated memory of the loaded index
	Load       time.Duration `json:"load_ns"`
	// Changed counts the files updated since the base index was loaded
	// (held in the delta).
	Changed int `json:"changed"`
	// Damaged lists the files whose stored record is damaged: they are
	// left out of retrieval until graphcoder build writes them again.
	Damaged []string `json:"damaged,omitempty"`
	// Dense describes the vectors loaded for the engine's embeddings
	// model; nil without one.
	Dense *DenseInfo `json:"dense,omitempty"`
	// Snapshot is the snapshot file the base index is mapped from, written
	// for generation SnapshotGen, of SnapshotBytes bytes; "" when the
	// index was loaded from the blobs, and SnapshotError says why.
	// SnapshotLag counts the files it did not hold as the loaded
	// generation has them (read from the blobs into the delta).
	Snapshot      string `json:"snapshot,omitempty"`
	SnapshotGen   uint64 `json:"snapshot_generation,omitempty"`
	SnapshotBytes int64  `json:"snapshot_bytes,omitempty"`
	SnapshotLag   int    `json:"snapshot_lag,omitempty"`
	SnapshotError string `json:"snapshot_error,omitempty"`
}

// DenseInfo describes the dense vectors of a loaded index.
type DenseInfo struct {
	Model   string `json:"model"`
	Entries int    `json:"entries"` // entries with a vector
	Dim     int    `json:"dim"`
	Files   int    `json:"files"`   // base files with vectors
	Damaged int    `json:"damaged"` // base files whose vector records were refused
}

// Info returns a description of the loaded snapshot.
func (e *Engine) Info() Info {
	s := e.cur.Load()
	info := Info{Root: s.root, Generation: s.meta.Generation, Tokenizer: s.meta.Tokenizer,
		Hops: s.meta.Hops, MaxStmts: s.meta.MaxStatements, Files: s.ix.Files(), Entries: s.ix.Len(),
		Bytes: s.ix.Bytes(), Load: s.load, Changed: len(s.changed), Damaged: s.damaged,
		Snapshot: s.image, SnapshotGen: s.imageGen, SnapshotBytes: s.imageBytes, SnapshotLag: s.baseLag, SnapshotError: s.imageError}
	if e.opts.Embedder != nil {
		n, dim := s.base.Vectors()
		info.Dense = &DenseInfo{Model: e.opts.Embedder.Name(), Entries: n, Dim: dim, Files: s.dense.files, Damaged: s.dense.damaged}
	}
	return info
}

// Request asks for the completion of one line.
type Request struct {
	// Path is the file, absolute or relative to the repository root; ""
	// for code of no known file (a client that sends only the lines
	// around the cursor): Source is then required, Language names its
	// language, and the search runs without the leak rule, which needs
	// the cursor's place in a file.
	Path string
	// Line is the 1-based line to complete from the lines before it; it
	// may be one past the last line (a new line at the end).
	Line int
	// Source is the buffer to complete in; nil reads the file.
	Source []byte
	// Language, when it names a registered language (its name or an
	// editor's identifier for it, lang.ForID: LSP's languageId, Tabby's
	// "language"), is the buffer's language; otherwise the path's
	// extension decides.
	Language string
	// Fragment says Source is only a part of the file at Path (the lines
	// around the cursor an editor sent, which could not be placed in the
	// file), so Line counts in Source: the leak rule is off, as for a
	// request without a path.
	Fragment bool
	// Context holds candidates the client sent (Tabby's declarations,
	// snippets of changed and recently opened files, the clipboard) for
	// the assembler to weigh with the retrieved ones under one budget. It
	// offers them in this order: Declaration candidates, the retrieved
	// top k, the other client-sent candidates in their order, the rest of
	// the retrieved pool.
	Context []prompt.Candidate
	// NoRetrieval skips the search: the context is the client's and the
	// file's own, and there is no model-free prediction.
	NoRetrieval bool
	// Mode, TopK, Gamma and Budget tune retrieval (see
	// retrieve.Options; Mode "" is DefaultMode of the file's language);
	// Rerank is retrieve.Options.Pool, the number of coarse candidates
	// the fine stage re-ranks (0: the mode's default).
	Mode   retrieve.Mode
	TopK   int
	Rerank int
	Gamma  float64
	Budget time.Duration
	// Vote is the number of best candidates voting for the model-free
	// prediction (0: the engine's Options.Vote; 1: the first alone), VoteK
	// the k of their rank weights 1/(k + rank) (0: retrieve.DefaultVoteK).
	Vote  int
	VoteK float64
	// Hops and MaxStatements override the index's h and l for the query
	// slice (0 keeps them).
	Hops, MaxStatements int
	// NoPrompt skips assembling Result.Context, for callers that only
	// want the snippets and the prediction.
	NoPrompt bool
	// NoDefinitions skips the definition context; Definitions, when set,
	// replaces the engine's Options.Definitions for this request.
	// DefinitionVariants collects the definition context once more under
	// each of these options, into Result.DefinitionVariants (evaluations
	// compare them on the same retrieval).
	NoDefinitions      bool
	Definitions        *defctx.Options
	DefinitionVariants map[string]defctx.Options
	// ImportBoost, when set, replaces Options.ImportBoost (a value <= 0
	// turns the re-rank off).
	ImportBoost *float64
	// Pool overrides Options.ContextPool; with NoPrompt and no Pool only
	// the top k are retrieved.
	Pool int
}

// Snippet is one retrieved code window, best first in Result.Snippets.
type Snippet struct {
	Path        string  `json:"path"` // relative to the repository root
	StartLine   int     `json:"start_line"`
	EndLine     int     `json:"end_line"`
	TargetLine  int     `json:"target_line"`
	Score       float64 `json:"score"`        // similarity used to rank, higher is better
	CoarseScore float64 `json:"coarse_score"` // the coarse stage's: Jaccard of the keys, BM25 in mode bm25, RRF in mode hybrid
	SED         float64 `json:"sed"`          // subgraph edit distance, -1 when not computed
	Text        string  `json:"text"`
}

// Stats times one request.
type Stats struct {
	retrieve.Stats
	Parse time.Duration `json:"parse_ns"` // parse, graph and slice of the query
	// Blanked counts the rows before the cursor the bounded query parse
	// left out (bodies the query slice cannot reach).
	Blanked int `json:"blanked_rows,omitempty"`
	// Recovered says the query was read from the lines before the cursor
	// with their open brackets closed: parsed as they are, they made one
	// syntax error holding the declarations around the cursor (Java).
	Recovered bool `json:"recovered_parse,omitempty"`
	// Cached says the request found the buffer parsed by an
	// earlier request with the same lines before and after the cursor
	// (the state keeps the last few).
	Cached bool `json:"cached_parse,omitempty"`
	// Embed is the time of embedding the query (mode hybrid with dense
	// vectors); DenseError says why a query went without dense retrieval
	// although the index has vectors.
	Embed      time.Duration `json:"embed_ns,omitempty"`
	DenseError string        `json:"dense_error,omitempty"`
	// Mode is the retrieval mode the request ran in.
	Mode   retrieve.Mode `json:"mode"`
	Prompt time.Duration `json:"prompt_ns"` // the context assembler
	// Definitions is the time of the definition context, DefinitionStats
	// what it did.
	Definitions     time.Duration `json:"definitions_ns"`
	DefinitionStats defctx.Stats  `json:"definition_stats"`
	Total           time.Duration `json:"total_ns"`
}

// Result is the answer to a Request.
type Result struct {
	Path     string    `json:"path"` // relative to the repository root; "" without one
	Line     int       `json:"line"`
	Language string    `json:"language"`
	Snippets []Snippet `json:"snippets"`
	// Pool holds the candidates retrieved past the top k for the
	// context, best first.
	Pool []Snippet `json:"pool,omitempty"`
	// Context is what a model sees: the chosen blocks and in-file lines
	// within the budget, rendered for the layout of Options.Prompt; nil
	// with Request.NoPrompt.
	Context    *prompt.Context `json:"context"`
	Prediction string          `json:"prediction"`
	// Definitions are the repository definitions the definition context
	// offered the assembler, best first, each with the reason it was
	// chosen; DefinitionBlocks the blocks (one per file) holding them.
	// Context says which blocks the prompt shows.
	Definitions      []defctx.Definition `json:"definitions,omitempty"`
	DefinitionBlocks []defctx.Block      `json:"-"`
	// DefinitionVariants holds the blocks of Request.DefinitionVariants,
	// by name.
	DefinitionVariants map[string][]defctx.Block `json:"-"`
	Stats              Stats                     `json:"stats"`
}

// MemoryLimit returns the limit of the Go runtime's memory
// (runtime/debug.SetMemoryLimit) that a server answering up to searches
// requests at once from e sets itself by default. Without a limit the
// collector lets the heap grow to twice what was live at its last cycle,
// and what is live in a server includes the garbage of the requests then
// running, so its heap settles at several times what it needs; a limit
// makes it collect sooner instead. The limit is memoryLimitBase (the
// runtime, the requests in flight), plus the store's caches and write buffer
// (db.DB.MemoryBudget), plus what the loaded index holds on the
// heap (Info.Bytes less the snapshot file mapped, and at least 16 bytes an
// entry: the file tables and the outlines loaded as lookups reach them),
// plus twice the scratch of the searches (retrieve.ScratchBytes each: the
// Jaccard counts, 4 bytes an entry, and BM25's accumulators of a region
// of entries, retrieve.SetScratchLimit).
// It is a target the collector works towards, not a bound: a heap that
// needs more gets more.
func (e *Engine) MemoryLimit(searches int) int64 {
	i := e.Info()
	entries := int64(i.Entries)
	heap := i.Bytes
	if i.Snapshot != "" {
		heap -= i.SnapshotBytes
	}
	heap = max(heap, 16*entries)
	return memoryLimitBase + e.d.MemoryBudget() + heap + 2*retrieve.ScratchBytes(i.Entries)*int64(max(searches, 1))
}

// memoryLimitBase is what MemoryLimit allows beyond what it counts: the
// runtime and the garbage of the requests between two collections. The
// garbage is resident until collected, so this is most of what the heap
// holds beyond its needs: 64 MiB made a busy server on the JDK's index
// hold 175-180 MiB anonymous, 32 MiB 145-150 MiB at about the same CPU
// time (bench/RESULTS.md, "Serve memory while busy").
const memoryLimitBase = 32 << 20

// Root returns the repository root of the loaded index.
func (e *Engine) Root() string { return e.cur.Load().root }

// Rel resolves path (absolute, or relative to the repository root) to a
// '/'-separated path relative to the root (indexer.RelPath).
func (e *Engine) Rel(path string) (string, error) { return indexer.RelPath(e.cur.Load().root, path) }

// Complete answers one request.
//
// A search that finds the mapped snapshot file damaged makes the engine
// load the index from the blobs (until a build writes the file again) and
// answer from that.
func (e *Engine) Complete(ctx context.Context, req Request) (*Result, error) {
	e.running.Add(1)
	defer e.done()
	st := e.cur.Load()
	res, err := e.complete(ctx, st, req)
	if errors.Is(err, retrieve.ErrDamaged) && st.image != "" {
		if rerr := e.refuseImage(st, err); rerr != nil {
			return nil, errors.Join(err, rerr)
		}
		res, err = e.complete(ctx, e.cur.Load(), req)
	}
	runtime.KeepAlive(st)
	return res, err
}

// refuseImage marks st's snapshot file damaged and reloads the index
// without it.
func (e *Engine) refuseImage(st *state, damage error) error {
	e.badMu.Lock()
	if e.badImages == nil {
		e.badImages = map[string]string{}
	}
	e.badImages[st.image] = fmt.Sprintf("snapshot file %s is damaged (%v); graphcoder build writes it again", st.image, damage)
	e.badMu.Unlock()
	if e.d == nil {
		return damage
	}
	return e.Reload()
}

func (e *Engine) complete(ctx context.Context, st *state, req Request) (*Result, error) {
	t0 := time.Now()
	var relPath string
	var l *lang.Language
	if req.Path != "" {
		var err error
		if relPath, err = indexer.RelPath(st.root, req.Path); err != nil {
			return nil, err
		}
		l = lang.ForPath(relPath)
	} else if req.Source == nil {
		return nil, ErrNoSource
	}
	if named := lang.ForID(req.Language); named != nil {
		l = named
	}
	if l == nil {
		what := relPath
		switch {
		case req.Language != "" && relPath != "":
			what = fmt.Sprintf("%s (language %q)", relPath, req.Language)
		case req.Language != "":
			what = fmt.Sprintf("language %q", req.Language)
		case relPath == "":
			what = "code without a file path or a language"
		}
		return nil, fmt.Errorf("%s: %w (have %s)", what, ErrLanguage, languageList())
	}
	name := relPath
	if name == "" {
		name = "the request's code"
	}
	src := req.Source
	var err error
	if src == nil {
		// The file as the build would read it: regular, inside the
		// repository, text, within the size limit.
		if src, err = indexer.ReadRepoFile(st.root, relPath, e.opts.MaxFileSize); err != nil {
			return nil, fmt.Errorf("read %s: %w", relPath, err)
		}
	} else if err := indexer.CheckSize(int64(len(src)), e.opts.MaxFileSize); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	} else if err := indexer.CheckText(src); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	lines := lang.SplitLines(src)
	n := len(lines)
	if lines[n-1] == "" {
		n-- // the empty line after a final newline is the new line at the end
	}
	if req.Line < 1 || req.Line > n+1 {
		return nil, fmt.Errorf("%s: %w: line %d, the file has %d lines", name, ErrLine, req.Line, n)
	}

	res := &Result{Path: relPath, Line: req.Line, Language: l.Name}
	// The buffer as the symbol table sees it; a fragment is no version of
	// the file at Path, so it hides nothing.
	buf := newBuffer(relPath, lines, req.Line)
	buf.hops = sliceOptions(st, req).Hops
	before := buf.lines
	if req.Fragment {
		buf.path = ""
	}
	st.buffers.load(buf, l, e.opts.WholePrefixParse)
	defer st.buffers.store(buf, l)
	defer func() { buf.afterAhead.stop() }() // no work of the request outlives it
	if !req.NoRetrieval {
		// The leak rule needs the cursor's place in an indexed file.
		leakPath := relPath
		if req.Fragment {
			leakPath = ""
		}
		if err := e.retrieve(ctx, st, l, name, leakPath, before, req, res, buf); err != nil {
			return nil, err
		}
		// The scans are done, and the windows read: what they mapped
		// need not stay resident through the rest of the request.
		e.release(st, 1)
	}
	if !req.NoDefinitions && !e.opts.NoDefinitions {
		if err := e.definitions(ctx, st, l, req, res, buf); err != nil {
			return nil, err
		}
	}
	if !req.NoPrompt {
		t1 := time.Now()
		var after []string
		if req.Line < len(lines) {
			after = lines[req.Line:]
		}
		if n := len(after); n > 0 && after[n-1] == "" {
			// The prompt ends every line with a newline: the empty line
			// after a final newline is that newline.
			after = after[:n-1]
		}
		in := prompt.Input{Path: relPath, Prefix: before, Suffix: after,
			Candidates: append(offered(req.Context, res.Snippets, res.Pool, buf.valueLines), DefinitionCandidates(res.DefinitionBlocks)...)}
		po := e.opts.Prompt
		po.CommentPrefix, po.Tokenizer, po.Keywords = l.CommentPrefix, st.tok, l.Keywords
		if res.Context, err = prompt.Assemble(in, po); err != nil {
			return nil, err
		}
		res.Stats.Prompt = time.Since(t1)
	}
	if err := st.ix.SourceError(); err != nil {
		// Snippets read from that file are blank: no answer rather
		// than a wrong one.
		return nil, fmt.Errorf("complete %s: %w", relPath, err)
	}
	res.Stats.Total = time.Since(t0)
	return res, nil
}

// offered orders the assembler's candidates: the client's declarations,
// the retrieved top k, the client's other candidates, the rest of the
// retrieved pool. lines holds the lines of each snippet's text, the top
// k's then the pool's (nil: split here).
func offered(client []prompt.Candidate, top, pool []Snippet, lines [][]string) []prompt.Candidate {
	out := make([]prompt.Candidate, 0, len(client)+len(top)+len(pool))
	for _, c := range client {
		if c.Source == prompt.Declaration {
			out = append(out, c)
		}
	}
	var topLines, poolLines [][]string
	if len(lines) == len(top)+len(pool) {
		topLines, poolLines = lines[:len(top)], lines[len(top):]
	}
	out = appendCandidates(out, top, topLines)
	for _, c := range client {
		if c.Source != prompt.Declaration {
			out = append(out, c)
		}
	}
	return appendCandidates(out, pool, poolLines)
}

// retrieve parses the lines before the cursor (of the file called name),
// searches the index and fills res's snippets, pool, prediction and
// stats; leakPath is the path the leak rule compares with ("" for none).
func (e *Engine) retrieve(ctx context.Context, st *state, l *lang.Language, name, leakPath string, before []string, req Request, res *Result, buf *buffer) error {
	t0 := time.Now()
	q, text, err := e.query(ctx, st, l, name, leakPath, before, req, buf)
	if err != nil {
		return err
	}
	parse := time.Since(t0)
	k := req.TopK
	if k <= 0 {
		k = 10
	}
	pool := req.Pool
	if pool <= 0 && !req.NoPrompt {
		pool = e.opts.ContextPool
		if pool <= 0 {
			pool = DefaultContextPool
		}
	}
	mode := req.Mode
	if mode == "" {
		mode = DefaultMode(l.Name)
	}
	if !req.NoDefinitions && !e.opts.NoDefinitions && mode != retrieve.Hybrid && mode != retrieve.Fine {
		// The definition context's parse of the code after the cursor
		// runs beside a search that leaves a core to it (ahead.go).
		buf.startAfter(ctx, l, st)
	}
	var embedTime time.Duration
	var denseErr string
	if mode == retrieve.Hybrid && e.opts.Embedder != nil && st.ix.HasVectors() {
		t1 := time.Now()
		denseErr = e.embedQuery(ctx, st, q, text, req.Budget)
		embedTime = time.Since(t1)
	}
	cands, rst, err := st.ix.Search(ctx, q, retrieve.Options{Mode: mode, TopK: max(k, pool), Pool: req.Rerank,
		Gamma: req.Gamma, Budget: req.Budget, BM25: e.opts.BM25, NoAlignments: true})
	if err != nil {
		return err
	}
	runtime.KeepAlive(st)
	rerank := req.Rerank
	if rerank <= 0 && mode == retrieve.Hybrid {
		rerank = retrieve.DefaultHybridPool
	}
	if beta := e.importBoost(req); beta > 0 {
		cands = boosted(cands, k, max(k, rerank), mode, st.queryView(buf, l).Relations(buf.file), beta)
	} else {
		cands = topFirst(cands, k, max(k, rerank), mode)
	}

	values := st.ix.Values(cands)
	// Each window's lines, split once for the definition context and the
	// prompt.
	lines := make([][]string, len(values))
	for i, v := range values {
		lines[i] = strings.Split(v, "\n")
	}
	buf.cands, buf.values, buf.valueLines = cands, values, lines
	for i := range cands {
		c := &cands[i]
		s := Snippet{Path: c.Path, StartLine: c.StartLine, EndLine: c.EndLine, TargetLine: c.TargetLine,
			Score: c.Score, CoarseScore: c.Coarse, SED: c.SED, Text: values[i]}
		if s.SED != s.SED { // NaN: not computed
			s.SED = -1
		}
		if i < k {
			res.Snippets = append(res.Snippets, s)
		} else {
			res.Pool = append(res.Pool, s)
		}
	}
	vote := req.Vote
	if vote <= 0 {
		vote = e.opts.Vote
	}
	voteK := req.VoteK
	if voteK <= 0 {
		voteK = retrieve.DefaultVoteK
	}
	// Only the candidates that vote need their alignment.
	voters := cands[:min(k, len(cands))]
	for i := range voters[:min(max(vote, 1), len(voters))] {
		st.ix.Align(q, &voters[i], req.Gamma)
	}
	res.Prediction = st.ix.Vote(q, voters, vote, voteK)
	res.Stats.Stats, res.Stats.Parse, res.Stats.Embed, res.Stats.DenseError = rst, parse, embedTime, denseErr
	res.Stats.Blanked, res.Stats.Cached, res.Stats.Recovered = buf.blanked, buf.cached, buf.recovered
	res.Stats.Mode = mode
	return nil
}

// topFirst reorders the candidates of a search for max(k, pool) so that
// the first k are what a search for k re-ranking r >= k coarse candidates
// returns, in the same order, and the rest follow in search order. Modes
// coarse2fine and hybrid re-rank their coarse top r (by Jaccard, or by
// the fused RRF score); with a larger pool, those r are the pool's best by
// coarse score (ties by entry, as the coarse stage breaks them), and the
// fine order restricted to them is theirs, so its first k are the answer.
// Modes coarse, bm25 and fine rank the pool as they rank the top k, so
// its first k already are.
func topFirst(cands []retrieve.Candidate, k, r int, mode retrieve.Mode) []retrieve.Candidate {
	if len(cands) <= k || mode != retrieve.CoarseToFine && mode != retrieve.Hybrid || r >= len(cands) {
		return cands
	}
	byCoarse := make([]int, len(cands))
	for i := range byCoarse {
		byCoarse[i] = i
	}
	slices.SortFunc(byCoarse, func(a, b int) int {
		ca, cb := &cands[a], &cands[b]
		if ca.Coarse != cb.Coarse {
			if ca.Coarse > cb.Coarse {
				return -1
			}
			return 1
		}
		return ca.Entry - cb.Entry
	})
	inR := make([]bool, len(cands))
	for _, i := range byCoarse[:r] {
		inR[i] = true
	}
	top := make([]bool, len(cands))
	for i, n := 0, 0; i < len(cands) && n < k; i++ {
		if inR[i] {
			top[i] = true
			n++
		}
	}
	out := make([]retrieve.Candidate, 0, len(cands))
	for i := range cands {
		if top[i] {
			out = append(out, cands[i])
		}
	}
	for i := range cands {
		if !top[i] {
			out = append(out, cands[i])
		}
	}
	return out
}

// Candidates turns retrieved snippets, best first, into the assembler's
// candidates: each window placed at its rows, focused on its statement.
func Candidates(snips []Snippet) []prompt.Candidate {
	return appendCandidates(make([]prompt.Candidate, 0, len(snips)), snips, nil)
}

// appendCandidates appends Candidates(snips) to out; lines, when not nil,
// holds the lines of each snippet's text (strings.Split of it by '\n').
func appendCandidates(out []prompt.Candidate, snips []Snippet, lines [][]string) []prompt.Candidate {
	for i, s := range snips {
		var l []string
		if lines != nil {
			l = lines[i]
		} else {
			l = strings.Split(s.Text, "\n")
		}
		out = append(out, prompt.Candidate{Source: prompt.Retrieved, Path: s.Path, StartLine: s.StartLine,
			Lines: l, Score: s.Score, Focus: s.TargetLine})
	}
	return out
}

// embedQuery sets q's vector from the embedding of its slice text, and
// returns why it could not ("" when it did).
func (e *Engine) embedQuery(ctx context.Context, st *state, q *retrieve.Query, text string, budget time.Duration) string {
	if strings.TrimSpace(text) == "" {
		return ""
	}
	if budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, budget)
		defer cancel()
	}
	vs, err := e.opts.Embedder.Embed(ctx, []string{text})
	if err != nil {
		return err.Error()
	}
	v := embed.Quantize(vs[0])
	if _, dim := st.base.Vectors(); dim > 0 && len(v.Values) != dim {
		return fmt.Sprintf("the query embedding has %d dimensions, the index's vectors %d", len(v.Values), dim)
	}
	q.Vector = v
	return ""
}

// query parses the lines before the cursor (of the file called name),
// appends the dummy target and slices it; leakPath is the path the leak
// rule compares with ("" for none). It also returns the slice's text for
// an embeddings model.
func (e *Engine) query(ctx context.Context, st *state, l *lang.Language, name, leakPath string, before []string, req Request, buf *buffer) (*retrieve.Query, string, error) {
	g, s, err := e.querySlice(ctx, st, l, name, req, buf)
	if err != nil {
		return nil, "", err
	}
	for i, v := range s.Nodes {
		if i != s.Target && !g.Nodes[v].Dummy {
			buf.slice = append(buf.slice, g.Text(v))
		}
	}
	q := st.ix.NewQuery(g, s, leakPath, req.Line)
	q.Language = l.Name
	var text string
	if e.opts.Embedder != nil {
		var stmts []string
		for i, v := range s.Nodes {
			if i != s.Target && !g.Nodes[v].Dummy {
				stmts = append(stmts, g.Text(v))
			}
		}
		text = embed.SliceText(stmts)
	}
	return q, text, nil
}

// querySlice parses the buffer, appends the dummy target to its graph
// and slices it.
func (e *Engine) querySlice(ctx context.Context, st *state, l *lang.Language, name string, req Request, buf *buffer) (*ccg.Graph, *slice.Slice, error) {
	if buf.hops == 0 && buf.parsed == nil {
		// A buffer made outside complete, which sets it before the
		// buffer cache is asked.
		buf.hops = sliceOptions(st, req).Hops
	}
	f, err := e.parseBuffer(ctx, st, l, name, buf)
	if err != nil {
		return nil, nil, err
	}
	if buf.graph == nil {
		buf.graph = ccg.Build(f)
		buf.target = buf.graph.AppendTarget()
	}
	g, target := buf.graph, buf.target
	return g, slice.Of(g, target, sliceOptions(st, req)), nil
}

// sliceOptions are the h and l of a request's query slice: the index's,
// or the request's own.
func sliceOptions(st *state, req Request) slice.Options {
	so := slice.Options{Hops: st.meta.Hops, MaxStatements: st.meta.MaxStatements}
	if req.Hops > 0 {
		so.Hops = req.Hops
	}
	if req.MaxStatements > 0 {
		so.MaxStatements = req.MaxStatements
	}
	if so.Hops <= 0 || so.MaxStatements <= 0 {
		so = slice.DefaultOptions()
	}
	return so
}

func languageList() string {
	var names []string
	for _, l := range lang.Languages() {
		names = append(names, l.Name)
	}
	return strings.Join(names, ", ")
}
