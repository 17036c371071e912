package java

import (
	"path"
	"strings"

	"github.com/graphcoder/graphcoder/lang"
)

// modules is Java's module system: a file belongs to the package it
// declares; its top-level types are that package's members.
type modules struct{}

// scoping: members are read through this, or bare inside the class.
var scoping = lang.Scoping{Receivers: []string{"this"}, Super: "super", BareMembers: true}

// ModuleNames: the declared package; a file that declares none is in its
// folder's package (the default package at the root).
func (modules) ModuleNames(p, pkg, _ string) []string {
	if pkg != "" {
		return []string{pkg}
	}
	dir := path.Dir(p)
	if dir == "." {
		return []string{""}
	}
	return []string{strings.ReplaceAll(dir, "/", ".")}
}

// Resolve splits an import's dotted name into its package (the lower-case
// leading names, by convention) and the type and member path after it:
// `import a.b.C.D` is member C.D of package a.b, `import static a.b.C.m`
// member C.m, `import a.b.*` every type of a.b, `import a.b.C.*` every
// member of C.
func (modules) Resolve(imp lang.Import, _, _ string) lang.ImportRef {
	parts := strings.Split(imp.Module, ".")
	if imp.Module == "" {
		parts = nil
	}
	split := len(parts)
	for i, p := range parts {
		if p != "" && p[0] >= 'A' && p[0] <= 'Z' {
			split = i
			break
		}
	}
	ref := lang.ImportRef{Module: strings.Join(parts[:split], "."), Member: strings.Join(parts[split:], ".")}
	if imp.Name == "*" {
		ref.All = true
		return ref
	}
	if ref.Member == "" {
		ref.Member = imp.Name
	} else {
		ref.Member += "." + imp.Name
	}
	ref.Local = imp.Name
	if imp.Alias != "" {
		ref.Local = imp.Alias
	}
	return ref
}

// Implicit: a file sees the types of its own package.
func (m modules) Implicit(p, pkg string) []lang.ImportRef {
	return []lang.ImportRef{{Module: m.ModuleNames(p, pkg, "")[0], All: true}}
}
