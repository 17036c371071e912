package token

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Code is the code-aware tokenizer (see the package documentation).
type Code struct{}

// Name returns "code".
func (Code) Name() string { return "code" }

// operators are the multi-character operators of Python and Java, longest
// first so that the scanner takes the longest match.
var operators = []string{
	">>>=", "...", "**=", "//=", ">>=", "<<=", ">>>",
	"==", "!=", "<=", ">=", "->", "=>", "::", "**", "//", "+=", "-=", "*=",
	"/=", "%=", "&=", "|=", "^=", "@=", "&&", "||", "<<", ">>", "++", "--", ":=",
}

// Split appends the tokens of text to dst.
func (Code) Split(dst []string, text string) []string {
	scan(text, func(tok string) { dst = append(dst, tok) }, func(id string) { dst = appendIdent(dst, id) })
	return dst
}

// CountTokens returns the number of tokens Split gives for text,
// len(Split(nil, text)), without making them: a prompt's budget counts
// the tokens of thousands of lines and keeps none of them.
func (Code) CountTokens(text string) int {
	n := 0
	scan(text, func(string) { n++ }, func(id string) { n += identTokens(id) })
	return n
}

// scan calls tok with each token of text that is not an identifier and
// ident with each identifier (whose tokens are itself and its sub-words,
// appendIdent), in order.
func scan(text string, tok, ident func(string)) {
	i := 0
	for i < len(text) {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(text) && isDigit(text[i+1]):
			j := NumberEnd(text, i)
			tok(text[i:j])
			i = j
		case IsQuote(c):
			i = StringEnd(text, i, func(s, e int, id bool) {
				if id {
					ident(text[s:e])
				} else {
					tok(text[s:e])
				}
			})
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(text[i:])
			if IsIdentStart(r) {
				j := IdentEnd(text, i)
				ident(text[i:j])
				i = j
			} else if unicode.IsSpace(r) {
				i += n
			} else {
				tok(text[i : i+n])
				i += n
			}
		case IsIdentStart(rune(c)):
			j := IdentEnd(text, i)
			ident(text[i:j])
			i = j
		default:
			n := 1
			for _, op := range operators {
				if i+1 >= len(text) || !isOperatorByte(text[i+1]) {
					break
				}
				if strings.HasPrefix(text[i:], op) {
					n = len(op)
					break
				}
			}
			tok(text[i : i+n])
			i += n
		}
	}
}

// isOperatorByte reports whether c can continue a multi-character operator.
func isOperatorByte(c byte) bool {
	switch c {
	case '=', '>', '<', '-', '+', '*', '/', '&', '|', ':', '.':
		return true
	}
	return false
}

// appendIdent appends id and, when it has several words, its lowercase
// sub-words (see words).
func appendIdent(dst []string, id string) []string {
	dst = append(dst, id)
	mark := len(dst)
	words(id, func(start, end int) { dst = append(dst, lower(id[start:end])) })
	if len(dst)-mark < 2 {
		// One word: the identifier itself already stands for it.
		dst = dst[:mark]
	}
	return dst
}

// identTokens returns the number of tokens appendIdent appends for id.
func identTokens(id string) int {
	n := 0
	words(id, func(int, int) { n++ })
	if n < 2 {
		return 1
	}
	return 1 + n
}

// words calls word with the bounds of each word of id, in order: split on
// '_' and '$', on lower-to-upper case changes, before the last capital of
// an upper-case run followed by lower case (HTTPServer -> HTTP, Server);
// letters and digits are kept together.
func words(id string, word func(start, end int)) {
	start := -1 // start of the current word
	prevLower, prevUpper := false, false
	flush := func(end int) {
		if start >= 0 && end > start {
			word(start, end)
		}
		start = -1
	}
	for i := 0; i < len(id); {
		c := id[i]
		n := 1
		isUp, isLow := false, false
		if c >= utf8.RuneSelf {
			var r rune
			r, n = utf8.DecodeRuneInString(id[i:])
			isUp, isLow = unicode.IsUpper(r), unicode.IsLower(r)
		} else {
			isUp, isLow = c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z'
		}
		if c == '_' || c == '$' {
			flush(i)
			prevLower, prevUpper = false, false
			i++
			continue
		}
		if start < 0 {
			start = i
		} else if isUp && prevLower {
			flush(i)
			start = i
		} else if isLow && prevUpper && i-start > 1 {
			// "HTTPServer": the 'S' starts the next word.
			j := i - 1
			for j > start && id[j] >= utf8.RuneSelf && !utf8.RuneStart(id[j]) {
				j--
			}
			flush(j)
			start = j
		}
		prevLower = isLow || (!isUp && prevLower && c >= '0' && c <= '9')
		prevUpper = isUp
		i += n
	}
	flush(len(id))
}

// lower returns s in lower case, without allocating when it already is.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' || c >= utf8.RuneSelf {
			return strings.ToLower(s)
		}
	}
	return s
}
