package defctx

import (
	"slices"
	"strings"

	"github.com/graphcoder/graphcoder/token"
)

// chain is an access path read in code: identifiers joined by '.'
// (self.parser.feed), with whether it is called (followed by '(', or
// created with new).
type chain struct {
	parts []string
	call  bool
}

// maxChains bounds the access paths read from one text, maxParts the
// names of one.
const (
	maxChains = 64
	maxParts  = 8
)

// closeParen returns the index of the ')' closing the '(' at text[open],
// skipping string literals, or -1.
func closeParen(text string, open int) int {
	depth := 0
	for i := open; i < len(text); {
		c := text[i]
		switch {
		case token.IsQuote(c):
			i = token.StringEnd(text, i, nil)
			continue
		case c == '(':
			depth++
		case c == ')':
			if depth--; depth == 0 {
				return i
			}
		}
		i++
	}
	return -1
}

// appendChains appends the access paths of text, outside string literals
// and line comments (behind comment), in order, to out. Numbers are
// skipped; a path after a '.' that follows something else than a name
// (f().x, "s".y) is not read. Each path is read once; a called one stays
// called. The paths' parts go to arena (each chain's parts a piece of it,
// capacity clipped), and both are returned: a caller that reads one
// text's chains at a time reuses the two, so a path read costs no
// allocation of its own. The chains' parts stay valid until arena is
// reused.
func appendChains(text, comment string, out []chain, arena []string) ([]chain, []string) {
	start := len(out)
	prevNew := false
	for i := 0; i < len(text) && len(out)-start < maxChains; {
		c := text[i]
		switch {
		case token.IsQuote(c):
			i = token.StringEnd(text, i, nil)
			prevNew = false
			continue
		case comment != "" && strings.HasPrefix(text[i:], comment):
			nl := strings.IndexByte(text[i:], '\n')
			if nl < 0 {
				return out, arena
			}
			i += nl + 1
			continue
		case c >= '0' && c <= '9':
			i = token.NumberEnd(text, i)
			continue
		}
		r, n := token.RuneAt(text, i)
		if !token.IsIdentStart(r) {
			if c != ' ' && c != '\t' {
				prevNew = false
			}
			i += n
			continue
		}
		if i > 0 && text[i-1] == '.' {
			// An attribute of a computed value: f().x, "s".join.
			i = token.IdentEnd(text, i)
			prevNew = false
			continue
		}
		base := len(arena) // the path's parts are arena[base:]
		j := i
		for {
			e := token.IdentEnd(text, j)
			arena = append(arena, text[j:e])
			j = e
			k := skipSpace(text, j)
			if k+1 < len(text) && text[k] == '.' {
				if r, _ := token.RuneAt(text, k+1); token.IsIdentStart(r) {
					j = k + 1
					continue
				}
			}
			// A call whose result is read on: a.b(x).c goes on as a.b.c
			// (the resolver reads b's return type), and its arguments
			// are read on their own.
			if k < len(text) && text[k] == '(' && len(arena)-base < maxParts {
				if m := closeParen(text, k); m > 0 {
					if d := skipSpace(text, m+1); d+1 < len(text) && text[d] == '.' {
						if r, _ := token.RuneAt(text, d+1); token.IsIdentStart(r) {
							n := len(arena) - base
							out = addChain(out, start, chain{parts: arena[base:len(arena):len(arena)], call: true})
							out, arena = appendChains(text[k+1:m], comment, out, arena)
							if len(arena) != base+n {
								// The arguments' paths follow: the path goes
								// on from a copy of its parts so far.
								b := len(arena)
								arena = append(arena, arena[base:base+n]...)
								base = b
							}
							j = d + 1
							continue
						}
					}
				}
			}
			break
		}
		k := skipSpace(text, j)
		call := prevNew || (k < len(text) && text[k] == '(')
		parts := arena[base:len(arena):len(arena)]
		prevNew = len(parts) == 1 && parts[0] == "new"
		if !prevNew {
			out = addChain(out, start, chain{parts: parts, call: call})
		}
		i = j
	}
	return out, arena
}

// addChain appends ch unless out[start:] holds the same path, which then
// becomes called if ch is.
func addChain(out []chain, start int, ch chain) []chain {
	for i := start; i < len(out); i++ {
		if slices.Equal(out[i].parts, ch.parts) {
			out[i].call = out[i].call || ch.call
			return out
		}
	}
	return append(out, ch)
}

// declaredTypes returns the type names lines[from:to] give a local name,
// nearest the end first, by the declaration forms of the common
// languages: an annotation (`name: T`, Python and TypeScript parameters
// and variables), a construction or call (`name = T(...)`,
// `name = new T(...)`, `name := T{...}`, `name = f(...)`: the caller
// takes a function's return type), a typed declaration (`T name =`,
// `T<A> name;`, a Java parameter `T name,`; Go's `name *T,`, `var name
// T`, a receiver `(name *T)`). Names are dotted; type
// arguments are dropped. The caller keeps the first that resolves.
func declaredTypes(lines Text, from, to int, name string, keywords map[string]bool) []declType {
	var out []declType
	from, to = max(from, 0), min(to, lines.Len())
	for row := to - 1; row >= from && len(out) < 4; row-- {
		line := lines.Line(row)
		for at := 0; at < len(line); {
			i := wordAt(line, name, at)
			if i < 0 {
				break
			}
			at = i + len(name)
			if t, typed := typeAfter(line, at, keywords); t != "" {
				out = append(out, declType{t, typed})
			}
			if t := typeBefore(line, i, at, keywords); t != "" {
				out = append(out, declType{t, true})
			}
		}
	}
	return out
}

// declType is a type name a declaration gives a local: typed when the
// code writes it as the local's type (an annotation, a typed declaration
// or parameter), not when the local is assigned a call.
type declType struct {
	name  string
	typed bool
}

// wordAt returns the index of the next whole-word occurrence of w in line
// at or after from, outside member access (x.w is not w), or -1.
func wordAt(line, w string, from int) int {
	for from < len(line) {
		i := strings.Index(line[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		from = i + 1
		if i > 0 {
			if r := rune(line[i-1]); r == '.' || token.IsIdentPart(r) {
				continue
			}
		}
		if e := i + len(w); e < len(line) {
			if r, _ := token.RuneAt(line, e); token.IsIdentPart(r) {
				continue
			}
		}
		return i
	}
	return -1
}

// typeAfter reads `: T` (typed), `= T(` / `= new T(` / `:= T{` or Go's
// `name T` / `name *T` (typed) after a name.
func typeAfter(line string, at int, keywords map[string]bool) (string, bool) {
	k := skipSpace(line, at)
	switch {
	case k < len(line) && line[k] == ':' && (k+1 >= len(line) || line[k+1] != '='):
		k = skipSpace(line, k+1)
		k = skipQuote(line, k)
		t, _ := dotted(line, k)
		if keywords[t] {
			return "", false
		}
		return t, t != ""
	case k < len(line) && (line[k] == '=' && (k+1 >= len(line) || line[k+1] != '=') || strings.HasPrefix(line[k:], ":=")):
		if line[k] == ':' {
			k++
		}
		k = skipSpace(line, k+1)
		if strings.HasPrefix(line[k:], "new ") {
			k = skipSpace(line, k+4)
		}
		if k < len(line) && line[k] == '&' {
			k++
		}
		t, e := dotted(line, k)
		if t == "" || keywords[t] {
			return "", false
		}
		e = skipSpace(line, e)
		if e < len(line) && (line[e] == '(' || line[e] == '{' || line[e] == '<') {
			return t, false
		}
	case k > at && k < len(line):
		// Go: a parameter, receiver or var written `name T` or
		// `name *T`, followed by ',', ')', '=' or the end of the line.
		if line[k] == '*' {
			k++
		}
		t, e := dotted(line, k)
		if t == "" || keywords[t] {
			return "", false
		}
		if e < len(line) && line[e] == '[' {
			e = closeBracket(line, e) // type arguments: T[A]
		}
		e = skipSpace(line, e)
		if e >= len(line) || line[e] == ',' || line[e] == ')' || line[e] == '=' {
			return t, true
		}
	}
	return "", false
}

// closeBracket returns the index after the ']' closing the '[' at
// line[open], or len(line).
func closeBracket(line string, open int) int {
	depth := 0
	for i := open; i < len(line); i++ {
		switch line[i] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(line)
}

// typeBefore reads `T name` followed by '=', ';', ',', ')' or ':' (a typed
// declaration or parameter), with type arguments or array brackets after T.
func typeBefore(line string, i, at int, keywords map[string]bool) string {
	e := skipSpace(line, at)
	if e < len(line) && !strings.ContainsRune("=;,):", rune(line[e])) {
		return ""
	}
	j := i
	for j > 0 && (line[j-1] == ' ' || line[j-1] == '\t') {
		j--
	}
	if j == i {
		return "" // no space between the type and the name
	}
	// Skip type arguments and array brackets back to the type's name.
	depth := 0
	for j > 0 {
		c := line[j-1]
		if c == '>' || c == ']' {
			depth++
		} else if (c == '<' || c == '[') && depth > 0 {
			depth--
		} else if depth == 0 {
			break
		}
		j--
	}
	end := j
	for j > 0 {
		r := rune(line[j-1])
		if r != '.' && !token.IsIdentPart(r) {
			break
		}
		j--
	}
	t := line[j:end]
	if t == "" || keywords[t] || strings.Contains(t, "..") || t[0] == '.' {
		return ""
	}
	if r, _ := token.RuneAt(t, 0); !token.IsIdentStart(r) {
		return ""
	}
	return t
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func skipQuote(s string, i int) int {
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		return i + 1
	}
	return i
}

// dotted reads identifiers joined by '.' at s[i:], returning the name and
// its end.
func dotted(s string, i int) (string, int) {
	start := i
	for {
		if i >= len(s) {
			break
		}
		r, _ := token.RuneAt(s, i)
		if !token.IsIdentStart(r) {
			break
		}
		i = token.IdentEnd(s, i)
		if i+1 < len(s) && s[i] == '.' {
			if r, _ := token.RuneAt(s, i+1); token.IsIdentStart(r) {
				i++
				continue
			}
		}
		break
	}
	return s[start:i], i
}
