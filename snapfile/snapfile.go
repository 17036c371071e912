// Package snapfile owns the snapshot file of an index generation: the
// retrieval index (retrieve.Index) and the symbol table (symtab.Table)
// of the generation's files, stored as the flat arrays a search reads, so
// that a reader maps the file and searches at once instead of decoding
// every blob of the store (which takes seconds on a large repository and
// holds all of it in memory).
//
// A build writes the file before it publishes the generation (package db
// calls Writer through db.BuildOptions.Snapshot and handles the file's
// name, atomic placement and collection). A full build gives the file's
// Stream each record as it produces it, in path order (db.Builder.Plan),
// so nothing is read back; otherwise the records are decoded from the
// generation's blobs one at a time. The blobs stay the store of record:
// a snapshot file holds nothing they do not, and is rebuilt from them
// whenever it is missing or unusable. A snapshot
// file says which file versions it holds (path and content hash), so a
// reader of a later generation takes the files changed since from the
// blobs, as a delta over the mapped base (see engine). A missing,
// foreign (other parameters or layout) or damaged file is refused with an
// error saying why; readers then load from the blobs and graphcoder build
// writes the file again.
//
// # Layout (Version 1)
//
// A mapfile (package internal/mapfile) whose sections are:
//
//	snap.head        uvarint Version, db.SchemaVersion, generation, h, l,
//	                 db.AnalysisVersion of the blobs, then strings (uvarint
//	                 length, bytes): tokenizer, repository root
//	snap.files       per file held, in path order: string path, 32 bytes
//	                 content hash, string language, uvarint lines,
//	                 statements, blob bytes (the manifest's db.FileInfo)
//	snap.outline.off uint32 offsets (files + 1) into snap.outline
//	snap.outline     per file, its outline as its blob holds it
//	                 (db.EncodeOutline)
//	ix.*             the retrieval index (retrieve.Index.WriteTo)
//	sym.*            the symbol table's indexes (symtab.Table.WriteTo)
//
// Entry ids and symbol table file ids are the files' order in
// snap.files. A file of another Version, schema or analysis, or of other
// generation parameters than the reader's generation, is refused.
package snapfile

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/embed"
	"github.com/graphcoder/graphcoder/internal/mapfile"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/retrieve"
	"github.com/graphcoder/graphcoder/symtab"
	"github.com/graphcoder/graphcoder/token"
)

// Version is the version of the layout in the package comment.
const Version = 1

// ErrUnusable is wrapped by every error about a snapshot file that cannot
// serve a generation: damaged, foreign, of another version.
var ErrUnusable = errors.New("snapshot file unusable")

// Loaded is what a generation's files give a reader: the retrieval index,
// the symbol table, and the manifest entries of the files they hold.
type Loaded struct {
	Index   *retrieve.Index
	Symbols *symtab.Table
	// Files are the manifest entries of the files held, by path; a file
	// of the generation whose blob is damaged is not among them.
	Files []db.FileInfo
	// Damaged lists the generation's files whose records could not be
	// read (sorted).
	Damaged []string
}

// Options tune Load.
type Options struct {
	// Vectors, when set, returns the embeddings of a file's entries to
	// load with it (nil for none).
	Vectors func(s *db.Snapshot, r *db.FileRecord) []embed.Vector
}

// Load decodes every file of the generation s reads into a retrieval
// index and a symbol table (what a snapshot file stores, and what a reader
// without one builds in memory). A damaged record leaves its file out.
func Load(ctx context.Context, s *db.Snapshot, o Options) (*Loaded, error) {
	meta := s.Meta()
	st, err := NewStream(meta)
	if err != nil {
		return nil, err
	}
	st.b.Grow(meta.Statements, meta.Entries)
	var damaged []string
	err = s.ForEachIntact(ctx, func(r *db.FileRecord) error {
		if o.Vectors != nil {
			r.Vectors = o.Vectors(s, r)
		}
		f, _ := s.File(r.Path)
		return st.Add(r, f)
	}, func(path string, _ error) { damaged = append(damaged, path) })
	if err != nil {
		return nil, err
	}
	l, err := st.finish()
	if err != nil {
		return nil, err
	}
	l.Damaged = damaged
	return l, nil
}

// Stream builds a snapshot file from a generation's records given in path
// order, as a build produces them (db.SnapshotStream): the retrieval
// index and the symbol table grow with each record, and nothing is read
// back from the blobs.
type Stream struct {
	b     *retrieve.Builder
	sb    *symtab.Builder
	repo  *symtab.Repo
	files []db.FileInfo
	done  bool
}

// NewStream starts the snapshot of a generation of meta's parameters
// (tokenizer, h, l, root).
func NewStream(meta db.Meta) (*Stream, error) {
	tok, err := token.ByName(meta.Tokenizer)
	if err != nil {
		return nil, err
	}
	repo := Repo(meta.Root)
	return &Stream{
		b:    retrieve.NewBuilder(tok, retrieve.Params{Hops: meta.Hops, MaxStatements: meta.MaxStatements}),
		sb:   symtab.NewBuilder(repo.Name(), true),
		repo: repo,
	}, nil
}

// Add adds the next file (in path order) and its manifest entry.
func (st *Stream) Add(r *db.FileRecord, f db.FileInfo) error {
	if st.done {
		return errors.New("snapshot: stream already written")
	}
	if n := len(st.files); n > 0 && st.files[n-1].Path >= r.Path {
		return fmt.Errorf("snapshot: %s added after %s", r.Path, st.files[n-1].Path)
	}
	if err := st.sb.Add(Outline(r, st.repo)); err != nil {
		return err
	}
	if err := st.b.Add(r); err != nil {
		return err
	}
	st.files = append(st.files, f)
	return nil
}

func (st *Stream) finish() (*Loaded, error) {
	st.done = true
	ix, err := st.b.Finish()
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	l := &Loaded{Index: ix, Symbols: st.sb.Finish(), Files: st.files}
	st.b, st.sb, st.files = nil, nil, nil
	return l, nil
}

// Write writes the snapshot file of generation meta, whose files were
// added, to w.
func (st *Stream) Write(ctx context.Context, meta db.Meta, w io.Writer) error {
	if st.done {
		return errors.New("snapshot: stream already written")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	l, err := st.finish()
	if err != nil {
		return err
	}
	return Write(w, meta, l)
}

// RootName is the name the symbol table gives the repository root (the
// root folder's base name).
func RootName(root string) string { return filepath.Base(root) }

// Repo is the repository the symbol table's files belong to: the root
// folder indexed, whose configuration files (go.mod, tsconfig.json) name
// its modules (symtab.NewRepo).
func Repo(root string) *symtab.Repo { return symtab.NewRepo(root) }

// Outline returns the symbol table's record of a file of repo.
func Outline(r *db.FileRecord, repo *symtab.Repo) *symtab.File {
	return symtab.NewFile(r.Path, lang.ByName(r.Language), repo, r.Package, r.Symbols, r.Imports)
}

// Writer writes and checks snapshot files for package db
// (db.SnapshotWriter).
type Writer struct{}

// StartSnapshot starts the snapshot file of a generation built with
// meta's parameters.
func (Writer) StartSnapshot(meta db.Meta) (db.SnapshotStream, error) {
	st, err := NewStream(meta)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	// A build keeps the entries' keys, which only the end of the build
	// reads, in a temporary file: a third of what the stream holds.
	if err := st.b.SpillKeys(""); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	return st, nil
}

// Write writes l, loaded from a generation of metadata meta, as a
// snapshot file.
func Write(w io.Writer, meta db.Meta, l *Loaded) error {
	mw := mapfile.NewWriter(w)
	h := binary.AppendUvarint(nil, Version)
	for _, v := range []uint64{db.SchemaVersion, meta.Generation, uint64(meta.Hops), uint64(meta.MaxStatements), uint64(meta.Analysis)} {
		h = binary.AppendUvarint(h, v)
	}
	h = appendStr(h, meta.Tokenizer)
	h = appendStr(h, meta.Root)
	mw.Section("snap.head", h)
	mw.Section("snap.files", encodeFileList(l.Files))
	// The outlines, from the symbol table's records of the files.
	off := []uint32{0}
	var outlines []byte
	for i := range l.Files {
		f := l.Symbols.FileAt(i)
		outlines = append(outlines, db.EncodeOutline(&db.FileRecord{Package: f.Package, Symbols: f.Symbols, Imports: f.Imports})...)
		off = append(off, uint32(len(outlines)))
	}
	mapfile.Put(mw, "snap.outline.off", off)
	mw.Section("snap.outline", outlines)
	if err := l.Index.WriteTo(mw); err != nil {
		return err
	}
	if err := l.Symbols.WriteTo(mw); err != nil {
		return err
	}
	if err := mw.Close(); err != nil {
		return fmt.Errorf("write snapshot: %w", err)
	}
	return nil
}

// encodeFileList encodes the section snap.files.
func encodeFileList(fs []db.FileInfo) []byte {
	var files []byte
	for i := range fs {
		f := &fs[i]
		files = appendStr(files, f.Path)
		files = append(files, f.Hash[:]...)
		files = appendStr(files, f.Language)
		for _, v := range []int{f.Lines, f.Statements, f.BlobBytes} {
			files = binary.AppendUvarint(files, uint64(v))
		}
	}
	return files
}

func appendStr(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// CheckSnapshot opens the snapshot file at path for the generation s
// reads and reports how many of its files the snapshot file does not
// hold as they are.
func (Writer) CheckSnapshot(path string, s *db.Snapshot, verify bool) (int, error) {
	im, err := Open(path, s.Meta(), verify)
	if err != nil {
		return 0, err
	}
	defer im.Close()
	return len(im.Changed(s.Files())), nil
}

// Image is an opened snapshot file: what it holds, read in place.
type Image struct {
	Loaded
	// Generation is the generation the file was written for.
	Generation uint64
	m          *mapfile.File
}

// Open maps the snapshot file at path for a reader of a generation of
// metadata meta. With verify, every section's checksum is checked (this
// reads the whole file, through the file rather than the mapping);
// otherwise only the structure is.
func Open(path string, meta db.Meta, verify bool) (*Image, error) {
	m, err := mapfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrUnusable, err)
	}
	im, err := open(m, meta, verify)
	if err != nil {
		m.Close()
		return nil, fmt.Errorf("snapshot file %s: %w: %w", path, ErrUnusable, err)
	}
	return im, nil
}

func open(m *mapfile.File, meta db.Meta, verify bool) (*Image, error) {
	if verify {
		if err := m.VerifyAll(); err != nil {
			return nil, err
		}
	} else {
		// The small sections read at once are checked in any case: the
		// frame table of the sources too, where the file has one.
		for _, name := range []string{"snap.head", "snap.files", "ix.head", "ix.files", "sym.head",
			"ix.frames.file", "ix.frames.row", "ix.frames.comp", "ix.frames.raw", "ix.frames.sum"} {
			if !m.Has(name) && strings.HasPrefix(name, "ix.frames.") {
				continue // written before frames (see retrieve.Index.WriteTo)
			}
			if err := m.Verify(name); err != nil {
				return nil, err
			}
		}
	}
	head, err := m.Section("snap.head")
	if err != nil {
		return nil, err
	}
	d := decoder{s: string(head)}
	var vals [6]uint64
	for i := range vals {
		var ok bool
		if vals[i], ok = d.uvarint(); !ok {
			return nil, errors.New("bad header")
		}
	}
	tok, ok := d.str()
	if ok {
		_, ok = d.str()
	}
	if !ok {
		return nil, errors.New("bad string")
	}
	switch {
	case vals[0] != Version:
		return nil, fmt.Errorf("layout version %d, this graphcoder reads %d", vals[0], Version)
	case vals[1] != db.SchemaVersion:
		return nil, fmt.Errorf("written for schema %d, this graphcoder reads %d", vals[1], db.SchemaVersion)
	case vals[3] != uint64(meta.Hops) || vals[4] != uint64(meta.MaxStatements) || vals[5] != uint64(meta.Analysis) || tok != meta.Tokenizer:
		return nil, fmt.Errorf("written with other parameters (h %d, l %d, analysis %d, tokenizer %q) than the index's generation (h %d, l %d, analysis %d, tokenizer %q)",
			vals[3], vals[4], vals[5], tok, meta.Hops, meta.MaxStatements, meta.Analysis, meta.Tokenizer)
	}
	im := &Image{Generation: vals[2], m: m}
	if im.Files, err = decodeFiles(m); err != nil {
		return nil, err
	}
	tk, err := token.ByName(tok)
	if err != nil {
		return nil, err
	}
	if im.Index, err = retrieve.Open(m, tk); err != nil {
		return nil, err
	}
	if im.Index.Files() != len(im.Files) {
		return nil, fmt.Errorf("the index holds %d files, the file list %d", im.Index.Files(), len(im.Files))
	}
	off, err := mapfile.Get[uint32](m, "snap.outline.off")
	if err != nil {
		return nil, err
	}
	outlines, err := m.Section("snap.outline")
	if err != nil {
		return nil, err
	}
	if len(off) != len(im.Files)+1 || off[0] != 0 || int(off[len(im.Files)]) != len(outlines) {
		return nil, errors.New("bad outline offsets")
	}
	files, repo := im.Files, Repo(meta.Root)
	load := func(id int) *symtab.File {
		f := &files[id]
		rec := &db.FileRecord{Path: f.Path, Language: f.Language}
		lo, hi := off[id], off[id+1]
		if lo <= hi && int(hi) <= len(outlines) {
			if db.DecodeOutline(outlines[lo:hi], f.Lines, rec) != nil {
				rec.Package, rec.Symbols, rec.Imports = "", nil, nil
			}
		}
		runtime.KeepAlive(m)
		return Outline(rec, repo)
	}
	if im.Symbols, err = symtab.OpenStored(m, load); err != nil {
		return nil, err
	}
	if im.Symbols.Files() != len(im.Files) {
		return nil, fmt.Errorf("the symbol table holds %d files, the file list %d", im.Symbols.Files(), len(im.Files))
	}
	return im, nil
}

func decodeFiles(m *mapfile.File) ([]db.FileInfo, error) {
	b, err := m.Section("snap.files")
	if err != nil {
		return nil, err
	}
	return decodeFileList(b)
}

// decodeFileList decodes the section snap.files.
func decodeFileList(b []byte) ([]db.FileInfo, error) {
	// One string holds every path and language (a reader keeps them
	// all), and the list is sized by a first pass: on a large repository
	// this is most of what opening allocates.
	all := string(b)
	n := 0
	for d := (decoder{s: all}); len(d.s) > 0; n++ {
		if _, err := d.next(); err != nil {
			return nil, err
		}
	}
	files := make([]db.FileInfo, 0, n)
	for d := (decoder{s: all}); len(d.s) > 0; {
		f, err := d.next()
		if err != nil {
			return nil, err
		}
		if n := len(files); n > 0 && files[n-1].Path >= f.Path {
			return nil, errors.New("file list out of order")
		}
		files = append(files, f)
	}
	return files, nil
}

// decoder reads the uvarints and strings of the sections snap.head and
// snap.files from s.
type decoder struct{ s string }

func (d *decoder) uvarint() (uint64, bool) {
	var v uint64
	for i := 0; i < len(d.s) && i < binary.MaxVarintLen64; i++ {
		c := d.s[i]
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			d.s = d.s[i+1:]
			return v, true
		}
	}
	return 0, false
}

func (d *decoder) str() (string, bool) {
	n, ok := d.uvarint()
	if !ok || n > uint64(len(d.s)) {
		return "", false
	}
	x := d.s[:n]
	d.s = d.s[n:]
	return x, true
}

// next decodes one entry.
func (d *decoder) next() (db.FileInfo, error) {
	var f db.FileInfo
	var ok bool
	if f.Path, ok = d.str(); !ok {
		return f, errors.New("bad string")
	}
	if len(d.s) < len(f.Hash) {
		return f, errors.New("bad file list")
	}
	copy(f.Hash[:], d.s)
	d.s = d.s[len(f.Hash):]
	if f.Language, ok = d.str(); !ok {
		return f, errors.New("bad string")
	}
	for _, p := range []*int{&f.Lines, &f.Statements, &f.BlobBytes} {
		v, ok := d.uvarint()
		if !ok || v > 1<<40 {
			return f, errors.New("bad file list")
		}
		*p = int(v)
	}
	return f, nil
}

// Changed returns the paths of the files whose versions in manifest (a
// generation's, sorted by path) the image does not hold: changed, added
// and removed, sorted.
func (im *Image) Changed(manifest []db.FileInfo) []string {
	var out []string
	a, b := im.Files, manifest
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0].Path < b[0].Path:
			out = append(out, a[0].Path) // removed
			a = a[1:]
		case len(a) == 0 || b[0].Path < a[0].Path:
			out = append(out, b[0].Path) // added
			b = b[1:]
		default:
			if a[0].Hash != b[0].Hash || a[0].Language != b[0].Language {
				out = append(out, a[0].Path)
			}
			a, b = a[1:], b[1:]
		}
	}
	return out
}

// Size returns the file's size in bytes.
func (im *Image) Size() int64 { return im.m.Size() }

// Path returns the file's path.
func (im *Image) Path() string { return im.m.Path() }

// Verify checks every checksum of the file.
func (im *Image) Verify() error {
	if err := im.m.VerifyAll(); err != nil {
		return fmt.Errorf("%w: %w", ErrUnusable, err)
	}
	return nil
}

// Release takes the file's pages out of the process's resident memory,
// leaving the mapping valid (mapfile.File.Release): a reader that is idle
// holds none of it resident.
func (im *Image) Release() error { return im.m.Release() }

// ReleaseCold takes the file's pages out of the process's resident
// memory but for those of the arrays every search reads through
// (retrieve.ScannedSections), which the next search would map again
// whole: a busy reader releases what its searches' tokens and candidates
// led them to, and keeps what any search reads.
func (im *Image) ReleaseCold() error { return im.m.Release(retrieve.ScannedSections()...) }

// Close unmaps the file at once. Only for an image whose index and
// symbol table are no longer used: otherwise let it go, and the mapping
// goes when they are no longer reachable.
func (im *Image) Close() error { return im.m.Close() }
