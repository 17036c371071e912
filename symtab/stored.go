package symtab

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/graphcoder/graphcoder/internal/mapfile"
	"github.com/graphcoder/graphcoder/lang"
)

// A Table is stored (Table.WriteTo) as the arrays of its indexes in the
// sections of a mapfile, prefixed "sym.", and opened (OpenStored) by
// mapping them: lookups search the arrays in place, and a file's outline
// is decoded only when a lookup first returns it, by a loader the caller
// gives (the outlines are stored by whoever stores the table). Opening a
// table of any size costs nothing, and a request decodes the few files it
// reads; a server pins the view of each request (View.Pin), which keeps
// what stays loaded between requests bounded (MaxLoaded). The import
// graph and the PageRank are stored too, so they are not computed again.
//
// "sym.head" holds uvarints storedVersion, the numbers of files, module
// names and symbol names, 1 when the table has an import graph, and the
// root name (uvarint length and bytes). The string tables "sym.paths",
// "sym.mods" and "sym.names" (mapfile.PutStrings) hold the paths, module
// names and symbol names in byte order; "sym.modOff" (one more than the
// module names) indexes the files of each module in "sym.modFile" and
// "sym.modPrio", "sym.modOneDir" holds a byte per module name (1: its
// files share a folder); "sym.nameOff" indexes the definitions of each
// name in "sym.defFile" and "sym.defSym"; "sym.outOff"/"sym.out" and
// "sym.inOff"/"sym.in" are the import graph's adjacency lists and
// "sym.rank" the PageRank (float64) of each file.
//
// Version 2 adds what a lookup by name ranks definitions by, so that it
// decodes no outline but those of the definitions it keeps (NamedRefs):
// "sym.defKind" holds a byte per definition of "sym.defFile" (its
// lang.SymbolKind), "sym.langs" (mapfile.PutStrings) the names of the
// files' languages in byte order ("" for none) and "sym.fileLang" a byte
// per file indexing them, "sym.imps" the modules the files import
// (File.imported) in byte order and "sym.impOff" (one more than the
// files) indexes each file's, ascending, in "sym.imp". Version 3 sets
// bit 7 of a definition's "sym.defKind" byte when it is a top-level
// definition of its file (File.Top), so that a module's member is found
// among the definitions of its name (Resolver.moduleMember) without
// decoding the module's files. A version 1 table is read without them:
// its lookups by name decode the outlines; a version 2 table without the
// top-level bits: its module members are looked for file by file.

const storedVersion = 3

// topBit marks a top-level definition in "sym.defKind" (version 3).
const topBit = 0x80

// WriteTo stores the table's indexes in w (see the comment above). It
// does not store the files' outlines.
func (t *Table) WriteTo(w *mapfile.Writer) error {
	if t.st != nil {
		return errors.New("symbol table: a stored table cannot be stored again")
	}
	mods := slices.Sorted(maps.Keys(t.modules))
	names := slices.Sorted(maps.Keys(t.names))
	h := binary.AppendUvarint(nil, storedVersion)
	graph := uint64(0)
	if t.in != nil {
		graph = 1
	}
	for _, v := range []uint64{uint64(len(t.files)), uint64(len(mods)), uint64(len(names)), graph} {
		h = binary.AppendUvarint(h, v)
	}
	h = binary.AppendUvarint(h, uint64(len(t.root)))
	h = append(h, t.root...)
	w.Section("sym.head", h)

	paths := make([]string, len(t.files))
	for i, f := range t.files {
		paths[i] = f.Path
	}
	mapfile.PutStrings(w, "sym.paths", mapfile.NewStrings(paths, false))
	mapfile.PutStrings(w, "sym.mods", mapfile.NewStrings(mods, false))
	modOff := []uint32{0}
	var modFile, modPrio []int32
	oneDir := make([]byte, len(mods))
	for i, m := range mods {
		ml := t.modules[m]
		for j, f := range ml.files {
			modFile = append(modFile, t.byPath[f.Path])
			modPrio = append(modPrio, ml.prio[j])
		}
		modOff = append(modOff, uint32(len(modFile)))
		if ml.oneDir {
			oneDir[i] = 1
		}
	}
	mapfile.Put(w, "sym.modOff", modOff)
	mapfile.Put(w, "sym.modFile", modFile)
	mapfile.Put(w, "sym.modPrio", modPrio)
	w.Section("sym.modOneDir", oneDir)

	mapfile.PutStrings(w, "sym.names", mapfile.NewStrings(names, false))
	nameOff := []uint32{0}
	var defFile, defSym []int32
	for _, n := range names {
		for _, d := range t.names[n] {
			defFile = append(defFile, t.byPath[d.File.Path])
			defSym = append(defSym, int32(d.Sym))
		}
		nameOff = append(nameOff, uint32(len(defFile)))
	}
	mapfile.Put(w, "sym.nameOff", nameOff)
	mapfile.Put(w, "sym.defFile", defFile)
	mapfile.Put(w, "sym.defSym", defSym)
	if err := t.writeRefs(w, names); err != nil {
		return err
	}

	for _, g := range []struct {
		name string
		adj  [][]int32
	}{{"sym.out", t.out}, {"sym.in", t.in}} {
		off := []uint32{0}
		var all []int32
		for _, a := range g.adj {
			all = append(all, a...)
			off = append(off, uint32(len(all)))
		}
		mapfile.Put(w, g.name+"Off", off)
		mapfile.Put(w, g.name, all)
	}
	mapfile.Put(w, "sym.rank", t.rank)
	if _, err := w.Write(nil); err != nil {
		return fmt.Errorf("write symbol table: %w", err)
	}
	return nil
}

// writeRefs stores what NamedRefs reads of each definition and file
// (version 2; see the comment above).
func (t *Table) writeRefs(w *mapfile.Writer, names []string) error {
	var kinds []byte
	for _, n := range names {
		for _, d := range t.names[n] {
			k := byte(d.Symbol().Kind)
			if k&topBit != 0 {
				return fmt.Errorf("symbol table: symbol kind %d cannot be stored", k)
			}
			if d.File.isTop(d.Sym) {
				k |= topBit
			}
			kinds = append(kinds, k)
		}
	}
	w.Section("sym.defKind", kinds)
	langName := func(f *File) string {
		if f.Language == nil {
			return ""
		}
		return f.Language.Name
	}
	langSet, impSet := map[string]bool{}, map[string]bool{}
	for _, f := range t.files {
		langSet[langName(f)] = true
		for _, m := range f.imported {
			impSet[m] = true
		}
	}
	langs, imps := slices.Sorted(maps.Keys(langSet)), slices.Sorted(maps.Keys(impSet))
	if len(langs) > 256 {
		return fmt.Errorf("symbol table: %d languages, at most 256 are stored", len(langs))
	}
	langID, impID := make(map[string]byte, len(langs)), make(map[string]int32, len(imps))
	for i, l := range langs {
		langID[l] = byte(i)
	}
	for i, m := range imps {
		impID[m] = int32(i)
	}
	fileLang := make([]byte, len(t.files))
	impOff := []uint32{0}
	var imp []int32
	for i, f := range t.files {
		fileLang[i] = langID[langName(f)]
		for _, m := range f.imported { // sorted and distinct, so are the ids
			imp = append(imp, impID[m])
		}
		impOff = append(impOff, uint32(len(imp)))
	}
	mapfile.PutStrings(w, "sym.langs", mapfile.NewStrings(langs, false))
	w.Section("sym.fileLang", fileLang)
	mapfile.PutStrings(w, "sym.imps", mapfile.NewStrings(imps, false))
	mapfile.Put(w, "sym.impOff", impOff)
	return mapfile.Put(w, "sym.imp", imp)
}

// stored is the part of a Table read from a mapped file.
type stored struct {
	m     *mapfile.File // kept reachable: the arrays are slices of it
	load  func(id int) *File
	paths mapfile.Strings

	mods             mapfile.Strings
	modOff           []uint32
	modFile, modPrio []int32
	modOneDir        []byte
	names            mapfile.Strings
	nameOff          []uint32
	defFile, defSym  []int32
	graph            bool
	outOff, inOff    []uint32
	out, in          []int32
	rank             []float64

	// refs: the table holds the indexes of version 2, read by NamedRefs
	// without decoding outlines.
	refs     bool
	tops     bool // defKind holds topBit (version 3)
	defKind  []byte
	langs    []*lang.Language // by id of "sym.langs", nil for ""
	fileLang []byte
	imps     mapfile.Strings
	impOff   []uint32
	imp      []int32

	// cur holds the outlines loaded so far and the lookups answered
	// with them. Once it holds more than MaxLoaded files, the next
	// View.Pin starts a new one: what the requests read stays bounded,
	// while each request sees one set of loaded files from start to end.
	cur atomic.Pointer[loadedFiles]
}

// loadedFiles are the files of a stored table loaded so far, and the
// lookups answered with them.
type loadedFiles struct {
	files               []atomic.Pointer[File]
	n                   atomic.Int64 // files loaded
	modCache, nameCache sync.Map     // name -> *modList, []Def
}

// MaxLoaded bounds the outlines a stored table keeps loaded between the
// requests that pin it (View.Pin): past it, the next pin starts again
// from none. A request loads the outlines of the files its lookups reach
// (the files of the packages it reads names of, and of a table of layout
// version 1 every file defining a name it looks up by name: thousands on
// the JDK, of 15,143 files of about 7 kB of heap each once loaded): a
// server that kept every one would hold them all in the end.
var MaxLoaded int64 = 4096

// ErrStored is wrapped by the errors of a stored table that does not
// hold together.
var ErrStored = errors.New("stored symbol table is damaged")

// OpenStored returns the table stored in m by WriteTo. load returns the
// outline of file id (in path order) when a lookup first needs it; it is
// called at most once per file that wins (concurrent first lookups may
// call it more than once and keep one result) and must return a File with
// the file's path, even when its outline cannot be read. The table keeps
// m reachable.
func OpenStored(m *mapfile.File, load func(id int) *File) (*Table, error) {
	t, err := openStored(m, load)
	if err != nil {
		return nil, fmt.Errorf("open symbol table %s: %w: %w", m.Path(), ErrStored, err)
	}
	return t, nil
}

func openStored(m *mapfile.File, load func(id int) *File) (*Table, error) {
	head, err := m.Section("sym.head")
	if err != nil {
		return nil, err
	}
	var vals [5]uint64
	for i := range vals {
		v, n := binary.Uvarint(head)
		if n <= 0 || v > 1<<31 {
			return nil, errors.New("bad header")
		}
		vals[i], head = v, head[n:]
	}
	rl, n := binary.Uvarint(head)
	if n <= 0 || rl != uint64(len(head)-n) {
		return nil, errors.New("bad header")
	}
	if vals[0] < 1 || vals[0] > storedVersion {
		return nil, fmt.Errorf("layout version %d, want 1 to %d", vals[0], storedVersion)
	}
	nFiles, nMods, nNames := int(vals[1]), int(vals[2]), int(vals[3])
	st := &stored{m: m, load: load, graph: vals[4] == 1}
	st.cur.Store(&loadedFiles{files: make([]atomic.Pointer[File], nFiles)})
	t := &Table{root: string(head[n:]), st: st}
	sec := &sections{m: m}
	st.paths = sec.strs("sym.paths", nFiles)
	st.mods = sec.strs("sym.mods", nMods)
	st.names = sec.strs("sym.names", nNames)
	st.modOff = sec.offs("sym.modOff", nMods)
	st.nameOff = sec.offs("sym.nameOff", nNames)
	if err := sec.err(); err != nil {
		return nil, err
	}
	st.modFile = sec.i32("sym.modFile", int(st.modOff[nMods]))
	st.modPrio = sec.i32("sym.modPrio", int(st.modOff[nMods]))
	st.defFile = sec.i32("sym.defFile", int(st.nameOff[nNames]))
	st.defSym = sec.i32("sym.defSym", int(st.nameOff[nNames]))
	st.modOneDir = sec.bytes("sym.modOneDir", nMods)
	if st.graph {
		st.outOff = sec.offs("sym.outOff", nFiles)
		st.inOff = sec.offs("sym.inOff", nFiles)
		if err := sec.err(); err != nil {
			return nil, err
		}
		st.out = sec.i32("sym.out", int(st.outOff[nFiles]))
		st.in = sec.i32("sym.in", int(st.inOff[nFiles]))
		st.rank, err = mapfile.Get[float64](m, "sym.rank")
		if err == nil && len(st.rank) != nFiles {
			err = errors.New("section sym.rank: bad size")
		}
		sec.errs = append(sec.errs, err)
	}
	if err := sec.err(); err != nil {
		return nil, err
	}
	if vals[0] >= 2 {
		if err := st.openRefs(sec, nFiles); err != nil {
			return nil, err
		}
		st.tops = vals[0] >= 3
	}
	// Every file id the arrays hold must name a file.
	for _, ids := range [][]int32{st.modFile, st.defFile, st.out, st.in} {
		for _, id := range ids {
			if id < 0 || int(id) >= nFiles {
				return nil, errors.New("file id out of range")
			}
		}
	}
	return t, nil
}

// openRefs reads the indexes of version 2 (see the comment above
// WriteTo).
func (st *stored) openRefs(sec *sections, nFiles int) error {
	st.defKind = sec.bytes("sym.defKind", len(st.defFile))
	st.fileLang = sec.bytes("sym.fileLang", nFiles)
	langs := sec.allStrs("sym.langs")
	st.imps = sec.allStrs("sym.imps")
	st.impOff = sec.offs("sym.impOff", nFiles)
	if err := sec.err(); err != nil {
		return err
	}
	st.imp = sec.i32("sym.imp", int(st.impOff[nFiles]))
	if err := sec.err(); err != nil {
		return err
	}
	st.langs = make([]*lang.Language, langs.Len())
	for i := range st.langs {
		if name := langs.View(uint32(i)); name != "" {
			st.langs[i] = lang.ByName(name)
		}
	}
	for _, l := range st.fileLang {
		if int(l) >= len(st.langs) {
			return errors.New("section sym.fileLang: language out of range")
		}
	}
	for _, id := range st.imp {
		if id < 0 || int(id) >= st.imps.Len() {
			return errors.New("section sym.imp: module out of range")
		}
	}
	st.refs = true
	return nil
}

// sections reads the sections of a stored table, each checked for the
// size the others give it, gathering the errors (err).
type sections struct {
	m    *mapfile.File
	errs []error
}

func (sec *sections) err() error { return errors.Join(sec.errs...) }

// strs reads the n strings of section name.
func (sec *sections) strs(name string, n int) mapfile.Strings {
	s, err := mapfile.GetStrings(sec.m, name, n, false)
	sec.errs = append(sec.errs, err)
	return s
}

// allStrs reads the strings of section name, as many as its offsets
// hold.
func (sec *sections) allStrs(name string) mapfile.Strings {
	off, err := mapfile.Get[uint32](sec.m, name+".off")
	if err != nil {
		sec.errs = append(sec.errs, err)
		return mapfile.Strings{}
	}
	return sec.strs(name, max(len(off)-1, 0))
}

// i32 reads the n values of section name.
func (sec *sections) i32(name string, n int) []int32 {
	s, err := mapfile.Get[int32](sec.m, name)
	if err == nil && len(s) != n {
		err = fmt.Errorf("section %s: %d values, want %d", name, len(s), n)
	}
	sec.errs = append(sec.errs, err)
	return s
}

// offs reads section name, the ascending offsets of n lists from 0.
func (sec *sections) offs(name string, n int) []uint32 {
	s, err := mapfile.Get[uint32](sec.m, name)
	if err == nil && (len(s) != n+1 || s[0] != 0 || !slices.IsSorted(s)) {
		err = fmt.Errorf("section %s: bad offsets", name)
	}
	sec.errs = append(sec.errs, err)
	return s
}

// bytes reads section name, of n bytes.
func (sec *sections) bytes(name string, n int) []byte {
	s, err := sec.m.Section(name)
	if err == nil && len(s) != n {
		err = fmt.Errorf("section %s: bad size", name)
	}
	sec.errs = append(sec.errs, err)
	return s
}

// pin returns the loaded files lookups go through: the current ones, or
// new ones when those hold more than MaxLoaded files.
func (st *stored) pin() *loadedFiles {
	for {
		c := st.cur.Load()
		if c.n.Load() <= MaxLoaded {
			return c
		}
		next := &loadedFiles{files: make([]atomic.Pointer[File], len(c.files))}
		if st.cur.CompareAndSwap(c, next) {
			return next
		}
	}
}

func (st *stored) file(c *loadedFiles, id int32) *File {
	if f := c.files[id].Load(); f != nil {
		return f
	}
	f := st.load(int(id))
	if f == nil || f.Path != st.paths.View(uint32(id)) {
		// The loader could not read it: the file without an outline.
		f = &File{Path: st.paths.Str(uint32(id))}
	}
	if !c.files[id].CompareAndSwap(nil, f) {
		f = c.files[id].Load()
	} else {
		c.n.Add(1)
	}
	runtime.KeepAlive(st.m)
	return f
}

func (st *stored) lookup(path string) (int32, bool) {
	id, ok := st.paths.Search(path)
	runtime.KeepAlive(st.m)
	return int32(id), ok
}

func (st *stored) moduleList(c *loadedFiles, name string) *modList {
	if v, ok := c.modCache.Load(name); ok {
		return v.(*modList)
	}
	id, ok := st.mods.Search(name)
	var ml *modList
	if ok {
		lo, hi := st.modOff[id], st.modOff[id+1]
		ml = &modList{files: make([]*File, 0, hi-lo), prio: slices.Clone(st.modPrio[lo:hi]), oneDir: st.modOneDir[id] == 1}
		for _, f := range st.modFile[lo:hi] {
			ml.files = append(ml.files, st.file(c, f))
		}
	}
	v, _ := c.modCache.LoadOrStore(name, ml)
	runtime.KeepAlive(st.m)
	return v.(*modList)
}

func (st *stored) named(c *loadedFiles, name string) []Def {
	if v, ok := c.nameCache.Load(name); ok {
		return v.([]Def)
	}
	id, ok := st.names.Search(name)
	var defs []Def
	if ok {
		for i := st.nameOff[id]; i < st.nameOff[id+1]; i++ {
			f := st.file(c, st.defFile[i])
			if s := int(st.defSym[i]); s >= 0 && s < len(f.Symbols) {
				defs = append(defs, Def{f, s})
			}
		}
	}
	v, _ := c.nameCache.LoadOrStore(name, defs)
	runtime.KeepAlive(st.m)
	return v.([]Def)
}

func (st *stored) importers(id int32) ([]int32, bool) {
	if !st.graph {
		return nil, false
	}
	in := slices.Clone(st.in[st.inOff[id]:st.inOff[id+1]])
	runtime.KeepAlive(st.m)
	return in, true
}

func (st *stored) rankOf(id int32) (float64, bool) {
	if !st.graph {
		return 0, false
	}
	return st.rank[id], true
}
