package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/prompt"
	"github.com/graphcoder/graphcoder/retrieve"
)

// contextFlags are the context assembler's packing options, the same for
// complete, serve and eval.
type contextFlags struct {
	pool      int
	share     float64
	perFile   int
	maxBlocks int
	maxRepeat float64
	merge     bool
	order     string
	position  string
	lead      int
	leadShare float64
	// The definition context and the import-graph re-rank.
	defShare    float64
	defFirst    bool
	noDefs      bool
	importBoost float64
	// The BM25 ranker of modes bm25 and hybrid.
	k1, b float64
	terms int
}

func (c *contextFlags) add(f *pflag.FlagSet) {
	f.IntVar(&c.pool, "context-pool", engine.DefaultContextPool, "candidates retrieved for the prompt: the top k, then more for the assembler to pack")
	f.Float64Var(&c.share, "context-share", prompt.DefaultShare, "share of the prompt budget retrieved blocks may take, in (0, 1]")
	f.IntVar(&c.perFile, "context-per-file", prompt.DefaultPerFile, "blocks taken from one file at most (-1: no cap)")
	f.IntVar(&c.maxBlocks, "context-blocks", prompt.DefaultMaxBlocks, "blocks in the prompt at most")
	f.Float64Var(&c.maxRepeat, "context-max-repeat", prompt.DefaultMaxRepeat, "drop a block when more than this share of its lines is shown already (1: keep all)")
	f.BoolVar(&c.merge, "context-merge", true, "merge overlapping or touching windows of one file into one block")
	f.StringVar(&c.order, "context-order", string(prompt.ByRank), "how blocks compete for the budget: rank or density (score per token)")
	f.StringVar(&c.position, "context-position", string(prompt.BestLast), "block order in the prompt: best-last or edges")
	f.IntVar(&c.lead, "context-lead", prompt.DefaultLead, "best retrieved blocks that compete before the definitions (0: none)")
	f.Float64Var(&c.leadShare, "context-lead-share", prompt.DefaultLeadShare, "share of the blocks' budget those lead blocks may take, in (0, 1]")
	f.Float64Var(&c.defShare, "context-def-share", prompt.DefaultShares[prompt.Definition], "share of the blocks' budget definitions may take, in (0, 1]")
	f.BoolVar(&c.defFirst, "context-def-first", true, "definitions compete for the budget before retrieved blocks (false: by rank, after them)")
	f.BoolVar(&c.noDefs, "no-definitions", false, "leave the definition context (the repository definitions of the APIs the code reads or probably calls) out of the prompt")
	f.Float64Var(&c.k1, "bm25-k1", retrieve.DefaultBM25.K1, "BM25 term frequency saturation k1 (modes bm25 and hybrid), > 0")
	f.Float64Var(&c.b, "bm25-b", retrieve.DefaultBM25.B, "BM25 length normalisation b (modes bm25 and hybrid), in [0, 1]")
	f.IntVar(&c.terms, "bm25-terms", retrieve.DefaultBM25.Terms, "BM25 scores the query's terms of largest idf only, at most this many (modes bm25 and hybrid; 0: every term)")
	f.Float64Var(&c.importBoost, "import-boost", engine.DefaultImportBoost, "re-rank retrieved candidates by the import graph: score x (1 + boost x relation of the file); <= 0 turns it off")
}

// engine sets the engine options the flags hold besides the prompt's.
func (c *contextFlags) engine(o *engine.Options) {
	o.ContextPool, o.NoDefinitions = c.pool, c.noDefs
	o.ImportBoost = c.importBoost
	o.BM25 = retrieve.BM25Params{K1: c.k1, B: c.b, Terms: c.terms}
	if c.importBoost == 0 {
		o.ImportBoost = -1 // zero on the command line is off, not the default
	}
}

// options returns the prompt options of the flags with the given budget,
// refusing values the assembler would refuse.
func (c *contextFlags) options(window, maxNew int) (prompt.Options, error) {
	if window <= 0 || maxNew <= 0 {
		return prompt.Options{}, fmt.Errorf("--context-window and --max-new-tokens must be positive (got %d and %d)", window, maxNew)
	}
	if err := (retrieve.BM25Params{K1: c.k1, B: c.b, Terms: c.terms}).Validate(); err != nil {
		return prompt.Options{}, fmt.Errorf("--bm25-k1, --bm25-b and --bm25-terms: %w", err)
	}
	if c.pool <= 0 {
		return prompt.Options{}, fmt.Errorf("--context-pool must be positive (got %d)", c.pool)
	}
	if c.share <= 0 || c.maxBlocks <= 0 || c.perFile == 0 {
		return prompt.Options{}, fmt.Errorf("--context-share, --context-blocks and --context-per-file must be positive (got %g, %d, %d)", c.share, c.maxBlocks, c.perFile)
	}
	o := prompt.Options{ContextWindow: window, MaxNewTokens: maxNew, Share: c.share, PerFile: c.perFile,
		MaxBlocks: c.maxBlocks, MaxRepeat: c.maxRepeat, NoMerge: !c.merge,
		Order: prompt.Order(c.order), Position: prompt.Position(c.position)}
	if c.defShare != prompt.DefaultShares[prompt.Definition] {
		o.Shares = map[prompt.Source]float64{prompt.Definition: c.defShare}
	}
	if !c.defFirst {
		o.Priority = []prompt.Source{}
	}
	switch {
	case c.lead < 0 || c.leadShare <= 0:
		return prompt.Options{}, fmt.Errorf("--context-lead must not be negative and --context-lead-share must be positive (got %d, %g)", c.lead, c.leadShare)
	case c.lead == 0:
		o.Lead = -1 // zero on the command line is none, not the default
	default:
		o.Lead, o.LeadShare = c.lead, c.leadShare
	}
	if c.maxRepeat == 0 {
		// Zero would select the default: the smallest positive threshold
		// drops any block holding a line shown already.
		o.MaxRepeat = 1e-9
	}
	return o, o.Validate()
}
