package frontend

import "strings"

// DocAbove returns the row of the first line of text of the comment that
// documents a declaration starting at row: the comment lines (`//` lines,
// or a `/* ... */` or `/** ... */` block) right above it, with no blank
// line between. Directive lines (`//go:noinline`, `//nolint`, a
// `///` reference) and lines holding only comment markers are skipped. It
// returns -1 when there is none. At most maxDocLines lines are read, so a
// declaration under a huge comment costs little.
func DocAbove(lines []string, row int) int {
	const maxDocLines = 200
	if row <= 0 || row > len(lines) {
		return -1
	}
	r := row - 1
	t := strings.TrimSpace(lines[r])
	switch {
	case strings.HasSuffix(t, "*/"):
		// A block comment: find its start.
		first := -1
		for k := 0; r >= 0 && k < maxDocLines; r, k = r-1, k+1 {
			t = strings.TrimSpace(lines[r])
			if k > 0 && strings.HasSuffix(t, "*/") && !strings.Contains(t, "/*") {
				return -1 // another block ends here: not one comment
			}
			if i := strings.Index(t, "/*"); i >= 0 {
				if i > 0 {
					return -1 // code before the comment: a trailing comment
				}
				first = r
				break
			}
		}
		if first < 0 {
			return -1
		}
		for k := first; k < row; k++ {
			if docText(lines[k]) {
				return k
			}
		}
		return -1
	case strings.HasPrefix(t, "//"):
		top := -1
		for k := 0; r >= 0 && k < maxDocLines; r, k = r-1, k+1 {
			if !strings.HasPrefix(strings.TrimSpace(lines[r]), "//") {
				break
			}
			top = r
		}
		for k := top; k >= 0 && k < row; k++ {
			if docText(lines[k]) {
				return k
			}
		}
	}
	return -1
}

// docText reports a comment line holding text: not only comment markers,
// not a directive.
func docText(line string) bool {
	t := strings.TrimSpace(line)
	if strings.HasPrefix(t, "///") {
		return false // a TypeScript triple-slash directive
	}
	if rest, ok := strings.CutPrefix(t, "//"); ok {
		if rest != "" && rest[0] != ' ' && rest[0] != '\t' && strings.Contains(rest, ":") {
			return false // a directive: //go:generate, //nolint:errcheck
		}
	}
	t = strings.TrimSpace(strings.Trim(t, "/*"))
	return t != ""
}
