// Package defctx chooses the repository definitions a model sees for one
// cursor: the definition context, which goes into the prompt through the
// context assembler (package prompt) as blocks of source Definition.
//
// Why: the definition of the API a line calls helps a model more than more
// code that looks like the line, and graphcoder knows every definition of
// the repository from its own index (package symtab), without an LSP.
//
// # What is collected
//
// Code is read as access paths (self.parser.feed, store.open(n).save():
// calls whose result is read on continue the path, the resolver follows
// the return type), outside strings and comments. Every definition gets a
// score from the reasons that point at it, summed:
//
//   - Near: the paths the last NearLines lines before the cursor read
//     (weight 0.85^d for the line d lines above the cursor's) and those of
//     the query slice's statements (0.5), resolved in the buffer's scope
//     (symtab.Resolver: local definitions, imports, receivers, enclosing
//     classes and their bases, typed fields); then the FarCalls called
//     paths of the rest of the buffer that weigh most, each call site
//     0.3 x 0.995^d, summed up to three sites' worth: code calls the same
//     APIs again, the more so the more it called them. The longest prefix of a path that
//     resolves counts, the whole path fully, a shorter prefix at 0.6.
//   - Declared: a local name the resolver does not know (x in x.run())
//     whose declaration in the enclosing function names a repository type
//     or a call (`x: T`, `x = T(...)`, `x = new T(...)`, `T x =`, a typed
//     parameter, `x = store.open(n)` with open's return type): the type at
//     0.7 of the name's weight, and the path resolved as members of it.
//   - Enclosing: the class the cursor is in (0.5; in Go, the receiver's
//     type of the method the cursor is in, declared in any file of the
//     package) and its repository base classes (0.4).
//   - Predicted: the calls in the statement that stands where the
//     cursor's does in each of the Predictors best retrieved candidates
//     (weight 1.5/(1+rank)), resolved in the candidate's own file: the
//     structural match says which API the hole probably calls. The line
//     after that statement counts at 0.4 of it (the alignment is often
//     one statement off), and the rest of the window at 0.1.
//   - ByName: a called attribute path the resolver cannot follow to its
//     end (a method of a value of unknown type; not a bare name, more
//     often a builtin or a local than a repository API; not a local
//     declared of a type the repository does not define, such as a
//     StringBuilder, whose methods are that type's) gives the callables
//     and types of that name in files of the buffer's language, at 0.4 of
//     its weight, at most ByName of them (two): those of files nearest the
//     buffer in the import graph first, then of files of highest PageRank.
//     A common name has thousands of definitions on a large repository
//     (toString, get): the best are kept as they come, ranked by what the
//     symbol table's indexes hold (symtab.NamedRefs), and only their
//     outlines are decoded; decoding every one took tens of milliseconds.
//     In a language that reads members bare (Java), so does a bare call
//     the class's scope does not resolve: there it is no local and no
//     builtin but a method defined further down the file (which the leak
//     rule hides), or one from outside the repository; so not when an
//     import binds the name or the class (or one enclosing it) has a base
//     the repository does not define.
//
// Fields, constants and variables score half: code calls APIs more than it
// reads fields. The function the cursor is in is left out (its header is
// right above). Each Origin can be switched off (Options), to measure what
// it brings; the defaults of the weights and bounds were chosen by the
// ablations of docs/EVAL.md.
//
// # Blocks
//
// Definitions are grouped by class (a method or field under its class)
// and by file; a file's block holds its best MaxUnits classes and
// functions, best first, and the best MaxFiles files make blocks. A class
// shows its signature and first doc line, then its members with a reason
// (from FullSignature on, their whole signature and first doc line; below,
// their name line), a function its signature and first doc line, a field
// or constant its declaring line; at most MaxLines lines a block. Of the
// overloads of a name only the best is shown so, and a class scores by
// the best overload of each name: one signature says what an API is.
// Signatures longer than a few rows lose their decorators and
// annotations, then are cut. The members a class lists for context only
// (the other overloads of the names shown, then its constructors, then
// its other callables and types, in source order: MaxMembers in all,
// EnclosingMembers for the class of the cursor) form a second block of
// the file, scored a tenth of the first. Blocks are offered by score: the
// members of a class the code surely uses come before weak guesses in
// other files, those of the others after every definition with a reason.
//
// Signature rows are written shorter as the language's lang.Signatures
// say (Java: without access modifiers, final and the like, marker
// annotations and the brace opening the body; static and abstract stay):
// more signatures fit the budget, and what is left still says how an API
// is called (WholeRows keeps rows as written).
//
// Every line is the file's own, with its row (prompt.Candidate.Rows), so
// the assembler can leave out what the in-file part shows and say where
// each line came from; lines come best first, so a block cut to fit keeps
// its best definitions.
//
// Nothing of the buffer's indexed version is read: the view holds the
// buffer's own outline on top. Its definitions lie before the cursor,
// but for the declarations of its classes after the cursor's line
// (Input.After: an editor's buffer, a file completed from disk; the
// engine adds them to the outline): code calls helpers declared further
// down, so names resolve to them, and a block shows them by their
// signature rows alone, never a doc line, a body, a field or the cursor's
// own line (NoAfter leaves them out).
// The engine reads that outline from the buffer with the brackets still
// open at its end closed (ccg.Closers): cut off inside its class and
// method, a Java buffer's parse loses declarations, often the very
// classes around the cursor.
// All lookups are bounded (see symtab), so bad input gives bounded
// output.
package defctx
