package eval

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/graphcoder/graphcoder/defctx"
	"github.com/graphcoder/graphcoder/embed"
	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/eval/metrics"
	"github.com/graphcoder/graphcoder/eval/tasks"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/llm"
	"github.com/graphcoder/graphcoder/prompt"
	"github.com/graphcoder/graphcoder/retrieve"
	"github.com/graphcoder/graphcoder/token"
)

// Method names.
const (
	None             = "none"
	Vanilla          = "vanilla"
	Shifted          = "shifted"
	RepoCoder        = "repocoder"
	GraphCoderCoarse = "graphcoder-coarse"
	GraphCoderFine   = "graphcoder-fine"
	GraphCoder       = "graphcoder"
	BM25             = "bm25"
	GraphCoderHybrid = "graphcoder-hybrid"
)

// Methods lists every method in the order reports show them.
func Methods() []string {
	return []string{None, Vanilla, Shifted, RepoCoder, GraphCoderCoarse, GraphCoderFine, GraphCoder, BM25, GraphCoderHybrid}
}

// Options configure a run.
type Options struct {
	// Repo is the repository's root folder.
	Repo string
	// Lang is the language of the files to complete: the name of a
	// registered front end ("python", "java", "go", "typescript",
	// "javascript").
	Lang string
	// Level is the task level (default line).
	Level tasks.Level
	// Tasks is the number of tasks to sample (default 100).
	Tasks int
	// Seed makes sampling reproducible.
	Seed uint64
	// TaskFile, when set, reads RepoEval JSONL tasks instead of sampling;
	// their paths are relative to Repo.
	TaskFile string
	// Methods to run, by name (default all).
	Methods []string
	// IndexDir is where the graphcoder index is built or updated; ""
	// builds it in a temporary folder removed at the end of the run.
	IndexDir string
	// Tokenizer names the tokenizer every method uses (default "code").
	Tokenizer string
	// TopK is the number of snippets retrieved per task (default 10): the
	// ones hit@k and the predictions use.
	TopK int
	// ContextPool is the number of candidates every method retrieves for
	// its prompt (default engine.DefaultContextPool, at least TopK): its
	// top k, then the next ones for the assembler to pack what the top k
	// leave room for.
	ContextPool int
	// Rerank is the number of coarse candidates the graph methods' fine
	// stage re-ranks (0: each mode's default, see retrieve.Options.Pool).
	Rerank int
	// Vote is the number of best candidates voting for the graph methods'
	// model-free prediction (0 or 1: the best alone), VoteK the k of their
	// rank weights (see engine.Request.VoteK).
	Vote  int
	VoteK float64
	// Embedder, when set, gives the graph index dense vectors (built with
	// it) and graphcoder-hybrid its dense ranker.
	Embedder embed.Embedder
	// Window is the window size of the sequence baselines (default 20).
	Window int
	// Iterations is the number of RepoCoder rounds (default 3).
	Iterations int
	// LLM generates the completions; nil predicts without a model.
	LLM llm.Backend
	// Prompt sets the prompt budget and the context assembler's policy,
	// the same for every method; its layout is the model backend's.
	Prompt prompt.Options
	// Variants are other assembler options under which the context
	// metrics of every method are measured as well, on the same retrieval
	// results (an ablation; predictions use Prompt only).
	Variants []Variant
	// Workers is the number of tasks run at once (default 1, which keeps
	// retrieval timings free of contention).
	Workers int
	// Progress, when set, is called after each task.
	Progress func(done, total int)
	// Observe, when set, is called with what each method retrieved and
	// predicted for each task (audits and tests).
	Observe func(Observation)
	// OpenGraph opens the graphcoder retriever (default OpenGraphIndex).
	OpenGraph func(ctx context.Context, src GraphSource) (GraphIndex, error)
	// NoDefinitions leaves the definition context out of the graph
	// methods' prompts; Definitions tunes it (nil: the engine's default).
	NoDefinitions bool
	Definitions   *defctx.Options
	// ImportBoost sets the graph methods' import-graph re-rank (nil: the
	// engine's default; see engine.Options.ImportBoost).
	ImportBoost *float64
	// BM25 holds k1, b and the query term cap of the BM25 ranker of methods bm25 and
	// graphcoder-hybrid (k1 and b zero: retrieve.DefaultBM25's).
	BM25 retrieve.BM25Params
}

// Observation is what one method saw and said for one task.
type Observation struct {
	Method      string
	Task        *tasks.Task
	Snippets    []Snippet
	Definitions []defctx.Block
	Prediction  string
}

// Snippet is one retrieved piece of code.
type Snippet struct {
	Path  string  `json:"path"`
	Start int     `json:"start"` // 0-based first row
	End   int     `json:"end"`   // 0-based row after the last
	Score float64 `json:"score"`
	// Focus is the 0-based row the snippet is about (the statement that
	// stands where the hole does; it may lie just outside the rows), -1
	// for none. A block cut to fit the prompt keeps the rows nearest it.
	Focus      int    `json:"focus"`
	Text       string `json:"-"`
	Prediction string `json:"-"` // the snippet's model-free prediction, if any
}

// GraphIndex is the code context graph retriever the graphcoder methods
// query.
type GraphIndex interface {
	// Retrieve answers one query. It must apply the leak rule for
	// q.Path and q.Line.
	Retrieve(ctx context.Context, q GraphQuery) (GraphResult, error)
	// Entries and Bytes describe the database.
	Entries() int
	Bytes() int64
	Close() error
}

// GraphQuery is one graphcoder query.
type GraphQuery struct {
	Path   string // slash path relative to the repository root
	Line   int    // 0-based hole row
	Source []byte // the file's lines before the hole
	// After holds the file's lines after the hole's line (never the
	// hole's own), as the buffer of an editor holds them: the definition
	// context reads the signatures of the declarations there, nothing
	// else reads them.
	After []byte
	Mode  string // a retrieve.Mode
	TopK  int
	// Pool is the number of candidates to return (at least TopK): the
	// top k first, as a search for TopK returns them, then the next ones.
	Pool int
	// Rerank and Vote: see Options.
	Rerank int
	Vote   int
	VoteK  float64
	// NoDefinitions, Definitions and ImportBoost: see Options.
	// DefinitionVariants asks for the definition context under other
	// options too, by name (GraphResult.DefinitionVariants).
	NoDefinitions      bool
	Definitions        *defctx.Options
	DefinitionVariants map[string]defctx.Options
	ImportBoost        *float64
}

// GraphResult is the answer to a GraphQuery.
type GraphResult struct {
	Snippets   []Snippet // the top k, best first, then the rest of the pool
	Prediction string    // model-free prediction
	// Definitions is the definition context, DefinitionVariants the same
	// under GraphQuery.DefinitionVariants.
	Definitions        []defctx.Block
	DefinitionVariants map[string][]defctx.Block
	// Retrieval is the time of the retrieval proper; zero means the
	// harness's wall time of Retrieve is used.
	Retrieval time.Duration
}

// APIMiss is a repository API the target calls that the prompt does not
// show: Why says whether a definition block offered it (MissCut: the
// assembler left its row out, for the budget or the block order) or none
// did (MissNotOffered: the definition context did not find it, or found
// it and ranked it past its blocks); AfterHole that it is defined only
// after the hole in its own file.
type APIMiss struct {
	Name      string `json:"name"`
	Why       string `json:"why"`
	AfterHole bool   `json:"after_hole,omitempty"`
}

// Reasons of an APIMiss.
const (
	MissCut        = "cut"
	MissNotOffered = "not-offered"
)

// Record is the outcome of one method on one task.
type Record struct {
	TaskID      string  `json:"task_id"`
	Method      string  `json:"method"`
	Path        string  `json:"path"`
	Line        int     `json:"line_no"`
	GroundTruth string  `json:"ground_truth"`
	Prediction  string  `json:"prediction"`
	EM          bool    `json:"em"`
	ES          float64 `json:"es"`
	IDEM        bool    `json:"id_em"`
	IDF1        float64 `json:"id_f1"`
	Hit1        bool    `json:"hit@1"`
	Hit5        bool    `json:"hit@5"`
	Hit10       bool    `json:"hit@10"`
	// OutHit1, OutHit5 and OutHit10 are hit@k counting only snippets
	// outside the query's own window (see OutsideQueryWindow).
	OutHit1     bool     `json:"outside_hit@1"`
	OutHit5     bool     `json:"outside_hit@5"`
	OutHit10    bool     `json:"outside_hit@10"`
	RetrievalMS float64  `json:"retrieval_ms"`
	Snippets    []string `json:"snippets"` // path:first-last, 1-based
	// Context measures the prompt the method's snippets make; Ablation the
	// prompts of the run's variants, by variant name.
	Context  ContextRecord            `json:"context"`
	Ablation map[string]ContextRecord `json:"ablation,omitempty"`
}

// ContextRecord is the context quality of one prompt (spec section 10).
type ContextRecord struct {
	// FirstRelevant is the 1-based rank of the first prompt block holding
	// the normalised target line, 0 when none does.
	FirstRelevant int `json:"first_relevant"`
	// NovelIDs and NovelFound count the target's identifiers missing from
	// the in-file part, and those of them the blocks show.
	NovelIDs   int `json:"novel_ids"`
	NovelFound int `json:"novel_found"`
	// APIs and APIsFound count the repository APIs the target calls whose
	// definitions the in-file part does not show, and those of them whose
	// definition line a block shows.
	APIs      int `json:"apis"`
	APIsFound int `json:"apis_found"`
	// APIsAfter counts those of them defined only after the hole in its
	// own file: a prompt shows them only by their signature rows, from
	// the declarations of the buffer after the hole (GraphQuery.After);
	// a method that reads the prefix alone cannot.
	APIsAfter int `json:"apis_after_hole"`
	// Missed lists the counted APIs the prompt does not show, and why
	// (an audit of api_def_recall's misses).
	Missed []APIMiss `json:"apis_missed,omitempty"`
	// Lines and DupLines count the blocks' non-blank lines and those
	// repeating an earlier block line or an in-file line.
	Lines          int `json:"lines"`
	DupLines       int `json:"dup_lines"`
	RelevantTokens int `json:"relevant_tokens"`
	Tokens         int `json:"prompt_tokens"`
	Budget         int `json:"budget"`
	Blocks         int `json:"blocks"`
	// EM and Hit10 are the prediction's exact match and hit@10 of the
	// retrieval the prompt was made from (a variant that retrieves again
	// has its own).
	EM    bool `json:"em"`
	Hit10 bool `json:"hit@10"`
}

// MethodResult aggregates one method over all tasks. Rates are percent.
type MethodResult struct {
	Name               string
	EM, ES, IDEM, IDF1 float64
	Hit1, Hit5, Hit10  float64
	// OutHit1, OutHit5, OutHit10: hit@k outside the query's own window.
	OutHit1, OutHit5, OutHit10 float64
	RetrievalP50MS             float64
	RetrievalP95MS             float64
	Entries                    int
	Bytes                      int64
	ContextResult
}

// ContextResult aggregates the context quality of one method's prompts
// (spec section 10). Rates are percent.
type ContextResult struct {
	// Recall5 and Recall10: tasks whose prompt holds the target line in
	// one of its 5 (10) best blocks; MRR: the mean reciprocal rank of the
	// first such block (0 when none), times 100.
	Recall5, Recall10, MRR float64
	// NovelIDRecall: over tasks whose target has identifiers the in-file
	// part does not show, the mean share of them the blocks show.
	NovelIDRecall float64
	// APIDefRecall: over tasks whose target calls repository APIs defined
	// outside the in-file part, the mean share of them whose definition
	// line the prompt shows. APIDefCeiling is the same mean of the share
	// defined somewhere else than after the hole in its own file: what a
	// prompt of the prefix alone may show (the graph methods read the
	// signatures after the hole too, so their recall may pass it).
	APIDefRecall, APIDefCeiling float64
	// DupLineShare: of all block lines (non-blank) of all prompts, the
	// share repeating an earlier block line or an in-file line.
	DupLineShare float64
	// PromptTokens: the median prompt size; Utilization: the mean share
	// of the budget taken by blocks holding the target line.
	PromptTokens float64
	Utilization  float64
	// NovelTasks and APITasks count the tasks the two recalls average over.
	NovelTasks, APITasks int
	// EM and Hit10 are the exact match and hit@10 of the predictions and
	// retrievals the prompts were made from (an ablation that retrieves
	// again changes them).
	EM, Hit10 float64
}

// Variant names assembler options of an ablation.
type Variant struct {
	Name   string
	Prompt prompt.Options
	// Pool, when positive, offers only the first Pool candidates of the
	// run's context pool.
	Pool int
	// Defs selects the definition context the variant offers: "" the
	// run's, NoDefs none, else the context collected under DefOptions
	// (variants naming the same Defs share one).
	Defs       string
	DefOptions defctx.Options
	// ImportBoost, when set, has the graph methods retrieve again with
	// this import-graph boost for the variant (its em and hit@10 are
	// that retrieval's).
	ImportBoost *float64
}

// NoDefs as Variant.Defs offers no definitions.
const NoDefs = "-"

// AblationResult is one method's context quality under one variant.
type AblationResult struct {
	Variant, Method string
	ContextResult
}

// Report is the result of a run.
type Report struct {
	Language string
	Level    tasks.Level
	Seed     uint64
	Tasks    []tasks.Task
	Methods  []MethodResult // in the order asked for
	Records  []Record       // by task, then method
	// Ablation holds every method under every variant, by variant, then
	// method, in the order asked for.
	Ablation []AblationResult
	// SkippedFiles counts files that could not be read or parsed.
	SkippedFiles int
}

// Run evaluates the methods on the repository.
func Run(ctx context.Context, opts Options) (*Report, error) {
	opts, err := withDefaults(opts)
	if err != nil {
		return nil, err
	}
	l := lang.ByName(opts.Lang)
	if l == nil {
		return nil, fmt.Errorf("no front end for language %q", opts.Lang)
	}
	tok, err := token.ByName(opts.Tokenizer)
	if err != nil {
		return nil, err
	}
	files, skipped, err := loadRepo(ctx, opts.Repo, opts.IndexDir, l)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no %s files in %s", opts.Lang, opts.Repo)
	}
	taskList, err := loadTasks(files, opts, l)
	if err != nil {
		return nil, err
	}
	if len(taskList) == 0 {
		return nil, fmt.Errorf("no eligible %s-level tasks in %s", opts.Level, opts.Repo)
	}

	h := &harness{opts: opts, lang: l, tok: tok, scorer: metrics.New(l.CommentPrefix, metrics.Reserved(l.Name, l.Keywords))}
	h.prompt = opts.Prompt
	h.prompt.CommentPrefix, h.prompt.Tokenizer, h.prompt.Keywords = l.CommentPrefix, tok, l.Keywords
	if err := h.prompt.Validate(); err != nil {
		return nil, err
	}
	for _, v := range opts.Variants {
		v.Prompt.CommentPrefix, v.Prompt.Tokenizer, v.Prompt.Keywords = l.CommentPrefix, tok, l.Keywords
		if err := v.Prompt.Validate(); err != nil {
			return nil, fmt.Errorf("variant %s: %w", v.Name, err)
		}
		h.variants = append(h.variants, v)
		if v.Defs != "" && v.Defs != NoDefs {
			if h.defVariants == nil {
				h.defVariants = map[string]defctx.Options{}
			}
			h.defVariants[v.Defs] = v.DefOptions
		}
	}
	parsed := make([]*lang.File, len(files))
	for i, f := range files {
		parsed[i] = f.file
	}
	h.apis = tasks.APIDefinitions(parsed)
	h.lines = make(map[string][]string, len(files))
	for _, f := range files {
		h.lines[filepath.ToSlash(f.rel)] = f.lines
	}
	ms, closeAll, err := h.methods(ctx, files)
	if err != nil {
		return nil, err
	}
	defer closeAll()

	records := make([]Record, len(taskList)*len(ms))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(opts.Workers)
	done := make(chan struct{}, len(taskList))
	progressDone := make(chan struct{})
	go func() {
		defer close(progressDone)
		for n := 1; n <= len(taskList); n++ {
			if _, ok := <-done; !ok {
				return
			}
			if opts.Progress != nil {
				opts.Progress(n, len(taskList))
			}
		}
	}()
	for i := range taskList {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			t := &taskList[i]
			for j, m := range ms {
				rec, err := h.runOne(gctx, m, t)
				if err != nil {
					return fmt.Errorf("task %s, method %s: %w", t.ID, m.name, err)
				}
				records[i*len(ms)+j] = rec
			}
			done <- struct{}{}
			return nil
		})
	}
	err = g.Wait()
	close(done)
	<-progressDone
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	rep := &Report{Language: l.Name, Level: opts.Level, Seed: opts.Seed, Tasks: taskList, Records: records, SkippedFiles: skipped}
	for j, m := range ms {
		rep.Methods = append(rep.Methods, aggregate(m, records, j, len(ms)))
	}
	for _, v := range h.variants {
		for j, m := range ms {
			rep.Ablation = append(rep.Ablation, AblationResult{Variant: v.Name, Method: m.name,
				ContextResult: aggregateContext(records, j, len(ms), func(r *Record) ContextRecord { return r.Ablation[v.Name] })})
		}
	}
	return rep, nil
}

func withDefaults(o Options) (Options, error) {
	if o.Repo == "" {
		return o, errors.New("no repository given")
	}
	if o.Level == "" {
		o.Level = tasks.Line
	}
	if _, err := tasks.ParseLevel(string(o.Level)); err != nil {
		return o, err
	}
	if o.Tasks <= 0 {
		o.Tasks = 100
	}
	if len(o.Methods) == 0 {
		o.Methods = Methods()
	}
	for _, m := range o.Methods {
		if !slices.Contains(Methods(), m) {
			return o, fmt.Errorf("unknown method %q (have %s)", m, strings.Join(Methods(), ", "))
		}
	}
	if o.TopK <= 0 {
		o.TopK = 10
	}
	if o.ContextPool <= 0 {
		o.ContextPool = engine.DefaultContextPool
	}
	o.ContextPool = max(o.ContextPool, o.TopK)
	if o.Window <= 0 {
		o.Window = 20
	}
	if o.Iterations <= 0 {
		o.Iterations = 3
	}
	if o.Workers <= 0 {
		o.Workers = 1
	}
	if o.OpenGraph == nil {
		o.OpenGraph = OpenGraphIndex
	}
	return o, nil
}

// loadTasks reads the task file or samples tasks from the parsed files.
func loadTasks(files []repoFile, opts Options, l *lang.Language) ([]tasks.Task, error) {
	if opts.TaskFile != "" {
		return readTaskFile(opts.TaskFile)
	}
	abs, err := filepath.Abs(opts.Repo)
	if err != nil {
		return nil, fmt.Errorf("repository path: %w", err)
	}
	parsed := make([]*lang.File, len(files))
	for i, f := range files {
		parsed[i] = f.file
	}
	return tasks.Sample(parsed, tasks.Options{
		Level: opts.Level, N: opts.Tasks, Seed: opts.Seed,
		Repo: filepath.Base(abs), CommentPrefix: l.CommentPrefix,
	})
}

// contextLines returns the lines of a task's prompt.
func contextLines(t *tasks.Task) []string {
	p := strings.TrimSuffix(t.Prompt, "\n")
	if p == "" {
		return nil
	}
	return strings.Split(p, "\n")
}

// percentile returns the nearest-rank p-quantile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.999999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

func aggregate(m *method, records []Record, j, stride int) MethodResult {
	r := MethodResult{Name: m.name, Entries: m.entries, Bytes: m.bytes}
	var times []float64
	n := 0
	pct := func(b bool) float64 {
		if b {
			return 100
		}
		return 0
	}
	for i := j; i < len(records); i += stride {
		rec := &records[i]
		n++
		r.EM += pct(rec.EM)
		r.ES += 100 * rec.ES
		r.IDEM += pct(rec.IDEM)
		r.IDF1 += 100 * rec.IDF1
		r.Hit1 += pct(rec.Hit1)
		r.Hit5 += pct(rec.Hit5)
		r.Hit10 += pct(rec.Hit10)
		r.OutHit1 += pct(rec.OutHit1)
		r.OutHit5 += pct(rec.OutHit5)
		r.OutHit10 += pct(rec.OutHit10)
		times = append(times, rec.RetrievalMS)
	}
	if n > 0 {
		for _, v := range []*float64{&r.EM, &r.ES, &r.IDEM, &r.IDF1, &r.Hit1, &r.Hit5, &r.Hit10, &r.OutHit1, &r.OutHit5, &r.OutHit10} {
			*v /= float64(n)
		}
	}
	slices.Sort(times)
	r.RetrievalP50MS = percentile(times, 0.5)
	r.RetrievalP95MS = percentile(times, 0.95)
	r.ContextResult = aggregateContext(records, j, stride, func(r *Record) ContextRecord { return r.Context })
	return r
}

// aggregateContext averages the context records of method j.
func aggregateContext(records []Record, j, stride int, of func(*Record) ContextRecord) ContextResult {
	var r ContextResult
	var tokens []float64
	n, lines, dups := 0, 0, 0
	for i := j; i < len(records); i += stride {
		c := of(&records[i])
		n++
		if c.FirstRelevant > 0 {
			if c.FirstRelevant <= 5 {
				r.Recall5++
			}
			if c.FirstRelevant <= 10 {
				r.Recall10++
			}
			r.MRR += 1 / float64(c.FirstRelevant)
		}
		if c.NovelIDs > 0 {
			r.NovelTasks++
			r.NovelIDRecall += float64(c.NovelFound) / float64(c.NovelIDs)
		}
		if c.APIs > 0 {
			r.APITasks++
			r.APIDefRecall += float64(c.APIsFound) / float64(c.APIs)
			r.APIDefCeiling += float64(c.APIs-c.APIsAfter) / float64(c.APIs)
		}
		lines += c.Lines
		dups += c.DupLines
		if c.Budget > 0 {
			r.Utilization += float64(c.RelevantTokens) / float64(c.Budget)
		}
		tokens = append(tokens, float64(c.Tokens))
		if c.EM {
			r.EM++
		}
		if c.Hit10 {
			r.Hit10++
		}
	}
	if n > 0 {
		r.Recall5 = 100 * r.Recall5 / float64(n)
		r.Recall10 = 100 * r.Recall10 / float64(n)
		r.MRR = 100 * r.MRR / float64(n)
		r.Utilization = 100 * r.Utilization / float64(n)
		r.EM = 100 * r.EM / float64(n)
		r.Hit10 = 100 * r.Hit10 / float64(n)
	}
	if r.NovelTasks > 0 {
		r.NovelIDRecall = 100 * r.NovelIDRecall / float64(r.NovelTasks)
	}
	if r.APITasks > 0 {
		r.APIDefRecall = 100 * r.APIDefRecall / float64(r.APITasks)
		r.APIDefCeiling = 100 * r.APIDefCeiling / float64(r.APITasks)
	}
	if lines > 0 {
		r.DupLineShare = 100 * float64(dups) / float64(lines)
	}
	slices.Sort(tokens)
	r.PromptTokens = percentile(tokens, 0.5)
	return r
}
