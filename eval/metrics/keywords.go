package metrics

import "slices"

// contextual holds, per language, the soft or contextual keywords that a
// front end may list among its keywords but that real code mostly uses as
// ordinary names: Python's soft keywords (keyword.softkwlist) and Java's
// contextual keywords (JLS 3.9).
var contextual = map[string][]string{
	"python": {"_", "case", "match", "type"},
	"java": {
		"exports", "module", "non-sealed", "open", "opens", "permits", "provides",
		"record", "requires", "sealed", "to", "transitive", "uses", "var", "when",
		"with", "yield",
	},
}

// Reserved returns keywords without the soft and contextual keywords of
// language. Identifier match drops only reserved words, as the papers'
// scripts do (Python's keyword.kwlist): in `if type == 'bool':` or
// `super(permits);` the name is an identifier the prediction must get
// right, not syntax.
func Reserved(language string, keywords []string) []string {
	soft := contextual[language]
	out := make([]string, 0, len(keywords))
	for _, k := range keywords {
		if !slices.Contains(soft, k) {
			out = append(out, k)
		}
	}
	return out
}
