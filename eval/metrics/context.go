package metrics

import (
	"strings"

	"github.com/graphcoder/graphcoder/prompt"
)

// Context is the quality of what one prompt shows, measured without a
// model (spec section 10).
type Context struct {
	// FirstRelevant is the 1-based rank, among the prompt's blocks ordered
	// best first, of the first block holding the normalised target line
	// among its rows (the lines it shows and those it elides because the
	// prompt shows them elsewhere); 0 when none does.
	FirstRelevant int
	// NovelIDs counts the target's identifiers (string contents and
	// keywords dropped, each once) that the in-file part does not show;
	// NovelFound how many of them the blocks show.
	NovelIDs, NovelFound int
	// Lines counts the blocks' code lines (neither blank nor comments, as
	// Normalize drops them; elision markers are comments), DupLines those
	// repeating an earlier block line or an in-file line (compared without
	// surrounding white space).
	Lines, DupLines int
	// RelevantTokens is the tokens of the blocks holding the target line;
	// Tokens the whole prompt's and Budget its budget.
	RelevantTokens, Tokens, Budget int
}

// Context measures the context c shows for completing target.
func (s *Scorer) Context(target string, c *prompt.Context) Context {
	out := Context{Tokens: c.Tokens, Budget: c.Budget}
	norm := s.NormalizeOne(target)
	byRank := make([]int, 0, len(c.Blocks))
	for i := range c.Blocks {
		byRank = append(byRank, i)
	}
	// Blocks in prompt order are not ranked; their Rank field is.
	for i := 1; i < len(byRank); i++ {
		for j := i; j > 0 && c.Blocks[byRank[j]].Rank < c.Blocks[byRank[j-1]].Rank; j-- {
			byRank[j], byRank[j-1] = byRank[j-1], byRank[j]
		}
	}
	for r, i := range byRank {
		b := &c.Blocks[i]
		if norm != "" && strings.Contains(s.NormalizeOne(strings.Join(b.Whole(), "\n")), norm) {
			if out.FirstRelevant == 0 {
				out.FirstRelevant = r + 1
			}
			out.RelevantTokens += b.Tokens
		}
	}

	inFile := c.PrefixText() + c.SuffixText()
	shownIDs := toSet(s.Identifiers(inFile))
	// The retrieved part is read line by line, as the prompt shows it
	// (behind comment prefixes): a quote a line leaves open, such as a
	// docstring's first line in a definition block, must not hide the
	// identifiers of the lines and blocks after it.
	blockIDs := map[string]bool{}
	for i := range c.Blocks {
		for _, l := range c.Blocks[i].Lines {
			for _, id := range s.Identifiers(l) {
				blockIDs[id] = true
			}
		}
	}
	for id := range toSet(s.Identifiers(target)) {
		if shownIDs[id] {
			continue
		}
		out.NovelIDs++
		if blockIDs[id] {
			out.NovelFound++
		}
	}

	seen := map[string]bool{}
	for _, l := range c.Prefix {
		seen[strings.TrimSpace(l)] = true
	}
	for _, l := range c.Suffix {
		seen[strings.TrimSpace(l)] = true
	}
	for i := range c.Blocks {
		for _, l := range c.Blocks[i].Lines {
			t := strings.TrimSpace(l)
			if t == "" || s.IsComment(t) {
				continue
			}
			out.Lines++
			if seen[t] {
				out.DupLines++
			}
			seen[t] = true
		}
	}
	return out
}
