package eval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/graphcoder/graphcoder/defctx"
	"github.com/graphcoder/graphcoder/engine"
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
	opts     Options
	lang     *lang.Language
	tok      token.Tokenizer
	scorer   *metrics.Scorer
	prompt   prompt.Options
	variants []Variant
	apis     map[string][]tasks.Loc // repository API name -> definitions
	// lines holds the repository files' lines by path: the graph methods'
	// buffer goes on after the hole (GraphQuery.After).
	lines map[string][]string
	// defVariants are the definition-context options the variants ask the
	// graph methods for, by name.
	defVariants map[string]defctx.Options
}

// answer is what a method gives for one task: the retrieved snippets (the
// top k best first, then the rest of the context pool), the definition
// context (graph methods only; also under the variants' options, by
// name), the final prediction and the time spent retrieving.
type answer struct {
	snips       []Snippet
	defs        []defctx.Block
	defVariants map[string][]defctx.Block
	pred        string
	took        time.Duration
}

// method is one retrieval method ready to answer tasks. rerun, set for
// the graph methods, answers again with another import-graph boost (a
// retrieval variant of an ablation).
type method struct {
	name    string
	entries int
	bytes   int64
	run     func(ctx context.Context, t *tasks.Task, lines []string) (answer, error)
	rerun   func(ctx context.Context, t *tasks.Task, lines []string, boost float64) (answer, error)
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
		case GraphCoderCoarse, GraphCoderFine, GraphCoder, BM25, GraphCoderHybrid:
			if graph == nil {
				src := GraphSource{Repo: h.opts.Repo, IndexDir: h.opts.IndexDir, Tokenizer: h.opts.Tokenizer, Embedder: h.opts.Embedder, BM25: h.opts.BM25}
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
			mode := map[string]string{GraphCoderCoarse: "coarse", GraphCoderFine: "fine", GraphCoder: "coarse2fine",
				BM25: "bm25", GraphCoderHybrid: "hybrid"}[name]
			m.run = h.graphRun(graph, mode, h.opts.ImportBoost)
			g := graph
			m.rerun = func(ctx context.Context, t *tasks.Task, lines []string, boost float64) (answer, error) {
				return h.graphRun(g, mode, &boost)(ctx, t, lines)
			}
		}
		out = append(out, m)
	}
	return out, closeAll, nil
}

func (h *harness) none(ctx context.Context, t *tasks.Task, lines []string) (answer, error) {
	pred, err := h.generate(ctx, t, lines, nil, nil, "")
	return answer{pred: pred}, err
}

func (h *harness) windowRun(ix *window.Index, shift bool) func(context.Context, *tasks.Task, []string) (answer, error) {
	return func(ctx context.Context, t *tasks.Task, lines []string) (answer, error) {
		start := time.Now()
		res := ix.Search(window.Query{Path: t.Path, Line: t.Line, Context: lines, Shift: shift, TopK: h.opts.ContextPool})
		took := time.Since(start)
		snips := windowSnippets(res.Hits, shift)
		pred, err := h.generate(ctx, t, lines, snips, nil, res.Prediction)
		return answer{snips: snips, pred: pred, took: took}, err
	}
}

// repoCoder runs the iterative retrieve-generate loop: each round's query
// is the context followed by the previous round's prediction.
func (h *harness) repoCoder(ix *window.Index) func(context.Context, *tasks.Task, []string) (answer, error) {
	return func(ctx context.Context, t *tasks.Task, lines []string) (answer, error) {
		var (
			took     time.Duration
			snips    []Snippet
			pred     string
			appended []string
		)
		for it := 0; it < h.opts.Iterations; it++ {
			start := time.Now()
			res := ix.Search(window.Query{Path: t.Path, Line: t.Line, Context: lines, Appended: appended, TopK: h.opts.ContextPool})
			took += time.Since(start)
			snips = windowSnippets(res.Hits, false)
			var err error
			if pred, err = h.generate(ctx, t, lines, snips, nil, res.Prediction); err != nil {
				return answer{}, err
			}
			appended = nonBlankLines(pred)
		}
		return answer{snips: snips, pred: pred, took: took}, nil
	}
}

func (h *harness) graphRun(g GraphIndex, mode string, boost *float64) func(context.Context, *tasks.Task, []string) (answer, error) {
	return func(ctx context.Context, t *tasks.Task, lines []string) (answer, error) {
		start := time.Now()
		res, err := g.Retrieve(ctx, GraphQuery{Path: t.Path, Line: t.Line, Source: []byte(t.Prompt), After: h.after(t), Mode: mode,
			TopK: h.opts.TopK, Pool: h.opts.ContextPool, Rerank: h.opts.Rerank, Vote: h.opts.Vote, VoteK: h.opts.VoteK,
			NoDefinitions: h.opts.NoDefinitions, Definitions: h.opts.Definitions, DefinitionVariants: h.defVariants,
			ImportBoost: boost})
		took := time.Since(start)
		if err != nil {
			return answer{}, err
		}
		if res.Retrieval > 0 {
			took = res.Retrieval
		}
		pred, err := h.generate(ctx, t, lines, res.Snippets, res.Definitions, res.Prediction)
		return answer{snips: res.Snippets, defs: res.Definitions, defVariants: res.DefinitionVariants, pred: pred, took: took}, err
	}
}

// after returns the lines of a task's file after the hole's line, nil
// when the file is unknown or the hole is its last line.
func (h *harness) after(t *tasks.Task) []byte {
	lines := h.lines[t.Path]
	if t.Line+1 >= len(lines) {
		return nil
	}
	var b []byte
	for _, l := range lines[t.Line+1:] {
		b = append(append(b, l...), '\n')
	}
	return b
}

// assemble builds the prompt context of a task from a method's snippets
// and definition context, as a model would see it: the same assembler,
// budget and policy for every method.
func (h *harness) assemble(t *tasks.Task, lines []string, snips []Snippet, defs []defctx.Block, o prompt.Options) (*prompt.Context, error) {
	cands := make([]prompt.Candidate, len(snips))
	for i, s := range snips {
		cands[i] = prompt.Candidate{Source: prompt.Retrieved, Path: s.Path, StartLine: s.Start + 1,
			Lines: strings.Split(strings.TrimSuffix(s.Text, "\n"), "\n"), Score: s.Score, Focus: s.Focus + 1}
	}
	cands = append(cands, engine.DefinitionCandidates(defs)...)
	c, err := prompt.Assemble(prompt.Input{Path: t.Path, Prefix: lines, Candidates: cands}, o)
	if err != nil {
		return nil, fmt.Errorf("assemble the prompt: %w", err)
	}
	return c, nil
}

// generate returns the prediction for a task: the method's model-free
// prediction without a model, else the model's completion of the context
// assembled from the snippets within the run's budget.
func (h *harness) generate(ctx context.Context, t *tasks.Task, lines []string, snips []Snippet, defs []defctx.Block, modelFree string) (string, error) {
	if h.opts.LLM == nil {
		return modelFree, nil
	}
	c, err := h.assemble(t, lines, snips, defs, h.prompt)
	if err != nil {
		return "", err
	}
	resp, err := h.opts.LLM.Complete(ctx, llm.WithContext(llm.Request{
		Language:  h.lang.Name,
		Path:      t.Path,
		RepoName:  t.Repo,
		MaxTokens: h.prompt.MaxNewTokens,
	}, c))
	if err != nil {
		return "", fmt.Errorf("generate: %w", err)
	}
	return resp.Text, nil
}

// contextRecord measures the context of a prompt assembled from the
// definition blocks offered (defs), which say why a counted API the
// prompt does not show is missing.
func (h *harness) contextRecord(t *tasks.Task, c *prompt.Context, defs []defctx.Block) ContextRecord {
	m := h.scorer.Context(t.GroundTruth, c)
	r := ContextRecord{FirstRelevant: m.FirstRelevant, NovelIDs: m.NovelIDs, NovelFound: m.NovelFound,
		Lines: m.Lines, DupLines: m.DupLines, RelevantTokens: m.RelevantTokens, Tokens: m.Tokens, Budget: m.Budget,
		Blocks: len(c.Blocks)}
	// The in-file rows the prompt shows, 0-based: [lo, hi).
	lo, hi := c.PrefixStart-1, c.PrefixStart-1+len(c.Prefix)
	for _, name := range tasks.CalledAPIs(t.GroundTruth, h.apis) {
		locs := h.apis[name]
		visible, shown, before := false, false, false
		for _, l := range locs {
			if l.Path == t.Path && l.Row >= lo && l.Row < hi {
				visible = true
				break
			}
			if l.Path != t.Path || l.Row < t.Line {
				before = true
			}
			for i := range c.Blocks {
				b := &c.Blocks[i]
				if b.Path == l.Path && b.HasRow(l.Row+1) {
					shown = true
				}
			}
		}
		if visible {
			continue
		}
		r.APIs++
		if shown {
			r.APIsFound++
		}
		if !before {
			r.APIsAfter++ // defined only at or after the hole in its own file
		}
		if !shown {
			why := MissNotOffered
			if offered(defs, locs) {
				why = MissCut
			}
			r.Missed = append(r.Missed, APIMiss{Name: name, Why: why, AfterHole: !before})
		}
	}
	return r
}

// offered reports whether a definition block shows one of locs' rows.
func offered(defs []defctx.Block, locs []tasks.Loc) bool {
	for _, l := range locs {
		for i := range defs {
			if defs[i].Path == l.Path && slices.Contains(defs[i].Rows, l.Row+1) {
				return true
			}
		}
	}
	return false
}

// runOne runs a method on a task and scores it.
func (h *harness) runOne(ctx context.Context, m *method, t *tasks.Task) (Record, error) {
	lines := contextLines(t)
	ans, err := m.run(ctx, t, lines)
	if err != nil {
		return Record{}, err
	}
	snips, pred, took := ans.snips, ans.pred, ans.took
	if h.opts.Observe != nil {
		h.opts.Observe(Observation{Method: m.name, Task: t, Snippets: snips, Definitions: ans.defs, Prediction: pred})
	}
	s := h.scorer.Score(t.GroundTruth, pred)
	pc, err := h.assemble(t, lines, snips, ans.defs, h.prompt)
	if err != nil {
		return Record{}, err
	}
	c := h.contextRecord(t, pc, ans.defs)
	c.EM, c.Hit10 = s.EM, h.hit(t, snips, 10)
	var ablation map[string]ContextRecord
	if len(h.variants) > 0 {
		ablation = make(map[string]ContextRecord, len(h.variants))
		for _, v := range h.variants {
			va := ans
			if v.ImportBoost != nil && m.rerun != nil {
				if va, err = m.rerun(ctx, t, lines, *v.ImportBoost); err != nil {
					return Record{}, fmt.Errorf("variant %s: %w", v.Name, err)
				}
			}
			vs := va.snips
			if v.Pool > 0 {
				vs = vs[:min(len(vs), v.Pool)]
			}
			vd := va.defs
			switch {
			case v.Defs == NoDefs:
				vd = nil
			case v.Defs != "":
				vd = va.defVariants[v.Defs]
			}
			vc, err := h.assemble(t, lines, vs, vd, v.Prompt)
			if err != nil {
				return Record{}, fmt.Errorf("variant %s: %w", v.Name, err)
			}
			rec := h.contextRecord(t, vc, vd)
			rec.EM, rec.Hit10 = h.scorer.Score(t.GroundTruth, va.pred).EM, h.hit(t, va.snips, 10)
			ablation[v.Name] = rec
		}
	}
	top := snips[:min(len(snips), h.opts.TopK)]
	values := make([]string, len(top))
	outside := make([]string, len(top)) // "" stands for a snippet in the query window
	locs := make([]string, len(top))
	for i, sn := range top {
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
		Context:     c,
		Ablation:    ablation,
	}, nil
}

// hit reports whether one of the first k snippets holds the target line.
func (h *harness) hit(t *tasks.Task, snips []Snippet, k int) bool {
	values := make([]string, 0, k)
	for _, sn := range snips[:min(len(snips), k, h.opts.TopK)] {
		values = append(values, sn.Text)
	}
	return h.scorer.Hit(t.GroundTruth, values, k)
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

// windowSnippets turns window hits into snippets focused on the row that
// stands where the hole does: the row after a matched window, or the first
// row of a shifted one (the window after the match).
func windowSnippets(hits []window.Hit, shifted bool) []Snippet {
	out := make([]Snippet, len(hits))
	for i, hit := range hits {
		focus := hit.End
		if shifted {
			focus = hit.Start
		}
		out[i] = Snippet{Path: hit.Path, Start: hit.Start, End: hit.End, Score: hit.Score, Text: hit.Text, Focus: focus}
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
