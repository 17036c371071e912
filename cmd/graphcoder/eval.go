package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/eval"
	"github.com/graphcoder/graphcoder/eval/tasks"
	"github.com/graphcoder/graphcoder/llm"
	"github.com/graphcoder/graphcoder/token"
)

func init() { rootCmd.AddCommand(newEvalCmd()) }

func newEvalCmd() *cobra.Command {
	var (
		opts          eval.Options
		level, method string
		asJSON        bool
		outDir        string
		window        int
		maxNew        int
		policy        contextFlags
		ablate        string
	)
	cmd := &cobra.Command{
		Use:   "eval --repo DIR --lang python|java|go|typescript|javascript --level line|api [--tasks N] [--seed S] [--methods a,b] [--json] [--out DIR]",
		Short: "Benchmark retrieval methods on completion tasks sampled from a repository",
		Long: `Sample line-level or API-level completion tasks from a repository (a random
code line with at least 5 tokens; API-level lines also call a function, method
or class the repository defines), then run every method on the same tasks and
score them as the GraphCoder paper does.

Methods: ` + strings.Join(eval.Methods(), ", ") + `.
graphcoder is coarse to fine (Jaccard top --pool re-ranked by subgraph edit
distance), graphcoder-hybrid fuses the Jaccard, BM25 and (with --embed) dense
rankings by reciprocal rank fusion before the re-rank, bm25 is BM25 alone.
Without a model each method predicts the hole with its model-free rule; with
--llm-url (an OpenAI-compatible /v1/completions server) and --llm-model every
method's snippets go through the same prompt layout and budget.

Columns: EM, ES (edit similarity), ID-EM and ID-F1 (identifier match) of the
predictions; hit@k: the target line occurs in one of the top k snippets;
out@10: hit@10 counting only snippets outside the query's own window (the
--window rows right above the hole, which the prompt already holds);
retrieval time per task (median and p95); database entries and size.

--json prints {"language", "level", "tasks", "seed", "methods": {NAME: {"em",
"es", "id_em", "id_f1", "hit@1", "hit@5", "hit@10", "outside_hit@1",
"outside_hit@5", "outside_hit@10", "retrieval_ms_p50", "retrieval_ms_p95",
"db_entries", "db_bytes", "recall@5", "recall@10", "mrr", "novel_id_recall",
"api_def_recall", "api_def_ceiling", "dup_line_share", "prompt_tokens",
"utilization"}}} with rates
in percent. The last eight measure the prompt each method's snippets make
under the common budget (--context-window, --max-new-tokens and the
--context-* packing flags), without a model: recall@k and mrr (x 100) of the
first block holding the target line, the share of the target's identifiers
missing from the in-file part that the blocks show, the share of repository
APIs the target calls (defined outside the in-file part) whose definition
line the prompt shows (and the share any prompt may show: the APIs defined
only after the hole in its own file are out of reach), the share of block
lines repeating an earlier line,
the median prompt tokens, and the share of the budget taken by blocks holding
the target line. --ablate measures them under other packing options too (see
` + "`--ablate list`" + `) and adds {"ablation": {VARIANT: {METHOD: {...}}}}.
--out DIR also writes tasks.jsonl (RepoEval format), predictions.jsonl,
summary.json and metrics.svg. The same seed gives the same numbers.`,
		Args: cobra.NoArgs,
	}
	f := cmd.Flags()
	f.StringVar(&opts.Repo, "repo", "", "repository root (required)")
	f.StringVar(&opts.Lang, "lang", "", "language of the tasks: python, java, go, typescript or javascript (required)")
	f.StringVar(&level, "level", "line", "task level: line or api")
	f.IntVar(&opts.Tasks, "tasks", 100, "number of tasks to sample")
	f.Uint64Var(&opts.Seed, "seed", 42, "sampling seed")
	f.StringVar(&opts.TaskFile, "task-file", "", "read RepoEval JSONL tasks instead of sampling (paths relative to --repo)")
	f.StringVar(&method, "methods", "", "comma-separated methods (default all)")
	f.BoolVar(&asJSON, "json", false, "print the summary as JSON")
	f.StringVar(&outDir, "out", "", "write tasks, predictions, summary and chart to this folder")
	f.StringVar(&opts.IndexDir, "index", "", "graphcoder index folder to build or update (default: a temporary one)")
	f.StringVar(&opts.Tokenizer, "tokenizer", "", "tokenizer for every method: code or cl100k (default code)")
	f.IntVar(&opts.TopK, "top-k", 10, "snippets retrieved per task")
	f.IntVar(&opts.Rerank, "rerank", 0, "coarse candidates the graph methods' fine stage re-ranks (default: top-k in coarse2fine, 50 in hybrid)")
	f.IntVar(&opts.Vote, "vote", 0, "best candidates voting for the graph methods' model-free prediction (default 1: the best alone)")
	f.Float64Var(&opts.VoteK, "vote-k", 0, "k of the voters' rank weights 1/(k + rank) (default 0)")
	f.IntVar(&opts.Window, "window", 20, "window size of the sequence baselines")
	f.IntVar(&opts.Workers, "workers", 1, "tasks run at once (1 keeps timings free of contention)")
	f.IntVar(&window, "context-window", 2048, "prompt budget: model context in tokens")
	f.IntVar(&maxNew, "max-new-tokens", 100, "prompt budget: tokens kept for the answer")
	policy.add(f)
	f.StringVar(&ablate, "ablate", "", "comma-separated packing variants to measure as well, \"all\", or \"list\" to list them")
	llmFlags := llm.AddFlags(f)
	embedFlags := llm.AddEmbedFlags(f)

	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		po, err := policy.options(window, maxNew)
		if err != nil {
			return &exitError{exitBadInput, err}
		}
		opts.Prompt, opts.ContextPool = po, policy.pool
		var eo engine.Options
		policy.engine(&eo)
		opts.NoDefinitions, opts.ImportBoost, opts.BM25 = eo.NoDefinitions, &eo.ImportBoost, eo.BM25
		if ablate == "list" {
			for _, v := range eval.Ablations(po) {
				fmt.Fprintf(cmd.OutOrStdout(), "%-12s %s\n", v.Name, eval.AblationDoc(v.Name))
			}
			return nil
		}
		if ablate != "" {
			if opts.Variants, err = eval.SelectAblations(po, ablate); err != nil {
				return &exitError{exitBadInput, err}
			}
		}
		if opts.Repo == "" || opts.Lang == "" {
			return &exitError{exitBadInput, errors.New("eval needs --repo and --lang")}
		}
		if err := checkFlags(
			atLeast("tasks", opts.Tasks, 1),
			atLeast("top-k", opts.TopK, 1),
			atLeast("window", opts.Window, 1),
			atLeast("workers", opts.Workers, 1),
			atLeast("context-window", opts.Prompt.ContextWindow, 1),
			atLeast("max-new-tokens", opts.Prompt.MaxNewTokens, 0),
			flagCheck{opts.Prompt.MaxNewTokens < opts.Prompt.ContextWindow, fmt.Sprintf("--max-new-tokens (%d) must be less than --context-window (%d)",
				opts.Prompt.MaxNewTokens, opts.Prompt.ContextWindow)},
		); err != nil {
			return err
		}
		if opts.Tokenizer != "" {
			if _, err := token.ByName(opts.Tokenizer); err != nil {
				return badInput(err)
			}
		}
		lv, err := tasks.ParseLevel(level)
		if err != nil {
			return &exitError{exitBadInput, err}
		}
		opts.Level = lv
		if method != "" {
			for _, m := range strings.Split(method, ",") {
				if m = strings.TrimSpace(m); m != "" {
					opts.Methods = append(opts.Methods, m)
				}
			}
		}
		cfg, err := llmFlags.Config()
		if err != nil {
			return &exitError{exitBadInput, err}
		}
		if cfg.Kind == "" && (cfg.URL != "" || cfg.Model != "") {
			cfg.Kind = llm.KindOpenAI
		}
		if cfg.Kind != "" && cfg.Kind != llm.KindNone {
			cfg.StopAtLineEnd = true // tasks are single lines
			if opts.LLM, err = llm.New(cfg); err != nil {
				return &exitError{exitBadInput, err}
			}
			opts.Prompt.Layout = cfg.Layout()
		}
		ecfg, err := embedFlags.Config()
		if err != nil {
			return &exitError{exitBadInput, err}
		}
		if opts.Embedder, err = llm.NewEmbedder(ecfg); err != nil {
			return &exitError{exitBadInput, err}
		}
		stderr := cmd.ErrOrStderr()
		progress := newEvalProgress(stderr)
		opts.Progress = progress.update
		start := time.Now()
		rep, err := eval.Run(cmd.Context(), opts)
		progress.finish()
		if err != nil {
			if cmd.Context().Err() != nil {
				return fmt.Errorf("eval interrupted: %w", err)
			}
			return err
		}
		if rep.SkippedFiles > 0 {
			fmt.Fprintf(stderr, "skipped %d unreadable or unparsable files\n", rep.SkippedFiles)
		}
		if outDir != "" {
			if err := rep.WriteDir(outDir); err != nil {
				return err
			}
		}
		out := cmd.OutOrStdout()
		if asJSON {
			enc := json.NewEncoder(out)
			enc.SetIndent("", "  ")
			return enc.Encode(rep.Summary())
		}
		if err := rep.WriteTable(out); err != nil {
			return err
		}
		fmt.Fprintf(out, "\n%.1f s\n", time.Since(start).Seconds())
		return nil
	}
	return badFlags(cmd)
}

// evalProgress shows a progress bar on a terminal and a line every tenth
// of the tasks otherwise.
type evalProgress struct {
	w        io.Writer
	terminal bool
	last     int
	shown    bool
}

func newEvalProgress(w io.Writer) *evalProgress {
	p := &evalProgress{w: w, last: -1}
	if f, ok := w.(*os.File); ok {
		p.terminal = term.IsTerminal(int(f.Fd()))
	}
	return p
}

func (p *evalProgress) update(done, total int) {
	if total <= 0 {
		return
	}
	if p.terminal {
		const width = 40
		n := done * width / total
		fmt.Fprintf(p.w, "\r[%s%s] %d/%d tasks", strings.Repeat("=", n), strings.Repeat(" ", width-n), done, total)
		p.shown = true
		return
	}
	if tenth := done * 10 / total; tenth != p.last {
		p.last = tenth
		fmt.Fprintf(p.w, "eval: %d/%d tasks\n", done, total)
	}
}

func (p *evalProgress) finish() {
	if p.shown {
		fmt.Fprintln(p.w)
	}
}
