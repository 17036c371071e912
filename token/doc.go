// Package token splits statement text into the tokens whose sets the
// retrieval stage compares.
//
// GraphCoder's coarse stage is a Jaccard index over token sets, so the
// tokenizer decides what "lexically similar" means. Two are offered:
//
//   - code (the default) is a hand-written scanner that understands source
//     code: an identifier yields itself and, when it is made of several
//     words (getValue, MAX_SIZE, HTTPServer), its lowercase sub-words, so
//     that related names overlap; numbers, the words inside string literals
//     and operators are tokens of their own. It allocates only for
//     lowercased sub-words and runs at hundreds of megabytes per second.
//   - cl100k is the byte-pair encoding the paper's public implementation
//     uses, kept for faithful comparisons. Its vocabulary ships inside the
//     binary (no download at run time); tokens are the decoded BPE pieces,
//     so both tokenizers feed the same string-vocabulary path.
//
// The tokenizer is chosen when an index is built and recorded in it: the
// query side must split text the same way.
package token
