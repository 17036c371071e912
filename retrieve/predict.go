package retrieve

import (
	"bytes"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/graphcoder/graphcoder/sed"
	"github.com/graphcoder/graphcoder/token"
)

// Predict returns the model-free completion of q from candidate c (which
// must come from a fine search, so that it carries an alignment): the
// first line of c's target statement, re-indented and with names renamed
// through the alignment, using the defs the index stores for every
// statement (no file is parsed).
//
// Renaming: for every aligned pair of non-target vertices (query v,
// candidate u), visited by increasing hop of v, let Q be the names v
// defines and C the names u defines. When C\Q and Q\C each hold exactly one
// name, the candidate's name maps to the query's (x = open(p) against
// fh = open(p) maps fh to x; def read(self, f) against def read(self, fh)
// maps fh to f). The first mapping of a name wins. In the predicted line
// every dotted name (a.b.c) not inside a string literal has its longest
// mapped leading path replaced, so attribute names are never renamed on
// their own: with fh mapped to f, fh.read() becomes f.read() but x.fh
// stays.
//
// Indentation: the predicted line keeps the candidate's indentation
// relative to the last non-blank line before its statement, applied to the
// last non-blank line before the cursor.
func (ix *Index) Predict(q *Query, c *Candidate) string {
	fi := ix.fileOf(uint32(c.Entry))
	row := int(ix.stmtRows[ix.files[fi].stmtBase+ix.entryTarget(uint32(c.Entry))][0])
	line := ix.rowsString(fi, row, row)
	prevCand := ix.indentBefore(fi, row)
	body := strings.TrimLeft(line, " \t")
	candIndent := len(line) - len(body)
	if m := ix.renames(q, c); len(m) > 0 {
		body = Rename(body, m)
	}
	indent := max(len(q.Indent)+candIndent-prevCand, 0)
	unit := " "
	if strings.HasPrefix(q.Indent, "\t") || (q.Indent == "" && strings.HasPrefix(line, "\t")) {
		unit = "\t"
	}
	return strings.Repeat(unit, indent) + body
}

// indentBefore returns the indentation (leading blanks and tabs) of the
// last non-blank row of file fi before row, 0 when there is none; it reads
// back through the frames before row's only as far as that row.
func (ix *Index) indentBefore(fi int32, row int) int {
	indent, found := 0, false
	for r := row - 1; r >= 0 && !found; {
		ix.withRows(fi, r, r, func(s *source) {
			for ; r >= s.first; r-- {
				a, b := s.span(r, r)
				prev := s.text[a:b]
				if t := bytes.TrimLeft(prev, " \t"); len(t) > 0 {
					indent, found = len(prev)-len(t), true
					return
				}
			}
		})
	}
	return indent
}

// renames builds the candidate-name -> query-name map of Predict.
func (ix *Index) renames(q *Query, c *Candidate) map[string]string {
	if c.Alignment == nil || len(q.Defs) != len(c.Alignment) {
		return nil
	}
	var ev entryView
	ix.entry(uint32(c.Entry), &ev)
	nodes := ev.nodes
	order := make([]int, len(c.Alignment))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return q.Graph.Hop[order[a]] < q.Graph.Hop[order[b]] })
	m := map[string]string{}
	var cd []string
	for _, v := range order {
		u := c.Alignment[v]
		if v == q.Graph.Target || u == sed.Unaligned || int(u) == ev.targetPos || int(u) >= len(nodes) {
			continue
		}
		cd = ix.defsOf(cd[:0], nodes[u])
		onlyC, onlyQ := difference(cd, q.Defs[v]), difference(q.Defs[v], cd)
		if len(onlyC) == 1 && len(onlyQ) == 1 {
			if _, ok := m[onlyC[0]]; !ok {
				m[onlyC[0]] = onlyQ[0]
			}
		}
	}
	return m
}

func difference(a, b []string) []string {
	var out []string
	for _, x := range a {
		found := false
		for _, y := range b {
			if x == y {
				found = true
				break
			}
		}
		if !found {
			out = append(out, x)
		}
	}
	return out
}

// Rename replaces, in every dotted name of line outside string literals,
// the longest leading path found in m by its image. Identifiers and
// literals are delimited by package token's lexical rules.
func Rename(line string, m map[string]string) string {
	var b strings.Builder
	prev := rune(0) // the rune before line[i]
	for i := 0; i < len(line); {
		if token.IsQuote(line[i]) {
			j := token.StringEnd(line, i, nil)
			b.WriteString(line[i:j])
			prev, i = rune(line[j-1]), j
			continue
		}
		r, n := token.RuneAt(line, i)
		if !token.IsIdentStart(r) || token.IsIdentPart(prev) || prev == '.' {
			b.WriteString(line[i : i+n])
			prev, i = r, i+n
			continue
		}
		// A dotted name: identifiers joined by '.'.
		j := i
		var ends []int // end offsets of each leading path
		for {
			j = token.IdentEnd(line, j)
			ends = append(ends, j)
			if j+1 < len(line) && line[j] == '.' {
				if r, _ := token.RuneAt(line, j+1); token.IsIdentStart(r) {
					j++
					continue
				}
			}
			break
		}
		name := line[i:j]
		replaced := false
		for k := len(ends) - 1; k >= 0; k-- {
			if to, ok := m[line[i:ends[k]]]; ok {
				b.WriteString(to)
				b.WriteString(line[ends[k]:j])
				replaced = true
				break
			}
		}
		if !replaced {
			b.WriteString(name)
		}
		prev, _ = utf8.DecodeLastRuneInString(name)
		i = j
	}
	return b.String()
}

// DefaultVoteK is the k of Vote's rank weights 1/(k + rank).
const DefaultVoteK = 0

// Vote returns the model-free completion of q by a vote of the first n
// candidates (best first, from a search of the snapshot), instead of the
// first candidate's alone: each predicts as Predict does, and a
// prediction gets weight 1/(k + rank) from every candidate predicting it
// (rank counted from 1; lines compared without their leading and trailing
// white space). The prediction of most weight wins, in the form its best
// candidate gives; equal weights go to the better candidate. With n <= 1
// or a single candidate it is Predict of the first. In a repository of
// near-clones the statements around the right one have nearly the same
// slices, so the alignment of the first candidate is easily off by one
// while most of the others agree.
func (s *Snapshot) Vote(q *Query, cands []Candidate, n int, k float64) string {
	defer s.quiet()
	if len(cands) == 0 {
		return ""
	}
	n = min(n, len(cands))
	if n <= 1 {
		return s.Predict(q, &cands[0])
	}
	type option struct {
		text   string
		weight float64
		first  int
	}
	var opts []option
	at := map[string]int{}
	for i := range n {
		p := s.Predict(q, &cands[i])
		key := strings.TrimSpace(p)
		w := 1 / (k + float64(i+1))
		if j, ok := at[key]; ok {
			opts[j].weight += w
			continue
		}
		at[key] = len(opts)
		opts = append(opts, option{p, w, i})
	}
	best := 0
	for j := range opts {
		if opts[j].weight > opts[best].weight {
			best = j
		}
	}
	return opts[best].text
}
