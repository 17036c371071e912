// Package window implements the sequence-based retrieval baselines the
// GraphCoder paper compares against: vanilla retrieval-augmented
// generation over sliding windows, its "shifted" variant, and the query
// side of RepoCoder's iterative retrieval.
//
// The database holds every window of Size lines (default 20) at stride 1 of
// every file; a file shorter than Size is one window. A window's key is the
// set of tokens of its lines, split by the same tokenizer GraphCoder uses,
// and similarity is the same Jaccard index of token sets, computed exactly
// through an inverted index from token to windows: every window sharing at
// least one token with the query is scored, the others score 0.
//
// The query is the last Size lines before the hole, optionally followed by
// lines a generator predicted for it (RepoCoder appends the previous
// iteration's prediction). With Shift set a match returns the window that
// follows it, the code that came after the matched context.
//
// Model-free prediction. With no language model the baseline still has to
// predict a line, so the best window is read as an alignment: the query's
// rows line up with the window's rows, and the prediction is the window's
// row that stands where the hole stands in the query (the row right after
// the window for a plain query; the row of the appended prediction's first
// line when one is appended, since that is the model's guess for the hole).
// Blank and comment rows are skipped forward. This mirrors GraphCoder's
// model-free prediction, the statement of the best candidate that stands
// where the query's target does.
//
// A window of the hole's own file whose aligned row lies among the query's
// own rows does not predict: it is the query matched against a copy of
// itself shifted by a few rows, always the best matches, and its aligned
// row is a line the query already holds (usually the one right above the
// hole). Such windows still count as hits; the prediction comes from the
// best window past them, even one ranked below the top k.
//
// Leak rule. Like GraphCoder's, a window of the hole's own file is dropped
// when any row it reports or predicts from reaches the hole's line: the
// retriever must never see the ground truth.
package window
