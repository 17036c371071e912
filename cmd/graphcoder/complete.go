package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/graphcoder/graphcoder/defctx"
	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/llm"
	"github.com/graphcoder/graphcoder/prompt"
	"github.com/graphcoder/graphcoder/retrieve"
)

// indexDirName is the index folder a build creates in the repository.
const indexDirName = ".graphcoder"

func init() { rootCmd.AddCommand(newCompleteCmd()) }

func newCompleteCmd() *cobra.Command {
	var (
		indexDir, mode, format string
		topK, rerank, vote     int
		window, maxNew         int
		policy                 contextFlags
	)
	cmd := &cobra.Command{
		Use:   "complete [--index DIR] [--mode M] [--top-k N] [--format text|json|prompt] FILE:LINE",
		Short: "Retrieve context for line LINE of FILE and predict it",
		Long: `Complete line LINE (1-based) of FILE from the lines before it, with the rest of
the file as the suffix. The index is found by walking up from FILE to a folder
holding .graphcoder, unless --index names it.

Formats:
  text    the snippets (path:lines and scores), the prompt and the prediction
  prompt  the prompt only, to pipe into a model
  json    one object:
          {"target": {"path": P, "line": N},
           "snippets": [{"path", "start_line", "end_line", "score", "coarse_score", "text"}],
           "context": [{"source", "path", "start_line", "end_line", "tokens"}],
           "prompt": S, "prediction": S, "stats": {...}}
          Paths are relative to the repository root, lines 1-based and
          inclusive, snippets best first; "score" is the ranking similarity
          (higher is better: the Jaccard of the keys in mode coarse, 1/(1+SED)
          otherwise) and "coarse_score" the coarse stage's score (the
          Jaccard of the keys; BM25 in mode bm25, the reciprocal rank
          fusion score in mode hybrid). "context" lists the blocks the
          prompt shows, in prompt order (best last): the snippets merged
          where they overlap, without the rows the in-file part shows,
          within the budget (--context-window, --max-new-tokens and the
          --context-* packing flags).

Modes: coarse2fine re-ranks the Jaccard top --rerank by subgraph edit
distance; hybrid fuses the Jaccard, BM25 and (with --embed and an index built
with it) dense top 50s by reciprocal rank fusion and re-ranks the fused top
--rerank; bm25 and coarse are one coarse ranking alone; fine scores every
entry. Without --mode, Java files are completed in mode hybrid and the other
languages in coarse2fine, the better of the two on each in the evaluation of
docs/EVAL.md.

With a model backend (--llm and related flags, or --llm-config FILE, the same
settings as serve and eval) the model writes the prediction from the retrieved
snippets; when it fails, the model-free prediction is printed and the reason
goes to standard error. "predictor" in the JSON says which one answered.

FILE is read as graphcoder build reads files: a regular text file (UTF-8, no
NUL byte) inside the repository, within the size limit; a FIFO, a device or a
link leading out of the repository is refused. Files whose stored record is
damaged are left out, with a warning, until graphcoder build repairs them.

Exit status: 5 when the file or line cannot be completed (outside the
repository, past the end, binary, too large, unsupported language) or the
arguments are wrong, 3 when no usable index is found (missing, damaged, of
another schema, in use), 1 for any other failure.`,
		Args: cobra.ExactArgs(1),
	}
	llmFlags := llm.AddFlags(cmd.Flags())
	embedFlags := llm.AddEmbedFlags(cmd.Flags())
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := checkFlags(
			atLeast("top-k", topK, 1),
			atLeast("rerank", rerank, 0),
			atLeast("vote", vote, 0),
			atLeast("context-window", window, 1),
			atLeast("max-new-tokens", maxNew, 0),
			flagCheck{maxNew < window, fmt.Sprintf("--max-new-tokens (%d) must be less than --context-window (%d)", maxNew, window)},
		); err != nil {
			return err
		}
		cfg, err := llmFlags.Config()
		if err != nil {
			return &exitError{exitBadInput, err}
		}
		ecfg, err := embedFlags.Config()
		if err != nil {
			return &exitError{exitBadInput, err}
		}
		embedder, err := llm.NewEmbedder(ecfg)
		if err != nil {
			return &exitError{exitBadInput, err}
		}
		if cfg.Kind == "" && (cfg.URL != "" || cfg.Model != "") {
			cfg.Kind = llm.KindOpenAI
		}
		model, err := llm.New(cfg)
		if err != nil {
			return &exitError{exitBadInput, err}
		}
		file, line, err := parseFileLine(args[0])
		if err != nil {
			return &exitError{exitBadInput, err}
		}
		m, err := parseMode(mode)
		if err != nil {
			return &exitError{exitBadInput, err}
		}
		switch format {
		case "text", "json", "prompt":
		default:
			return &exitError{exitBadInput, fmt.Errorf("unknown format %q (want text, json or prompt)", format)}
		}
		abs, err := filepath.Abs(file)
		if err != nil {
			return &exitError{exitBadInput, err}
		}
		if fi, err := os.Stat(abs); err != nil {
			return &exitError{exitBadInput, fmt.Errorf("%s: %w", file, errors.Unwrap(err))}
		} else if fi.IsDir() {
			return &exitError{exitBadInput, fmt.Errorf("%s is a directory", file)}
		}
		po, err := policy.options(window, maxNew)
		if err != nil {
			return &exitError{exitBadInput, err}
		}
		po.Layout = cfg.Layout()
		// One request, then the process ends: the pages its search mapped
		// are released before the definition context and the prompt map
		// theirs (engine.Options.ReleaseEvery).
		opts := engine.Options{Prompt: po, Embedder: embedder, ReleaseEvery: -1}
		policy.engine(&opts)
		if indexDir == "" {
			repo, ok := findRepo(filepath.Dir(abs))
			if !ok {
				return &exitError{exitNoIndex, fmt.Errorf("no %s index found above %s: run `graphcoder build REPO` or pass --index", indexDirName, file)}
			}
			indexDir = filepath.Join(repo, indexDirName)
			opts.Root = repo
		}
		e, err := engine.Open(indexDir, opts)
		if err != nil {
			if code := exitCode(err); code != exitFailure {
				return &exitError{code, err}
			}
			return &exitError{exitNoIndex, err}
		}
		defer e.Close()
		if d := e.Info().Damaged; len(d) > 0 {
			fmt.Fprintf(cmd.ErrOrStderr(), "graphcoder: warning: the index is damaged: %d file(s) left out (%s); `graphcoder build` repairs it\n",
				len(d), strings.Join(d[:min(len(d), 3)], ", "))
		}
		res, err := e.Complete(cmd.Context(), engine.Request{Path: abs, Line: line, Mode: m, TopK: topK, Rerank: rerank, Vote: vote})
		if err != nil {
			return &exitError{exitCode(err), err}
		}
		predictor := "graphcoder"
		if cfg.Kind != "" && cfg.Kind != llm.KindNone && format != "prompt" {
			text, err := generate(cmd.Context(), model, res)
			if err != nil {
				fmt.Fprintf(cmd.ErrOrStderr(), "graphcoder: model %s failed, printing the model-free prediction: %v\n", model.Name(), err)
			} else {
				res.Prediction, predictor = text, model.Name()
			}
		}
		return writeResult(cmd.OutOrStdout(), format, res, predictor)
	}
	f := cmd.Flags()
	f.StringVar(&indexDir, "index", "", "index directory (default: the nearest "+indexDirName+" above FILE)")
	f.StringVar(&mode, "mode", "", "retrieval mode: coarse, fine, coarse2fine, bm25 or hybrid (default: hybrid for Java, coarse2fine for the other languages)")
	f.IntVar(&topK, "top-k", 10, "number of snippets")
	f.IntVar(&rerank, "rerank", 0, "coarse candidates the fine stage re-ranks (default: top-k in coarse2fine, 50 in hybrid)")
	f.IntVar(&vote, "vote", 0, "best candidates voting for the model-free prediction (default 1: the best alone)")
	f.StringVar(&format, "format", "text", "output: text, json or prompt")
	f.IntVar(&window, "context-window", 2048, "model context window in tokens, for the prompt budget")
	f.IntVar(&maxNew, "max-new-tokens", 100, "tokens kept free for the answer")
	policy.add(f)
	return badFlags(cmd)
}

// generate asks the model for the completion of res's target line from
// the assembled context, in the layout the backend takes.
func generate(ctx context.Context, model llm.Backend, res *engine.Result) (string, error) {
	resp, err := model.Complete(ctx, llm.WithContext(llm.Request{Language: res.Language, Path: res.Path}, res.Context))
	if err != nil {
		return "", err
	}
	return resp.Text, nil
}

// parseMode checks a --mode value; "" leaves the mode to the engine, which
// picks the language's (engine.DefaultMode).
func parseMode(s string) (retrieve.Mode, error) {
	if s == "" {
		return "", nil
	}
	return retrieve.ParseMode(s)
}

// parseFileLine splits FILE:LINE at its last colon.
func parseFileLine(arg string) (string, int, error) {
	i := strings.LastIndexByte(arg, ':')
	if i <= 0 {
		return "", 0, fmt.Errorf("want FILE:LINE, got %q", arg)
	}
	n, err := strconv.Atoi(arg[i+1:])
	if err != nil || n < 1 {
		return "", 0, fmt.Errorf("want FILE:LINE with a line number from 1, got %q", arg)
	}
	return arg[:i], n, nil
}

// findRepo walks up from dir to the first folder holding the index folder.
func findRepo(dir string) (string, bool) {
	for {
		if fi, err := os.Stat(filepath.Join(dir, indexDirName)); err == nil && fi.IsDir() {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// completeJSON is the documented, stable JSON output.
type completeJSON struct {
	Target struct {
		Path string `json:"path"`
		Line int    `json:"line"`
	} `json:"target"`
	Snippets    []snippetJSON    `json:"snippets"`
	Context     []blockJSON      `json:"context"`
	Definitions []definitionJSON `json:"definitions"`
	Prompt      string           `json:"prompt"`
	Prediction  string           `json:"prediction"`
	// Predictor is "graphcoder" for the model-free prediction, else the
	// model backend that wrote it.
	Predictor string       `json:"predictor"`
	Stats     engine.Stats `json:"stats"`
}

type blockJSON struct {
	Source    string `json:"source"`
	Path      string `json:"path"`
	StartLine int    `json:"start_line"`
	EndLine   int    `json:"end_line"`
	Tokens    int    `json:"tokens"`
	// Rows are the rows a definition block shows, in its order (its
	// lines are not contiguous); none for other blocks.
	Rows []int `json:"rows,omitempty"`
}

// definitionJSON is one definition the definition context chose, with why
// and whether the prompt shows it.
type definitionJSON struct {
	defctx.Definition
	InPrompt bool `json:"in_prompt"`
}

type snippetJSON struct {
	Path        string  `json:"path"`
	StartLine   int     `json:"start_line"`
	EndLine     int     `json:"end_line"`
	Score       float64 `json:"score"`
	CoarseScore float64 `json:"coarse_score"`
	Text        string  `json:"text"`
}

func writeResult(w io.Writer, format string, res *engine.Result, predictor string) error {
	switch format {
	case "prompt":
		_, err := io.WriteString(w, res.Context.Text())
		return err
	case "json":
		var out completeJSON
		out.Target.Path, out.Target.Line = res.Path, res.Line
		out.Snippets = []snippetJSON{}
		for _, s := range res.Snippets {
			out.Snippets = append(out.Snippets, snippetJSON{s.Path, s.StartLine, s.EndLine, finite(s.Score), finite(s.CoarseScore), s.Text})
		}
		out.Context = []blockJSON{}
		for _, b := range res.Context.Blocks {
			bj := blockJSON{Source: string(b.Source), Path: b.Path, StartLine: b.StartLine, EndLine: b.EndLine, Tokens: b.Tokens}
			if b.Source == prompt.Definition {
				for _, r := range b.Rows {
					if r > 0 {
						bj.Rows = append(bj.Rows, r)
					}
				}
			}
			out.Context = append(out.Context, bj)
		}
		out.Definitions = []definitionJSON{}
		for _, d := range res.Definitions {
			out.Definitions = append(out.Definitions, definitionJSON{d, res.InPrompt(d)})
		}
		out.Prompt, out.Prediction, out.Predictor, out.Stats = res.Context.Text(), res.Prediction, predictor, res.Stats
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "target: %s:%d\n\nsnippets (%d):\n", res.Path, res.Line, len(res.Snippets))
	for i, s := range res.Snippets {
		fmt.Fprintf(&b, "  %2d. %s:%d-%d  score %.4f  coarse %.4f", i+1, s.Path, s.StartLine, s.EndLine, s.Score, s.CoarseScore)
		if s.SED >= 0 {
			fmt.Fprintf(&b, "  sed %.4f", s.SED)
		}
		b.WriteByte('\n')
	}
	c := res.Context
	fmt.Fprintf(&b, "\ncontext (%d blocks, %d of %d tokens, in-file lines %d-%d):\n", len(c.Blocks), c.Tokens, c.Budget, c.PrefixStart, c.PrefixStart+len(c.Prefix)-1)
	for _, bl := range c.Blocks {
		fmt.Fprintf(&b, "  %-9s %s:%d-%d  %d tokens", bl.Source, bl.Path, bl.StartLine, bl.EndLine, bl.Tokens)
		if bl.Candidates > 1 {
			fmt.Fprintf(&b, "  (%d snippets merged)", bl.Candidates)
		}
		b.WriteByte('\n')
	}
	if len(res.Definitions) > 0 {
		fmt.Fprintf(&b, "\ndefinitions (%d):\n", len(res.Definitions))
		for _, d := range res.Definitions {
			shown := "not shown"
			if res.InPrompt(d) {
				shown = "in the prompt"
			}
			fmt.Fprintf(&b, "  %-11s %s %s:%d  %s: %s (%s)\n", d.Kind, d.Name, d.Path, d.Line, d.Origin, d.Reason, shown)
		}
	}
	fmt.Fprintf(&b, "\nprompt (%s layout):\n%s\nprediction (%s):\n%s\n", c.Layout, c.Text(), predictor, res.Prediction)
	st := res.Stats
	fmt.Fprintf(&b, "\nstats: %d entries, %d scanned, %d scored, parse %v, coarse %v, fine %v, total %v\n",
		st.Entries, st.Scanned, st.Candidates, st.Parse, st.Coarse, st.Fine, st.Total)
	_, err := io.WriteString(w, b.String())
	return err
}

func finite(x float64) float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}
