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
	i := 0
	for i < len(text) {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case isIdentStart(c):
			j := scanIdent(text, i)
			dst = appendIdent(dst, text[i:j])
			i = j
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(text[i:])
			if unicode.IsLetter(r) {
				j := scanIdent(text, i)
				dst = appendIdent(dst, text[i:j])
				i = j
			} else if unicode.IsSpace(r) {
				i += n
			} else {
				dst = append(dst, text[i:i+n])
				i += n
			}
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(text) && isDigit(text[i+1]):
			j := scanNumber(text, i)
			dst = append(dst, text[i:j])
			i = j
		case c == '"' || c == '\'' || c == '`':
			i = scanString(text, i, &dst)
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
			dst = append(dst, text[i:i+n])
			i += n
		}
	}
	return dst
}

// isOperatorByte reports whether c can continue a multi-character operator.
func isOperatorByte(c byte) bool {
	switch c {
	case '=', '>', '<', '-', '+', '*', '/', '&', '|', ':', '.':
		return true
	}
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

// scanIdent returns the end of the identifier starting at i.
func scanIdent(text string, i int) int {
	for i < len(text) {
		c := text[i]
		if isIdentStart(c) || isDigit(c) {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			break
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) {
			break
		}
		i += n
	}
	return i
}

// scanNumber returns the end of the numeric literal starting at i: digits,
// letters (hex digits, exponents, suffixes), '_' separators and one
// fractional point, with a sign right after an exponent.
func scanNumber(text string, i int) int {
	start := i
	for i < len(text) {
		c := text[i]
		switch {
		case isDigit(c) || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			i++
		case c == '.' && i+1 < len(text) && isDigit(text[i+1]):
			i++
		case (c == '+' || c == '-') && i > start && (text[i-1] == 'e' || text[i-1] == 'E') &&
			!strings.HasPrefix(text[start:], "0x") && !strings.HasPrefix(text[start:], "0X"):
			i++
		default:
			return i
		}
	}
	return i
}

// scanString appends the words inside the string literal starting at i
// (identifiers and numbers; punctuation inside strings is dropped) and
// returns the index after its closing quote. Python triple quotes span
// lines; other literals end at the line's end when unterminated.
func scanString(text string, i int, dst *[]string) int {
	q := text[i]
	triple := q != '`' && strings.HasPrefix(text[i:], string([]byte{q, q, q}))
	if triple {
		i += 3
	} else {
		i++
	}
	for i < len(text) {
		c := text[i]
		switch {
		case c == '\\':
			i += 2
			if i > len(text) {
				i = len(text)
			}
			continue
		case c == q:
			if !triple {
				return i + 1
			}
			if strings.HasPrefix(text[i:], string([]byte{q, q, q})) {
				return i + 3
			}
			i++
		case c == '\n' && !triple && q != '`':
			return i + 1
		case isIdentStart(c):
			j := scanIdent(text, i)
			*dst = appendIdent(*dst, text[i:j])
			i = j
		case isDigit(c):
			j := scanNumber(text, i)
			*dst = append(*dst, text[i:j])
			i = j
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(text[i:])
			if unicode.IsLetter(r) {
				j := scanIdent(text, i)
				*dst = appendIdent(*dst, text[i:j])
				i = j
			} else {
				i += n
			}
		default:
			i++
		}
	}
	return i
}

// appendIdent appends id and, when it has several words, its lowercase
// sub-words: split on '_' and '$', on lower-to-upper case changes, before
// the last capital of an upper-case run followed by lower case (HTTPServer
// -> http, server) and between letters and digits are kept together.
func appendIdent(dst []string, id string) []string {
	dst = append(dst, id)
	mark := len(dst)
	start := -1 // start of the current word
	prevLower, prevUpper := false, false
	flush := func(end int) {
		if start >= 0 && end > start {
			dst = append(dst, lower(id[start:end]))
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
	if len(dst)-mark < 2 {
		// One word: the identifier itself already stands for it.
		dst = dst[:mark]
	}
	return dst
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
