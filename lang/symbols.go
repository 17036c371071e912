package lang

import (
	"fmt"
	"slices"
	"strings"
)

// SymbolKind says what a Symbol declares.
type SymbolKind uint8

// Symbol kinds. A front end maps its constructs onto these; consumers only
// tell callables (Function, Method, Constructor, Property), types (Class,
// Interface, Enum, Record, Annotation) and values (Field, Constant,
// Variable) apart.
const (
	// SymFunction is a function defined at module level (or nested in a
	// function at module level: front ends leave those out).
	SymFunction SymbolKind = iota + 1
	// SymMethod is a function defined in a class body.
	SymMethod
	// SymConstructor is a class's constructor: Java constructors, Python
	// __init__.
	SymConstructor
	// SymProperty is a method read as an attribute (Python @property).
	SymProperty
	// SymClass, SymInterface, SymEnum, SymRecord and SymAnnotation are type
	// declarations
	// (Python knows only SymClass).
	SymClass
	SymInterface
	SymEnum
	SymRecord
	SymAnnotation
	// SymField is an attribute of a class: a Java field or record component,
	// a Python class attribute or an instance attribute assigned through
	// self in a method.
	SymField
	// SymConstant is a module or class constant: a Java static final field
	// or enum constant, a Python ALL_CAPS module or class attribute.
	SymConstant
	// SymVariable is any other module-level assignment.
	SymVariable
)

var symbolKindNames = [...]string{
	SymFunction: "function", SymMethod: "method", SymConstructor: "constructor",
	SymProperty: "property", SymClass: "class", SymInterface: "interface", SymEnum: "enum",
	SymRecord: "record", SymAnnotation: "annotation", SymField: "field",
	SymConstant: "constant", SymVariable: "variable",
}

func (k SymbolKind) String() string {
	if int(k) < len(symbolKindNames) && symbolKindNames[k] != "" {
		return symbolKindNames[k]
	}
	return fmt.Sprintf("symbol(%d)", k)
}

// IsType reports the kinds that declare a type: the kinds whose members
// are other symbols.
func (k SymbolKind) IsType() bool { return k >= SymClass && k <= SymAnnotation }

// IsCallable reports functions, methods, constructors and properties.
func (k SymbolKind) IsCallable() bool { return k >= SymFunction && k <= SymProperty }

// Symbol is one definition of a file, as a front end records it for the
// repository's symbol table (File.Symbols). Rows are 0-based and inclusive
// and index File.Lines; text is never stored, only rows, so that a
// consumer shows exactly the file's own lines.
type Symbol struct {
	Kind SymbolKind
	// Name is the declared simple name (a Java constructor is named after
	// its class).
	Name string
	// Parent is the index in File.Symbols of the enclosing type, -1 at
	// top level. Symbols are in source order, so a parent comes before
	// its members.
	Parent int
	// StartRow and EndRow span the whole definition: decorators,
	// annotations and modifiers, the header and the body.
	StartRow, EndRow int
	// SigStart and SigEnd span the signature, the header rows: a Python
	// def or class from its first decorator to the ':' that opens its
	// body; a Java declaration from its modifiers up to its body (a
	// field or constant: the whole declaration, initializer included).
	SigStart, SigEnd int
	// NameRow is the row of the signature holding Name (past decorators
	// and annotations).
	NameRow int
	// DocRow is the row of the first line of text of the symbol's
	// documentation (Python docstring, Javadoc), -1 when it has none.
	DocRow int
	// Bases are a type's base classes and implemented interfaces, as
	// written (dotted names, type arguments dropped), in source order: for
	// Go, a struct's embedded fields and an interface's embedded
	// interfaces. A method declared outside its type's body (Go) is a
	// top-level symbol whose only base is its receiver's type (see
	// Scoping.DetachedMethods).
	Bases []string
	// Type is the declared type of a field or constant, the return type
	// or annotation of a callable (dotted, type arguments dropped), "" when
	// none is written.
	Type string
}

// Import is one name an import statement brings into a file
// (File.Imports). An import statement naming several things is several
// Imports on the same row.
type Import struct {
	// Row is the 0-based row of the import statement.
	Row int
	// Module is the module, package or path the import reads from, as
	// written: "a.b" for Python `import a.b` and `from a.b import c`,
	// ".x" and ".." for relative imports, "java.util" for Java
	// `import java.util.List`, "java.util.Map" for
	// `import java.util.Map.Entry` and static imports of a class's members.
	Module string
	// Name is what is imported from Module: "" for the module itself
	// (Python `import a.b`), "*" for every public name (wildcard imports),
	// else a name.
	Name string
	// Alias is the name the file binds when the statement renames
	// (`import a.b as c`, `from m import x as y`), else "".
	Alias string
	// Static marks a Java static import.
	Static bool
}

// ImportRef is what an Import refers to once the importing file's place is
// known, in the terms of a language's module names (ModuleSystem).
type ImportRef struct {
	// Module is an absolute module name, as ModuleNames names files.
	Module string
	// Member is a dotted path of symbols inside Module ("" for the module
	// itself).
	Member string
	// All marks a wildcard: every public top-level name of Module (or
	// every member of Member, when set) is bound under its own name.
	All bool
	// Local is the name the importing file binds ("" with All). Reading
	// Local means reading Module's Member.
	Local string
}

// ModuleSystem is how a language names files for its imports. A front end
// whose files record Symbols and Imports provides one (Language.Modules);
// the repository's symbol table calls it to resolve imports to files. It
// must be deterministic, safe for concurrent use and must never fail:
// what it cannot name stays unresolved (external).
type ModuleSystem interface {
	// ModuleNames returns the module names under which the file at path
	// (slash-separated, relative to the repository root) can be imported,
	// most specific first. pkg is the file's File.Package; root is the
	// base name of the repository's root folder (a Python package
	// indexed as the root has its name there). A Java file is reached by
	// its package; a Python file by its dotted path, and also by the
	// dotted path under any folder, for layouts whose source root is a
	// subfolder (src/pkg/mod.py is "src.pkg.mod", "pkg.mod", "mod").
	ModuleNames(path, pkg, root string) []string
	// Resolve turns an import of the file at path into what it refers
	// to: relative imports made absolute, the bound name decided.
	Resolve(imp Import, path, pkg string) ImportRef
	// Implicit returns the modules whose public names a file at path sees
	// without importing them (Java: the file's own package), as wildcard
	// refs.
	Implicit(path, pkg string) []ImportRef
}

// Configurable is a ModuleSystem whose module names depend on files of
// the repository besides its sources: Go's go.mod (a package's import
// path is its module's path and its folder), TypeScript's and
// JavaScript's tsconfig.json and jsconfig.json (baseUrl and paths).
type Configurable interface {
	ModuleSystem
	// Configure returns the module system of the repository whose root
	// folder on disk is root. It reads configuration files lazily, as
	// files ask for names, also above root (a Go module whose go.mod is
	// in a parent folder); it never fails: an unreadable or malformed
	// file is taken as absent. The result is safe for concurrent use.
	Configure(root string) ModuleSystem
}

// Signatures says how a declaration's header row may be written shorter
// where it is read for what it declares (a definition block): the words
// that say nothing of how the API is called left out. The zero value
// keeps rows as they are.
type Signatures struct {
	// Modifiers are the words a header may begin with that are left out
	// (Java: access, final, synchronized; static and abstract stay).
	Modifiers []string
	// MarkerAnnotations leaves out the annotations without arguments
	// (@Override) a header begins with.
	MarkerAnnotations bool
	// BodyOpen is the text that opens the body at the end of a header
	// ("{"), left out.
	BodyOpen string
}

// Compact returns row, a header row of a declaration, without the
// modifiers and marker annotations it begins with and the body opener it
// ends with, its indentation kept; "" when nothing is left (a row of
// marker annotations alone).
func (s Signatures) Compact(row string) string {
	if len(s.Modifiers) == 0 && !s.MarkerAnnotations && s.BodyOpen == "" {
		return row
	}
	rest := strings.TrimLeft(row, " \t")
	indent := row[:len(row)-len(rest)]
	for rest != "" {
		w := rest
		if j := strings.IndexAny(rest, " \t"); j >= 0 {
			w = rest[:j]
		}
		marker := s.MarkerAnnotations && len(w) > 1 && w[0] == '@' && w != "@interface" && !strings.ContainsAny(w, "(.")
		if !marker && !slices.Contains(s.Modifiers, w) {
			break
		}
		rest = strings.TrimLeft(rest[len(w):], " \t")
	}
	rest = strings.TrimRight(rest, " \t")
	if s.BodyOpen != "" {
		rest = strings.TrimRight(strings.TrimSuffix(rest, s.BodyOpen), " \t")
	}
	if rest == "" {
		return ""
	}
	return indent + rest
}

// Scoping says how the names a language's code reads reach class members;
// the definition resolver follows it.
type Scoping struct {
	// Receivers are the names that stand for the current instance or
	// class inside a method: "self" and "cls" in Python, "this" in Java.
	Receivers []string
	// Super is the name that stands for the base classes' members
	// ("super" in Java and Python), "" for none.
	Super string
	// BareMembers makes a bare name inside a class body resolve to a
	// member of the enclosing classes and their bases (Java; Python
	// reads members only through a receiver).
	BareMembers bool
	// ReExports makes the names a module imports members of that module,
	// reachable by importing them from it (Python: a package's
	// __init__.py re-exports what it imports; Java imports are private to
	// the file).
	ReExports bool
	// Hidden is the prefix of the names a wildcard import does not bind
	// ("_" in Python), "" for none.
	Hidden string
	// DetachedMethods makes the members of a type also the top-level
	// methods of the files of its module whose base is the type's name
	// (Go: methods are declared outside the type, in any file of its
	// package).
	DetachedMethods bool
}

// Qualified returns the qualified name of symbol i of f: the names of its
// enclosing types and its own, joined by '.' (Outer.Inner.method).
func (f *File) Qualified(i int) string {
	return QualifiedName(f.Symbols, i)
}

// QualifiedName returns the qualified name of syms[i] (see File.Qualified).
// A malformed Parent chain (out of range, not before the symbol) stops it.
func QualifiedName(syms []Symbol, i int) string {
	if i < 0 || i >= len(syms) {
		return ""
	}
	parts := []string{syms[i].Name}
	for p, steps := syms[i].Parent, 0; p >= 0 && p < i && steps < len(syms); p, steps = syms[p].Parent, steps+1 {
		parts = append(parts, syms[p].Name)
		i = p
	}
	for l, r := 0, len(parts)-1; l < r; l, r = l+1, r-1 {
		parts[l], parts[r] = parts[r], parts[l]
	}
	return strings.Join(parts, ".")
}

// Binds returns the name an import binds in the importing file when the
// language's rule is the common one: the alias, else the imported name,
// else the module's first component (Python `import a.b` binds a); ""
// for a wildcard.
func (imp Import) Binds() string {
	switch {
	case imp.Alias != "":
		return imp.Alias
	case imp.Name == "*":
		return ""
	case imp.Name != "":
		return imp.Name
	}
	m := strings.TrimLeft(imp.Module, ".")
	if i := strings.IndexByte(m, '.'); i >= 0 {
		m = m[:i]
	}
	return m
}

// DocText returns the text of a documentation line without the comment or
// string delimiters around it: `"""Return x.` gives "Return x.", ` * Returns
// the value.` gives "Returns the value.", `/** Sets y. */` gives "Sets y.",
// `// Get fetches.` gives "Get fetches.".
func DocText(line string) string {
	t := strings.TrimSpace(line)
	for _, p := range []string{`r"""`, `u"""`, `R"""`, `b"""`, `"""`, `r'''`, `u'''`, `'''`, "/**", "/*", "//", "*", `"`, `'`} {
		if strings.HasPrefix(t, p) {
			t = strings.TrimSpace(t[len(p):])
			break
		}
	}
	for _, s := range []string{`"""`, `'''`, "*/", `"`, `'`} {
		if strings.HasSuffix(t, s) {
			t = strings.TrimSpace(t[:len(t)-len(s)])
			break
		}
	}
	return t
}
