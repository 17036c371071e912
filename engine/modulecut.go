package engine

import (
	"slices"
	"strings"

	"github.com/graphcoder/graphcoder/token"
)

// The module's definitions the query cannot reach. With the bodies
// blanked (bounded.go) a long Python module still parses every header of
// the functions and classes above the cursor: in the standard library's
// email/_header_value_parser.py, 360 rows of headers and their `pass`,
// some 3 ms of tree-sitter at every cursor near its end. A top-level
// definition far enough above the cursor enters the query slice only as
// a data dependence, through the name it defines, so one whose name the
// code kept never spells can go as well:
//
//   - The slice walks control flow backwards for at most h hops from the
//     target, and every top-level statement lies on each path from the
//     module's start to a statement after it. So a statement above the
//     (h+1)-th last top-level definition before the cursor is more than h
//     hops away: it enters the slice only as the data (or control)
//     dependence of a statement that does, and a definition is a simple
//     statement of its scope, no control dependence's source.
//   - A def or class header defines its name only (a walrus in a
//     decorator, default or base aside: such a header stays), so it is a
//     data dependence only of a statement that uses that name, and it
//     kills no other definition on the way. A definition whose name occurs
//     nowhere in the text kept (as any identifier at all, so also in a
//     string or a comment) is no dependence of a kept statement; what
//     the kept text spells, closed over the headers kept for it, stays.
//   - Each run of such definitions becomes one `pass` at the first one's
//     row and indentation: the rows of every other statement stay, and
//     so does the control flow around the run (a statement before it and
//     one after it are no neighbours where they were none), and the
//     `pass` defines and uses nothing.
//
// The slice, its hops, its text and its edges are therefore the whole
// prefix's; TestBoundedParseReal checks it on the standard library. The
// outline puts the definitions back from the indexed one, as it does the
// symbols of the blanked bodies (elision.outline). Python only: a Java
// or Go file's top level is its types and declarations, no control flow.

// moduleCutLanguages are the languages whose top-level definitions the
// query parse cuts (cutModule).
var moduleCutLanguages = map[string]bool{"python": true}

// cutModule returns e (an elision of the rows before the cursor, the
// first same of them the indexed version's) with the top-level
// definitions the query slice of at most hops hops cannot reach replaced
// by `pass`, or e itself when there are none.
func (e *elision) cutModule(language string, same, hops int) *elision {
	if e == nil || !moduleCutLanguages[language] || hops <= 0 {
		return e
	}
	syms := e.indexed.Symbols
	// The top-level definitions whose headers are the indexed version's,
	// at column 0: each is a statement of the module on every path to
	// the cursor.
	var top []int
	for i := range syms {
		s := &syms[i]
		if s.Parent < 0 && s.SigEnd < same && s.StartRow <= s.SigEnd && (s.Kind.IsCallable() || s.Kind.IsType()) &&
			indentOf(e.lines[s.StartRow]) == 0 && strings.TrimSpace(e.lines[s.StartRow]) != "" {
			top = append(top, i)
		}
	}
	if len(top) <= hops+1 {
		return e
	}
	// Rows from keep on stay: the last hops+1 top-level definitions
	// before the cursor (the last may hold it) and what follows them.
	keep := syms[top[len(top)-hops-1]].StartRow
	type cand struct {
		from, to int // rows
		name     string
		kept     bool
	}
	var cands []cand
	for i := range syms {
		s := &syms[i]
		if s.Parent >= 0 || !s.Kind.IsCallable() && !s.Kind.IsType() || s.EndRow >= keep || s.StartRow > s.EndRow ||
			e.overlaps(s.StartRow, s.StartRow) || !definitionRow(e.lines[s.StartRow]) {
			continue
		}
		if n := len(cands); n > 0 && s.StartRow <= cands[n-1].to {
			continue // inside the last (a definition nested in a compound statement's row range)
		}
		cands = append(cands, cand{from: s.StartRow, to: s.EndRow, name: s.Name})
	}
	if len(cands) == 0 {
		return e
	}
	// The names the kept text spells: every row but the candidates', then
	// those of each candidate kept for a name, until none is added.
	names := map[string]bool{}
	c := 0
	for row, line := range e.lines {
		for c < len(cands) && cands[c].to < row {
			c++
		}
		if c < len(cands) && cands[c].from <= row {
			continue
		}
		identifiers(line, names)
	}
	keepCand := func(k *cand) {
		k.kept = true
		for _, line := range e.lines[k.from : k.to+1] {
			identifiers(line, names)
		}
	}
	for i := range cands {
		for _, line := range e.lines[cands[i].from : cands[i].to+1] {
			if strings.Contains(line, ":=") {
				keepCand(&cands[i])
				break
			}
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range cands {
			if k := &cands[i]; !k.kept && names[k.name] {
				keepCand(k)
				changed = true
			}
		}
	}
	// Runs of cut definitions, with only blank rows and comments between
	// them.
	var runs []rowRange
	cut := 0
	for i := range cands {
		k := cands[i]
		if k.kept {
			continue
		}
		cut++
		if n := len(runs); n > 0 && onlyGap(e.lines[runs[n-1].to+1:k.from]) && indentOf(e.lines[runs[n-1].from]) == indentOf(e.lines[k.from]) {
			runs[n-1].to = k.to
			continue
		}
		runs = append(runs, rowRange{k.from, k.to})
	}
	if len(runs) == 0 {
		return e
	}
	out := &elision{lines: slices.Clone(e.lines), indexed: e.indexed, cut: cut}
	for _, r := range runs {
		line := e.lines[r.from]
		for row := r.from; row <= r.to; row++ {
			out.lines[row] = ""
		}
		out.lines[r.from] = line[:indentOf(line)] + "pass"
	}
	// The regions: the runs, and e's outside them.
	j := 0
	for _, r := range e.regions {
		for j < len(runs) && runs[j].to < r.from {
			out.regions = append(out.regions, runs[j])
			j++
		}
		if j < len(runs) && runs[j].from <= r.to {
			continue // inside the run
		}
		out.regions = append(out.regions, r)
	}
	out.regions = append(out.regions, runs[j:]...)
	for _, r := range out.regions {
		out.blanked += r.to - r.from + 1
	}
	return out
}

// definitionRow reports whether line opens a Python definition: a
// decorator, def or class.
func definitionRow(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return strings.HasPrefix(t, "@") || strings.HasPrefix(t, "def ") || strings.HasPrefix(t, "class ") || strings.HasPrefix(t, "async ")
}

// onlyGap reports whether rows are blank or comments alone.
func onlyGap(rows []string) bool {
	for _, r := range rows {
		if t := strings.TrimLeft(r, " \t"); t != "" && !strings.HasPrefix(t, "#") {
			return false
		}
	}
	return true
}

// identifiers adds the identifiers line spells to names: every run of
// identifier characters starting with an identifier start, inside
// strings and comments too.
func identifiers(line string, names map[string]bool) {
	for i := 0; i < len(line); {
		r, n := token.RuneAt(line, i)
		if !token.IsIdentStart(r) {
			i += n
			continue
		}
		end := token.IdentEnd(line, i)
		names[line[i:end]] = true
		i = end
	}
}
