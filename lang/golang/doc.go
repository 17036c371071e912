// Package golang is the Go front end: it parses Go source with tree-sitter
// and maps the syntax tree onto the language-neutral statement tree of
// package lang, from which package ccg builds code context graphs.
// Importing the package registers the language "go" for ".go" files.
//
// # Statements
//
// Every simple statement is one Stmt of kind Simple: expression
// statements, assignments, short variable declarations, ++ and --, sends,
// go and defer statements, fallthrough, the package clause. return is
// Return; break and continue carry their label; goto is Goto with its
// label. Empty statements, comments and blank lines are not statements.
//
// Declarations: an ungrouped import, const, var or type declaration is one
// statement of the declaration's type; a grouped one (`var (...)`) is one
// statement per spec, of the spec's type (import_spec, var_spec, ...), so
// that each line of a block is a statement of its own. A type whose
// underlying type is a struct or an interface is a Class whose header runs
// through the opening brace, with one Simple statement per field, method
// or type element; other types and aliases are Simple.
//
// Compound statements contribute a header whose rows cover only the
// header, and whose body holds their statements:
//   - func declarations and methods are Func, with rows through the result
//     list; a function without a body (implemented in assembly) has no Body;
//   - if is If with rows through the condition, init statement included;
//     else is an Else on the row of the else keyword, except for else-if,
//     where Else is the nested If;
//   - every for (three-clause, condition only, infinite, range) is Loop,
//     with the init and post statements and the range clause on the header;
//   - expression switches, type switches and select are Switch, with rows
//     through the opening brace and one Case per clause (rows through its
//     colon). A default clause makes a switch Exhaustive; every select is
//     Exhaustive, since it blocks until one of its clauses runs. Go cases
//     do not fall through, so no Switch sets FallThrough; a case whose last
//     statement is fallthrough sets FallThrough on the Case, and the graph
//     builder then flows from it into the next clause's block;
//   - a labeled statement is With carrying the label, with the labeled
//     statement as its body; a labeled for carries the label too, so break
//     and continue find it. A labeled switch or select is left by
//     `break label` through the With. goto jumps to the With of its label,
//     resolved by the graph builder in the function's scope;
//   - a bare block adds its statements in place.
//
// Go has no inline bodies: every body is a block in braces, so InlineBody
// is never set.
//
// Function literals are scopes of their own: the body of a literal inside
// an expression is an Inner block of the statement holding it, and the
// literal's parameters and named results are that statement's Params (as
// for Java lambdas), reaching its Inner blocks only.
//
// # Control flow the statement tree does not show
//
// panic is an ordinary call, not an exit: `panic(err)` is a Simple
// statement followed by the next one. Recognising it would need to know
// that the name panic is the builtin, and a recovered panic does continue;
// the graph therefore keeps the statements after a panic connected to it.
//
// defer is a Simple statement where it stands. Go evaluates the deferred
// call's function value and arguments there, and runs the call when the
// function returns, the last deferred call first. The graph keeps the
// first half only: a defer reads the definitions that reach it, and no
// edge leads from the function's returns to its deferred calls, whose
// order is therefore not modelled either.
//
// # Definitions and uses
//
// Defined are the names declared by var, const and type specs, by := (all
// of its left names: Go's redeclaration of an existing variable counts as a
// new definition), by range clauses and receive clauses with :=, and by a
// type switch's binding (on the Switch header, since every clause sees
// it); assignment targets; operands of ++ and -- and targets of op
// assignments (also used); function and method names (on Func); type
// names (on Class or the type's statement); struct field and interface
// method names (on their member statements); and import names: an
// explicit name, or the package name guessed from the path (its last
// element without a major version element and after its last '-':
// "github.com/smacker/go-tree-sitter" defines sitter, "gopkg.in/yaml.v3"
// yaml); `_` and `.` imports define nothing.
//
// Names bound only inside the function a declaration opens are its Params,
// not Defs: the receiver, type parameters, parameters and named results (on
// Func), a generic type's type parameters (on its Class or statement), and
// a function literal's parameters and named results (on the statement
// holding it).
//
// The graph builder has no block scopes: what an if, for or switch init
// statement or a block declares is a Def that reaches the statements after
// the whole statement too, where Go has it out of scope, and there it
// hides earlier definitions of the same name (`if err := f(); err != nil`
// shadows an outer err, whose definition then reaches no later use).
//
// `p.x = v` defines p.x and uses p. `a[i] = v` defines a and uses a and i,
// and `*p = v` defines and uses p: weak updates, where only an element or
// the pointee changes, so reading the container keeps its earlier
// definitions connected even though the new definition replaces them in
// the graph builder. The blank identifier is never a name.
//
// Uses are the names read in the statement's own rows, not in nested
// bodies: every identifier in expression position, with access paths and
// their prefixes (reading a.b.c uses a.b.c, a.b and a; a call pkg.F(x)
// uses pkg, pkg.F and x; f().x uses only what f() uses). Types are not
// uses (`var b bytes.Buffer` uses nothing), nor are field names in a
// struct literal (`T{a: x}` uses x), labels, or string, number and
// predeclared literals (true, false, nil, iota). A conversion T(x) whose
// type the parser reads as an expression, and a call of a builtin such as
// len, do use the name: they look like calls.
//
// # Outline
//
// The file's outline (lang.File.Symbols, Imports, Package) is read from
// its top-level declarations: functions; methods, as top-level symbols
// whose only base is their receiver's type (methods live in any file of
// the package; the symbol table finds them by that base:
// lang.Scoping.DetachedMethods); struct types with their fields (an
// embedded field is named by its type and is a base, so promoted members
// resolve); interfaces with their methods (embedded interfaces are
// bases); other named types and aliases, whose base is the type they
// name; consts and vars, one symbol per name. A signature runs from the
// declaration's first row to the row of its body's brace (a grouped
// spec: its own rows); the documentation is the comment right above, its
// first line of text (directives such as //go:generate skipped); a
// Type is the first result's type, a field's or var's named type (a
// pointer's element; slices, maps and functions have none).
//
// A package is named by its import path: the path of the module whose
// go.mod is nearest above its folder, joined with the folder's path
// inside the module (module std, the standard library's, has no prefix;
// a vendor folder holds the packages of other modules under their own
// paths). The go.mod files are read when the repository's module system
// is configured (lang.Configurable, symtab.NewRepo), above the indexed
// root too, so that GOROOT/src/net/http indexed alone still names its
// packages net/http/...; unconfigured, a package is named by its folder
// relative to the root. An import binds the package's name (its path's
// last element by convention: the package clause of the imported files
// is not read), an explicit name renames it, a dot import binds every
// name of the package, a blank import nothing (it stays an edge of the
// import graph). The files of one folder see each other's top-level
// names.
//
// # Errors
//
// A file never fails to parse because of its content. An ERROR node in
// statement position becomes one Error statement over its rows, whose
// identifiers are its uses; nothing inside it becomes a statement. An
// ERROR node inside an expression stays part of its statement. File.Errors
// counts ERROR nodes and the tokens tree-sitter inserted to recover, so a
// file parsed cleanly exactly when it is zero.
//
// # Speed
//
// The front end copies the whole syntax tree into Go memory with one cgo
// call per file (package tsflat) and maps statements with plain Go code
// over that copy; names are substrings of one copy of the source.
package golang
