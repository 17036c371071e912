// Package prompt lays out what a language model sees: retrieved code
// blocks, then the code before the cursor, within a token budget.
//
// The layout follows the GraphCoder paper (Fig. 3). The budget is
// B = context window - max new tokens; retrieved code may take up to half
// of it and the in-file context takes the rest. The retrieved part opens
// with a header line, then one block per snippet: a separator, a line
// naming the file, a separator, the snippet's lines, a separator. Every
// line of that part sits behind the language's line-comment prefix, so the
// prompt is still valid code. Snippets are offered best first and a block
// that does not fit in what is left of the half is skipped; the chosen
// blocks are then written in ascending similarity so the best one ends up
// next to the code being completed. The in-file part is an instruction
// comment and as many of the last context lines as fit.
//
// Counts come from the index's tokenizer, summed piece by piece; the
// assembled prompt is counted once more and trimmed if tokenization across
// line boundaries disagrees, so a prompt never exceeds its budget.
//
// FIM builds the same material for fill-in-the-middle backends: the
// snippets as a list, the prefix (the end of the code before the cursor)
// and the suffix (the start of the code after it).
package prompt
