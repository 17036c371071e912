package llm

import (
	"strings"
)

// endTokens are the special tokens of every template: any of them in an
// answer means the completion is over, whichever model wrote it, and none
// of them occurs in ordinary source code.
var endTokens = func() []string {
	seen := map[string]bool{}
	var all []string
	for _, name := range TemplateNames() {
		for _, s := range templates[name].Stop {
			if !seen[s] {
				seen[s] = true
				all = append(all, s)
			}
		}
	}
	return all
}()

// TrimEndTokens cuts text at the first fill-in-the-middle special token.
func TrimEndTokens(text string) string { return CutAtStops(text, endTokens) }

// CutAtStops cuts text at the earliest occurrence of any non-empty stop string.
func CutAtStops(text string, stops []string) string {
	end := len(text)
	for _, s := range stops {
		if s == "" {
			continue
		}
		if i := strings.Index(text[:end], s); i >= 0 {
			end = i
		}
	}
	return text[:end]
}

// CutLine keeps text up to the end of its first line. A completion that
// begins with a newline is thus empty, as it is when the server honours the
// newline stop string sent in line mode: the cursor's line needs nothing.
func CutLine(text string) string {
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		return text[:i]
	}
	return text
}

// CutBlock keeps text up to the first line whose indentation is below the
// cursor's line, so the completion finishes the block the cursor is in.
// The cursor's line is the last line of prefix followed by the first line
// of text; when that line is blank, the first line with content stands in
// for it. Blank lines never stop the completion, but trailing ones are dropped.
func CutBlock(text, prefix string) string {
	cursorLine := prefix[strings.LastIndexByte(prefix, '\n')+1:]
	lines := strings.SplitAfter(text, "\n")
	ref := -1
	if first := cursorLine + lines[0]; !isBlank(first) {
		ref = indentWidth(first)
	}
	end := len(lines[0])
	for _, line := range lines[1:] {
		if isBlank(line) {
			end += len(line)
			continue
		}
		w := indentWidth(line)
		if ref < 0 {
			ref = w
		} else if w < ref {
			break
		}
		end += len(line)
	}
	return text[:end]
}

// isBlank reports whether a line holds only whitespace.
func isBlank(line string) bool { return strings.TrimSpace(line) == "" }

// tabWidth is the tab stop used to compare indentation, as Python's tokenizer does.
const tabWidth = 8

// indentWidth is the column of a line's first non-blank character.
func indentWidth(line string) int {
	col := 0
	for _, r := range line {
		switch r {
		case ' ':
			col++
		case '\t':
			col += tabWidth - col%tabWidth
		default:
			return col
		}
	}
	return col
}

// postProcess is what every backend does around the exchange: which stop
// strings and token limit to send, and how to trim the answer.
type postProcess struct {
	tmpl      *Template
	lineMode  bool
	maxTokens int
}

// tokens is the request's token limit, or the configured one.
func (p postProcess) tokens(req Request) int {
	if req.MaxTokens > 0 {
		return req.MaxTokens
	}
	return p.maxTokens
}

// stops lists the stop strings to send: the request's, the template's end
// tokens, and the newline in line mode, without duplicates.
func (p postProcess) stops(req Request) []string {
	var all []string
	seen := map[string]bool{}
	add := func(ss ...string) {
		for _, s := range ss {
			if s != "" && !seen[s] {
				seen[s] = true
				all = append(all, s)
			}
		}
	}
	add(req.Stop...)
	if p.tmpl != nil {
		add(p.tmpl.Stop...)
	}
	if p.lineMode {
		add("\n")
	}
	return all
}

// finish turns a raw answer into the text to insert: cut at end tokens and
// the request's stop strings, then at the end of the line or block, without
// trailing whitespace.
func (p postProcess) finish(text string, req Request) string {
	text = TrimEndTokens(text)
	text = CutAtStops(text, req.Stop)
	if p.lineMode {
		text = CutLine(text)
	} else {
		text = CutBlock(text, req.Prefix)
	}
	return strings.TrimRight(text, " \t\r\n")
}
