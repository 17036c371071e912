package token

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// The lexical rules below are the one definition of an identifier, a number
// and a string literal for every package that reads code without parsing
// it: the code tokenizer, the evaluation's identifier metrics and the
// renaming of a predicted line. They cover Python, Java and the C-like
// languages: an identifier starts with a letter (any script), '_' or '$' and
// goes on with those, decimal digits and non-spacing marks; a literal opens
// with '"', '\'' or '`'.

// IsIdentStart reports whether r may start an identifier.
func IsIdentStart(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_' || r == '$' ||
		r >= utf8.RuneSelf && unicode.IsLetter(r)
}

// IsIdentPart reports whether r may continue an identifier.
func IsIdentPart(r rune) bool {
	return IsIdentStart(r) || r >= '0' && r <= '9' ||
		r >= utf8.RuneSelf && (unicode.IsDigit(r) || unicode.Is(unicode.Mn, r))
}

// IsQuote reports whether c opens a string or character literal.
func IsQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

// IdentEnd returns the end of the run of identifier characters (IsIdentPart)
// starting at text[i]; i itself when there is none.
func IdentEnd(text string, i int) int {
	for i < len(text) {
		c := text[i]
		if c < utf8.RuneSelf {
			if !isASCIIIdentPart(c) {
				break
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		if !IsIdentPart(r) {
			break
		}
		i += n
	}
	return i
}

// IsIdent reports whether s is one whole identifier: a start character
// followed by identifier characters only.
func IsIdent(s string) bool {
	if s == "" {
		return false
	}
	r, _ := RuneAt(s, 0)
	return IsIdentStart(r) && IdentEnd(s, 0) == len(s)
}

// RuneAt returns the rune at text[i] and its size.
func RuneAt(text string, i int) (rune, int) {
	if c := text[i]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRuneInString(text[i:])
}

func isASCIIIdentPart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$' || c >= '0' && c <= '9'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// NumberEnd returns the end of the numeric literal starting at text[i]:
// digits, letters (hex digits, exponents, suffixes), '_' separators and
// fractional points followed by a digit, with a sign right after the
// exponent of a decimal literal.
func NumberEnd(text string, i int) int {
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

// StringEnd returns the offset just past the literal whose opening quote
// is text[i] (see IsQuote). A backslash escapes the next byte; three
// double or three single quotes open a literal that ends at the same three
// and may span lines; other literals end at the line's end when
// unterminated, except a backquoted one. When word is not nil it is
// called with the bounds of every identifier (ident true) and number
// inside the literal, in order.
func StringEnd(text string, i int, word func(start, end int, ident bool)) int {
	q := text[i]
	triple := q != '`' && i+2 < len(text) && text[i+1] == q && text[i+2] == q
	if triple {
		i += 3
	} else {
		i++
	}
	for i < len(text) {
		c := text[i]
		switch {
		case c == '\\':
			i = min(i+2, len(text))
		case c == q:
			if !triple {
				return i + 1
			}
			if i+2 < len(text) && text[i+1] == q && text[i+2] == q {
				return i + 3
			}
			i++
		case c == '\n' && !triple && q != '`':
			return i + 1
		case isDigit(c):
			j := NumberEnd(text, i)
			if word != nil {
				word(i, j, false)
			}
			i = j
		default:
			r, n := RuneAt(text, i)
			if !IsIdentStart(r) {
				i += n
				continue
			}
			j := IdentEnd(text, i)
			if word != nil {
				word(i, j, true)
			}
			i = j
		}
	}
	return i
}

// Count returns the number of lexemes of text by the code tokenizer's
// rules (an identifier, a number, a string literal or an operator counts
// once), without keeping them: a cheap measure of how large a syntax tree
// the text would give.
func Count(text string) int {
	n := 0
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case c >= '0' && c <= '9':
			i = NumberEnd(text, i)
		case IsQuote(c):
			i = StringEnd(text, i, nil)
		default:
			r, size := RuneAt(text, i)
			if IsIdentStart(r) {
				i = IdentEnd(text, i)
			} else {
				i += size
			}
		}
		n++
	}
	return n
}
