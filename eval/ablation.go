package eval

import (
	"fmt"
	"strings"

	"github.com/graphcoder/graphcoder/prompt"
)

// ablations lists the packing variants of an ablation, each a change of
// the run's options.
var ablations = []struct {
	name, doc string
	apply     func(o prompt.Options) prompt.Options
	pool      int
}{
	{"legacy", "every assembler rule off, the top 10 candidates only: the prompt before the assembler", prompt.Legacy, 10},
	{"no-merge", "overlapping or touching windows of a file stay apart", func(o prompt.Options) prompt.Options { o.NoMerge = true; return o }, 0},
	{"keep-repeats", "no block is dropped for repeating shown lines", func(o prompt.Options) prompt.Options { o.MaxRepeat = 1; return o }, 0},
	{"repeat-0.25", "drop a block when over a quarter of its lines is shown", func(o prompt.Options) prompt.Options { o.MaxRepeat = 0.25; return o }, 0},
	{"no-cap", "no per-file cap", func(o prompt.Options) prompt.Options { o.PerFile = prompt.NoCap; return o }, 0},
	{"cap-1", "one block per file", func(o prompt.Options) prompt.Options { o.PerFile = 1; return o }, 0},
	{"cap-3", "three blocks per file", func(o prompt.Options) prompt.Options { o.PerFile = 3; return o }, 0},
	{"lines-21", "blocks of at most 21 lines", func(o prompt.Options) prompt.Options { o.MaxLines = 21; return o }, 0},
	{"lines-30", "blocks of at most 30 lines", func(o prompt.Options) prompt.Options { o.MaxLines = 30; return o }, 0},
	{"lines-42", "blocks of at most 42 lines", func(o prompt.Options) prompt.Options { o.MaxLines = 42; return o }, 0},
	{"no-cut", "skip blocks that do not fit instead of cutting them", func(o prompt.Options) prompt.Options { o.NoCut = true; return o }, 0},
	{"rank", "blocks compete by rank", func(o prompt.Options) prompt.Options { o.Order = prompt.ByRank; return o }, 0},
	{"density", "blocks compete by score per token", func(o prompt.Options) prompt.Options { o.Order = prompt.ByDensity; return o }, 0},
	{"best-last", "ascending relevance, best block next to the code", func(o prompt.Options) prompt.Options { o.Position = prompt.BestLast; return o }, 0},
	{"edges", "best blocks at both edges, weakest in the middle", func(o prompt.Options) prompt.Options { o.Position = prompt.Edges; return o }, 0},
	{"no-elide", "blocks shown whole: no elision of lines shown already", func(o prompt.Options) prompt.Options { o.NoElide = true; return o }, 0},
	{"keep-closers", "repeated closing-bracket lines are kept", func(o prompt.Options) prompt.Options { o.KeepClosers = true; return o }, 0},
	{"pool-10", "only the top 10 candidates are offered", keep, 10},
	{"pool-20", "only the first 20 candidates are offered", keep, 20},
	{"pool-30", "only the first 30 candidates are offered", keep, 30},
	{"share-0.25", "blocks take at most a quarter of the budget", func(o prompt.Options) prompt.Options { o.Share = 0.25; return o }, 0},
	{"share-0.75", "blocks take at most three quarters of the budget", func(o prompt.Options) prompt.Options { o.Share = 0.75; return o }, 0},
}

func keep(o prompt.Options) prompt.Options { return o }

// Ablations returns every packing variant of base.
func Ablations(base prompt.Options) []Variant {
	out := make([]Variant, len(ablations))
	for i, a := range ablations {
		out[i] = Variant{Name: a.name, Prompt: a.apply(base), Pool: a.pool}
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
