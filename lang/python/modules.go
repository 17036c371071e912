package python

import (
	"path"
	"strings"

	"github.com/graphcoder/graphcoder/lang"
)

// modules is Python's module system: a file is a module named by its
// dotted path, a folder's __init__.py its package; relative imports count
// from the importing file's package.
type modules struct{}

// scoping: methods read members through their first parameter.
var scoping = lang.Scoping{Receivers: []string{"self", "cls"}, Super: "super", ReExports: true, Hidden: "_"}

// dottedPath returns the dotted module name of a file path relative to the
// root ("a/b/c.py" is "a.b.c", "a/b/__init__.py" is "a.b", the root's own
// __init__.py is "") and whether the file is a package's __init__.
func dottedPath(p string) (string, bool) {
	p = strings.TrimSuffix(p, path.Ext(p))
	init := false
	if p == "__init__" {
		return "", true
	}
	if strings.HasSuffix(p, "/__init__") {
		p, init = strings.TrimSuffix(p, "/__init__"), true
	}
	return strings.ReplaceAll(p, "/", "."), init
}

// ModuleNames: the dotted path under the root's own name (the root may be
// a package: the standard library's email folder indexed as the root),
// the dotted path, then the dotted path under each folder (a source root
// below the repository root: src/pkg/mod.py is also pkg.mod and mod).
func (modules) ModuleNames(p, _, root string) []string {
	dotted, _ := dottedPath(p)
	var out []string
	if root != "" && dottedIdent(root) {
		if dotted == "" {
			out = append(out, root)
		} else {
			out = append(out, root+"."+dotted)
		}
	}
	if dotted == "" {
		return out
	}
	out = append(out, dotted)
	for i := strings.IndexByte(dotted, '.'); i >= 0; i = strings.IndexByte(dotted, '.') {
		dotted = dotted[i+1:]
		out = append(out, dotted)
	}
	return out
}

// Resolve: `import a.b` binds a, the package a (a.b is read through it);
// `import a.b as c` binds c to a.b; `from m import x` binds x, a member of
// m or its submodule m.x; `from .m import x` counts from the file's
// package, one level up per dot past the first.
func (modules) Resolve(imp lang.Import, p, _ string) lang.ImportRef {
	module := imp.Module
	if strings.HasPrefix(module, ".") {
		module = relative(module, p)
	}
	switch {
	case imp.Name == "*":
		return lang.ImportRef{Module: module, All: true}
	case imp.Name != "":
		local := imp.Alias
		if local == "" {
			local = imp.Name
		}
		return lang.ImportRef{Module: module, Member: imp.Name, Local: local}
	case imp.Alias != "":
		return lang.ImportRef{Module: module, Local: imp.Alias}
	}
	first := module
	if i := strings.IndexByte(first, '.'); i >= 0 {
		first = first[:i]
	}
	return lang.ImportRef{Module: first, Local: first}
}

// relative makes a relative module name absolute (in the dotted names of
// the root's files, without the root's own name): from a/b/c.py, ".x" is
// a.b.x and "..x" a.x; from a/b/__init__.py, ".x" is a.b.x. Dots past the
// root stop at the root.
func relative(module, p string) string {
	level := len(module) - len(strings.TrimLeft(module, "."))
	rest := module[level:]
	dotted, init := dottedPath(p)
	var pkg []string
	if dotted != "" {
		pkg = strings.Split(dotted, ".")
	}
	if !init && len(pkg) > 0 {
		pkg = pkg[:len(pkg)-1] // a module's package is its folder
	}
	up := min(level-1, len(pkg))
	pkg = pkg[:len(pkg)-up]
	if rest != "" {
		pkg = append(pkg, rest)
	}
	return strings.Join(pkg, ".")
}

// Implicit: Python binds nothing without an import.
func (modules) Implicit(string, string) []lang.ImportRef { return nil }
