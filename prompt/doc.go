// Package prompt is the context assembler: it alone decides what a
// language model sees. The engine, the servers and the evaluation hand it
// the ranked candidates (retrieved windows, and later definitions and
// editor-sent snippets, each tagged with its Source), the in-file lines
// around the cursor and one token budget; it returns the chosen blocks in
// order, each with its source, path, rows and tokens, and renders them for
// the layout the model backend takes.
//
// The candidates are usually more than the prompt can hold: the engine
// retrieves a pool (engine.Options.ContextPool, 50 by default), its top
// k first, and the assembler keeps what fits once merged, deduplicated and
// cut.
//
// Why: retrieval returns overlapping windows (the ten best statements of a
// file often sit a few lines apart, so their 21-line windows overlap), and
// windows of the file being completed repeat rows the in-file context
// shows anyway. Laid out one by one they fill the budget with the same
// lines; similar but irrelevant code also lowers a model's accuracy. Every
// production completion system deduplicates; this package does it once,
// for every caller.
//
// # Budget
//
// B = ContextWindow - MaxNewTokens, counted with the index's tokenizer.
// The blocks may take Share of B (default half, as in the GraphCoder
// paper), their header line included; the in-file context takes the rest
// and whatever the blocks leave. A file too short to fill its part (or a
// cursor near its top) leaves the rest to the blocks: when the whole
// prefix (and suffix) fits in B - Share x B, the blocks may take all of B
// the in-file context does not (unless FixedShare). Within that share, the blocks of a source
// listed in Shares take at most its part (DefaultShares: definitions at
// most three quarters). Where the layout sends a suffix, the
// suffix takes up to a quarter of the in-file part and the prefix the
// rest. The rendered prompt is counted once more as a whole; while it
// exceeds B the oldest prefix line goes, then the last suffix line, then
// the weakest block, so a prompt never exceeds B.
//
// # Rules, in the order they apply
//
// A line is trivial when it holds no word but the language's keywords
// (Options.Keywords): "else:", "}", "return", a closing quote. Lines are
// compared without their surrounding white space.
//
//  1. In-file rows. The in-file part shows the last lines before the
//     cursor that fit (and, with a suffix, the first lines after it). A
//     placed candidate (StartLine > 0) of the file being completed loses
//     the rows the in-file part shows; of what remains it keeps the run
//     holding its focus, or else the longer run. A candidate with explicit
//     rows (Candidate.Rows: a definition's signatures) loses each line
//     whose row the in-file part shows. A candidate with nothing left is
//     dropped. This is applied first against the in-file lines
//     shown even when the blocks take their whole share, and again at the
//     end against the lines actually shown.
//  2. Merge (unless NoMerge). Placed candidates with contiguous rows of one
//     source and file
//     whose rows overlap or touch (the next starts at most one line after
//     the previous ends) become one block over the union of their rows,
//     with the best rank, the best score and the focus of the best-ranked
//     part.
//  3. Edges. Trivial lines at both ends of a block go: a window cut out
//     of a file starts with the closing lines of the code before it and
//     ends with the opening lines of the code after it. A block of
//     nothing but trivial lines is dropped.
//  4. Order. Blocks of the sources in Priority (DefaultPriority:
//     definitions) compete first, in that order; within a source, and
//     among the sources not listed, blocks compete by rank (the best rank
//     of their candidates; default) or by density, score per token (ties
//     by rank). Ahead of them all compete the Lead best-ranked retrieved
//     blocks (default 1) when blocks of a Priority source are offered, in
//     at most LeadShare (default 0.35) of the blocks' budget, cut around
//     their focus to fit: the best structural match holds most of the
//     target line's identifiers at line level, the definitions most of
//     its API names (docs/EVAL.md).
//  5. Per-file cap. At most PerFile blocks (default 2) of one source and
//     file. Blocks with explicit rows are exempt: definitions are
//     distinct by construction.
//  6. Repeats. A block is dropped when more than MaxRepeat (default
//     three quarters) of its non-blank lines are lines the prompt shows
//     already: the in-file lines of rule 1 and the lines of the blocks
//     chosen before it. A block with no non-blank line is always dropped.
//  7. Elision (unless NoElide). In what a block shows, each run of lines
//     shown already (by the in-file part, a block chosen before it, or
//     earlier in the block itself), with the blank lines between them,
//     becomes one marker line, the comment prefix and "...", at the run's
//     indentation, when the run holds a line that is not trivial. From a
//     run of trivial lines only the closing lines ("}", "});", ")") go,
//     unless KeepClosers: the indentation of what follows stands for
//     them. A block left without a line of its own is dropped. Block.Rows
//     says which row each shown line is (0 for a marker), Block.Whole
//     what the block holds before elision.
//  8. Fit. A block that does not fit what is left of the share (or of its
//     source's part, see Budget) is cut to the lines around its focus
//     that fit (growing one line after, then one before), at least three
//     lines or the whole block (unless NoCut, which skips it); otherwise
//     it is skipped and the next one tried. A block with explicit rows,
//     whose lines come best first, is cut to its first lines instead. At
//     most MaxBlocks blocks besides those with explicit rows (the
//     definitions, whose number the definition context bounds): counted
//     together, definitions would leave a large window's budget unused.
//  9. In-file part. The in-file part takes what the blocks leave; rules
//     1 and 7 are applied again against the lines it then shows, which
//     frees tokens for more in-file lines, for a few rounds. A source
//     whose blocks then take more than its part (a marker can cost a
//     token more than the line it replaces) loses its weakest block.
//  10. Position. The chosen blocks are written in ascending order of
//     relevance (the order of rule 4 by source priority, then rank), the
//     best one last next to the code (BestLast, the paper's order), or
//     with the best at both edges and the weakest in the middle (Edges).
//     The final count (see Budget) drops blocks in the same order, least
//     relevant first.
//
// Legacy turns every rule off: the prompt graphcoder wrote before it had
// an assembler, kept to measure what the rules bring.
//
// # Layouts
//
//   - Paper: the paper's template. A header line, then per block a
//     separator, a line naming the file, a separator, its lines behind the
//     language's comment prefix (so the prompt is still code), a
//     separator; then an instruction comment naming the file and the
//     in-file lines before the cursor. A definition block, short and one
//     of several, has a single line naming its file ("definitions in
//     PATH:") instead of the frame.
//   - FIM: the Paper text as the prefix of a fill-in-the-middle request and
//     the in-file lines after the cursor's line as its suffix (one-file FIM
//     templates; OpenAI-compatible and Ollama servers that take a suffix).
//   - Files: the blocks as separate files (path and text), the in-file
//     lines before and after the cursor as prefix and suffix (llama.cpp's
//     input_extra, the Qwen2.5-Coder repository layout).
//
// Model backends wrap the pieces in their own wire format and special
// tokens (package llm); they neither choose nor cut context.
package prompt
