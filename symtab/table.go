package symtab

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/graphcoder/graphcoder/lang"
)

// File is one file's outline in the table: what its front end recorded
// (lang.File.Symbols, Imports, Package) and the indexes derived from it.
// A File is immutable once made.
type File struct {
	Path     string // slash-separated, relative to the repository root
	Language *lang.Language
	Package  string
	Symbols  []lang.Symbol
	Imports  []lang.Import

	top      []int32   // top-level symbols
	children [][]int32 // members of each symbol
	modules  []string  // the module names of the file, most specific first
	refs     []lang.ImportRef
	implicit []lang.ImportRef
	imported []string // the absolute modules the file imports, sorted, distinct
	// The top-level methods of the file by the name of their receiver's
	// type (its only base), where the language declares methods outside
	// their types (lang.Scoping.DetachedMethods).
	detached map[string][]int32
}

// Repo is the repository the files of a table belong to: the base name
// of its root folder and the module systems of its languages, configured
// by the repository's own files where a language reads any
// (lang.Configurable: go.mod, tsconfig.json). A Repo is safe for
// concurrent use.
type Repo struct {
	name string
	dir  string
	mu   sync.Mutex
	ms   map[*lang.Language]lang.ModuleSystem
}

// NewRepo returns the repository whose root folder on disk is dir; its
// configuration files are read as files ask for module names.
func NewRepo(dir string) *Repo {
	return &Repo{name: filepath.Base(dir), dir: dir, ms: map[*lang.Language]lang.ModuleSystem{}}
}

// RepoNamed returns a repository known by its root folder's name alone:
// no configuration file is read (a root that is not on disk, tests).
func RepoNamed(name string) *Repo {
	return &Repo{name: name, ms: map[*lang.Language]lang.ModuleSystem{}}
}

// Name returns the base name of the repository's root folder.
func (r *Repo) Name() string {
	if r == nil {
		return ""
	}
	return r.name
}

// Modules returns the module system of language l in the repository, nil
// when l has none.
func (r *Repo) Modules(l *lang.Language) lang.ModuleSystem {
	if l == nil || l.Modules == nil {
		return nil
	}
	c, ok := l.Modules.(lang.Configurable)
	if !ok || r == nil || r.dir == "" {
		return l.Modules
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ms := r.ms[l]
	if ms == nil {
		ms = c.Configure(r.dir)
		r.ms[l] = ms
	}
	return ms
}

// NewFile makes the table's record of a file of repo. Symbols whose
// Parent is out of order are taken as top-level; a language without a
// module system gives a file no module names and imports that resolve to
// nothing.
func NewFile(path string, l *lang.Language, repo *Repo, pkg string, symbols []lang.Symbol, imports []lang.Import) *File {
	f := &File{Path: path, Language: l, Package: pkg, Symbols: symbols, Imports: imports,
		children: make([][]int32, len(symbols))}
	for i := range symbols {
		p := symbols[i].Parent
		if p >= 0 && p < i && symbols[p].Kind.IsType() {
			f.children[p] = append(f.children[p], int32(i))
		} else {
			f.top = append(f.top, int32(i))
		}
	}
	ms := repo.Modules(l)
	if ms == nil {
		return f
	}
	if l.Scoping.DetachedMethods {
		for _, i := range f.top {
			if s := &symbols[i]; s.Kind == lang.SymMethod && len(s.Bases) == 1 {
				if f.detached == nil {
					f.detached = map[string][]int32{}
				}
				f.detached[s.Bases[0]] = append(f.detached[s.Bases[0]], i)
			}
		}
	}
	f.modules = ms.ModuleNames(path, pkg, repo.Name())
	f.refs = make([]lang.ImportRef, len(imports))
	for i, imp := range imports {
		f.refs[i] = ms.Resolve(imp, path, pkg)
		f.imported = append(f.imported, f.refs[i].Module)
	}
	f.implicit = ms.Implicit(path, pkg)
	slices.Sort(f.imported)
	f.imported = slices.Compact(f.imported)
	return f
}

// isTop reports whether symbol i is one of the file's top-level ones
// (Top): not a member of a type before it.
func (f *File) isTop(i int) bool {
	p := f.Symbols[i].Parent
	return !(p >= 0 && p < i && f.Symbols[p].Kind.IsType())
}

// Top returns the indexes of the file's top-level symbols.
func (f *File) Top() []int32 { return f.top }

// Members returns the indexes of the members of symbol i.
func (f *File) Members(i int) []int32 {
	if i < 0 || i >= len(f.children) {
		return nil
	}
	return f.children[i]
}

// FileMembers returns the indexes of the members of symbol i the file
// declares: those of its body, then the methods declared outside it
// (lang.Scoping.DetachedMethods) in this file.
func (f *File) FileMembers(i int) []int32 {
	in := f.Members(i)
	if f.detached == nil || i < 0 || i >= len(f.Symbols) || !f.Symbols[i].Kind.IsType() {
		return in
	}
	out := f.detached[f.Symbols[i].Name]
	if len(out) == 0 {
		return in
	}
	return append(slices.Clip(in), out...)
}

// Modules returns the module names of the file, most specific first.
func (f *File) Modules() []string { return f.modules }

// Enclosing returns the innermost type symbol whose rows hold row, -1 for
// none.
func (f *File) Enclosing(row int) int {
	best := -1
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if s.Kind.IsType() && s.StartRow <= row && row <= s.EndRow {
			if best < 0 || s.StartRow >= f.Symbols[best].StartRow {
				best = i
			}
		}
	}
	return best
}

// Def is one symbol of one file of a table.
type Def struct {
	File *File
	Sym  int
}

// Symbol returns the definition's symbol.
func (d Def) Symbol() *lang.Symbol { return &d.File.Symbols[d.Sym] }

// Qualified returns the definition's qualified name (Class.method).
func (d Def) Qualified() string { return lang.QualifiedName(d.File.Symbols, d.Sym) }

// Parent returns the type the definition is a member of, or ok false.
func (d Def) Parent() (Def, bool) {
	p := d.File.Symbols[d.Sym].Parent
	if p < 0 || p >= d.Sym {
		return Def{}, false
	}
	return Def{d.File, p}, true
}

func (d Def) String() string { return d.File.Path + ":" + d.Qualified() }

// modRef is a file under one of its module names, at the position of the
// name in the file's list (0 is its most specific name).
type modRef struct {
	file int32
	prio int32
}

// Table is an immutable set of file outlines with the indexes lookups
// need: module name to files, symbol name to definitions, and for the
// files of one table the import graph among them (see graph.go). A View
// stacks tables.
type Table struct {
	root    string
	files   []*File
	byPath  map[string]int32
	modules map[string]*modList
	names   map[string][]Def

	// The import graph of the table's own files, resolved within the
	// table (out, in: file ids, sorted, distinct) and the PageRank of
	// each file over it.
	out, in [][]int32
	rank    []float64

	// st, when set, holds all of the above in the arrays of a mapped
	// file, the files loaded when first asked for (stored.go); the
	// fields above are then unset. pinned, when set, are the loaded
	// files a pinned table reads (View.Pin); else st's current ones.
	st     *stored
	pinned *loadedFiles
}

// loaded returns the loaded files of a stored table's lookups.
func (t *Table) loaded() *loadedFiles {
	if t.pinned != nil {
		return t.pinned
	}
	return t.st.cur.Load()
}

// len returns the number of files.
func (t *Table) len() int {
	if t.st != nil {
		return t.st.paths.Len()
	}
	return len(t.files)
}

// file returns file id.
func (t *Table) file(id int32) *File {
	if t.st != nil {
		return t.st.file(t.loaded(), id)
	}
	return t.files[id]
}

// lookup returns the id of the file at path.
func (t *Table) lookup(path string) (int32, bool) {
	if t.st != nil {
		return t.st.lookup(path)
	}
	id, ok := t.byPath[path]
	return id, ok
}

// moduleList returns the files named name, nil for none.
func (t *Table) moduleList(name string) *modList {
	if t.st != nil {
		return t.st.moduleList(t.loaded(), name)
	}
	return t.modules[name]
}

// named returns the definitions called name.
func (t *Table) named(name string) []Def {
	if t.st != nil {
		return t.st.named(t.loaded(), name)
	}
	return t.names[name]
}

// importers returns the ids of the files importing file id, nil without
// a graph.
func (t *Table) importers(id int32) ([]int32, bool) {
	if t.st != nil {
		return t.st.importers(id)
	}
	if t.in == nil {
		return nil, false
	}
	return t.in[id], true
}

// rankOf returns the PageRank of file id, ok false without a graph.
func (t *Table) rankOf(id int32) (float64, bool) {
	if t.st != nil {
		return t.st.rankOf(id)
	}
	if len(t.rank) == 0 {
		return 0, false
	}
	return t.rank[id], true
}

// Builder collects files into a Table. Add is not safe for concurrent use.
type Builder struct {
	root  string
	files []*File
	seen  map[string]bool
	graph bool
}

// NewBuilder starts a table of the repository whose root folder is called
// root (its base name: a Python package indexed as the root is named by
// it). With graph, Finish resolves the import graph of the table's files
// and ranks them; a small overlay table does without.
func NewBuilder(root string, graph bool) *Builder {
	return &Builder{root: root, seen: map[string]bool{}, graph: graph}
}

// Root returns the root folder name files are made with.
func (b *Builder) Root() string { return b.root }

// Add adds a file; a path added twice is an error.
func (b *Builder) Add(f *File) error {
	if b.seen[f.Path] {
		return fmt.Errorf("symbol table: %s added twice", f.Path)
	}
	b.seen[f.Path] = true
	b.files = append(b.files, f)
	return nil
}

// Finish builds the table.
func (b *Builder) Finish() *Table {
	slices.SortFunc(b.files, func(x, y *File) int { return strings.Compare(x.Path, y.Path) })
	t := &Table{root: b.root, files: b.files, byPath: make(map[string]int32, len(b.files)),
		modules: map[string]*modList{}, names: map[string][]Def{}}
	refs := map[string][]modRef{}
	for id, f := range t.files {
		t.byPath[f.Path] = int32(id)
		for prio, m := range f.modules {
			refs[m] = append(refs[m], modRef{int32(id), int32(prio)})
		}
		for i := range f.Symbols {
			n := f.Symbols[i].Name
			t.names[n] = append(t.names[n], Def{f, i})
		}
	}
	for name, rs := range refs {
		// Files are added by path: refs of one name are in path order.
		slices.SortStableFunc(rs, func(a, b modRef) int { return cmp.Compare(a.prio, b.prio) })
		ml := &modList{files: make([]*File, len(rs)), prio: make([]int32, len(rs)), oneDir: true}
		for i, r := range rs {
			ml.files[i], ml.prio[i] = t.files[r.file], r.prio
			if dirOf(ml.files[i].Path) != dirOf(ml.files[0].Path) {
				ml.oneDir = false
			}
		}
		t.modules[name] = ml
	}
	if b.graph {
		t.buildGraph()
	}
	b.files, b.seen = nil, map[string]bool{}
	return t
}

// Files returns the number of files of the table.
func (t *Table) Files() int { return t.len() }

// View is a stack of tables: a base loaded whole and tables of files
// changed since (a server's edited files, a request's own buffer), each
// replacing the versions below it of the files it holds. Removed paths
// are hidden in every table below. A View is immutable and safe for
// concurrent use.
type View struct {
	t       *Table
	parent  *View
	removed map[string]bool
}

// NewView returns a view of one table.
func NewView(t *Table) *View { return &View{t: t} }

// Pin returns the view with its stored tables bound to the outlines
// loaded so far, for one request: whatever the request loads stays
// loaded for it, and the same file is the same *File throughout (the
// stored tables keep at most MaxLoaded of them between pins, starting
// again from none past that). Views of in-memory tables are returned as
// they are.
func (v *View) Pin() *View {
	if v == nil {
		return nil
	}
	t := v.t
	if t != nil && t.st != nil && t.pinned == nil {
		t = &Table{root: t.root, st: t.st, pinned: t.st.pin()}
	}
	parent := v.parent.Pin()
	if t == v.t && parent == v.parent {
		return v
	}
	return &View{t: t, parent: parent, removed: v.removed}
}

// With returns the view with t on top, paths in removed hidden below it.
func (v *View) With(t *Table, removed []string) *View {
	nv := &View{t: t, parent: v}
	if len(removed) > 0 {
		nv.removed = make(map[string]bool, len(removed))
		for _, p := range removed {
			nv.removed[p] = true
		}
	}
	return nv
}

// Root returns the root folder name of the base table.
func (v *View) Root() string {
	for ; v != nil; v = v.parent {
		if v.parent == nil && v.t != nil {
			return v.t.root
		}
	}
	return ""
}

// hides reports whether the layers from v up hide the version of path in
// a table below v.
func (v *View) hides(path string) bool {
	if v.removed[path] {
		return true
	}
	if v.t != nil {
		_, ok := v.t.lookup(path)
		return ok
	}
	return false
}

// File returns the visible version of path, or nil.
func (v *View) File(path string) *File {
	for l := v; l != nil; l = l.parent {
		if l.t != nil {
			if id, ok := l.t.lookup(path); ok {
				return l.t.file(id)
			}
		}
		if l.removed[path] {
			return nil
		}
	}
	return nil
}

// visible reports whether f is the version of its path the view shows.
func (v *View) visible(f *File) bool { return v.File(f.Path) == f }

// Files counts the visible files.
func (v *View) Files() int {
	n := 0
	seen := map[string]bool{}
	for l := v; l != nil; l = l.parent {
		if l.t == nil {
			continue
		}
		for id := range int32(l.t.len()) {
			p := l.t.path(id)
			if !seen[p] && v.sees(l, p) {
				n++
			}
			seen[p] = true
		}
	}
	return n
}

// sees reports whether the version of path in layer l is the one the
// view shows: no layer above l holds or removes it.
func (v *View) sees(l *View, path string) bool {
	for u := v; u != l; u = u.parent {
		if u.hides(path) {
			return false
		}
	}
	return true
}

// path returns the path of file id.
func (t *Table) path(id int32) string {
	if t.st != nil {
		return t.st.paths.Str(uint32(id))
	}
	return t.files[id].Path
}

// module returns the visible files named name, best first for a file at
// from: by the position of the name among the file's module names, then
// by how many leading folders the file shares with from, then by path.
func (v *View) module(name, from string) []*File {
	var lists []*modList
	for l := v; l != nil; l = l.parent {
		if l.t != nil {
			if ml := l.t.moduleList(name); ml != nil {
				lists = append(lists, ml)
			}
		}
	}
	switch {
	case len(lists) == 0:
		return nil
	case len(lists) == 1 && v.parent == nil:
		// One table: its own order, unless the best files lie in
		// several folders.
		if lists[0].oneDir {
			return lists[0].files
		}
	}
	var cs []modCand
	oneDir := true
	dir := ""
	for _, ml := range lists {
		for i, f := range ml.files {
			if len(lists) > 1 || v.parent != nil {
				if !v.visible(f) {
					continue
				}
			}
			d := dirOf(f.Path)
			if len(cs) == 0 {
				dir = d
			} else if d != dir {
				oneDir = false
			}
			cs = append(cs, modCand{f, ml.prio[i], 0})
		}
	}
	if !oneDir {
		for i := range cs {
			cs[i].near = sharedDirs(cs[i].f.Path, from)
		}
	}
	slices.SortFunc(cs, func(a, b modCand) int {
		return cmp.Or(cmp.Compare(a.prio, b.prio), -cmp.Compare(a.near, b.near), strings.Compare(a.f.Path, b.f.Path))
	})
	out := make([]*File, len(cs))
	for i, c := range cs {
		out[i] = c.f
	}
	return out
}

type modCand struct {
	f          *File
	prio, near int32
}

// modList is the files of one module name in one table, by (position of
// the name in the file's list, path); oneDir when they are all in one
// folder, so that nearness cannot reorder them.
type modList struct {
	files  []*File
	prio   []int32
	oneDir bool
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// sharedDirs counts the leading folders two paths share.
func sharedDirs(a, b string) int32 {
	var n int32
	for {
		i, j := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		if i < 0 || j < 0 || a[:i] != b[:j] {
			return n
		}
		n++
		a, b = a[i+1:], b[j+1:]
	}
}

// Named returns the visible definitions called name, in every file.
func (v *View) Named(name string) []Def {
	var out []Def
	for l := v; l != nil; l = l.parent {
		if l.t == nil {
			continue
		}
		for _, d := range l.t.named(name) {
			// Visible unless a layer above l hides its path (visible
			// would look the path up in every layer down to l, the
			// base's lookup a search of its paths).
			if v.sees(l, d.File.Path) {
				out = append(out, d)
			}
		}
	}
	return out
}

// FromLang makes the table's record of a parsed file of repo.
func FromLang(f *lang.File, l *lang.Language, repo *Repo) *File {
	return NewFile(f.Path, l, repo, f.Package, f.Symbols, f.Imports)
}

// FileAt returns the table's file i, in path order.
func (t *Table) FileAt(i int) *File { return t.file(int32(i)) }
