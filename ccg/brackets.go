package ccg

import (
	"strings"

	"github.com/graphcoder/graphcoder/token"
)

// brackets is the brace structure of the rows from..len(lines)-1 of a
// source in a brace language (Java, Go, JavaScript, TypeScript), as a
// lexer that knows comments and literals sees it. Depths are counted in
// braces only and relative to the start of row from, so an unbalanced
// brace above from shifts nothing.
type brackets struct {
	from int
	// start[r-from] is the depth at the first token of row r other than
	// a closing bracket, that is, where a statement starting the row
	// stands: `} else {` and `} catch (E e) {` stand at the depth of their
	// if or try. A row without such a token has the depth at its end.
	// end[r-from] is the depth at the end of row r.
	start, end []int32
	// code is the last row holding anything other than brackets, ';' and
	// ',' outside comments (from-1 when none does).
	code int
	// open holds the brackets ('{', '(', '[', and '$' for the ${ of a
	// template literal) still open at the end, innermost last; closed is
	// false when the rows end inside a comment or a literal that spans
	// rows.
	open   []byte
	closed bool
	// comment is the row and byte offset of the last block comment
	// opened (where the rows end inside one, that comment).
	comment [2]int
	// rows, when not nil, holds per row what it holds (rowCode,
	// rowComment) and whether it starts and ends inside a block comment.
	rows []uint8
}

// What a row holds (brackets.rows).
const (
	rowCode      uint8 = 1 << iota // a token outside comments
	rowComment                     // a comment, or part of one
	rowOpenStart                   // the row starts inside a block comment
	rowOpenEnd                     // the row ends inside a block comment
)

// lexMode is what the lexer is inside of at a given byte.
type lexMode uint8

const (
	inCode         lexMode = iota
	inBlockComment         // /* ... */
	inRaw                  // a Go raw string `...`
	inTemplate             // a JavaScript template literal `...${...}...`
	inTextBlock            // a Java text block """..."""
)

// regexKeywords are the JavaScript keywords after which a slash starts a
// regular expression literal rather than a division.
var regexKeywords = map[string]bool{
	"return": true, "typeof": true, "case": true, "do": true, "else": true, "in": true,
	"of": true, "new": true, "delete": true, "void": true, "throw": true, "yield": true,
	"await": true, "instanceof": true,
}

// lexBrackets lexes lines[from:] as language (the literals of Java, Go,
// JavaScript and TypeScript; any other name is read like Java). String
// and character literals end at the end of their row, so a quote the
// lexer misreads (JSX text, say) costs at most that row.
func lexBrackets(lines []string, from int, language string) *brackets {
	return lex(lines, from, language, false)
}

// lex is lexBrackets, recording what each row holds (brackets.rows)
// when rows is set.
func lex(lines []string, from int, language string, rows bool) *brackets {
	if from < 0 {
		from = 0
	}
	n := max(len(lines)-from, 0)
	br := &brackets{from: from, start: make([]int32, n), end: make([]int32, n), code: from - 1}
	if rows {
		br.rows = make([]uint8, n)
	}
	ecma := language == "javascript" || language == "typescript"
	goLang := language == "go"
	mode := inCode
	var depth int32
	var templates []int32 // depths at which each open ${ ... } of a template returns to it
	var prev byte         // last significant code byte (JavaScript regex literals)
	prevWord := ""        // the identifier prev ended, if any
	for r := 0; r < n; r++ {
		line := lines[from+r]
		if br.rows != nil && mode == inBlockComment {
			br.rows[r] |= rowOpenStart
		}
		started := false
		stand := func() {
			if !started {
				started = true
				br.start[r] = depth
			}
		}
		code := func() {
			stand()
			br.code = from + r
			if br.rows != nil {
				br.rows[r] |= rowCode
			}
		}
		for i := 0; i < len(line); {
			c := line[i]
			switch mode {
			case inBlockComment:
				if br.rows != nil {
					br.rows[r] |= rowComment
				}
				if c == '*' && i+1 < len(line) && line[i+1] == '/' {
					mode = inCode
					i += 2
					continue
				}
				i++
				continue
			case inRaw:
				if c == '`' {
					mode = inCode
				}
				code()
				i++
				continue
			case inTextBlock:
				code()
				if c == '\\' {
					i += 2
					continue
				}
				if c == '"' && i+2 < len(line) && line[i+1] == '"' && line[i+2] == '"' {
					mode = inCode
					i += 3
					continue
				}
				i++
				continue
			case inTemplate:
				code()
				switch {
				case c == '\\':
					i += 2
				case c == '`':
					mode = inCode
					i++
				case c == '$' && i+1 < len(line) && line[i+1] == '{':
					templates = append(templates, depth)
					depth++
					br.open = append(br.open, '$')
					mode = inCode
					i += 2
				default:
					i++
				}
				continue
			}
			// inCode
			switch {
			case c == ' ' || c == '\t' || c == '\r' || c == '\f':
				i++
				continue
			case c == '/' && i+1 < len(line) && line[i+1] == '/':
				if br.rows != nil {
					br.rows[r] |= rowComment
				}
				i = len(line)
				continue
			case c == '/' && i+1 < len(line) && line[i+1] == '*':
				if br.rows != nil {
					br.rows[r] |= rowComment
				}
				mode = inBlockComment
				br.comment = [2]int{from + r, i}
				i += 2
				continue
			}
			if br.rows != nil {
				br.rows[r] |= rowCode
			}
			word := ""
			switch {
			case c == '}' || c == ')' || c == ']':
				if k := len(br.open) - 1; k >= 0 {
					br.open = br.open[:k]
				}
				if c == '}' {
					depth--
					if k := len(templates) - 1; k >= 0 && depth == templates[k] {
						templates = templates[:k]
						mode = inTemplate
						code()
						i++
						continue
					}
				}
				i++
			case c == '{' || c == '(' || c == '[' || c == ';' || c == ',':
				stand()
				if c == '{' {
					depth++
				}
				if c == '{' || c == '(' || c == '[' {
					br.open = append(br.open, c)
				}
				i++
			case c == '"' && language == "java" && i+2 < len(line) && line[i+1] == '"' && line[i+2] == '"':
				code()
				mode = inTextBlock
				i += 3
			case c == '"' || c == '\'':
				code()
				i = quoteEnd(line, i)
			case c == '`' && goLang:
				code()
				mode = inRaw
				i++
			case c == '`' && ecma:
				code()
				mode = inTemplate
				i++
			case c == '/' && ecma && regexAllowed(prev, prevWord):
				code()
				i = regexEnd(line, i)
			case isWordStart(line, i):
				code()
				j := max(token.IdentEnd(line, i), i+1)
				word = line[i:j]
				i = j
			default:
				code()
				i++
			}
			prev, prevWord = c, word
			if word != "" {
				prev = 'a'
			}
		}
		if !started {
			br.start[r] = depth
		}
		br.end[r] = depth
		if br.rows != nil && mode == inBlockComment {
			br.rows[r] |= rowOpenEnd
		}
	}
	br.closed = mode == inCode
	if mode != inBlockComment {
		br.comment = [2]int{-1, -1}
	}
	return br
}

// OpenComment returns the row and byte offset at which the block comment
// still open at the end of lines starts, source in a brace language
// (Java, Go, JavaScript, TypeScript); ok is false when the rows do not
// end inside a block comment. The code before a cursor in a
// documentation comment ends so, and a front end's error recovery then
// often takes everything from the enclosing declaration on for one
// syntax error.
func OpenComment(lines []string, language string) (row, col int, ok bool) {
	if !braceLanguages[language] {
		return -1, -1, false
	}
	br := lexBrackets(lines, 0, language)
	if br.comment[0] < 0 {
		return -1, -1, false
	}
	return br.comment[0], br.comment[1], true
}

// CommentBlocks returns the row ranges (0-based, inclusive, ascending) of
// lines, source in a brace language (Java, Go, JavaScript, TypeScript),
// that hold comments and white space only, each a run of rows from the
// start of a comment to the end of one: no comment of a range reaches a
// row outside it. A range starts and ends on a comment row, and blank
// rows between comments belong to it. It returns nil for another
// language.
func CommentBlocks(lines []string, language string) [][2]int {
	if !braceLanguages[language] {
		return nil
	}
	rows := lex(lines, 0, language, true).rows
	var out [][2]int
	start, last := -1, -1 // the open range's first row and its last comment row
	flush := func() {
		if start >= 0 && last >= start {
			out = append(out, [2]int{start, last})
		}
		start, last = -1, -1
	}
	for r, k := range rows {
		switch {
		case k&rowCode != 0:
			flush()
		case k&rowComment != 0 || k&rowOpenStart != 0:
			if start < 0 {
				if k&rowOpenStart != 0 {
					continue // the rest of a comment begun on a row of code
				}
				start = r
			}
			if k&rowOpenEnd == 0 {
				last = r // a range may end here
			}
		}
	}
	flush()
	return out
}

// braceLanguages are the languages whose brackets Closers reads.
var braceLanguages = map[string]bool{"java": true, "go": true, "javascript": true, "typescript": true}

// maxClosers bounds the brackets Closers closes.
const maxClosers = 256

// Closers returns the text that closes the brackets still open at the end
// of lines, source in a brace language (Java, Go, JavaScript, TypeScript),
// innermost first: ")" and "]" where they stand, each "}" on a row of its
// own (a template literal's "${" closed with "}`"). A front end's error
// recovery loses declarations of a source cut off inside them (the code
// before a cursor: its enclosing class and method are open), and the
// source with the closers appended parses into the same declarations over
// the same rows. Lines that end inside a block comment (a cursor in a
// method's documentation) have the comment closed first, with "*/" on the
// row after them. It returns "" for another language, for lines that
// close everything and for lines that end in a literal spanning rows
// (what would close it is unknown), and closes at most maxClosers
// brackets.
func Closers(lines []string, language string) string {
	if !braceLanguages[language] {
		return ""
	}
	br := lexBrackets(lines, 0, language)
	inComment := br.comment[0] >= 0
	if (!br.closed && !inComment) || len(br.open) == 0 {
		return ""
	}
	open := br.open[max(len(br.open)-maxClosers, 0):]
	var b strings.Builder
	if inComment {
		b.WriteString("*/")
	}
	for i := len(open) - 1; i >= 0; i-- {
		switch open[i] {
		case '(':
			b.WriteByte(')')
		case '[':
			b.WriteByte(']')
		case '$':
			b.WriteString("}`") // the template's text resumes: end it
		default:
			b.WriteString("\n}")
		}
	}
	b.WriteByte('\n')
	return b.String()
}

// quoteEnd returns the index after the string or character literal
// opened by line[i], or len(line) when the row ends first.
func quoteEnd(line string, i int) int {
	q := line[i]
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(line)
}

// regexEnd returns the index after the JavaScript regular expression
// literal (and its flags) opened by the slash at line[i], or len(line).
func regexEnd(line string, i int) int {
	class := false
	for j := i + 1; j < len(line); j++ {
		switch c := line[j]; {
		case c == '\\':
			j++
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == '/' && !class:
			return token.IdentEnd(line, j+1)
		}
	}
	return len(line)
}

// regexAllowed reports whether a slash after the code byte prev (0 at the
// start) and the identifier prevWord starts a regular expression.
func regexAllowed(prev byte, prevWord string) bool {
	if prevWord != "" {
		return regexKeywords[prevWord]
	}
	switch prev {
	case 0, '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', ';', '+', '-', '*', '%', '<', '>', '~', '^':
		return true
	}
	return false
}

// isWordStart reports whether line[i] starts a word: an identifier or a
// number, by package token's rules.
func isWordStart(line string, i int) bool {
	r, _ := token.RuneAt(line, i)
	return token.IsIdentPart(r)
}
