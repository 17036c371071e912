package python

import (
	"unsafe"

	"github.com/graphcoder/graphcoder/token"
)

// cut proposes where a large file may be parsed in pieces
// (tsflat.ParseFlat): the container is the module, and a top-level
// statement may start at a line that starts at column 0, outside
// brackets, strings and continued lines, with a name or '@' - but not a
// clause that continues the statement before (else, elif, except,
// finally) nor a definition under a decorator. It reads tokens only as
// far as it must to tell code from comments and strings: a cut that a
// piece's parse does not bear out costs a parse of the whole file, never
// a different tree.
func cut(src []byte) (lo, hi int, starts []int) {
	text := unsafe.String(unsafe.SliceData(src), len(src)) // for token.StringEnd; src is not written meanwhile
	depth := 0
	decorated := false // the last top-level line began a decorator
	continued := false // the line before ended with a backslash
	for i := 0; i < len(src); {
		if (i == 0 || src[i-1] == '\n') && depth == 0 && !continued {
			switch c := src[i]; {
			case c == '@':
				if !decorated && i > 0 {
					starts = append(starts, i)
				}
				decorated = true
			case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
				if !decorated && i > 0 && !startsClause(src[i:]) {
					starts = append(starts, i)
				}
				decorated = false
			}
		}
		continued = false
		switch c := src[i]; c {
		case '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case '"', '\'':
			i = token.StringEnd(text, i, nil)
			continue
		case '\\':
			if i+1 < len(src) && src[i+1] == '\n' {
				continued = true
				i += 2
				continue
			}
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth > 0 {
				depth--
			}
		}
		i++
	}
	return 0, len(src), starts
}

// startsClause reports whether line starts with a clause that continues
// a compound statement.
func startsClause(line []byte) bool {
	for _, w := range [...]string{"else", "elif", "except", "finally"} {
		if len(line) >= len(w) && string(line[:len(w)]) == w &&
			(len(line) == len(w) || !identByte(line[len(w)])) {
			return true
		}
	}
	return false
}

func identByte(c byte) bool {
	return c == '_' || c >= 0x80 || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
