// Package ecma maps JavaScript, JSX, TypeScript and TSX syntax trees onto
// the language-neutral statement tree of package lang. The three
// tree-sitter grammars share their node names, so one builder serves
// them; packages lang/javascript and lang/typescript register it for their
// file extensions and grammars.
//
// # Statements
//
// Every simple statement is one Stmt of kind Simple: expression
// statements, var, let and const declarations, imports and exports,
// debugger, type aliases and overload signatures. return is Return,
// throw is Raise, break and continue carry their label. Empty statements,
// comments, blank lines and a #! line are not statements.
//
// Declarations and compound statements contribute a header whose rows
// cover only the header, with their statements in Body:
//   - function and generator declarations are Func with rows through the
//     return type; so is a var, let or const declaration of a single name
//     bound to a function with a block body (`const f = async (x) => {`),
//     the usual way modern code declares a function: it defines the name
//     like a declaration would. `export default function` is a Func too;
//   - classes (also abstract and default-exported ones) are Class with
//     rows through the heritage clause; their members are statements:
//     methods, accessors and constructors are Func defining their name,
//     static blocks are Func on the `static {` row, fields are Simple
//     defining the access path this.x they initialize (static fields too),
//     abstract methods and index signatures Simple;
//   - TypeScript interfaces are Class with one Simple per member signature
//     (defining the member's name); enums are Class with one Simple per
//     member (defining it, reading its initializer); namespaces and
//     `declare module` blocks are Class with their statements in Body,
//     defining the namespace's first name; `declare global` is a Class
//     without a name. A declaration's rows start at the export, declare
//     or decorator that precedes it, and the decorators are read on its
//     header;
//   - if is If through the condition; else is an Else on the row of the
//     else keyword, except for else-if, where Else is the nested If;
//   - for, for-in, for-of, for await and while are Loop through the
//     closing parenthesis (initializer, condition and increment, or the
//     loop variable and the iterated value, on the header); do-while is Do
//     with a DoCond for the rows of `while (...)`;
//   - switch is Switch with FallThrough set: each case and default is a
//     Case through its colon, falling into the next one when it ends
//     normally; a default makes it Exhaustive;
//   - try is Try on the try row, with a Catch through its parameter and a
//     Finally; every catch clause catches every exception, which the graph
//     builder knows;
//   - a labeled statement is With carrying the label, with the statement as
//     its body; a labeled loop carries the label too. JavaScript's with
//     statement is With reading its object;
//   - a bare block adds its statements in place;
//   - an if, else, loop, with or labeled statement whose body is a single
//     statement rather than a block (`if (x) return;`) sets InlineBody.
//
// # Nested bodies
//
// Function expressions, arrow functions and object literal methods inside
// an expression are scopes of their own: a block body is an Inner block of
// the statement holding the expression, and the function's parameters
// (and a named function expression's own name) are that statement's
// Params, reaching its Inner blocks only. An expression body is read with
// those parameters hidden, since they are not the holder's variables. A
// class expression contributes its members as an Inner block. The holding
// statement's rows end on the row before its first nested statement.
//
// # Definitions and uses
//
// Defined are declared variables, with every name a destructuring pattern
// binds (object and array patterns, defaults, rest elements; default
// values and computed keys are read), assignment targets (destructuring
// assignments too), operands of ++ and -- and targets of compound
// assignments (also used, ??= and friends included), loop variables (on
// the Loop header), catch parameters (on Catch), function, class,
// interface, enum, type alias and namespace names, and import names (the
// default, namespace and named imports, an alias when given; a bare
// `import "m"` binds nothing). Parameters are the Func header's Params; a
// TypeScript parameter property (`constructor(private x: T)`) also
// defines this.x.
//
// The graph builder has no block scopes: a let or const declared in a
// block, or in a for header, is a Def that reaches the statements after
// the block as well, and hides earlier definitions of the same name there.
//
// `this.x = v` defines this.x and uses this. `a[i] = v` defines a and uses
// a and i, a weak update through which earlier definitions of a keep
// flowing.
//
// Uses are the names read in the statement's own rows, not in nested
// bodies: every identifier in expression position, this and super, with
// access paths and their prefixes (this.#x.y uses this.#x.y, this.#x and
// this; a call obj.m(a) uses obj, obj.m and a; optional chains and
// non-null assertions read as plain paths: a?.b and a!.b use a.b and a;
// f().x uses only what f() uses). Shorthand properties (`{x}`) read x. In
// JSX, a component's name (capitalised, or a path such as UI.Footer) is a
// use; intrinsic element names (div) and attribute names are not, while
// attribute values and children expressions are read. Exports read the
// local names they export (not a re-export from another module). Types
// are never uses: annotations, type arguments and parameters, `as` and
// `satisfies` targets, implemented interfaces; nor are property names,
// labels, and literals (undefined included).
//
// # Outline
//
// The file's outline (lang.File.Symbols, Imports) holds its top-level
// declarations, exported or not, and the members of its classes,
// interfaces, object type aliases, enums and namespaces (nested
// namespaces too): functions, overload signatures and `declare`d
// functions; classes (bases: the extended class and the implemented
// interfaces) with their methods, accessors (properties), constructor
// and fields (a field holding an arrow function is a method);
// interfaces (bases: the interfaces they extend) with their property and
// method signatures; type aliases (an object type is an interface, a
// named type the alias's base); enums with their constants; namespaces,
// as classes whose members are their declarations; consts (a function
// when the value is an arrow or function expression, else a constant),
// lets and vars. Types are the annotations' named types and the class a
// `new` builds.
//
// Imports are recorded as written; the module system (Modules) resolves
// them. A default import imports the name "default"; a default export
// of a named declaration or of a local name, and a local name exported
// under another name (`export { f as g }`), are imports of the file's
// own module (Module "") binding the exported name, so that importing
// them from the file resolves through its re-exports; `export ... from`
// and `export * from` are imports too, and `const x = require("m")`.
//
// Where error recovery left loose tokens (a whole file in one ERROR
// node, or a statement that swallowed what follows it, see Errors), the
// declarations are read from the rows that start them at column 0
// (`export const name`, `class Name`, ...): their kind, name, signature
// rows and doc comment, not their members; an unclosed class at the end
// of a file being edited keeps the members written so far.
//
// # Errors
//
// A file never fails to parse because of its content. An ERROR node in
// statement position becomes one Error statement whose identifiers are
// its uses, unless it holds complete statements: tree-sitter, when it
// cannot resynchronise after a syntax its grammar does not know, may wrap
// most of a file in one ERROR node (the TypeScript grammar shipped with
// smacker/go-tree-sitter predates variance annotations, `interface A<out
// T>`). Such a node is transparent: its complete statements are mapped as
// usual and each run of other nodes between them becomes one Error
// statement. An ERROR node inside an expression stays part of its
// statement. File.Errors counts ERROR nodes and the tokens tree-sitter
// inserted to recover, so a file parsed cleanly exactly when it is zero.
package ecma
