package symtab

import (
	"cmp"
	"iter"
	"runtime"
	"slices"
	"strings"

	"github.com/graphcoder/graphcoder/lang"
)

// NamedRef is a definition called a name as the symbol table's indexes
// know it: its symbol's kind and index, its file's language, path,
// PageRank and imports, read from a stored table's arrays without
// decoding the file's outline (Def does). A lookup by name on a large
// repository meets thousands of definitions (toString, get) and keeps a
// few: ranking them by their refs costs microseconds where decoding
// their outlines cost tens of milliseconds. A NamedRef is valid while
// the view it came from is.
type NamedRef struct {
	Sym      int
	Kind     lang.SymbolKind
	Language *lang.Language
	t        *Table // the layer's table (pinned)
	id       int32  // the file's id in t's stored arrays, when f is nil
	f        *File  // the file, when the table holds it in memory
	top      uint8  // a top-level definition of its file: topYes, topNo, or 0 for unknown
}

const (
	topYes = 1 + iota
	topNo
)

// NamedRefs returns the visible definitions called name, as Named does
// (the same definitions, in the same order), as refs. A stored table of
// layout version 1 and tables in memory give refs of loaded files.
func (v *View) NamedRefs(name string) iter.Seq[NamedRef] { return v.namedRefs(name, false) }

// namedRefs is NamedRefs, with topOnly leaving out early definitions a
// stored table says are not top-level (the caller still checks isTop).
func (v *View) namedRefs(name string, topOnly bool) iter.Seq[NamedRef] {
	return func(yield func(NamedRef) bool) {
		for l := v; l != nil; l = l.parent {
			t := l.t
			if t == nil {
				continue
			}
			if st := t.st; st != nil && st.refs {
				id, ok := st.names.Search(name)
				if !ok {
					continue
				}
				for i := st.nameOff[id]; i < st.nameOff[id+1]; i++ {
					if topOnly && st.tops && st.defKind[i]&topBit == 0 {
						continue
					}
					f := st.defFile[i]
					if !v.sees(l, st.paths.View(uint32(f))) {
						continue
					}
					k := st.defKind[i]
					n := NamedRef{Sym: int(st.defSym[i]), Kind: lang.SymbolKind(k &^ topBit), Language: st.langs[st.fileLang[f]], t: t, id: f}
					if st.tops {
						n.top = topNo
						if k&topBit != 0 {
							n.top = topYes
						}
					}
					if !yield(n) {
						return
					}
				}
				runtime.KeepAlive(st.m)
				continue
			}
			for _, d := range t.named(name) {
				if v.sees(l, d.File.Path) && !yield(NamedRef{Sym: d.Sym, Kind: d.Symbol().Kind, Language: d.File.Language, t: t, f: d.File}) {
					return
				}
			}
		}
	}
}

// isTop reports whether the ref is a top-level definition of its file
// (File.Top), decoding the outline when the table does not say.
func (n NamedRef) isTop() bool {
	switch {
	case n.top != 0:
		return n.top == topYes
	case n.f != nil:
		return n.Sym >= 0 && n.Sym < len(n.f.Symbols) && n.f.isTop(n.Sym)
	}
	d, ok := n.Def()
	return ok && d.File.isTop(d.Sym)
}

// Def returns the definition, decoding its file's outline if it is not
// loaded; false when the outline does not hold the symbol (it could not
// be read: Named leaves such definitions out).
func (n NamedRef) Def() (Def, bool) {
	f := n.f
	if f == nil {
		f = n.t.file(n.id)
	}
	if n.Sym < 0 || n.Sym >= len(f.Symbols) {
		return Def{}, false
	}
	return Def{f, n.Sym}, true
}

// withPath calls fn with the path of the ref's file (a string of the
// mapping for a stored table: fn must not keep it).
func (n NamedRef) withPath(fn func(string)) {
	if n.f != nil {
		fn(n.f.Path)
		return
	}
	fn(n.t.st.paths.View(uint32(n.id)))
	runtime.KeepAlive(n.t.st.m)
}

// ComparePaths compares the paths of the files of two refs.
func ComparePaths(a, b NamedRef) int {
	var c int
	a.withPath(func(pa string) {
		b.withPath(func(pb string) { c = strings.Compare(pa, pb) })
	})
	return c
}

// RankOf is Rank of the ref's file.
func (v *View) RankOf(n NamedRef) float64 {
	b := v
	for b.parent != nil {
		b = b.parent
	}
	if n.f == nil && b.t != nil && b.t.st == n.t.st {
		if r, ok := b.t.rankOf(n.id); ok {
			return r * float64(b.t.len())
		}
		return 0
	}
	var r float64
	n.withPath(func(p string) { r = v.Rank(p) })
	return r
}

// RelationOfRef is RelationOf the ref's file, from the stored table's
// imports when its outline is not loaded.
func (r *Relations) RelationOfRef(n NamedRef) float64 {
	if n.f != nil {
		return r.RelationOf(n.f)
	}
	st := n.t.st
	direct := false
	n.withPath(func(p string) { direct = p == r.f.Path || r.direct[p] })
	if direct {
		return 1
	}
	// jaccard of the two lists: what the file imports that the table's
	// files do not counts in the union.
	b := st.imp[st.impOff[n.id]:st.impOff[n.id+1]]
	return jaccardOf(shared(r.importIDs(st), b), len(r.imported), len(b))
}

// importIDs returns the ids in st's module table of the modules the
// relations' file imports that st's files import too, ascending (the
// table is in byte order, as imported is).
func (r *Relations) importIDs(st *stored) []int32 {
	for _, k := range r.ids {
		if k.st == st {
			return k.ids
		}
	}
	ids := []int32{}
	for _, m := range r.imported {
		if id, ok := st.imps.Search(m); ok {
			ids = append(ids, int32(id))
		}
	}
	runtime.KeepAlive(st.m)
	r.ids = append(r.ids, storedIDs{st, ids})
	return ids
}

// storedIDs are the ids of a Relations' imports in one stored table.
type storedIDs struct {
	st  *stored
	ids []int32
}

// modulePrio returns the position of module name among the module names
// of the ref's file (0: its most specific), from the module lists of the
// ref's table, without decoding outlines; false when the file does not
// have the name.
func (n NamedRef) modulePrio(name string) (int32, bool) {
	if n.f != nil {
		ml := n.t.moduleList(name)
		if ml == nil {
			return 0, false
		}
		for i, f := range ml.files {
			if f == n.f {
				return ml.prio[i], true
			}
		}
		return 0, false
	}
	st := n.t.st
	id, ok := st.mods.Search(name)
	runtime.KeepAlive(st.m)
	if !ok {
		return 0, false
	}
	for i := st.modOff[id]; i < st.modOff[id+1]; i++ {
		if st.modFile[i] == n.id {
			return st.modPrio[i], true
		}
	}
	return 0, false
}

// moduleHas reports whether the view shows a file of module name, as
// len(v.module(name, from)) > 0 does, without decoding outlines.
func (v *View) moduleHas(name string) bool {
	for range v.moduleFiles(name) {
		return true
	}
	return false
}

// moduleFile is a visible file of a module as its table's module list
// holds it: by id in a stored table (f nil), else the file.
type moduleFile struct {
	t    *Table
	id   int32
	f    *File
	prio int32
	path string // of the mapping for a stored file: not kept past the loop
}

// moduleFiles returns the visible files of module name, layer by layer,
// each in its list's order, without decoding outlines.
func (v *View) moduleFiles(name string) iter.Seq[moduleFile] {
	return func(yield func(moduleFile) bool) {
		for l := v; l != nil; l = l.parent {
			t := l.t
			if t == nil {
				continue
			}
			if st := t.st; st != nil {
				id, ok := st.mods.Search(name)
				if !ok {
					continue
				}
				for i := st.modOff[id]; i < st.modOff[id+1]; i++ {
					p := st.paths.View(uint32(st.modFile[i]))
					if v.sees(l, p) && !yield(moduleFile{t: t, id: st.modFile[i], prio: st.modPrio[i], path: p}) {
						return
					}
				}
				runtime.KeepAlive(st.m)
				continue
			}
			if ml := t.modules[name]; ml != nil {
				for i, f := range ml.files {
					if v.sees(l, f.Path) && !yield(moduleFile{t: t, f: f, prio: ml.prio[i], path: f.Path}) {
						return
					}
				}
			}
		}
	}
}

// refsKnowTops reports whether every stored table of the view says which
// of its definitions are top-level (layout version 3), so that
// firstDefining decodes no outline to find out.
func (v *View) refsKnowTops() bool {
	for l := v; l != nil; l = l.parent {
		if l.t != nil && l.t.st != nil && !l.t.st.tops {
			return false
		}
	}
	return true
}

// firstDefining returns the first file of module name, in the order
// v.module gives them for a file at from, that has a top-level
// definition called member (topNamed), nil for none: among the
// definitions called member (NamedRefs), those top-level in a visible
// file of the module, the file first by (the position of the module's
// name among the file's, the leading folders it shares with from, path).
// Only that file's outline is decoded.
// A file whose outline cannot be decoded has no definition: the next
// one is taken.
func (v *View) firstDefining(name, member, from string) *File {
	var skip []NamedRef
	for {
		best, found := v.firstRef(name, member, from, skip)
		if !found {
			return nil
		}
		if d, ok := best.Def(); ok {
			return d.File
		}
		skip = append(skip, best)
	}
}

// firstRef is firstDefining's choice among the refs not in skip (nor of
// their files).
func (v *View) firstRef(name, member, from string, skip []NamedRef) (NamedRef, bool) {
	var best NamedRef
	var bestPrio, bestNear int32
	found := false
	for n := range v.namedRefs(member, true) {
		if !n.isTop() {
			continue
		}
		prio, ok := n.modulePrio(name)
		if !ok || slices.ContainsFunc(skip, func(s NamedRef) bool { return s.t == n.t && s.id == n.id && s.f == n.f }) {
			continue
		}
		var near int32
		n.withPath(func(p string) { near = sharedDirs(p, from) })
		if found {
			c := cmp.Or(cmp.Compare(prio, bestPrio), -cmp.Compare(near, bestNear))
			if c == 0 {
				c = ComparePaths(n, best)
			}
			if c >= 0 {
				continue
			}
		}
		best, bestPrio, bestNear, found = n, prio, near, true
	}
	return best, found
}

// moduleFirst returns the first n of the view's files of module name for
// a file at from, in the order of v.module, decoding the outlines of
// those alone (v.module decodes every file of the module: a Java package
// has hundreds).
func (v *View) moduleFirst(name, from string, n int) []*File {
	type cand struct {
		moduleFile
		near int32
	}
	var cs []cand
	for m := range v.moduleFiles(name) {
		cs = append(cs, cand{m, sharedDirs(m.path, from)})
	}
	slices.SortFunc(cs, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.prio, b.prio), -cmp.Compare(a.near, b.near), strings.Compare(a.path, b.path))
	})
	out := make([]*File, 0, min(n, len(cs)))
	for _, c := range cs[:min(n, len(cs))] {
		if c.f == nil {
			c.f = c.t.file(c.id)
		}
		out = append(out, c.f)
	}
	for _, c := range cs {
		if c.t.st != nil {
			runtime.KeepAlive(c.t.st.m) // the paths sorted are of the mappings
		}
	}
	return out
}
