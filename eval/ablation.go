package eval

import (
	"fmt"
	"maps"
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
	// noDefs offers no definitions; def, when set, the definition
	// context collected under these options (Variant.Defs, DefOptions);
	// boost has the graph methods retrieve again (Variant.ImportBoost).
	noDefs bool
	def    *defctx.Options
	boost  *float64
}{
	{name: "legacy", doc: "every assembler rule off, the top 10 candidates only, no definitions: the prompt before the assembler", apply: prompt.Legacy, pool: 10, noDefs: true},
	{name: "no-merge", doc: "overlapping or touching windows of a file stay apart", apply: set(func(o *prompt.Options) { o.NoMerge = true })},
	{name: "keep-repeats", doc: "no block is dropped for repeating shown lines", apply: set(func(o *prompt.Options) { o.MaxRepeat = 1 })},
	{name: "repeat-0.25", doc: "drop a block when over a quarter of its lines is shown", apply: set(func(o *prompt.Options) { o.MaxRepeat = 0.25 })},
	{name: "repeat-0.5", doc: "drop a block when over half of its lines is shown", apply: set(func(o *prompt.Options) { o.MaxRepeat = 0.5 })},
	{name: "fixed-share", doc: "the blocks keep to their share when the in-file context cannot use the rest", apply: set(func(o *prompt.Options) { o.FixedShare = true })},
	{name: "lead-1-whole", doc: "the best retrieved block competes before the definitions, uncut", apply: set(func(o *prompt.Options) { o.LeadShare = 1 })},
	{name: "lead-1-0.25", doc: "the best retrieved block competes before the definitions, in at most a quarter of the blocks' budget", apply: set(func(o *prompt.Options) { o.LeadShare = 0.25 })},
	{name: "lead-1-0.15", doc: "the best retrieved block competes before the definitions, in at most 0.15 of the blocks' budget", apply: set(func(o *prompt.Options) { o.LeadShare = 0.15 })},
	{name: "lead-2", doc: "the two best retrieved blocks compete before the definitions", apply: set(func(o *prompt.Options) { o.Lead = 2 })},
	{name: "lead-3", doc: "the three best retrieved blocks compete before the definitions", apply: set(func(o *prompt.Options) { o.Lead = 3 })},
	{name: "no-lead", doc: "the definitions compete before every retrieved block", apply: set(func(o *prompt.Options) { o.Lead = -1 })},
	{name: "cap-all-blocks", doc: "definition blocks count toward the 10 blocks", apply: set(func(o *prompt.Options) { o.CapAllBlocks = true })},
	{name: "repeat-0.75", doc: "drop a block when over three quarters of its lines is shown", apply: set(func(o *prompt.Options) { o.MaxRepeat = 0.75 })},
	{name: "repeat-0.9", doc: "drop a block when over 90 % of its lines is shown", apply: set(func(o *prompt.Options) { o.MaxRepeat = 0.9 })},
	{name: "no-cap", doc: "no per-file cap", apply: set(func(o *prompt.Options) { o.PerFile = prompt.NoCap })},
	{name: "cap-1", doc: "one block per file", apply: set(func(o *prompt.Options) { o.PerFile = 1 })},
	{name: "cap-3", doc: "three blocks per file", apply: set(func(o *prompt.Options) { o.PerFile = 3 })},
	{name: "lines-21", doc: "blocks of at most 21 lines", apply: set(func(o *prompt.Options) { o.MaxLines = 21 })},
	{name: "lines-30", doc: "blocks of at most 30 lines", apply: set(func(o *prompt.Options) { o.MaxLines = 30 })},
	{name: "lines-42", doc: "blocks of at most 42 lines", apply: set(func(o *prompt.Options) { o.MaxLines = 42 })},
	{name: "no-cut", doc: "skip blocks that do not fit instead of cutting them", apply: set(func(o *prompt.Options) { o.NoCut = true })},
	{name: "rank", doc: "blocks compete by rank", apply: set(func(o *prompt.Options) { o.Order = prompt.ByRank })},
	{name: "density", doc: "blocks compete by score per token", apply: set(func(o *prompt.Options) { o.Order = prompt.ByDensity })},
	{name: "best-last", doc: "ascending relevance, best block next to the code", apply: set(func(o *prompt.Options) { o.Position = prompt.BestLast })},
	{name: "edges", doc: "best blocks at both edges, weakest in the middle", apply: set(func(o *prompt.Options) { o.Position = prompt.Edges })},
	{name: "no-elide", doc: "blocks shown whole: no elision of lines shown already", apply: set(func(o *prompt.Options) { o.NoElide = true })},
	{name: "keep-closers", doc: "repeated closing-bracket lines are kept", apply: set(func(o *prompt.Options) { o.KeepClosers = true })},
	{name: "pool-10", doc: "only the top 10 candidates are offered", pool: 10},
	{name: "pool-20", doc: "only the first 20 candidates are offered", pool: 20},
	{name: "pool-30", doc: "only the first 30 candidates are offered", pool: 30},
	{name: "pool-50", doc: "only the first 50 candidates are offered", pool: 50},
	{name: "share-0.25", doc: "blocks take at most a quarter of the budget", apply: set(func(o *prompt.Options) { o.Share = 0.25 })},
	{name: "share-0.75", doc: "blocks take at most three quarters of the budget", apply: set(func(o *prompt.Options) { o.Share = 0.75 })},
	{name: "no-defs", doc: "no definition context", noDefs: true},
	{name: "defs-no-predicted", doc: "definitions without the APIs the retrieved candidates' aligned statements call", def: &defctx.Options{NoPredicted: true}},
	{name: "defs-no-near", doc: "definitions without the names near the cursor (and their declared types)", def: &defctx.Options{NoNear: true}},
	{name: "defs-no-enclosing", doc: "definitions without the cursor's class and its bases", def: &defctx.Options{NoEnclosing: true}},
	{name: "defs-no-by-name", doc: "definitions without the lookup by name alone", def: &defctx.Options{NoByName: true}},
	{name: "defs-predicted-only", doc: "only the predicted APIs", def: &defctx.Options{NoNear: true, NoEnclosing: true, NoByName: true}},
	{name: "defs-lines-15", doc: "definition blocks of at most 15 lines", def: &defctx.Options{MaxLines: 15}},
	{name: "defs-lines-60", doc: "definition blocks of at most 60 lines", def: &defctx.Options{MaxLines: 60}},
	{name: "defs-far-0", doc: "no calls of the buffer past the last lines", def: &defctx.Options{FarCalls: -1}},
	{name: "defs-far-20", doc: "20 calls of the buffer past the last lines", def: &defctx.Options{FarCalls: 20}},
	{name: "defs-enclosing-16", doc: "16 members of the cursor's class", def: &defctx.Options{EnclosingMembers: 16}},
	{name: "defs-full-0.2", doc: "whole signatures from score 0.2", def: &defctx.Options{FullSignature: 0.2}},
	{name: "defs-full-1", doc: "whole signatures from score 1", def: &defctx.Options{FullSignature: 1}},
	{name: "defs-files-10", doc: "definition blocks of 10 files with 8 classes or functions each", def: &defctx.Options{MaxFiles: 10, MaxUnits: 8}},
	{name: "defs-far-120", doc: "120 calls of the buffer past the last lines", def: &defctx.Options{FarCalls: 120}},
	{name: "defs-predictors-20", doc: "the aligned statements of 20 candidates", def: &defctx.Options{Predictors: 20}},
	{name: "defs-files-16", doc: "definition blocks of 16 files", def: &defctx.Options{MaxFiles: 16, MaxUnits: 8}},
	{name: "defs-by-rank", doc: "definitions compete by rank after the retrieved blocks, without priority",
		apply: set(func(o *prompt.Options) { o.Priority = []prompt.Source{} })},
	{name: "defs-no-pagerank", doc: "definitions found by name alone ordered without PageRank", def: &defctx.Options{NoRank: true}},
	{name: "defs-by-name-external", doc: "names looked up also for locals declared of a type the repository does not define", def: &defctx.Options{ByNameExternal: true}},
	{name: "defs-no-bare-by-name", doc: "no lookup by name of a bare call a class's scope does not resolve (Java)", def: &defctx.Options{NoBareByName: true}},
	{name: "defs-far-nearest", doc: "the nearest calls of the buffer past the last lines, each once", def: &defctx.Options{FarNearest: true}},
	{name: "defs-keep-overloads", doc: "every overload of a name with a reason shown with its signature", def: &defctx.Options{KeepOverloads: true}},
	{name: "defs-fill-last", doc: "the members listed for context after every definition with a reason", def: &defctx.Options{FillLast: true}},
	{name: "defs-by-name-1", doc: "one definition per name found by name alone", def: &defctx.Options{ByName: 1}},
	{name: "defs-no-after", doc: "no declarations of the buffer after the hole (their signatures)", def: &defctx.Options{NoAfter: true}},
	{name: "defs-whole-rows", doc: "signature rows as written (Java: with access modifiers, marker annotations and the opening brace)", def: &defctx.Options{WholeRows: true}},
	{name: "defs-no-member-docs", doc: "no doc lines under members", def: &defctx.Options{NoMemberDocs: true}},
	{name: "def-share-0.5", doc: "definitions take at most half of the blocks' budget", apply: defShare(0.5)},
	{name: "def-share-0.25", doc: "definitions take at most a quarter of the blocks' budget", apply: defShare(0.25)},
	{name: "def-share-0.75", doc: "definitions take at most three quarters of the blocks' budget", apply: defShare(0.75)},
	{name: "def-share-1", doc: "definitions may take the blocks' whole budget", apply: defShare(1)},
	{name: "import-boost-off", doc: "no import-graph re-rank (retrieves again)", boost: ptr(0)},
	{name: "import-boost-0.1", doc: "import-graph re-rank, boost 0.1 (retrieves again)", boost: ptr(0.1)},
	{name: "import-boost-0.3", doc: "import-graph re-rank, boost 0.3 (retrieves again)", boost: ptr(0.3)},
	{name: "import-boost-1", doc: "import-graph re-rank, boost 1 (retrieves again)", boost: ptr(1)},
}

func ptr(v float64) *float64 { return &v }

// defShare caps the definitions' part of the blocks' budget.
func defShare(sh float64) func(prompt.Options) prompt.Options {
	return set(func(o *prompt.Options) {
		shares := maps.Clone(o.Shares)
		if shares == nil {
			shares = maps.Clone(prompt.DefaultShares)
		}
		shares[prompt.Definition] = sh
		o.Shares = shares
	})
}

// set returns a change of the options that f makes.
func set(f func(*prompt.Options)) func(prompt.Options) prompt.Options {
	return func(o prompt.Options) prompt.Options { f(&o); return o }
}

// Ablations returns every packing variant of base.
func Ablations(base prompt.Options) []Variant {
	out := make([]Variant, len(ablations))
	for i, a := range ablations {
		v := Variant{Name: a.name, Prompt: base, Pool: a.pool, ImportBoost: a.boost}
		if a.apply != nil {
			v.Prompt = a.apply(base)
		}
		switch {
		case a.noDefs:
			v.Defs = NoDefs
		case a.def != nil:
			v.Defs, v.DefOptions = a.name, *a.def
		}
		out[i] = v
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
