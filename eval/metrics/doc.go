// Package metrics scores a predicted line of code against the ground truth
// the way the GraphCoder and RepoCoder papers do, so that figures produced
// here can be set next to theirs.
//
// Both strings are first normalised: every line is stripped of surrounding
// white space, blank lines and comment lines are dropped, and the
// prediction keeps only as many lines as the target has. A model usually
// keeps generating past the hole; the papers only judge the lines that
// stand where the target does.
//
// Code match is exact match (EM) and edit similarity (ES, one minus the
// Levenshtein distance over runes divided by the longer length). Identifier
// match removes string literals, keeps the \w+ words that start with a
// letter or underscore and are not keywords of the language, and compares
// the lists (ID-EM) and their sets (ID-F1). The keywords are the reserved
// words only (Reserved drops soft and contextual keywords such as Python's
// `type` or Java's `permits`, which code mostly uses as names). Retrieval hit@k asks whether
// the normalised target occurs verbatim in one of the top k retrieved
// windows: it measures the retriever alone, independent of any generator.
package metrics
