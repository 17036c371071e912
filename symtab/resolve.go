package symtab

import (
	"slices"
	"strings"

	"github.com/graphcoder/graphcoder/lang"
)

// Bounds on the work of resolution, whatever the input: import cycles,
// base class cycles, re-export chains and classes with thousands of
// members all end within them.
const (
	// maxDepth bounds the chain of imports, base classes and declared
	// types one lookup follows.
	maxDepth = 8
	// maxDefs bounds the definitions one lookup returns.
	maxDefs = 16
	// maxSteps bounds the member and module lookups of one Resolver.
	maxSteps = 20000
	// maxMembers bounds the members one type lists (AllMembers).
	maxMembers = 4096
)

// Target is what a name or access path resolves to: definitions (a type,
// a function, a field, ...), or a module that is no definition itself (a
// package read through `import a.b`), or nothing.
type Target struct {
	Defs []Def
	// Module is an absolute module name when the name stands for a
	// module; "" otherwise.
	Module string
}

// Empty reports a name that resolved to nothing.
func (t Target) Empty() bool { return len(t.Defs) == 0 && t.Module == "" }

// Resolver resolves the names a file reads, in the file's scope: its own
// definitions, its imports and the modules it sees implicitly, members of
// enclosing classes, attributes of modules, types and typed values. It
// follows the file's language (lang.Scoping, lang.ModuleSystem). A
// Resolver caches what it resolved and is not safe for concurrent use;
// make one per request.
type Resolver struct {
	v     *View
	f     *File
	sc    lang.Scoping
	steps int
	// Resolvers of the other files reached, sharing the step budget.
	others map[*File]*Resolver
	root   *Resolver
	cache  map[nameKey]Target
	mods   map[[2]string][]*File // module lookups, by name and importing folder (root only)
	has    map[string]bool       // whether a module has files (root only)
}

// moduleHas reports whether the view has a file of module name, cached
// for the request, without decoding outlines.
func (r *Resolver) moduleHas(name string) bool {
	root := r.root
	if fs, ok := root.mods[[2]string{name, dirOf(r.f.Path)}]; ok {
		return len(fs) > 0
	}
	has, ok := root.has[name]
	if !ok {
		has = r.v.moduleHas(name)
		root.has[name] = has
	}
	return has
}

// module returns the view's files of a module for this resolver's file,
// cached for the request.
func (r *Resolver) module(name string) []*File {
	k := [2]string{name, dirOf(r.f.Path)}
	root := r.root
	if fs, ok := root.mods[k]; ok {
		return fs
	}
	fs := r.v.module(name, r.f.Path)
	root.mods[k] = fs
	return fs
}

type nameKey struct {
	name  string
	class int
}

// Resolver returns a resolver for names read in f, which need not be in
// the view (a request's own buffer).
func (v *View) Resolver(f *File) *Resolver {
	r := &Resolver{v: v, f: f, others: map[*File]*Resolver{}, cache: map[nameKey]Target{}, mods: map[[2]string][]*File{}, has: map[string]bool{}}
	r.root = r
	if f.Language != nil {
		r.sc = f.Language.Scoping
	}
	return r
}

// File returns the file whose scope the resolver reads.
func (r *Resolver) File() *File { return r.f }

// For returns a resolver of another file's scope sharing this one's cache
// of files and its work budget.
func (r *Resolver) For(f *File) *Resolver {
	if f == r.f {
		return r
	}
	root := r.root
	if o, ok := root.others[f]; ok {
		return o
	}
	o := &Resolver{v: r.v, f: f, root: root, cache: map[nameKey]Target{}}
	if f.Language != nil {
		o.sc = f.Language.Scoping
	}
	root.others[f] = o
	return o
}

// step counts one unit of work and reports whether the budget allows it.
func (r *Resolver) step() bool {
	r.root.steps++
	return r.root.steps <= maxSteps
}

// Exhausted reports whether the resolver ran out of its work budget (and
// may have answered some lookups partly).
func (r *Resolver) Exhausted() bool { return r.root.steps > maxSteps }

// BareMembers reports whether the file's language reads the members of
// the enclosing classes by their bare names (lang.Scoping.BareMembers).
func (r *Resolver) BareMembers() bool { return r.sc.BareMembers }

// Imported reports whether one of the file's imports binds name itself
// (not a wildcard), whatever the import resolves to.
func (r *Resolver) Imported(name string) bool {
	for _, ref := range r.f.refs {
		if !ref.All && ref.Local == name {
			return true
		}
	}
	return false
}

// ExternalBases reports whether symbol class of the file (a type) or a
// type enclosing it names a base the repository does not define, so that
// a member it reads bare may be inherited from outside the repository.
func (r *Resolver) ExternalBases(class int) bool {
	f := r.f
	for c, guard := class, 0; c >= 0 && c < len(f.Symbols) && guard < maxDepth; c, guard = f.Symbols[c].Parent, guard+1 {
		s := &f.Symbols[c]
		if !s.Kind.IsType() || len(s.Bases) == 0 {
			continue
		}
		parent := -1
		if p := s.Parent; p >= 0 && p < c {
			parent = p
		}
		for _, b := range s.Bases {
			if !slices.ContainsFunc(r.Path(strings.Split(b, "."), parent).Defs, isTypeDef) {
				return true
			}
		}
	}
	return false
}

func isTypeDef(d Def) bool { return d.Symbol().Kind.IsType() }

// IsReceiver reports a name standing for the current instance or class
// (self, cls, this).
func (r *Resolver) IsReceiver(name string) bool { return slices.Contains(r.sc.Receivers, name) }

// Name resolves a bare name read inside symbol class of the file (the
// innermost enclosing type, -1 at top level): members of the enclosing
// types where the language reads them bare, the file's own top-level
// definitions, its imports, then the modules it imports whole (wildcards)
// or sees implicitly.
func (r *Resolver) Name(name string, class int) Target {
	return r.name(name, class, 0)
}

func (r *Resolver) name(name string, class int, depth int) Target {
	if name == "" || depth > maxDepth || !r.step() {
		return Target{}
	}
	k := nameKey{name, class}
	if t, ok := r.cache[k]; ok {
		return t
	}
	r.cache[k] = Target{} // a cycle back to this name finds nothing
	t := r.lookup(name, class, depth)
	r.cache[k] = t
	return t
}

func (r *Resolver) lookup(name string, class int, depth int) Target {
	f := r.f
	if class >= 0 && class < len(f.Symbols) && r.sc.BareMembers {
		for c, guard := class, 0; c >= 0 && c < len(f.Symbols) && guard < maxDepth; c, guard = f.Symbols[c].Parent, guard+1 {
			if defs := r.members(Def{f, c}, name, depth+1, nil); len(defs) > 0 {
				return Target{Defs: defs}
			}
			if f.Symbols[c].Name == name {
				return Target{Defs: []Def{{f, c}}}
			}
		}
	}
	if defs := topNamed(f, name); len(defs) > 0 {
		return Target{Defs: defs}
	}
	if t := r.binding(name, depth); !t.Empty() {
		return t
	}
	if r.sc.Hidden != "" && strings.HasPrefix(name, r.sc.Hidden) {
		return Target{} // not bound by wildcards, nor visible implicitly
	}
	for _, ref := range f.refs {
		if ref.All {
			if t := r.moduleMember(ref.Module, joinName(ref.Member, name), depth+1); !t.Empty() {
				return t
			}
		}
	}
	for _, ref := range f.implicit {
		if t := r.moduleMember(ref.Module, joinName(ref.Member, name), depth+1); !t.Empty() {
			return t
		}
	}
	return Target{}
}

// binding resolves a name one of the file's imports binds.
func (r *Resolver) binding(name string, depth int) Target {
	for i := len(r.f.refs) - 1; i >= 0; i-- { // the last import of a name wins
		ref := r.f.refs[i]
		if ref.All || ref.Local != name {
			continue
		}
		if ref.Member == "" {
			return Target{Module: ref.Module}
		}
		if t := r.moduleMember(ref.Module, ref.Member, depth+1); !t.Empty() {
			return t
		}
	}
	return Target{}
}

// topNamed returns the top-level symbols of f called name.
func topNamed(f *File, name string) []Def {
	var out []Def
	for _, i := range f.top {
		if f.Symbols[i].Name == name {
			out = append(out, Def{f, int(i)})
			if len(out) == maxDefs {
				break
			}
		}
	}
	return out
}

// moduleMember resolves the dotted member path of a module: a top-level
// definition of one of the module's files (or a name such a file
// re-exports, where the language re-exports imports), then the members
// down the path; or a submodule. A module the view does not hold is
// tried once more with its last name moved into the path (a class that
// looked like a package).
func (r *Resolver) moduleMember(module, path string, depth int) Target {
	if depth > maxDepth || !r.step() {
		return Target{}
	}
	first, rest, _ := strings.Cut(path, ".")
	if first == "" {
		return Target{Module: module}
	}
	if !r.sc.ReExports && r.v.refsKnowTops() {
		// A file is a module's member for its top-level definitions
		// alone: the first of the module's files having first is found
		// among the definitions of the name, and only its outline is
		// decoded (a Java package's implicit import reaches hundreds of
		// files).
		if g := r.v.firstDefining(module, first, r.f.Path); g != nil {
			return r.walk(Target{Defs: topNamed(g, first)}, rest, depth+1)
		}
	} else {
		for _, g := range r.module(module) {
			if t := r.For(g).fileMember(first, depth+1); !t.Empty() {
				return r.walk(t, rest, depth+1)
			}
		}
	}
	if sub := joinName(module, first); r.moduleHas(sub) {
		return r.walk(Target{Module: sub}, rest, depth+1)
	}
	if !r.moduleHas(module) {
		if dot := strings.LastIndexByte(module, '.'); dot >= 0 {
			return r.moduleMember(module[:dot], module[dot+1:]+"."+path, depth+1)
		}
	}
	return Target{}
}

// fileMember resolves a name as a member of r's file seen as a module.
func (r *Resolver) fileMember(name string, depth int) Target {
	if defs := topNamed(r.f, name); len(defs) > 0 {
		return Target{Defs: defs}
	}
	if !r.sc.ReExports || depth > maxDepth {
		return Target{}
	}
	if t := r.binding(name, depth+1); !t.Empty() {
		return t
	}
	if r.sc.Hidden != "" && strings.HasPrefix(name, r.sc.Hidden) {
		return Target{}
	}
	for _, ref := range r.f.refs {
		if ref.All {
			if t := r.moduleMember(ref.Module, joinName(ref.Member, name), depth+1); !t.Empty() {
				return t
			}
		}
	}
	return Target{}
}

// walk resolves the rest of a dotted path from t.
func (r *Resolver) walk(t Target, rest string, depth int) Target {
	for rest != "" && !t.Empty() {
		var part string
		part, rest, _ = strings.Cut(rest, ".")
		t = r.attr(t, part, depth)
	}
	return t
}

// Path resolves an access path read inside symbol class of the file:
// parts[0] is a receiver (self, this: the enclosing class), the super
// name (its base classes) or a name (see Name); each further part is an
// attribute of what the previous parts resolved to.
func (r *Resolver) Path(parts []string, class int) Target {
	if len(parts) == 0 {
		return Target{}
	}
	var t Target
	switch {
	case class >= 0 && class < len(r.f.Symbols) && r.IsReceiver(parts[0]):
		t = Target{Defs: []Def{{r.f, class}}}
	case class >= 0 && class < len(r.f.Symbols) && r.sc.Super != "" && parts[0] == r.sc.Super:
		t = Target{Defs: r.Bases(Def{r.f, class})}
	default:
		t = r.Name(parts[0], class)
	}
	for _, p := range parts[1:] {
		if t.Empty() {
			break
		}
		t = r.attr(t, p, 0)
	}
	return t
}

// attr resolves the attribute name of t: a submodule or member of a
// module, a member of a type, a member of the declared type of a value.
func (r *Resolver) attr(t Target, name string, depth int) Target {
	if depth > maxDepth || !r.step() {
		return Target{}
	}
	if t.Module != "" {
		if sub := joinName(t.Module, name); r.moduleHas(sub) {
			return Target{Module: sub}
		}
		return r.moduleMember(t.Module, name, depth+1)
	}
	var out []Def
	for _, d := range t.Defs {
		for _, typ := range r.typesOf(d, depth+1) {
			out = appendDefs(out, r.members(typ, name, depth+1, nil)...)
		}
		if len(out) >= maxDefs {
			break
		}
	}
	return Target{Defs: out}
}

// TypesOf returns the types a definition stands for when its attributes
// are read: itself for a type, its declared type for a field or a
// callable (the return type), resolved in its own file's scope.
func (r *Resolver) TypesOf(d Def) []Def { return r.typesOf(d, 0) }

func (r *Resolver) typesOf(d Def, depth int) []Def {
	s := d.Symbol()
	if s.Kind.IsType() {
		return []Def{d}
	}
	if s.Type == "" || depth > maxDepth {
		return nil
	}
	class := -1
	if p, ok := d.Parent(); ok {
		class = p.Sym
	}
	var out []Def
	for _, t := range r.For(d.File).Path(strings.Split(s.Type, "."), class).Defs {
		if t.Symbol().Kind.IsType() {
			out = append(out, t)
		}
	}
	return out
}

// Bases returns the repository types a type's bases name, resolved in the
// type's own file.
func (r *Resolver) Bases(typ Def) []Def {
	return r.bases(typ, 0)
}

func (r *Resolver) bases(typ Def, depth int) []Def {
	s := typ.Symbol()
	if !s.Kind.IsType() || depth > maxDepth {
		return nil
	}
	class := -1
	if p, ok := typ.Parent(); ok {
		class = p.Sym
	}
	var out []Def
	for _, b := range s.Bases {
		for _, d := range r.For(typ.File).Path(strings.Split(b, "."), class).Defs {
			if d.Symbol().Kind.IsType() && d != typ {
				out = appendDefs(out, d)
			}
		}
	}
	return out
}

// members returns the members of type typ called name: its own, else its
// bases' (nearest first). visited guards against base cycles.
func (r *Resolver) members(typ Def, name string, depth int, visited map[Def]bool) []Def {
	if depth > maxDepth || !r.step() {
		return nil
	}
	var out []Def
	for _, i := range typ.File.Members(typ.Sym) {
		if typ.File.Symbols[i].Name == name {
			out = append(out, Def{typ.File, int(i)})
			if len(out) == maxDefs {
				return out
			}
		}
	}
	out = r.detachedMembers(typ, name, out)
	if len(out) > 0 {
		return out
	}
	if visited == nil {
		visited = map[Def]bool{}
	}
	visited[typ] = true
	for _, b := range r.bases(typ, depth+1) {
		if visited[b] {
			continue
		}
		if defs := r.members(b, name, depth+1, visited); len(defs) > 0 {
			return defs
		}
	}
	return nil
}

// AllMembers returns up to limit members of a type, its own first, then
// those of its bases (nearest first), each name once (an override hides
// the base's).
func (r *Resolver) AllMembers(typ Def, limit int) []Def {
	var out []Def
	seen := map[string]bool{}
	visited := map[Def]bool{}
	queue := []Def{typ}
	for depth := 0; len(queue) > 0 && depth <= maxDepth && len(out) < limit; depth++ {
		var next []Def
		for _, t := range queue {
			if visited[t] || !r.step() {
				continue
			}
			visited[t] = true
			members := make([]Def, 0, len(t.File.Members(t.Sym)))
			for _, i := range t.File.Members(t.Sym) {
				members = append(members, Def{t.File, int(i)})
			}
			for _, d := range r.detachedMembers(t, "", members) {
				n := d.Symbol().Name
				if seen[n] {
					continue
				}
				seen[n] = true
				out = append(out, d)
				if len(out) == limit {
					return out
				}
			}
			next = append(next, r.bases(t, depth)...)
		}
		queue = next
	}
	return out
}

// detachedMembers appends to out the methods of type typ declared outside
// it, in any file of its module (Go), called name ("" for every name),
// up to maxDefs of them for one name and maxMembers in all.
func (r *Resolver) detachedMembers(typ Def, name string, out []Def) []Def {
	f := typ.File
	if f.Language == nil || !f.Language.Scoping.DetachedMethods || len(f.modules) == 0 {
		return out
	}
	if p := f.Symbols[typ.Sym].Parent; p >= 0 && p < typ.Sym {
		return out // a type nested in another has no methods of its own
	}
	tname := f.Symbols[typ.Sym].Name
	found := 0
	for _, g := range r.module(f.modules[0]) {
		if !r.step() {
			break
		}
		for _, i := range g.detached[tname] {
			if name != "" && g.Symbols[i].Name != name {
				continue
			}
			out = append(out, Def{g, int(i)})
			found++
			if (name != "" && found == maxDefs) || len(out) >= maxMembers {
				return out
			}
		}
	}
	return out
}

func appendDefs(out []Def, defs ...Def) []Def {
	for _, d := range defs {
		if len(out) == maxDefs {
			break
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}
