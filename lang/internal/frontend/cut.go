package frontend

import "strings"

// Cutters for tsflat.ParseFlat: where a large C-like source may be parsed
// in pieces. They read tokens only as far as they must to tell code from
// comments and strings and to count brackets; a cut that a piece's parse
// does not bear out costs a parse of the whole file, never a different
// tree (tsflat.ParseFlat checks every piece).

// Lexis is what a cutter must know of a language's tokens.
type Lexis struct {
	// Backtick starts a string that may span lines: Go's raw strings
	// (Raw: no escapes) or JavaScript's template literals.
	Backtick, Raw bool
	// TextBlocks: """ starts a string that ends at the next """ (Java).
	TextBlocks bool
}

// scan calls line at the start of every line outside comments and
// strings, with whether the innermost open bracket there is a brace (or
// none is open) and the last code byte before it (0 at the start), and
// open and close at every brace outside comments and strings. It stops
// early when a closing bracket has no opening one.
func (lx Lexis) scan(src []byte, line func(i int, inBraces bool, prev byte), open, close func(i int)) {
	var brackets []byte
	var prev byte
	for i := 0; i < len(src); {
		if i == 0 || src[i-1] == '\n' {
			line(i, len(brackets) == 0 || brackets[len(brackets)-1] == '{', prev)
		}
		c := src[i]
		switch {
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i = skipPast(src, i+2, "*/")
			continue
		case c == '"' && lx.TextBlocks && hasAt(src, i, `"""`):
			i = skipString(src, i+3, `"""`, true, true)
			prev = '"'
			continue
		case c == '"' || c == '\'':
			i = skipString(src, i+1, string(c), true, false)
			prev = c
			continue
		case c == '`' && lx.Backtick:
			i = skipString(src, i+1, "`", !lx.Raw, true)
			prev = c
			continue
		case c == '(' || c == '[' || c == '{':
			brackets = append(brackets, c)
			if c == '{' {
				open(i)
			}
		case c == ')' || c == ']' || c == '}':
			if len(brackets) == 0 {
				return
			}
			top := brackets[len(brackets)-1]
			brackets = brackets[:len(brackets)-1]
			if top == '{' {
				close(i)
			}
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' {
			prev = c
		}
		i++
	}
}

func hasAt(src []byte, i int, s string) bool {
	return len(src)-i >= len(s) && string(src[i:i+len(s)]) == s
}

// skipPast returns the offset after the first end at or after i, or the
// end of src.
func skipPast(src []byte, i int, end string) int {
	for ; i < len(src); i++ {
		if hasAt(src, i, end) {
			return i + len(end)
		}
	}
	return len(src)
}

// skipString returns the offset after the string that started before i
// and ends at end: a backslash escapes the next byte when escapes is set;
// a string not multiline ends at a line end too (unterminated).
func skipString(src []byte, i int, end string, escapes, multiline bool) int {
	for i < len(src) {
		switch c := src[i]; {
		case c == '\\' && escapes:
			i += 2
			continue
		case c == '\n' && !multiline:
			return i
		case hasAt(src, i, end):
			return i + len(end)
		}
		i++
	}
	return len(src)
}

// startsWord reports whether the line at i starts with one of words,
// followed by a byte that cannot continue an identifier.
func startsWord(src []byte, i int, words []string) bool {
	for _, w := range words {
		if hasAt(src, i, w) && (i+len(w) == len(src) || !identByte(src[i+len(w)])) {
			return true
		}
	}
	return false
}

func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= 0x80 || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// BlockCutter returns a cutter whose container is the root or the brace
// block (a class body, a function body) directly holding the most places
// where a child may start: lines outside nested brackets, comments and
// strings for which starts, given the line's offset and the last code
// byte before it, says a child starts there (a declaration keyword or a
// member's first byte after a line that ends a statement: nothing the
// line before could continue).
func BlockCutter(lx Lexis, starts func(src []byte, i int, prev byte) Start) func(src []byte) (int, int, []int) {
	return func(src []byte) (int, int, []int) {
		type block struct {
			open   int
			starts []int
			labels bool // a switch's body: not a container
		}
		blocks := []block{{open: -1}} // the root, then the open braces
		var best []int
		bestOpen, bestHi := -1, 0
		done := func(b block, hi int) {
			if !b.labels && len(b.starts) > len(best) {
				best, bestOpen, bestHi = b.starts, b.open, hi
			}
		}
		lx.scan(src, func(i int, inBraces bool, prev byte) {
			if !inBraces || i == 0 {
				return
			}
			switch b := &blocks[len(blocks)-1]; starts(src, i, prev) {
			case ChildStart:
				b.starts = append(b.starts, i)
			case Label:
				b.labels = true
			}
		}, func(i int) {
			blocks = append(blocks, block{open: i})
		}, func(i int) {
			if len(blocks) > 1 {
				done(blocks[len(blocks)-1], i)
				blocks = blocks[:len(blocks)-1]
			}
		})
		done(blocks[0], len(src))
		switch {
		case len(best) == 0:
			return 0, 0, nil
		case bestOpen < 0:
			return 0, len(src), best
		case len(best) < 2:
			return 0, 0, nil
		}
		// A block's first child stays before lo, in every piece: it may
		// be what the block must start with (an enum's constants).
		return best[1], bestHi, best[2:]
	}
}

// Start is what a line of a block is to BlockCutter.
type Start uint8

const (
	NoStart    Start = iota // a line that may continue a child
	ChildStart              // a child of the block starts at the line
	Label                   // a switch label: the block is no container
)

// LineStarts returns a starts func for BlockCutter: a child starts at a
// line whose first word, after its indentation, is one of words (when
// words is nil: any word but those of not, or '@' or '<'), after a line
// ending in one of after; a line starting with "case" or "default" is a
// switch's label.
func LineStarts(words, not []string, after string) func(src []byte, i int, prev byte) Start {
	return func(src []byte, i int, prev byte) Start {
		for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		switch {
		case startsWord(src, i, switchLabels):
			return Label
		case prev == 0 || strings.IndexByte(after, prev) < 0:
			return NoStart
		case words != nil:
			if startsWord(src, i, words) {
				return ChildStart
			}
			return NoStart
		case startsWord(src, i, not):
			return NoStart
		case i < len(src) && (src[i] == '@' || src[i] == '<' || src[i] == '_' || src[i] >= 0x80 ||
			src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z'):
			return ChildStart
		}
		return NoStart
	}
}

var switchLabels = []string{"case", "default"}
