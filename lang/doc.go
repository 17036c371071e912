// Package lang defines the language-neutral statement tree that every
// front end produces and the graph builder consumes.
//
// A front end (lang/python, lang/java, lang/golang, lang/typescript,
// lang/javascript) knows its grammar; package ccg knows
// control flow and data flow. They meet here: a File is a tree of Stmt, each
// one a future vertex of the code context graph, tagged with the control
// role it plays (Kind), the rows of its own header, and the names it defines
// and uses. Keeping this seam narrow is what lets one CFG, post-dominator and
// reaching-definitions implementation serve every language.
//
// # Symbols and imports
//
// The same parse also outlines the file for the repository's symbol
// table (package symtab), which answers "where is the API this code calls
// defined": a front end whose Language has Modules fills File.Symbols,
// File.Imports and File.Package. (Language.ParseBlocks, which the index
// builder calls, lets a BlocksParser leave the symbols in the blocks its
// outline collected them in, File.SymbolBlocks: a large file's symbols
// are then not in the heap twice at the end of its parse, the blocks
// beside their joined copy.) The contract a front end keeps:
//
//   - Symbols lists, in source order, every type declared at top level or
//     in a type's body (at any depth of types), and every member of those
//     types: methods, constructors, properties, fields and constants,
//     plus top-level functions, constants and variables. Definitions
//     local to a function body (nested functions, local classes,
//     variables) are left out: they are no repository API. Parent indexes
//     the enclosing type, which comes first; names need not be unique
//     (overloads, a re-assigned name: a front end may keep the first).
//   - Rows are the file's own: StartRow <= SigStart <= NameRow <= SigEnd
//     <= EndRow, all inside File.Lines, DocRow -1 or a row of the file
//     (a Javadoc comment stands before its declaration, a docstring
//     inside). Consumers show the lines SigStart..SigEnd as the
//     signature and DocText of DocRow as its documentation, so a
//     signature should read well alone: the header a reader needs to call
//     the definition, without its body.
//   - Bases and Type are names as the code writes them (dotted, without
//     type arguments); resolving them is the symbol table's job.
//   - Imports lists one Import per name an import statement brings in,
//     with the module as written (relative dots included); the
//     language's ModuleSystem makes it absolute (ModuleSystem.Resolve)
//     and names the modules of every file (ModuleNames), so that the
//     table can map each import to the repository file that defines it.
//     Whatever it cannot map stays external: no error.
//   - The prefix of a file being edited ends inside a class and a method;
//     the outline of such a file should still hold the enclosing types
//     and the members written so far (the Java front end rebuilds them
//     from the tokens error recovery leaves). Like Parse, outlining never
//     fails on content, and costs time linear in the file: front ends
//     walk statements and declarations, not expressions.
//
// Scoping tells the resolver how code reaches members (self, this, bare
// names). The front ends' shared test helpers (lang/internal/langtest)
// render an outline for golden tests (Outline) and check this contract
// (CheckSymbols).
package lang
