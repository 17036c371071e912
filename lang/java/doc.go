// Package java is the Java front end: it parses Java source with
// tree-sitter and maps the syntax tree onto the language-neutral statement
// tree of package lang, from which package ccg builds code context graphs.
// Importing the package registers the language for ".java" files.
//
// # Statements
//
// Every simple statement is one Stmt of kind Simple: expression statements,
// local variable, field and constant declarations, enum constants,
// annotation elements, assert, explicit constructor calls (this(...),
// super(...)), package and import declarations, module directives. return
// is Return, throw is Raise, break and continue carry their label; yield,
// which only leaves a switch expression, is a Break without a label. Empty
// statements, comments and blank lines are not statements.
//
// Compound statements contribute a header whose rows cover only the header
// (leading annotations and modifiers included) and whose body holds its
// statements:
//   - class, interface, enum, record, annotation type and module
//     declarations are Class; methods and constructors (compact ones too)
//     are Func with rows to the end of the parameter list and throws
//     clause; a method without a body is a Func with no Body. Static and
//     instance initializers are Func headers on the row of `static {` or
//     `{` (type "static_initializer" and "block").
//   - if is If with rows through the condition; else is an Else on the row
//     of the else keyword, except for else-if, where Else is the nested If.
//   - for, enhanced for and while are Loop; do ... while is Do on the row of
//     `do` with Cond, a DoCond for the rows of `while (...);`.
//   - switch statements, and switch expressions standing as statements, are
//     Switch (rows through the selector) with one Case per case group or
//     arrow rule. Classic groups (`case X:`) set FallThrough on the Switch;
//     arrow rules do not fall through. A default label (also
//     `case null, default`) makes the Switch Exhaustive. Consecutive labels
//     the grammar keeps as separate groups (`case 1: case 2:`) are separate
//     Cases, the first with an empty body that falls into the next.
//   - try and try-with-resources are Try (rows through the resource list)
//     with a Catch per catch clause and a Finally; synchronized is With;
//     a labeled statement is With carrying the label with the labeled
//     statement as its body, and a labeled loop carries the label too, so
//     both `break l` and `continue l` find their target.
//   - a bare block inside a body adds its statements in place.
//   - an if, else, loop or labeled statement whose body is a single
//     statement rather than a block (`if (x) throw e;`) sets InlineBody.
//
// # Nested bodies
//
// Statements inside an expression (lambda block bodies, anonymous class
// bodies, enum constant bodies, switch expressions that are part of a
// larger expression) belong to Inner of the statement holding the
// expression, one block per body in source order: an anonymous class
// contributes its member list, a switch expression a block holding its
// Switch. Empty bodies add no block. The holding statement's rows then end
// on the row before its first nested statement (but cover at least its
// first row), so no two statements duplicate rows: in lang.Walk order each
// statement starts on or after the row where the previous one ends.
//
// # Definitions and uses
//
// Defs and Uses are access paths, sorted and distinct. Defined are local
// variables and fields (their names), assignment targets, operands of ++
// and -- (also used, like the targets of compound assignments), the
// variables of enhanced for loops and of classic for initializers and
// updates (on the Loop header), catch parameters (on Catch), the name of
// methods and constructors (on Func), class names (on Class), try
// resources (on Try), enum constants, imported simple names (not for
// wildcard imports) and pattern variables of instanceof, record and case
// patterns.
//
// Names bound only inside the scope a statement opens are its Params, not
// Defs: method and constructor parameters (on Func), record components
// (on Class) and lambda parameters (on the statement holding the lambda,
// whose block bodies are its Inner blocks). They reach that scope only and
// kill no definition after the statement.
//
// `this.x = v` defines this.x and uses this. `a[i] = v` defines a and uses
// a and i. It is a weak update: only one element changes, and listing a as
// a use keeps the earlier definitions of a connected to the statement even
// though the graph builder lets the new definition replace them.
//
// Uses are the names read in the statement's own rows, not in nested
// bodies: every identifier in expression position, with access paths and
// their prefixes (reading this.x.y uses this.x.y, this.x and this; a call
// obj.m(a) uses obj, obj.m and a; m(a) uses m; f().x uses only what f()
// uses). Type names are not uses (`List<String> x` uses nothing), nor are
// annotations, labels, or the parameters of a lambda read inside its
// expression body.
//
// # Errors
//
// A file never fails to parse because of its content. An ERROR node in
// statement position becomes one Error statement over its rows; nothing
// inside it becomes a statement. An ERROR node inside an expression stays
// part of its statement, and the names in it are uses. File.Errors counts
// ERROR nodes and the tokens tree-sitter inserted to recover (a missing
// `;` or `)`), so a file parsed cleanly exactly when it is zero.
//
// # Symbols and imports
//
// The outline (lang.File.Symbols, Imports, Package) is read from the whole
// syntax tree before the mapping prunes it: classes, interfaces, enums,
// records and annotation types at any depth of type bodies (with the
// types their extends, implements and interface extends clauses name),
// methods and annotation elements (Method; overloads are separate
// symbols), constructors (Constructor, compact ones too), fields (Field,
// one per declarator; Constant when static and final, and every interface
// field), enum constants (Constant, typed by their enum) and record
// components (Field). Classes local to a method and anonymous class
// bodies are left out. A signature runs from the modifiers (annotations
// included) to the end of the header before the body; the doc row is the
// first line of text of the Javadoc comment right before the declaration,
// unless it starts with a block tag. Imports keep their dotted names:
// `import a.b.C;` is module a.b, name C; `import a.b.*;` module a.b, name
// "*"; static imports are marked. A file's module is its declared package,
// and it sees its own package's types without importing them.
//
// A file being edited ends inside its class and method, which tree-sitter
// leaves as loose tokens in an ERROR node; the outline rebuilds the open
// types and methods from those tokens (modifiers, keyword, name,
// parameters, braces) and reads the complete declarations among them.
//
// # Speed
//
// Each question asked of a tree-sitter node crosses into C, and asking
// naively costs more than the parse. The front end therefore copies the
// whole tree into Go memory with one cgo call per file (package tsflat,
// shared with the Python front end), then prunes that copy to what the
// mapping needs, leaving out the insides of types, literals and
// annotations, and maps statements with plain Go code; names are
// substrings of the source.
//
// # Memory
//
// A large file is parsed in pieces of the children of one container, the
// class body or block that holds the most members or statements (a
// one-class file's class body): every piece holds the text around the
// container and a run of its children, and is parsed, flattened and
// freed before the next (tsflat.ParsePieces). The outline and the
// statement mapping walk the pieces as they would the whole file's
// records, from the root once, going on from one piece's run to the next
// inside their loop over the container's children (pieces.go), so that
// neither the file's tree nor its records are ever whole in memory: the
// statement tree and the symbols are what a parse holds at its end (the
// symbols left in their blocks for the index builder, ParseBlocks). A
// piece that does not fit, or a walk that does not go through the
// container as the pieces do, makes the file parse whole, with the same
// result.
package java
