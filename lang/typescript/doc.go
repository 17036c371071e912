// Package typescript is the TypeScript front end: it parses TypeScript
// (".ts", ".mts", ".cts") with the tree-sitter TypeScript grammar and TSX
// (".tsx") with the TSX grammar, where `<T>x` is an element rather than a
// type assertion, and maps the syntax tree onto the language-neutral
// statement tree of package lang. Importing the package registers the
// language "typescript" for all four extensions, so that .ts and .tsx files
// of a repository retrieve from each other. The mapping, shared with
// JavaScript, is documented in package lang/internal/ecma; TypeScript adds
// interfaces, type aliases, enums, namespaces, declare blocks, overload
// signatures and parameter properties, and its types are never uses.
//
// The grammar predates two syntaxes real code uses: variance annotations
// on type parameters (`interface A<out T>`), and a generic call signature
// on its own line after another member of an object type without a `;`.
// tree-sitter recovers from them with ERROR nodes, often large ones; the
// front end keeps the complete statements such a node holds (see the
// package documentation of lang/internal/ecma), but the lines it cannot
// place become Error statements.
package typescript
