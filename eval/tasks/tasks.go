package tasks

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/graphcoder/graphcoder/eval/metrics"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/token"
)

// Level is the kind of task.
type Level string

const (
	// Line is a line-level task: any eligible line.
	Line Level = "line"
	// API is an API-level task: an eligible line that calls an API defined
	// in the repository.
	API Level = "api"
)

// ParseLevel returns the Level called s.
func ParseLevel(s string) (Level, error) {
	switch Level(s) {
	case Line, API:
		return Level(s), nil
	}
	return "", fmt.Errorf("unknown task level %q (want line or api)", s)
}

// Task is one completion hole.
type Task struct {
	// ID is "repo/N".
	ID string
	// Repo names the repository; Path is the file's slash-separated path
	// relative to the repository root.
	Repo, Path string
	// Line is the 0-based line of the hole.
	Line int
	// Prompt is every line of the file before the hole, each ending in
	// "\n" (empty for a hole on the first line).
	Prompt string
	// GroundTruth is the hole line as it is in the file.
	GroundTruth string
}

// Options control sampling.
type Options struct {
	Level Level
	// N is the number of tasks; fewer are returned when fewer lines are
	// eligible.
	N int
	// Seed makes the sample reproducible.
	Seed uint64
	// Repo names the repository in task ids and fpath tuples.
	Repo string
	// CommentPrefix is the language's line-comment prefix; lines starting
	// with it are never targets even when a front end attaches comments to
	// a statement's rows.
	CommentPrefix string
	// MinTokens is the minimum number of lexical tokens of a target line
	// (default 5).
	MinTokens int
}

// candidate is an eligible hole before sampling.
type candidate struct {
	file *lang.File
	path string
	row  int
}

// Sample draws tasks from parsed files. Each file's Path is taken as its
// path relative to the repository root.
func Sample(files []*lang.File, opts Options) ([]Task, error) {
	if opts.Level == "" {
		opts.Level = Line
	}
	if _, err := ParseLevel(string(opts.Level)); err != nil {
		return nil, err
	}
	if opts.N < 0 {
		return nil, errors.New("negative number of tasks")
	}
	if opts.MinTokens == 0 {
		opts.MinTokens = 5
	}
	if opts.Repo == "" {
		opts.Repo = "repo"
	}
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b *lang.File) int { return strings.Compare(a.Path, b.Path) })

	var apis map[string]bool
	if opts.Level == API {
		apis = DefinedAPIs(sorted)
	}
	var cands []candidate
	for _, f := range sorted {
		path := filepath.ToSlash(f.Path)
		seen := make(map[int]bool)
		lang.Walk(f.Stmts, func(s *lang.Stmt) {
			row := s.StartRow
			if seen[row] || !eligible(f, s, opts) {
				return
			}
			if apis != nil && (s.Kind == lang.Func || s.Kind == lang.Class || !CallsAPI(f.Lines[row], apis)) {
				return
			}
			seen[row] = true
			cands = append(cands, candidate{file: f, path: path, row: row})
		})
	}
	slices.SortStableFunc(cands, func(a, b candidate) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return a.row - b.row
	})

	n := min(opts.N, len(cands))
	rng := rand.New(rand.NewPCG(opts.Seed, 0x9e3779b97f4a7c15))
	out := make([]Task, 0, n)
	for i := 0; i < n; i++ {
		j := i + rng.IntN(len(cands)-i)
		cands[i], cands[j] = cands[j], cands[i]
		c := cands[i]
		out = append(out, Task{
			ID:          fmt.Sprintf("%s/%d", opts.Repo, i),
			Repo:        opts.Repo,
			Path:        c.path,
			Line:        c.row,
			Prompt:      joinLines(c.file.Lines[:c.row]),
			GroundTruth: c.file.Lines[c.row],
		})
	}
	return out, nil
}

// eligible applies the line-level rules to a statement's first line.
func eligible(f *lang.File, s *lang.Stmt, opts Options) bool {
	if s.Kind == lang.Error || s.StartRow < 0 || s.StartRow >= len(f.Lines) {
		return false
	}
	line := strings.TrimSpace(f.Lines[s.StartRow])
	if line == "" || (opts.CommentPrefix != "" && strings.HasPrefix(line, opts.CommentPrefix)) {
		return false
	}
	if opts.CommentPrefix == "//" && (strings.HasPrefix(line, "/*") || strings.HasPrefix(line, "*")) {
		return false
	}
	if strings.TrimSpace(metrics.StripStrings(f.Text(s))) == "" {
		return false // a docstring or a bare string
	}
	return CountTokens(line) >= opts.MinTokens
}

// CountTokens counts the lexical tokens of a line: runs of word characters
// and single punctuation characters; white space separates.
func CountTokens(line string) int {
	n := 0
	inWord := false
	for _, r := range line {
		switch {
		case r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			if !inWord {
				n++
			}
			inWord = true
		case unicode.IsSpace(r):
			inWord = false
		default:
			n++
			inWord = false
		}
	}
	return n
}

// DefinedAPIs returns the names that function, method and class headers of
// the files define: for a class the first name its header defines, for a
// function the first defined name that opens its parameters (followed by
// "(", see opensParams; which leaves out block lambdas, whose defs are
// parameters).
func DefinedAPIs(files []*lang.File) map[string]bool {
	apis := make(map[string]bool)
	for _, f := range files {
		lang.Walk(f.Stmts, func(s *lang.Stmt) {
			if s.Kind != lang.Func && s.Kind != lang.Class {
				return
			}
			if name := headerName(f.Text(s), s.Defs(), s.Kind == lang.Func); name != "" {
				apis[name] = true
			}
		})
	}
	return apis
}

// Loc is where an API is defined: the 0-based row of its header that
// names it, in the file at Path.
type Loc struct {
	Path string
	Row  int
}

// APIDefinitions returns, for every name DefinedAPIs returns, the places
// that define it (several for overloads and for methods of one name in
// several classes), in file and row order.
func APIDefinitions(files []*lang.File) map[string][]Loc {
	defs := make(map[string][]Loc)
	for _, f := range files {
		path := filepath.ToSlash(f.Path)
		lang.Walk(f.Stmts, func(s *lang.Stmt) {
			if s.Kind != lang.Func && s.Kind != lang.Class {
				return
			}
			name := headerName(f.Text(s), s.Defs(), s.Kind == lang.Func)
			if name == "" {
				return
			}
			row := s.StartRow
			for r := s.StartRow; r <= s.EndRow && r < len(f.Lines); r++ {
				if wordIndex(f.Lines[r], name, false) >= 0 {
					row = r // the header line naming it, past decorators
					break
				}
			}
			defs[name] = append(defs[name], Loc{Path: path, Row: row})
		})
	}
	return defs
}

// headerName returns the def of a header that occurs first in its text as
// a whole word; for functions it must be followed by "(".
func headerName(text string, defs []string, needParen bool) string {
	best, bestAt := "", len(text)+1
	for _, d := range defs {
		if strings.ContainsAny(d, ".[") {
			continue // access paths are not declared names
		}
		at := wordIndex(text, d, needParen)
		if at >= 0 && at < bestAt {
			best, bestAt = d, at
		}
	}
	return best
}

// wordIndex returns the first index of w in text as a whole word (and,
// when needParen, followed by optional spaces and "("), or -1.
func wordIndex(text, w string, needParen bool) int {
	for from := 0; from < len(text); {
		i := strings.Index(text[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(w)
		from = i + 1
		if before, _ := utf8.DecodeLastRuneInString(text[:i]); i > 0 && token.IsIdentPart(before) {
			continue
		}
		if end < len(text) {
			if after, _ := token.RuneAt(text, end); token.IsIdentPart(after) {
				continue
			}
		}
		if needParen && !opensParams(text[end:]) {
			continue
		}
		return i
	}
	return -1
}

// opensParams reports whether the text after a function's name starts its
// header: optional spaces and "(", also after type parameters (Go's
// `F[T any](`, TypeScript's `f<T>(`), or the "=" or ":" of a JavaScript
// or TypeScript function bound to a name (`const f = (x) => {`,
// `const f: Handler = async (req) => {`).
func opensParams(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	if rest == "" {
		return false
	}
	if open := rest[0]; open == '[' || open == '<' {
		closer := byte(']')
		if open == '<' {
			closer = '>'
		}
		depth := 0
		for i := 0; i < len(rest); i++ {
			switch rest[i] {
			case open:
				depth++
			case closer:
				if depth--; depth == 0 {
					return strings.HasPrefix(strings.TrimLeft(rest[i+1:], " \t"), "(")
				}
			}
		}
		return false
	}
	switch {
	case rest[0] == '(':
		return true
	case rest[0] == ':':
		return true
	case rest[0] == '=':
		return !strings.HasPrefix(rest, "==") && !strings.HasPrefix(rest, "=>")
	}
	return false
}

// CallsAPI reports whether line calls one of apis: a name followed by "("
// or preceded by the word "new". String literals are ignored.
func CallsAPI(line string, apis map[string]bool) bool {
	return len(calledAPIs(line, func(w string) bool { return apis[w] }, true)) > 0
}

// CalledAPIs returns the names of defs that line calls, by CallsAPI's
// rule, each once, in order of appearance.
func CalledAPIs(line string, defs map[string][]Loc) []string {
	return calledAPIs(line, func(w string) bool { return len(defs[w]) > 0 }, false)
}

func calledAPIs(line string, isAPI func(string) bool, first bool) []string {
	line = metrics.StripStrings(line)
	var out []string
	prev := ""
	for i := 0; i < len(line); {
		if r, n := token.RuneAt(line, i); !token.IsIdentPart(r) {
			i += n
			continue
		}
		j := token.IdentEnd(line, i)
		w := line[i:j]
		if isAPI(w) && (prev == "new" || strings.HasPrefix(strings.TrimLeft(line[j:], " \t"), "(")) && !slices.Contains(out, w) {
			out = append(out, w)
			if first {
				break
			}
		}
		prev, i = w, j
	}
	return out
}

// joinLines joins lines, each followed by "\n".
func joinLines(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}
