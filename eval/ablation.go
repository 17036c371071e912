package eval

import (
	"fmt"
	"strings"

	"github.com/graphcoder/graphcoder/defctx"
	"github.com/graphcoder/graphcoder/prompt"
)

// ablations lists the packing variants of an ablation, each a change of
// the run's options.
var ablations = []struct {
	name, doc string
	apply     func(o prompt.Options) prompt.Options
	pool      int
	// defs and defOptions select the definition context (Variant.Defs);
	// boost has the graph methods retrieve again (Variant.ImportBoost).
	defs       string
	defOptions defctx.Options
	boost      *float64
}{
	{name: "legacy", doc: "every assembler rule off, the top 10 candidates only, no definitions: the prompt before the assembler", apply: prompt.Legacy, pool: 10, defs: NoDefs},
	{name: "no-merge", doc: "overlapping or touching windows of a file stay apart", apply: func(o prompt.Options) prompt.Options { o.NoMerge = true; return o }, pool: 0},
	{name: "keep-repeats", doc: "no block is dropped for repeating shown lines", apply: func(o prompt.Options) prompt.Options { o.MaxRepeat = 1; return o }, pool: 0},
	{name: "repeat-0.25", doc: "drop a block when over a quarter of its lines is shown", apply: func(o prompt.Options) prompt.Options { o.MaxRepeat = 0.25; return o }, pool: 0},
	{name: "repeat-0.5", doc: "drop a block when over half of its lines is shown", apply: func(o prompt.Options) prompt.Options { o.MaxRepeat = 0.5; return o }},
	{name: "fixed-share", doc: "the blocks keep to their share when the in-file context cannot use the rest", apply: func(o prompt.Options) prompt.Options { o.FixedShare = true; return o }},
	{name: "lead-1-whole", doc: "the best retrieved block competes before the definitions, uncut", apply: func(o prompt.Options) prompt.Options { o.LeadShare = 1; return o }},
	{name: "lead-1-0.25", doc: "the best retrieved block competes before the definitions, in at most a quarter of the blocks' budget", apply: func(o prompt.Options) prompt.Options { o.LeadShare = 0.25; return o }},
	{name: "lead-1-0.15", doc: "the best retrieved block competes before the definitions, in at most 0.15 of the blocks' budget", apply: func(o prompt.Options) prompt.Options { o.LeadShare = 0.15; return o }},
	{name: "lead-2", doc: "the two best retrieved blocks compete before the definitions", apply: func(o prompt.Options) prompt.Options { o.Lead = 2; return o }},
	{name: "lead-3", doc: "the three best retrieved blocks compete before the definitions", apply: func(o prompt.Options) prompt.Options { o.Lead = 3; return o }},
	{name: "no-lead", doc: "the definitions compete before every retrieved block", apply: func(o prompt.Options) prompt.Options { o.Lead = -1; return o }},
	{name: "cap-all-blocks", doc: "definition blocks count toward the 10 blocks", apply: func(o prompt.Options) prompt.Options { o.CapAllBlocks = true; return o }},
	{name: "repeat-0.75", doc: "drop a block when over three quarters of its lines is shown", apply: func(o prompt.Options) prompt.Options { o.MaxRepeat = 0.75; return o }},
	{name: "repeat-0.9", doc: "drop a block when over 90 % of its lines is shown", apply: func(o prompt.Options) prompt.Options { o.MaxRepeat = 0.9; return o }},
	{name: "no-cap", doc: "no per-file cap", apply: func(o prompt.Options) prompt.Options { o.PerFile = prompt.NoCap; return o }, pool: 0},
	{name: "cap-1", doc: "one block per file", apply: func(o prompt.Options) prompt.Options { o.PerFile = 1; return o }, pool: 0},
	{name: "cap-3", doc: "three blocks per file", apply: func(o prompt.Options) prompt.Options { o.PerFile = 3; return o }, pool: 0},
	{name: "lines-21", doc: "blocks of at most 21 lines", apply: func(o prompt.Options) prompt.Options { o.MaxLines = 21; return o }, pool: 0},
	{name: "lines-30", doc: "blocks of at most 30 lines", apply: func(o prompt.Options) prompt.Options { o.MaxLines = 30; return o }, pool: 0},
	{name: "lines-42", doc: "blocks of at most 42 lines", apply: func(o prompt.Options) prompt.Options { o.MaxLines = 42; return o }, pool: 0},
	{name: "no-cut", doc: "skip blocks that do not fit instead of cutting them", apply: func(o prompt.Options) prompt.Options { o.NoCut = true; return o }, pool: 0},
	{name: "rank", doc: "blocks compete by rank", apply: func(o prompt.Options) prompt.Options { o.Order = prompt.ByRank; return o }, pool: 0},
	{name: "density", doc: "blocks compete by score per token", apply: func(o prompt.Options) prompt.Options { o.Order = prompt.ByDensity; return o }, pool: 0},
	{name: "best-last", doc: "ascending relevance, best block next to the code", apply: func(o prompt.Options) prompt.Options { o.Position = prompt.BestLast; return o }, pool: 0},
	{name: "edges", doc: "best blocks at both edges, weakest in the middle", apply: func(o prompt.Options) prompt.Options { o.Position = prompt.Edges; return o }, pool: 0},
	{name: "no-elide", doc: "blocks shown whole: no elision of lines shown already", apply: func(o prompt.Options) prompt.Options { o.NoElide = true; return o }, pool: 0},
	{name: "keep-closers", doc: "repeated closing-bracket lines are kept", apply: func(o prompt.Options) prompt.Options { o.KeepClosers = true; return o }, pool: 0},
	{name: "pool-10", doc: "only the top 10 candidates are offered", apply: keep, pool: 10},
	{name: "pool-20", doc: "only the first 20 candidates are offered", apply: keep, pool: 20},
	{name: "pool-30", doc: "only the first 30 candidates are offered", apply: keep, pool: 30},
	{name: "pool-50", doc: "only the first 50 candidates are offered", apply: keep, pool: 50},
	{name: "share-0.25", doc: "blocks take at most a quarter of the budget", apply: func(o prompt.Options) prompt.Options { o.Share = 0.25; return o }, pool: 0},
	{name: "share-0.75", doc: "blocks take at most three quarters of the budget", apply: func(o prompt.Options) prompt.Options { o.Share = 0.75; return o }, pool: 0},
	{name: "no-defs", doc: "no definition context", apply: keep, defs: NoDefs},
	{name: "defs-no-predicted", doc: "definitions without the APIs the retrieved candidates' aligned statements call", apply: keep,
		defs: "no-predicted", defOptions: defctx.Options{NoPredicted: true}},
	{name: "defs-no-near", doc: "definitions without the names near the cursor (and their declared types)", apply: keep,
		defs: "no-near", defOptions: defctx.Options{NoNear: true}},
	{name: "defs-no-enclosing", doc: "definitions without the cursor's class and its bases", apply: keep,
		defs: "no-enclosing", defOptions: defctx.Options{NoEnclosing: true}},
	{name: "defs-no-by-name", doc: "definitions without the lookup by name alone", apply: keep,
		defs: "no-by-name", defOptions: defctx.Options{NoByName: true}},
	{name: "defs-predicted-only", doc: "only the predicted APIs", apply: keep,
		defs: "predicted-only", defOptions: defctx.Options{NoNear: true, NoEnclosing: true, NoByName: true}},
	{name: "defs-lines-15", doc: "definition blocks of at most 15 lines", apply: keep, defs: "lines-15", defOptions: defctx.Options{MaxLines: 15}},
	{name: "defs-lines-60", doc: "definition blocks of at most 60 lines", apply: keep, defs: "lines-60", defOptions: defctx.Options{MaxLines: 60}},
	{name: "defs-far-0", doc: "no calls of the buffer past the last lines", apply: keep, defs: "far-0", defOptions: defctx.Options{FarCalls: -1}},
	{name: "defs-far-20", doc: "20 calls of the buffer past the last lines", apply: keep, defs: "far-20", defOptions: defctx.Options{FarCalls: 20}},
	{name: "defs-enclosing-16", doc: "16 members of the cursor's class", apply: keep, defs: "enclosing-16", defOptions: defctx.Options{EnclosingMembers: 16}},
	{name: "defs-full-0.2", doc: "whole signatures from score 0.2", apply: keep, defs: "full-0.2", defOptions: defctx.Options{FullSignature: 0.2}},
	{name: "defs-full-1", doc: "whole signatures from score 1", apply: keep, defs: "full-1", defOptions: defctx.Options{FullSignature: 1}},
	{name: "defs-files-10", doc: "definition blocks of 10 files with 8 classes or functions each", apply: keep, defs: "files-10", defOptions: defctx.Options{MaxFiles: 10, MaxUnits: 8}},
	{name: "defs-far-120", doc: "120 calls of the buffer past the last lines", apply: keep, defs: "far-120", defOptions: defctx.Options{FarCalls: 120}},
	{name: "defs-predictors-20", doc: "the aligned statements of 20 candidates", apply: keep, defs: "predictors-20", defOptions: defctx.Options{Predictors: 20}},
	{name: "defs-files-16", doc: "definition blocks of 16 files", apply: keep, defs: "files-16", defOptions: defctx.Options{MaxFiles: 16, MaxUnits: 8}},
	{name: "defs-by-rank", doc: "definitions compete by rank after the retrieved blocks, without priority",
		apply: func(o prompt.Options) prompt.Options { o.Priority = []prompt.Source{}; return o }},
	{name: "defs-no-pagerank", doc: "definitions found by name alone ordered without PageRank", apply: keep,
		defs: "no-pagerank", defOptions: defctx.Options{NoRank: true}},
	{name: "defs-by-name-external", doc: "names looked up also for locals declared of a type the repository does not define", apply: keep,
		defs: "by-name-external", defOptions: defctx.Options{ByNameExternal: true}},
	{name: "defs-no-bare-by-name", doc: "no lookup by name of a bare call a class's scope does not resolve (Java)", apply: keep,
		defs: "no-bare-by-name", defOptions: defctx.Options{NoBareByName: true}},
	{name: "defs-far-nearest", doc: "the nearest calls of the buffer past the last lines, each once", apply: keep,
		defs: "far-nearest", defOptions: defctx.Options{FarNearest: true}},
	{name: "defs-keep-overloads", doc: "every overload of a name with a reason shown with its signature", apply: keep,
		defs: "keep-overloads", defOptions: defctx.Options{KeepOverloads: true}},
	{name: "defs-fill-last", doc: "the members listed for context after every definition with a reason", apply: keep,
		defs: "fill-last", defOptions: defctx.Options{FillLast: true}},
	{name: "defs-by-name-1", doc: "one definition per name found by name alone", apply: keep, defs: "by-name-1", defOptions: defctx.Options{ByName: 1}},
	{name: "defs-no-member-docs", doc: "no doc lines under members", apply: keep, defs: "no-member-docs", defOptions: defctx.Options{NoMemberDocs: true}},
	{name: "def-share-0.5", doc: "definitions take at most half of the blocks' budget", apply: defShare(0.5)},
	{name: "def-share-0.25", doc: "definitions take at most a quarter of the blocks' budget", apply: defShare(0.25)},
	{name: "def-share-0.75", doc: "definitions take at most three quarters of the blocks' budget", apply: defShare(0.75)},
	{name: "def-share-1", doc: "definitions may take the blocks' whole budget", apply: defShare(1)},
	{name: "import-boost-off", doc: "no import-graph re-rank (retrieves again)", apply: keep, boost: ptr(0)},
	{name: "import-boost-0.1", doc: "import-graph re-rank, boost 0.1 (retrieves again)", apply: keep, boost: ptr(0.1)},
	{name: "import-boost-0.3", doc: "import-graph re-rank, boost 0.3 (retrieves again)", apply: keep, boost: ptr(0.3)},
	{name: "import-boost-1", doc: "import-graph re-rank, boost 1 (retrieves again)", apply: keep, boost: ptr(1)},
}

func ptr(v float64) *float64 { return &v }

// defShare caps the definitions' part of the blocks' budget.
func defShare(sh float64) func(prompt.Options) prompt.Options {
	return func(o prompt.Options) prompt.Options {
		shares := map[prompt.Source]float64{}
		for k, v := range o.Shares {
			shares[k] = v
		}
		if o.Shares == nil {
			for k, v := range prompt.DefaultShares {
				shares[k] = v
			}
		}
		shares[prompt.Definition] = sh
		o.Shares = shares
		return o
	}
}

func keep(o prompt.Options) prompt.Options { return o }

// Ablations returns every packing variant of base.
func Ablations(base prompt.Options) []Variant {
	out := make([]Variant, len(ablations))
	for i, a := range ablations {
		out[i] = Variant{Name: a.name, Prompt: a.apply(base), Pool: a.pool, Defs: a.defs, DefOptions: a.defOptions, ImportBoost: a.boost}
	}
	return out
}

// AblationDoc says what the named variant changes.
func AblationDoc(name string) string {
	for _, a := range ablations {
		if a.name == name {
			return a.doc
		}
	}
	return ""
}

// SelectAblations returns the variants named in a comma-separated list,
// or all of them for "all".
func SelectAblations(base prompt.Options, list string) ([]Variant, error) {
	all := Ablations(base)
	if strings.TrimSpace(list) == "all" {
		return all, nil
	}
	var out []Variant
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		found := false
		for _, v := range all {
			if v.Name == name {
				out = append(out, v)
				found = true
			}
		}
		if !found {
			names := make([]string, len(all))
			for i, v := range all {
				names[i] = v.Name
			}
			return nil, fmt.Errorf("unknown ablation %q (have %s)", name, strings.Join(names, ", "))
		}
	}
	return out, nil
}
