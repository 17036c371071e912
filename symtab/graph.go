package symtab

import (
	"cmp"
	"math"
	"slices"
)

// maxWildcardEdges bounds the files one wildcard import links to in the
// import graph (a Java `import p.*` names a whole package).
const maxWildcardEdges = 32

// ImportTargets returns the visible repository files the imports of f
// name, each once, in import order: the file defining an imported member
// (or the submodule it is), the module's file for a module import, the
// package's files (at most maxWildcardEdges) for a wildcard. Imports the
// repository does not define (the standard library, other packages)
// name none.
func (v *View) ImportTargets(f *File) []*File {
	var out []*File
	seen := map[*File]bool{f: true}
	add := func(g *File) {
		if g != nil && !seen[g] && g.Path != f.Path { // a file may import its own module (an ES default export)
			seen[g] = true
			out = append(out, g)
		}
	}
	// The files of each module in their order (View.module), of which
	// only those added are decoded.
	for _, ref := range f.refs {
		switch {
		case ref.All && ref.Member == "":
			for _, g := range v.moduleFirst(ref.Module, f.Path, maxWildcardEdges) {
				add(g)
			}
		case ref.Member != "":
			add(v.memberFile(ref.Module, ref.Member, f.Path))
		default:
			for _, g := range v.moduleFirst(ref.Module, f.Path, 1) {
				add(g)
			}
		}
	}
	return out
}

// memberFile returns the file defining the top-level name a member path
// starts with among the files of module (its first file when none does),
// or the file of the submodule module.first; nil when neither exists.
func (v *View) memberFile(module, member, from string) *File {
	first := member
	for i := 0; i < len(first); i++ {
		if first[i] == '.' {
			first = first[:i]
			break
		}
	}
	if v.refsKnowTops() {
		if g := v.firstDefining(module, first, from); g != nil {
			return g
		}
	} else {
		for _, g := range v.module(module, from) {
			for _, i := range g.top {
				if g.Symbols[i].Name == first {
					return g
				}
			}
		}
	}
	if sub := v.moduleFirst(joinName(module, first), from, 1); len(sub) > 0 {
		return sub[0]
	}
	if files := v.moduleFirst(module, from, 1); len(files) > 0 {
		return files[0]
	}
	return nil
}

func joinName(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

// buildGraph resolves the imports of the table's files among themselves
// and ranks the files by PageRank over the import graph (an import is an
// edge from the importer to the imported file, so the files many others
// depend on rank high).
func (t *Table) buildGraph() {
	v := NewView(t)
	t.out = make([][]int32, len(t.files))
	t.in = make([][]int32, len(t.files))
	for id, f := range t.files {
		for _, target := range v.ImportTargets(f) {
			to := t.byPath[target.Path]
			t.out[id] = append(t.out[id], to)
			t.in[to] = append(t.in[to], int32(id))
		}
		slices.Sort(t.out[id])
	}
	for id := range t.in {
		slices.Sort(t.in[id])
	}
	t.rank = pageRank(t.out, t.in, pageRankDamping)
}

// pageRankDamping is PageRank's damping factor: the chance that a walk
// follows an import rather than jumping to any file.
const pageRankDamping = 0.85

// pageRankTol and pageRankMaxIter end the power iteration: when the ranks
// (summing to 1) move by less than pageRankTol in all from one step to
// the next, or after pageRankMaxIter steps. Each step shrinks the error
// by the damping factor at least, so 1e-12 takes at most ~170 steps.
const (
	pageRankTol     = 1e-12
	pageRankMaxIter = 1000
)

// pageRank returns the PageRank of the nodes of a directed graph given as
// sorted, duplicate-free, loop-free adjacency lists (out[i] the nodes i
// links to, in[i] the nodes linking to i), summing to 1: the stationary
// distribution of a walk that follows a random out-edge with probability
// damp, jumps to a random node otherwise, and from a node without
// out-edges always jumps. It is the ranking of gonum's
// graph/network.PageRankSparse (TestPageRankMatchesGonum), computed from
// a uniform start in a fixed order, so that the same repository always
// gives the same ranks, bit for bit: gonum starts from a random vector
// and stops at a 2-norm step of the caller's tolerance, which left ranks
// differing by a tenth of a percent from one build of the same sources
// to the next.
func pageRank(out, in [][]int32, damp float64) []float64 {
	n := len(out)
	if n == 0 {
		return nil
	}
	r := make([]float64, n)
	next := make([]float64, n)
	share := make([]float64, n) // damp * r[j] / len(out[j])
	for i := range r {
		r[i] = 1 / float64(n)
	}
	for iter := 0; iter < pageRankMaxIter; iter++ {
		var dangling, total float64
		for j, o := range out {
			total += r[j]
			if len(o) == 0 {
				dangling += r[j]
				share[j] = 0
			} else {
				share[j] = damp * r[j] / float64(len(o))
			}
		}
		base := (damp*dangling + (1-damp)*total) / float64(n)
		var moved float64
		for i, from := range in {
			s := base
			for _, j := range from {
				s += share[j]
			}
			next[i] = s
			moved += math.Abs(s - r[i])
		}
		r, next = next, r
		if moved < pageRankTol {
			break
		}
	}
	return r
}

// Rank returns the PageRank of the file at path in the base table of the
// view (0 for files only upper tables hold), scaled so that the mean over
// the base's files is 1.
func (v *View) Rank(path string) float64 {
	b := v
	for b.parent != nil {
		b = b.parent
	}
	if b.t == nil {
		return 0
	}
	id, ok := b.t.lookup(path)
	if !ok {
		return 0
	}
	r, ok := b.t.rankOf(id)
	if !ok {
		return 0
	}
	return r * float64(b.t.len())
}

// ImportedBy returns the visible files that import path, by path.
func (v *View) ImportedBy(path string) []*File {
	paths := v.importerPaths(path)
	out := make([]*File, 0, len(paths))
	for _, p := range paths {
		if f := v.File(p); f != nil {
			out = append(out, f)
		}
	}
	return out
}

// importerPaths returns the paths of the visible files that import path,
// sorted. The base's importers come from its stored graph by path, so a
// mapped table loads none of their outlines (a popular file has
// thousands of importers).
func (v *View) importerPaths(path string) []string {
	var out []string
	seen := map[string]bool{}
	// The base's own graph, then the files of the tables above it,
	// whose imports are resolved in this view.
	var layers []*View
	for l := v; l != nil; l = l.parent {
		layers = append(layers, l)
	}
	base := layers[len(layers)-1]
	if base.t != nil {
		var in []int32
		id, ok := base.t.lookup(path)
		if ok {
			in, ok = base.t.importers(id)
		}
		if ok && v.File(path) != nil {
			for _, from := range in {
				// The base's version is the visible one when no
				// layer above holds or removes its path.
				p := base.t.path(from)
				if !seen[p] && v.sees(base, p) {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	for _, l := range layers[:len(layers)-1] {
		if l.t == nil {
			continue
		}
		for _, f := range l.t.files {
			if seen[f.Path] || !v.visible(f) {
				continue
			}
			for _, g := range v.ImportTargets(f) {
				if g.Path == path {
					seen[f.Path] = true
					out = append(out, f.Path)
					break
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

// Relations answers, for one file, how close other files are to it in the
// import graph (see Relation).
type Relations struct {
	v        *View
	f        *File
	direct   map[string]bool
	imported []string
	ids      []storedIDs // imported in the module tables of stored tables (RelationOfRef)
}

// Relations prepares the relations of f (which need not be in the view:
// a request's own buffer).
func (v *View) Relations(f *File) *Relations {
	r := &Relations{v: v, f: f, direct: map[string]bool{}, imported: f.imported}
	for _, g := range v.ImportTargets(f) {
		r.direct[g.Path] = true
	}
	for _, p := range v.importerPaths(f.Path) {
		r.direct[p] = true
	}
	return r
}

// Relation returns how close the file at path is to the relations' file:
// 1 for the file itself and when one imports the other, else the Jaccard
// similarity of the modules the two import (shared imports, repository or
// external), 0 for a file the view does not hold.
func (r *Relations) Relation(path string) float64 {
	if path == r.f.Path {
		return 1
	}
	if r.direct[path] {
		return 1
	}
	g := r.v.File(path)
	if g == nil {
		return 0
	}
	return jaccard(r.imported, g.imported)
}

// RelationOf is Relation(g.Path) for a file g the view shows (a
// definition's file from Named), without looking its path up.
func (r *Relations) RelationOf(g *File) float64 {
	if g.Path == r.f.Path || r.direct[g.Path] {
		return 1
	}
	return jaccard(r.imported, g.imported)
}

// jaccard returns |a n b| / |a u b| of two sorted distinct lists.
func jaccard(a, b []string) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	return jaccardOf(shared(a, b), len(a), len(b))
}

// jaccardOf is the Jaccard index of two sets of na and nb values sharing
// inter of them, 0 when either is empty.
func jaccardOf(inter, na, nb int) float64 {
	if na == 0 || nb == 0 {
		return 0
	}
	return float64(inter) / float64(na+nb-inter)
}

// shared counts the values two ascending lists of distinct values share.
func shared[T cmp.Ordered](a, b []T) int {
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return inter
}
