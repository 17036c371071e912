// Package ccg builds the code context graph (CCG) of a source file: the
// structure GraphCoder retrieves by.
//
// A CCG has one vertex per statement (a compound statement contributes
// only its header) and three kinds of edges:
//
//   - CF, control flow: a real control flow graph per scope (the top level,
//     each function or class body, each block nested in an expression),
//     with branches, loops, break/continue (labeled too), return and raise
//     leaving the scope without falling through, try/handler/finally and
//     switch fall-through. A function or class header is a plain statement
//     of its enclosing scope and the entry of its own body, so the CF edges
//     of the file are the union of the scopes' graphs joined at headers.
//   - CD, control dependence (Ferrante, Ottenstein and Warren 1987): y
//     depends on branch x when one successor of x always leads to y and
//     another may not. It is computed per scope from post-dominators (the
//     dominator tree of the reversed CFG rooted at a virtual exit), with a
//     virtual entry standing for the scope's header. Statements depending
//     on nothing else depend on their scope's header; top-level statements
//     may have no CD parent.
//   - DD, data dependence: a definition of name n at x reaches a use of n
//     at y along the CF graph with no other definition of n in between.
//     This is classic reaching definitions, solved with an iterative
//     bit-vector data-flow pass over the union CF graph, so definitions
//     made before a function reach its body through the header, while
//     definitions inside a body never flow out. A header's Params
//     (parameters, lambda parameters, record components) are definitions
//     on the header's edges into the scope it opens only: a vertex that
//     opens a scope has a second OUT set for those edges, so a parameter
//     neither reaches nor kills anything after the header in its own
//     scope.
//
// Why build it this way rather than approximate? Retrieval compares the
// neighbourhoods of statements; a fall-through edge after a return, a
// control dependence read off indentation or a data dependence found on a
// single path would put the wrong statements in those neighbourhoods. The
// builder is language-neutral: it reads only the statement tree of package
// lang, and the front ends decide what each construct means.
//
// Decisions worth knowing:
//   - Loops whose condition is the literal true (Python `while True:` and
//     `while 1:`, Java and JavaScript `while (true)`, `for (;;)`,
//     `do ... while (true)`, Go `for {`) have no exit edge; they are left only by jumps. Vertices that then
//     cannot reach the exit get, as is standard, a virtual edge to the exit
//     from the smallest vertex of each sink strongly connected component
//     (the loop header), so the loop's body depends on its header.
//   - return and raise inside a try with finally go through the finally
//     block, whose end then also leaves the scope; break and continue jump
//     straight to their target.
//   - Every statement of a try body may raise into each handler; with no
//     handler, into the finally block. An explicit raise or throw in a try
//     body with handlers also goes on, since no handler may match, to the
//     finally block or out to an enclosing try or the scope's exit, unless
//     a handler catches everything (a bare except:, except BaseException,
//     catch (Throwable ...), and every JavaScript or TypeScript catch). Other statements are not given that
//     unmatched path: every call would otherwise branch to the exit.
//   - Statements that error recovery left in a switch or match before its
//     first case run between the header and the cases.
//   - The query target (Graph.AppendTarget) stands where the index has
//     the statement written after the context, with the same CF
//     predecessors. After a function or class header with no body yet it
//     is the first statement of that body. After a statement that ends an
//     inline body (lang.Stmt.InlineBody: a Java brace-less body, a Python
//     body on its header's row) it follows the whole construct, with CF
//     edges from the vertices that complete it normally. In the brace
//     languages the same holds for every construct the context's last
//     lines close (`}`, `});`, ... with blank and comment lines between):
//     the builder reads the brace depth of the rows with a small lexer
//     that knows comments and literals, compares it with the depth of each
//     statement enclosing the last one, and follows each closed construct
//     in turn (an if/else chain, loop, switch or try, or a function or
//     class header, a plain statement of its enclosing scope). Build
//     records the chain of statements enclosing the file's last statement
//     and the frontier leaving each of their constructs, a few entries per
//     file, so indexing pays next to nothing for it. A Python context
//     cannot show whether the next line dedents: after a body on its own
//     rows, the target stays in that body.
//   - A Python match does not catch break (it belongs to the enclosing
//     loop); a Java, JavaScript or Go switch (and a Go select) does.
//   - A case marked FallThrough (a Go case ending in fallthrough) flows
//     into the next case's block like every case of a Java classic switch.
//   - A goto (lang.Goto) jumps to the labeled statement of its scope that
//     carries its label; labels are resolved once the scope is complete,
//     so a goto may jump forwards or backwards.
//   - Self loops are dropped from every edge type.
//
// Known approximations, kept because fixing them would cost more than
// they distort the neighbourhoods retrieval compares:
//   - break and continue inside a try with finally jump straight to their
//     target without running the finally block (routing them through it
//     would need the block's end to fan out to every such target).
//   - Only an explicit raise/throw may escape its try unmatched; an
//     exception raised by any other statement reaches only the handlers
//     (or the finally block when there is none). A Python with block whose
//     context manager suppresses exceptions is not modelled.
//   - Definitions reach a nested function body through its header, that
//     is, as they stand where the function is defined rather than where it
//     is called; names a Python class body defines also reach its methods,
//     although Python resolves a bare name in a method past the class
//     scope. Java fields reach the methods declared after them in source
//     order only.
//   - A Java lambda's parameters reach every Inner block of the statement
//     holding it (an anonymous class body in the same statement too).
//
// A vertex (Node) is 40 bytes: its names are a range of one pool the
// graph holds (Graph.Defs, Uses, Params), not slices of its own, since
// for a large file the vertices and their name lists are most of what the
// graph holds beside the index's blob (three slices and the grammar type
// took 112 bytes a vertex).
//
// Dominators use the iterative algorithm of Cooper, Harvey and Kennedy on
// int32 slices; a test checks it agrees with gonum's graph/flow and a
// benchmark compares the two.
package ccg
