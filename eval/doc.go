// Package eval runs the GraphCoder paper's benchmark protocol on a
// repository: it samples completion tasks, asks every retrieval method for
// context on the same tasks, predicts the hole line, and scores the
// predictions and the retrieved context with the paper's metrics.
//
// The point is to make the claim "graph retrieval finds better context
// than sequence retrieval, faster" checkable by anyone on any repository
// with one command. Every method answers the same tasks under the same leak
// rule (nothing from the hole's own file at or after the hole), the same
// tokenizer and the same prompt budget, so differences come from retrieval
// alone. One exception, for the definition context of the graph methods:
// as an editor's buffer does, the engine gets the file's lines after the
// hole's line (never the hole's own, GraphQuery.After), and the definition
// blocks show the declarations there by their signature rows alone (no
// doc line, body or field; TestDefinitionsAfterHole): a helper the code
// calls before it is declared. Retrieval and the prompt's in-file part
// read the prefix only.
//
// Methods:
//
//   - none: no retrieval; with no model it predicts nothing, so it only
//     means something with a language model.
//   - vanilla, shifted, repocoder: the sequence baselines of package
//     eval/window (20-line windows at stride 1; shifted returns the window
//     after the match; repocoder runs three retrieval rounds, each query
//     extended with the previous round's prediction).
//   - graphcoder-coarse, graphcoder-fine, graphcoder: the code context graph
//     index queried in coarse, fine and coarse2fine mode.
//   - bm25: the same index ranked by BM25 over the key token multisets
//     alone (mode bm25, no re-rank); graphcoder-hybrid: mode hybrid, the
//     Jaccard, BM25 and (with an embeddings backend) dense rankings fused
//     by reciprocal rank fusion and the fused pool re-ranked by subgraph
//     edit distance (spec section 9).
//
// Without a model the prediction is each method's model-free prediction
// (the line that stands where the hole does in the best match); with a
// model (any OpenAI-compatible completions endpoint) every method's
// retrieved snippets go through the same prompt layout and budget.
//
// Besides the paper's hit@k the harness counts hit@k outside the query's
// own window (OutsideQueryWindow): the leak rule lets a method return the
// rows right above the hole, which the prompt holds anyway, and the
// sequence baselines rank exactly those first; a target that repeats a
// recent line is then a "hit" no retrieval was needed for.
//
// Retrieval time is wall time of the retrieval calls of one task (all
// three rounds for repocoder) and excludes generation. Results are
// deterministic for a seed: tasks are sampled and processed in a fixed
// order and ties between candidates break by position.
package eval
