// Package javascript is the JavaScript front end: it parses JavaScript and
// JSX (".js", ".mjs", ".cjs", ".jsx") with the tree-sitter JavaScript
// grammar, which reads JSX in every file, and maps the syntax tree onto the
// language-neutral statement tree of package lang. Importing the package
// registers the language "javascript". The mapping, shared with
// TypeScript, is documented in package lang/internal/ecma.
package javascript
