package metrics

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/graphcoder/graphcoder/token"
)

// Scorer scores predictions of one language. The zero value treats no line
// as a comment and no word as a keyword.
type Scorer struct {
	commentPrefix string
	blockComments bool
	keywords      map[string]bool
}

// New returns a Scorer for a language whose line comments start with
// commentPrefix ("#" for Python, "//" for Java) and whose reserved words are
// keywords. For C-like languages (prefix "//") lines that open, continue or
// close a block comment ("/*", "*", "*/") count as comment lines too.
func New(commentPrefix string, keywords []string) *Scorer {
	s := &Scorer{
		commentPrefix: commentPrefix,
		blockComments: commentPrefix == "//",
		keywords:      make(map[string]bool, len(keywords)),
	}
	for _, k := range keywords {
		s.keywords[k] = true
	}
	return s
}

// Score is the result of comparing one prediction with its target.
type Score struct {
	EM   bool    // normalised strings are equal
	ES   float64 // edit similarity in [0, 1]
	IDEM bool    // identifier lists are equal
	IDF1 float64 // F1 of the identifier sets in [0, 1]
}

// Score compares prediction with target after normalising both.
func (s *Scorer) Score(target, prediction string) Score {
	t, p := s.Normalize(target, prediction)
	ti, pi := s.Identifiers(t), s.Identifiers(p)
	return Score{
		EM:   t == p,
		ES:   EditSimilarity(t, p),
		IDEM: slices.Equal(ti, pi),
		IDF1: SetF1(ti, pi),
	}
}

// Normalize returns the normalised target and prediction: lines stripped,
// blank and comment lines dropped, the prediction cut to as many lines as
// the target has, lines joined by "\n".
func (s *Scorer) Normalize(target, prediction string) (string, string) {
	t := s.lines(target, -1)
	p := s.lines(prediction, len(t))
	return strings.Join(t, "\n"), strings.Join(p, "\n")
}

// NormalizeOne normalises a single string with no line limit.
func (s *Scorer) NormalizeOne(text string) string {
	return strings.Join(s.lines(text, -1), "\n")
}

// lines returns the stripped, non-blank, non-comment lines of text, at most
// max of them (no limit when max < 0).
func (s *Scorer) lines(text string, max int) []string {
	var out []string
	for len(text) > 0 && max != 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		line = strings.TrimSpace(line)
		if line == "" || s.IsComment(line) {
			continue
		}
		out = append(out, line)
		if max > 0 && len(out) == max {
			break
		}
	}
	return out
}

// IsComment reports whether a stripped line is a comment line.
func (s *Scorer) IsComment(line string) bool {
	if s.commentPrefix != "" && strings.HasPrefix(line, s.commentPrefix) {
		return true
	}
	return s.blockComments && (strings.HasPrefix(line, "/*") || strings.HasPrefix(line, "*"))
}

// Identifiers returns the identifiers of code in order of appearance:
// string literals removed, the words of identifier characters that start
// like an identifier (token.IsIdentStart), the language's keywords
// dropped.
func (s *Scorer) Identifiers(code string) []string {
	code = StripStrings(code)
	var ids []string
	for i := 0; i < len(code); {
		r, n := token.RuneAt(code, i)
		if !token.IsIdentPart(r) {
			i += n
			continue
		}
		j := token.IdentEnd(code, i)
		if w := code[i:j]; token.IsIdentStart(r) && !s.keywords[w] {
			ids = append(ids, w)
		}
		i = j
	}
	return ids
}

// StripStrings replaces every string and character literal of code (as
// token.StringEnd delimits them) by one space, together with a Python
// prefix (r, b, f, u and their pairs) glued to the opening quote.
func StripStrings(code string) string {
	if strings.IndexAny(code, "\"'`") < 0 {
		return code
	}
	var b strings.Builder
	b.Grow(len(code))
	i := 0
	for i < len(code) {
		c := code[i]
		if !token.IsQuote(c) {
			b.WriteByte(c)
			i++
			continue
		}
		dropPrefix(&b)
		b.WriteByte(' ')
		i = token.StringEnd(code, i, nil)
	}
	return b.String()
}

// dropPrefix removes a Python string prefix (up to two of r, b, f, u in
// either case) from the end of b when it stands alone as a word.
func dropPrefix(b *strings.Builder) {
	s := b.String()
	n := 0
	for n < 2 && n < len(s) && strings.IndexByte("rRbBfFuU", s[len(s)-1-n]) >= 0 {
		n++
	}
	if n == 0 {
		return
	}
	if k := len(s) - n; k > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:k])
		if token.IsIdentPart(r) {
			return
		}
	}
	rest := s[:len(s)-n]
	b.Reset()
	b.WriteString(rest)
}

// SetF1 returns the F1 score of the prediction's identifier set against the
// target's: 1 when both are empty, 0 when only one is.
func SetF1(target, prediction []string) float64 {
	ts := toSet(target)
	ps := toSet(prediction)
	if len(ts) == 0 && len(ps) == 0 {
		return 1
	}
	common := 0
	for w := range ps {
		if ts[w] {
			common++
		}
	}
	if common == 0 {
		return 0
	}
	p := float64(common) / float64(len(ps))
	r := float64(common) / float64(len(ts))
	return 2 * p * r / (p + r)
}

func toSet(ws []string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// EditSimilarity is 1 - Levenshtein(a, b) / max(|a|, |b|) over runes; two
// empty strings are identical (1).
func EditSimilarity(a, b string) float64 {
	la, lb := utf8.RuneCountInString(a), utf8.RuneCountInString(b)
	m := max(la, lb)
	if m == 0 {
		return 1
	}
	return 1 - float64(Levenshtein(a, b))/float64(m)
}

// Levenshtein returns the edit distance between a and b over runes
// (insertions, deletions and substitutions of cost 1), using two rows.
func Levenshtein(a, b string) int {
	if a == b {
		return 0
	}
	ra, rb := []rune(a), []rune(b)
	if len(ra) < len(rb) {
		ra, rb = rb, ra
	}
	if len(rb) == 0 {
		return len(ra)
	}
	rows := make([]int, 2*(len(rb)+1))
	prev, cur := rows[:len(rb)+1], rows[len(rb)+1:]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// Hit reports whether the normalised target occurs in one of the first k
// retrieved values, each normalised the same way (lines stripped, blank and
// comment lines dropped). An empty target never hits.
func (s *Scorer) Hit(target string, values []string, k int) bool {
	t := s.NormalizeOne(target)
	if t == "" {
		return false
	}
	for i, v := range values {
		if i >= k {
			break
		}
		if strings.Contains(s.NormalizeOne(v), t) {
			return true
		}
	}
	return false
}
