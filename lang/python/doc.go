// Package python is the Python front end: it turns Python source into the
// language-neutral statement tree of package lang, using the tree-sitter
// Python grammar. Importing the package registers the language.
//
// # Statements
//
// Every simple statement is one Stmt (Simple, or Return, Raise, Break,
// Continue); simple statements separated by ';' are separate Stmts on the
// same row. A compound statement is a header Stmt whose rows run from its
// first token (its first decorator, for a decorated def or class) to the
// ':' that opens its body, with the body statements nested:
//
//   - if/elif/else: If, whose Else is the next elif (another If) or the
//     else clause (Else, covering the `else:` row);
//   - for, async for and while: Loop, with the loop's else clause in Else;
//   - try: Try with Body, one Catch per except or except* clause in
//     Handlers, the try-else in Else and the finally clause in Finally;
//   - with and async with: With;
//   - match: Switch with one Case per case clause (pattern and guard in
//     the header); Exhaustive is set when a case without guard is
//     irrefutable (`case _:`, a bare capture, or an as, group or union
//     pattern containing one);
//   - def and async def: Func; class: Class; nested at any depth.
//
// A header whose body starts on the header's own last row
// (`if x: return y`, `def f(): pass`) sets InlineBody.
//
// Comments and blank lines are never statements. Stmt.Type is the grammar
// node type (the inner function_definition or class_definition of a
// decorated definition).
//
// # Syntax errors
//
// tree-sitter recovers from syntax errors by wrapping what it cannot place
// in ERROR nodes. An ERROR node standing where a statement could stand
// becomes one Error Stmt covering its rows, with nothing emitted for the
// statements inside it; its identifiers are recorded as uses (so that a
// half-written line at a completion cursor still links to the definitions
// it mentions) and it defines nothing. One exception keeps a file from
// collapsing into a single vertex: when tree-sitter fails to resynchronise
// it can wrap most of a file in one ERROR node whose children are complete
// statements (the standard library's test_compile.py becomes one ERROR
// around 1,776 well-formed lines). Such an ERROR node is transparent: its
// complete statements are emitted as usual, and each run of the other
// nodes between them becomes an Error Stmt.
//
// An ERROR node inside a statement is part of that statement. A header
// ends at the ':' that opens its body; nodes that error recovery leaves
// between that ':' and the body block (a truncated last line, typically)
// start the body, and stray nodes after a body join the body of the
// clause they follow. A clause that lost its statement (an orphan else or
// except) becomes a With, a block that runs once. File.Errors counts the
// ERROR nodes (except those nested in an ERROR node that became one Error
// statement) and the tokens the parser had to insert (MISSING nodes). No
// input makes Parse fail except a cancelled context or the parse time
// limit.
//
// # Defs and uses
//
// Defs are the names a statement binds: assignment targets of every form
// (unpacking, starred, annotated, chained, augmented: `x += 1` defines
// and uses x), walrus targets wherever they appear (also inside a
// comprehension, whose walrus binds in the enclosing scope), for targets
// and with/except `as` names on their headers, names bound by case
// patterns (captures, as, *rest, **rest, keyword and class pattern
// captures), import names (`import a.b` binds a; `from m import x as y`
// binds y; `from m import *` binds nothing), def and class names on the
// header, and global/nonlocal names. The parameters and type parameters
// of a def, and the type parameters of a class, are the header's Params
// instead: they are bound only inside the body, so they neither reach nor
// kill anything after the definition. A walrus in a default value still
// binds in the enclosing scope, as a Def. An annotation without a value (`x: int`) still defines x. `del x`
// both defines and uses x: it kills earlier definitions, and it reads the
// binding it removes.
//
// Attribute and subscript targets: `self.x = v` defines the access path
// self.x and uses self; `a[i] = v` defines a and uses a and i, a weak
// update through which earlier definitions of a keep flowing. The same
// holds for the container behind nested subscripts and element attributes
// (a[i][j] = v and a[i].x = v define a); f()[i] = v defines nothing.
//
// Uses are the identifiers read in the statement's own rows, never in a
// nested body. A read of a.b.c uses a.b.c, a.b and a; a call obj.m(x) uses
// obj, obj.m and x; f().x uses f only (the attribute of a computed value
// is no variable). Keyword argument names are not uses. Names bound by a
// lambda's parameters or a comprehension's for clauses are local to the
// expression: reading them is not a use, while reading an outer name
// inside them is. Identifiers in f-string interpolations are uses; so are
// decorator expressions, default values and annotations, on the header of
// their definition.
//
// # Symbols and imports
//
// The outline (lang.File.Symbols, Imports) holds module-level functions
// (Function), classes at module level or nested in classes (Class, with
// the dotted names of their base classes; keyword arguments such as
// metaclass= are not bases, and a subscripted base Generic[T] is
// Generic), their methods (Method; __init__ is the Constructor; a def
// decorated with @property or a cached_property is a Property, and its
// setter and deleter are not recorded again), class attributes (Field,
// or Constant when ALL_CAPS), instance attributes a method assigns
// through its first parameter (self.x = v: a Field of the class, the
// first assignment standing for it), and module-level assignments
// (Variable, or Constant when ALL_CAPS). Definitions under a module- or
// class-level if, try or with count as the scope's; those inside function
// bodies do not. A name a scope defines twice is recorded once, at its
// first definition. Signatures run from the first decorator to the ':'
// of the header; the doc row is the first line of text of a docstring
// (the body's first statement, a string). Annotations give Type, reduced
// to the class they name (Optional["Account"] is Account); an attribute
// without one assigned a call of a capitalized name (self.p = Parser(s))
// takes that name as its Type.
//
// Imports are recorded wherever they stand, one per name: `import a.b`
// as module a.b, `from m import x as y` as module m, name x, alias y,
// `from m import *` as name "*"; relative modules keep their dots.
// __future__ imports are left out. Module names follow the file's dotted
// path ("a/b/__init__.py" is the package a.b), also under the root
// folder's own name and under every subfolder (see modules.ModuleNames);
// relative imports count from the importing file's package.
//
// # Speed
//
// Reading a tree-sitter tree node by node through cgo costs a call per
// access. The front end instead copies the whole tree into a flat Go slice
// in pre-order with one cgo call per file, then walks that slice visiting
// each node once; node types are compared as small integers mapped from
// the grammar's symbol ids.
package python
