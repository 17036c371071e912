package eval

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/graphcoder/graphcoder/eval/metrics"
	"github.com/graphcoder/graphcoder/eval/tasks"
	"github.com/graphcoder/graphcoder/eval/window"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/llm"
	"github.com/graphcoder/graphcoder/prompt"
	"github.com/graphcoder/graphcoder/token"
)

// harness holds what every method of a run shares.
type harness struct {
	opts   Options
	lang   *lang.Language
	tok    token.Tokenizer
	scorer *metrics.Scorer
	prompt prompt.Options
}

// method is one retrieval method ready to answer tasks. run returns the
// retrieved snippets (best first), the final prediction and the time spent
// retrieving.
type method struct {
	name    string
	entries int
	bytes   int64
	run     func(ctx context.Context, t *tasks.Task, lines []string) ([]Snippet, string, time.Duration, error)
}

// methods prepares the requested methods: the window database is built
// once for the sequence baselines, the graph index opened once for the
// graphcoder modes. The returned function releases them.
func (h *harness) methods(ctx context.Context, files []repoFile) ([]*method, func(), error) {
	var wix *window.Index
	windowIndex := func() *window.Index {
		if wix == nil {
			wf := make([]window.File, len(files))
			for i, f := range files {
				wf[i] = window.File{Path: f.rel, Lines: f.lines}
			}
			wix = window.Build(wf, h.tok, window.Options{Size: h.opts.Window, CommentPrefix: h.lang.CommentPrefix})
		}
		return wix
	}
	var graph GraphIndex
	closeAll := func() {
		if graph != nil {
			graph.Close()
		}
	}
	var out []*method
	for _, name := range h.opts.Methods {
		m := &method{name: name}
		switch name {
		case None:
			m.run = h.none
		case Vanilla, Shifted:
			ix := windowIndex()
			m.entries, m.bytes = ix.Entries(), ix.Bytes()
			m.run = h.windowRun(ix, name == Shifted)
		case RepoCoder:
			ix := windowIndex()
			m.entries, m.bytes = ix.Entries(), ix.Bytes()
			m.run = h.repoCoder(ix)
		case GraphCoderCoarse, GraphCoderFine, GraphCoder:
			if graph == nil {
				src := GraphSource{Repo: h.opts.Repo, IndexDir: h.opts.IndexDir, Tokenizer: h.opts.Tokenizer}
				for _, f := range files {
					src.Files = append(src.Files, SourceFile{Path: f.rel, Content: f.src})
				}
				g, err := h.opts.OpenGraph(ctx, src)
				if err != nil {
					return nil, nil, fmt.Errorf("open graphcoder index: %w", err)
				}
				graph = g
			}
			m.entries, m.bytes = graph.Entries(), graph.Bytes()
			mode := map[string]string{GraphCoderCoarse: "coarse", GraphCoderFine: "fine", GraphCoder: "coarse2fine"}[name]
			m.run = h.graphRun(graph, mode)
		}
		out = append(out, m)
	}
	return out, closeAll, nil
}

func (h *harness) none(ctx context.Context, t *tasks.Task, lines []string) ([]Snippet, string, time.Duration, error) {
	pred, err := h.generate(ctx, t, lines, nil, "")
	return nil, pred, 0, err
}

func (h *harness) windowRun(ix *window.Index, shift bool) func(context.Context, *tasks.Task, []string) ([]Snippet, string, time.Duration, error) {
	return func(ctx context.Context, t *tasks.Task, lines []string) ([]Snippet, string, time.Duration, error) {
		start := time.Now()
		res := ix.Search(window.Query{Path: t.Path, Line: t.Line, Context: lines, Shift: shift, TopK: h.opts.TopK})
		took := time.Since(start)
		snips := windowSnippets(res.Hits)
		pred, err := h.generate(ctx, t, lines, snips, res.Prediction)
		return snips, pred, took, err
	}
}

// repoCoder runs the iterative retrieve-generate loop: each round's query
// is the context followed by the previous round's prediction.
func (h *harness) repoCoder(ix *window.Index) func(context.Context, *tasks.Task, []string) ([]Snippet, string, time.Duration, error) {
	return func(ctx context.Context, t *tasks.Task, lines []string) ([]Snippet, string, time.Duration, error) {
		var (
			took     time.Duration
			snips    []Snippet
			pred     string
			appended []string
		)
		for it := 0; it < h.opts.Iterations; it++ {
			start := time.Now()
			res := ix.Search(window.Query{Path: t.Path, Line: t.Line, Context: lines, Appended: appended, TopK: h.opts.TopK})
			took += time.Since(start)
			snips = windowSnippets(res.Hits)
			var err error
			if pred, err = h.generate(ctx, t, lines, snips, res.Prediction); err != nil {
				return nil, "", 0, err
			}
			appended = nonBlankLines(pred)
		}
		return snips, pred, took, nil
	}
}

func (h *harness) graphRun(g GraphIndex, mode string) func(context.Context, *tasks.Task, []string) ([]Snippet, string, time.Duration, error) {
	return func(ctx context.Context, t *tasks.Task, lines []string) ([]Snippet, string, time.Duration, error) {
		start := time.Now()
		res, err := g.Retrieve(ctx, GraphQuery{Path: t.Path, Line: t.Line, Source: []byte(t.Prompt), Mode: mode, TopK: h.opts.TopK})
		took := time.Since(start)
		if err != nil {
			return nil, "", 0, err
		}
		if res.Retrieval > 0 {
			took = res.Retrieval
		}
		pred, err := h.generate(ctx, t, lines, res.Snippets, res.Prediction)
		return res.Snippets, pred, took, err
	}
}

// generate returns the prediction for a task: the method's model-free
// prediction without a model, else the model's completion of the prompt
// built from the snippets within the run's budget.
func (h *harness) generate(ctx context.Context, t *tasks.Task, lines []string, snips []Snippet, modelFree string) (string, error) {
	if h.opts.LLM == nil {
		return modelFree, nil
	}
	ps := make([]prompt.Snippet, len(snips))
	for i, s := range snips {
		ps[i] = prompt.Snippet{Path: s.Path, Text: s.Text, Score: s.Score}
	}
	p := prompt.Build(ps, lines, t.Path, h.prompt)
	resp, err := h.opts.LLM.Complete(ctx, llm.Request{
		Prefix:    t.Prompt,
		Prompt:    p.Text,
		Language:  h.lang.Name,
		Path:      t.Path,
		RepoName:  t.Repo,
		MaxTokens: h.prompt.MaxNewTokens,
	})
	if err != nil {
		return "", fmt.Errorf("generate: %w", err)
	}
	return resp.Text, nil
}

// runOne runs a method on a task and scores it.
func (h *harness) runOne(ctx context.Context, m *method, t *tasks.Task) (Record, error) {
	lines := contextLines(t)
	snips, pred, took, err := m.run(ctx, t, lines)
	if err != nil {
		return Record{}, err
	}
	if h.opts.Observe != nil {
		h.opts.Observe(Observation{Method: m.name, Task: t, Snippets: snips, Prediction: pred})
	}
	s := h.scorer.Score(t.GroundTruth, pred)
	values := make([]string, len(snips))
	outside := make([]string, len(snips)) // "" stands for a snippet in the query window
	locs := make([]string, len(snips))
	for i, sn := range snips {
		values[i] = sn.Text
		if OutsideQueryWindow(sn, t, h.opts.Window) {
			outside[i] = sn.Text
		}
		locs[i] = fmt.Sprintf("%s:%d-%d", sn.Path, sn.Start+1, sn.End)
	}
	return Record{
		TaskID: t.ID, Method: m.name, Path: t.Path, Line: t.Line,
		GroundTruth: t.GroundTruth, Prediction: pred,
		EM: s.EM, ES: s.ES, IDEM: s.IDEM, IDF1: s.IDF1,
		Hit1:        h.scorer.Hit(t.GroundTruth, values, 1),
		Hit5:        h.scorer.Hit(t.GroundTruth, values, 5),
		Hit10:       h.scorer.Hit(t.GroundTruth, values, 10),
		OutHit1:     h.scorer.Hit(t.GroundTruth, outside, 1),
		OutHit5:     h.scorer.Hit(t.GroundTruth, outside, 5),
		OutHit10:    h.scorer.Hit(t.GroundTruth, outside, 10),
		RetrievalMS: float64(took.Microseconds()) / 1000,
		Snippets:    locs,
	}, nil
}

// OutsideQueryWindow reports whether a snippet lies outside the query's
// own window: the window rows of the hole's file right before the hole,
// which the query (and any prompt) already holds. The leak rule allows
// snippets there, and the sequence baselines rank them first, since the
// query matches a copy of itself shifted by a row best; a hit in them is a
// target line that repeats a line of the last rows, found without
// retrieval. RepoCoder's own evaluation drops such windows; hit@k counted
// outside them measures what retrieval adds.
func OutsideQueryWindow(sn Snippet, t *tasks.Task, window int) bool {
	return sn.Path != t.Path || sn.End <= t.Line-window || sn.Start >= t.Line
}

func windowSnippets(hits []window.Hit) []Snippet {
	out := make([]Snippet, len(hits))
	for i, hit := range hits {
		out[i] = Snippet{Path: hit.Path, Start: hit.Start, End: hit.End, Score: hit.Score, Text: hit.Text}
	}
	return out
}

func nonBlankLines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			out = append(out, l)
		}
	}
	return out
}
