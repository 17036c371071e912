package indexer

import (
	"bytes"
	"os"
	"strings"
)

// An ignore file is a compiled .gitignore (or .git/info/exclude) with git's
// semantics (gitignore(5)):
//
//   - blank lines and lines starting with '#' match nothing; "\#" and "\!"
//     start a pattern with a literal '#' or '!'; trailing spaces are
//     dropped unless escaped with a backslash;
//   - '!' negates: a later matching pattern decides, so a negation
//     re-includes what an earlier pattern excluded (but nothing below an
//     excluded folder, which the walk never enters);
//   - a trailing '/' matches folders only;
//   - a pattern with a '/' at its start or in its middle is anchored to the
//     folder of the file and matched against the path below it; otherwise
//     it matches the last path element at any depth;
//   - '*' and '?' do not match '/', "[...]" is a bracket expression ('!' or
//     '^' negates it, ranges and POSIX classes such as [:alpha:] allowed),
//     '\' escapes the next character; "**/" at the start matches any
//     leading folders, "/**" at the end everything inside, "/**/" zero or
//     more folders; other runs of '*' act as one.
//
// Files deeper in the tree take precedence over shallower ones, and within
// a file later lines over earlier ones.
type ignoreFile struct {
	base     string // '/'-separated folder of the file relative to the root, "" for the root
	patterns []ignorePattern
}

type ignorePattern struct {
	glob     string // without '!', the leading '/' and the trailing '/'
	negate   bool
	dirOnly  bool
	basename bool // no '/' in glob: matched against the last element only
}

// parseIgnore compiles the content of an ignore file living in base.
func parseIgnore(base string, content []byte) *ignoreFile {
	f := &ignoreFile{base: base}
	for _, raw := range bytes.Split(content, []byte("\n")) {
		line := strings.TrimSuffix(string(raw), "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		line = trimTrailingSpaces(line)
		var p ignorePattern
		if line[0] == '!' {
			p.negate = true
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			p.dirOnly = true
			line = strings.TrimSuffix(line, "/")
		}
		if line == "" {
			continue
		}
		if line[0] == '/' {
			line = line[1:]
		} else if !strings.Contains(line, "/") {
			p.basename = true
		}
		if line == "" {
			continue
		}
		p.glob = line
		f.patterns = append(f.patterns, p)
	}
	return f
}

// trimTrailingSpaces drops the trailing spaces of a pattern that a
// backslash does not escape.
func trimTrailingSpaces(s string) string {
	end := len(s)
	for end > 0 && s[end-1] == ' ' {
		// Count the backslashes before this space: an odd number escapes it.
		n := 0
		for j := end - 2; j >= 0 && s[j] == '\\'; j-- {
			n++
		}
		if n%2 == 1 {
			break
		}
		end--
	}
	return s[:end]
}

// match reports whether the file decides rel (a path relative to the root,
// inside f.base) and, if so, whether it excludes it: the last matching
// pattern decides.
func (f *ignoreFile) match(rel string, dir bool) (matched, excluded bool) {
	p := rel
	if f.base != "" {
		if !strings.HasPrefix(rel, f.base+"/") {
			return false, false
		}
		p = rel[len(f.base)+1:]
	}
	name := p[strings.LastIndexByte(p, '/')+1:]
	for i := len(f.patterns) - 1; i >= 0; i-- {
		pat := &f.patterns[i]
		if pat.dirOnly && !dir {
			continue
		}
		if pat.basename && wildmatch(pat.glob, name) ||
			!pat.basename && matchPathname(pat.glob, p) {
			return true, !pat.negate
		}
	}
	return false, false
}

// matchPathname matches an anchored glob against a path as git does: the
// glob's leading literal part (up to its first '*', '?', '[' or backslash) is
// compared as is and only the rest is matched as a glob, so that "**"
// right after that part counts as leading ("a**/" matches the folder a).
func matchPathname(glob, p string) bool {
	n := strings.IndexAny(glob, "*?[\\")
	if n < 0 {
		return glob == p
	}
	if !strings.HasPrefix(p, glob[:n]) {
		return false
	}
	return wildmatch(glob[n:], p[n:])
}

// readIgnore reads and compiles an ignore file, or returns nil when there
// is none.
func readIgnore(path, base string) *ignoreFile {
	content, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return parseIgnore(base, content)
}

// ignoredBy reports whether the stack of ignore files (shallowest first)
// excludes rel: the deepest file with a matching pattern decides.
func ignoredBy(stack []*ignoreFile, rel string, dir bool) bool {
	for i := len(stack) - 1; i >= 0; i-- {
		if matched, excluded := stack[i].match(rel, dir); matched {
			return excluded
		}
	}
	return false
}

// wildmatch matches text against a glob with git's wildmatch rules in
// pathname mode (see ignoreFile).
func wildmatch(glob, text string) bool { return dowild(glob, text) == wmMatch }

const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

func dowild(p, text string) int {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		if ti >= len(text) && pc != '*' {
			return wmAbortAll
		}
		switch pc {
		case '\\':
			pi++
			if pi >= len(p) {
				return wmNoMatch // a trailing backslash matches nothing
			}
			if text[ti] != p[pi] {
				return wmNoMatch
			}
		default:
			if text[ti] != pc {
				return wmNoMatch
			}
		case '?':
			if text[ti] == '/' {
				return wmNoMatch
			}
		case '*':
			matchSlash := false
			pi++
			if pi < len(p) && p[pi] == '*' {
				prev := pi - 2
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				if (prev < 0 || p[prev] == '/') &&
					(pi == len(p) || p[pi] == '/' || p[pi] == '\\' && pi+1 < len(p) && p[pi+1] == '/') {
					if pi < len(p) && p[pi] == '/' && dowild(p[pi+1:], text[ti:]) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				}
			}
			if pi == len(p) {
				// A trailing "**" matches everything, a trailing "*" only
				// what has no more slashes.
				if !matchSlash && strings.IndexByte(text[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// One '*' followed by a slash matches one folder name.
				j := strings.IndexByte(text[ti:], '/')
				if j < 0 {
					return wmNoMatch
				}
				ti += j
				// The slash is matched by the loop.
				continue
			}
			for ti < len(text) {
				if c := p[pi]; c != '*' && c != '?' && c != '[' && c != '\\' {
					// The text before the next literal belongs to the '*'.
					for ti < len(text) && (matchSlash || text[ti] != '/') && text[ti] != c {
						ti++
					}
					if ti >= len(text) || text[ti] != c {
						return wmNoMatch
					}
				}
				if m := dowild(p[pi:], text[ti:]); m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && text[ti] == '/' {
					return wmAbortToStarStar
				}
				ti++
			}
			return wmAbortAll
		case '[':
			tc := text[ti]
			pi++
			if pi >= len(p) {
				return wmAbortAll
			}
			negated := p[pi] == '!' || p[pi] == '^'
			if negated {
				pi++
			}
			matched := false
			var prev byte
			first := true
			for ; ; first = false {
				if pi >= len(p) {
					return wmAbortAll
				}
				c := p[pi]
				if c == ']' && !first {
					break
				}
				switch {
				case c == '\\':
					pi++
					if pi >= len(p) {
						return wmAbortAll
					}
					c = p[pi]
					if tc == c {
						matched = true
					}
				case c == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
					pi++
					hi := p[pi]
					if hi == '\\' {
						pi++
						if pi >= len(p) {
							return wmAbortAll
						}
						hi = p[pi]
					}
					if tc >= prev && tc <= hi {
						matched = true
					}
					c = 0 // a range does not start another one
				case c == '[' && pi+1 < len(p) && p[pi+1] == ':':
					// "[:name:]", up to the first ']' after "[:".
					close := strings.IndexByte(p[pi+2:], ']')
					if close < 0 {
						return wmAbortAll
					}
					if close == 0 || p[pi+2+close-1] != ':' {
						// No ":]": a plain '['.
						if tc == '[' {
							matched = true
						}
						break
					}
					in, ok := inClass(p[pi+2:pi+2+close-1], tc)
					if !ok {
						return wmAbortAll
					}
					if in {
						matched = true
					}
					pi += 2 + close // on the ']' of ":]"
					c = 0
				default:
					if tc == c {
						matched = true
					}
				}
				prev = c
				pi++
			}
			if matched == negated || tc == '/' {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// inClass reports whether c belongs to the POSIX class name, and false
// for ok when there is no such class.
func inClass(name string, c byte) (in, ok bool) {
	lower := c >= 'a' && c <= 'z'
	upper := c >= 'A' && c <= 'Z'
	digit := c >= '0' && c <= '9'
	switch name {
	case "alnum":
		return lower || upper || digit, true
	case "alpha":
		return lower || upper, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return c > 0x20 && c < 0x7f, true
	case "lower":
		return lower, true
	case "print":
		return c >= 0x20 && c < 0x7f, true
	case "punct":
		return c > 0x20 && c < 0x7f && !lower && !upper && !digit, true
	case "space":
		return c == ' ' || c >= '\t' && c <= '\r', true
	case "upper":
		return upper, true
	case "xdigit":
		return digit || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F', true
	}
	return false, false
}
