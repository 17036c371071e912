// Package symtab is the repository's symbol table and import graph: which
// file defines the API a piece of code calls, and which files depend on
// which.
//
// It is built from the outlines the front ends record at index time
// (lang.File.Symbols, Imports, Package; stored in each file's blob by
// package db), so a request parses nothing but its own buffer. A File is
// one outline with its members indexed; a Table an immutable set of
// files indexed by module name and by symbol name, with the import graph
// among its files and their PageRank (a power iteration in a fixed order,
// checked against gonum's graph/network, so that a repository's ranks are
// the same bit for bit from one build to the next); a View a
// stack of tables (the base loaded whole, the files changed since, a
// request's own buffer), each hiding the versions below it of the files
// it holds, so an edit is visible without rebuilding the base.
//
// # Resolution
//
// A Resolver answers, in the scope of one file, what a name or access
// path refers to, following the file's language (lang.ModuleSystem for
// module names and imports, lang.Scoping for receivers, super and bare
// member names):
//
//   - a bare name: a member of an enclosing type where the language reads
//     members bare (Java), a top-level definition of the file (so a local
//     definition shadows an import of the same name), a name an import
//     binds (the last import of a name wins), then the names of modules
//     imported whole (wildcards) and of the modules the file sees
//     without importing (Java's own package);
//   - a module's member: a top-level definition of one of the module's
//     files (nearest to the importing file first, where several files
//     have the name: see ModuleNames), a name such a file re-exports
//     where the language re-exports imports (a Python package's
//     __init__.py), else a submodule; a module the table does not hold is
//     tried once more with its last name taken as a member (a class named
//     like a package);
//   - an attribute: of a module as above; of a type, its member, else a
//     base class's (nearest first); of a field or callable, a member of
//     its declared type, resolved in the scope of the file that declares
//     it; a receiver (self, this) stands for the enclosing class, super
//     for its bases.
//
// Go methods are declared outside their types: a type's members are also
// the top-level methods of its package's files whose base is the type's
// name (lang.Scoping.DetachedMethods). Module names may depend on
// configuration files of the repository (Go's go.mod, TypeScript's
// tsconfig.json paths): a Repo holds the module systems configured for
// one repository, and every File is made in one.
//
// A lookup by name (NamedRefs) describes each definition of a name by
// what the stored table's arrays hold (kind, language, PageRank, the
// modules its file imports), so that a caller ranks the thousands of
// definitions of a common name and decodes the outlines of the few it
// keeps. A module's member, in a language without re-exports, is found
// the same way among the definitions of its name (the module's first file
// defining it at top level), and an import's target files are ordered by
// the stored module lists: resolving a Java class's bare names through
// its package decodes the files that define them, not the hundreds of
// files of the package.
//
// What the repository does not define (the standard library, packages
// not indexed) resolves to nothing: no error. Every lookup is bounded
// (maxDepth, maxDefs, maxSteps), so import cycles, base class cycles and
// classes with thousands of members end in bounded time and output.
//
// # Import graph
//
// An import is an edge from the importing file to the file that defines
// what it imports (or the module's file, or the files of a package
// imported whole, at most maxWildcardEdges of them). Relations measures
// how close a file is to another: 1 for the file itself and when one
// imports the other, else the Jaccard similarity of the modules both
// import (repository or external). The retrieval's optional re-rank
// (engine.Options.ImportBoost) and the definition context's lookup by
// name (package defctx) order by it; the latter then by PageRank.
package symtab
