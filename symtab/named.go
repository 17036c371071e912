package symtab

import (
	"iter"
	"runtime"
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
}

// NamedRefs returns the visible definitions called name, as Named does
// (the same definitions, in the same order), as refs. A stored table of
// layout version 1 and tables in memory give refs of loaded files.
func (v *View) NamedRefs(name string) iter.Seq[NamedRef] {
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
					f := st.defFile[i]
					if !v.sees(l, st.paths.View(uint32(f))) {
						continue
					}
					if !yield(NamedRef{Sym: int(st.defSym[i]), Kind: lang.SymbolKind(st.defKind[i]), Language: st.langs[st.fileLang[f]], t: t, id: f}) {
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
	direct := false
	n.withPath(func(p string) { direct = p == r.f.Path || r.direct[p] })
	if direct {
		return 1
	}
	if n.f != nil {
		return jaccard(r.imported, n.f.imported)
	}
	st := n.t.st
	known := r.importIDs(st)
	b := st.imp[st.impOff[n.id]:st.impOff[n.id+1]]
	if len(r.imported) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for i, j := 0, 0; i < len(known) && j < len(b); {
		switch {
		case known[i] == b[j]:
			inter++
			i++
			j++
		case known[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(inter) / float64(len(r.imported)+len(b)-inter)
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
