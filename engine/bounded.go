package engine

import (
	"cmp"
	"slices"
	"strings"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/symtab"
)

// The bounded query parse. A request parses the lines before its cursor,
// and in a long file most of them are the bodies of the functions and
// methods above the cursor's own. No statement of such a body can enter
// the query slice: a function body is a scope of its own, entered only
// through its header, and nothing defined in it flows out (package ccg),
// so the slice's backward walk over control flow never reaches into it,
// and no data or control dependence leads from it to a statement outside.
// A Python or Java class body above the cursor's definition is such a
// scope too (typeBodies). The request therefore parses the lines with
// those bodies blanked: the header and the rows holding the body's
// brackets stay as they are, so every statement outside the bodies keeps
// its rows, text, definitions and uses, the graph over them keeps its
// edges, and the slice is the one the whole prefix gives
// (TestBoundedParseReal checks it on real code). In Python the top-level
// definitions far above the cursor whose names the rest never spells go
// too (modulecut.go).
//
// Which rows are bodies is read from the indexed outline of the file (the
// symbols the build recorded, with the rows of their signatures and
// bodies), and only for the rows the buffer shares with the indexed
// version from its first line on: a file not in the index, a buffer
// without a path, or rows past an edit are parsed as they are. A body is
// blanked only when a statement of the buffer follows it (the query
// target follows the buffer's last statement, which must not be
// blanked), and only where its rows are plain: a Python body after a
// header row ending in ':' (its first statement becomes `pass`, so that
// the header still has a body), a brace body opened at the end of its
// signature (the only brace there) or on the row after it and closed at
// the start of its last row. When a statement of the bounded parse spans
// into a blanked region anyway (a function written inside an
// expression, whose rows are its statement's), the request parses the
// whole prefix instead, unless each such statement is a Java syntax
// error, which is its rows alone (elision.throughErrors): a source cut
// off deep in a method often parses into one error from its first row to
// its last, bounded or not.
//
// The outline of the buffer (the definition context's view of the file
// being completed) is the bounded parse's, with the indexed symbols that
// lie inside the blanked bodies put back (Python instance attributes,
// assigned in method bodies), and so are the imports there (a class
// body's imports); it is not proven to equal the whole
// prefix's outline, and bench/RESULTS.md measures the evaluation with and
// without the bounded parse. The outline's parse (of the source with its
// brackets closed) has the comments between the declarations blanked
// too (commentGaps), their documentation rows put back from the indexed
// outline; the query's does not: a syntax error there takes in the
// comments before it, which the whole prefix's error would hold.

// withoutOpenComment returns lines without the block comment open at
// their end (blank rows for its rows, its first row cut where it
// starts), or lines themselves when they do not end inside one. The
// lines before a cursor in a documentation comment end so; parsed as
// they are, the front end's error recovery often turns everything from
// the enclosing declaration on into one syntax error, whose statement
// then is the query slice, text of hundreds of rows. Without the
// comment, the query is the code before it, as at a cursor on the
// comment's first row. The holes of the evaluation (docs/EVAL.md) are
// statements, never inside a comment.
func withoutOpenComment(lines []string, language string) ([]string, int) {
	row, col, ok := ccg.OpenComment(lines, language)
	if !ok {
		return lines, 0
	}
	out := slices.Clone(lines)
	out[row] = out[row][:col]
	for r := row + 1; r < len(out); r++ {
		out[r] = ""
	}
	return out, len(out) - row
}

// boundedLanguages are the languages whose bounded parse the property
// test checks on real code (the Python standard library, the JDK, the Go
// tree); the others parse the whole prefix.
var boundedLanguages = map[string]bool{"python": true, "java": true, "go": true}

// rowRange is an inclusive range of 0-based rows.
type rowRange struct{ from, to int }

// elision is the bounded source of a buffer: its lines with the bodies
// the query cannot reach blanked, the blanked row ranges (ascending,
// disjoint) and the indexed outline they were read from.
type elision struct {
	lines   []string
	regions []rowRange
	indexed *symtab.File
	blanked int // rows blanked
	cut     int // top-level definitions cut (cutModule)
}

// elide returns the bounded source of lines, the lines of buffer b as
// the query parses them, or nil when nothing can be blanked, and the
// rows before which the outline's source may blank the comments between
// the declarations too (elision.withComments).
func (st *state) elide(b *buffer, lines []string, l *lang.Language) (*elision, int) {
	if b.path == "" || !boundedLanguages[l.Name] || len(lines) == 0 {
		return nil, 0
	}
	f, same := st.shared(b, lines, l)
	if f == nil {
		return nil, 0
	}
	// The last row a symbol of the indexed outline starts on within the
	// shared rows: a body ending before it is followed by a statement.
	lastStart := -1
	for i := range f.Symbols {
		if s := f.Symbols[i].StartRow; s < same {
			lastStart = max(lastStart, s)
		}
	}
	e := blank(l.Name, lines, f, nil, func(s *lang.Symbol) bool {
		return (s.Kind.IsCallable() || s.Kind.IsType() && typeBodies[l.Name]) && s.EndRow < same && s.EndRow < lastStart
	}, nil)
	return e.cutModule(l.Name, same, b.hops), min(same, lastStart)
}

// typeBodies are the languages whose type bodies the query parse blanks
// as it blanks a callable's: a Python or Java class body is a scope of
// its own too, entered only through its header, whose definitions reach
// its members and nothing after it (package ccg), and its header is the
// statement of the enclosing scope. A Go type's body is its statement's
// own text (a struct's fields are no statements), so Go keeps it.
var typeBodies = map[string]bool{"python": true, "java": true}

// withComments returns e, an elision of lines, with the comments between
// the declarations in the rows before end blanked as well (commentGaps):
// the source the outline is read from; nil when there are none.
func (e *elision) withComments(language string, lines []string, end int) *elision {
	return blank(language, e.lines, e.indexed, e, func(*lang.Symbol) bool { return false }, commentGaps(language, lines, e.indexed, end))
}

// commentGaps returns the row ranges of lines before row end that hold
// comments only (ccg.CommentBlocks, each whole) and lie between the
// declarations of the indexed outline f, in no symbol but a type: the
// documentation and licence comments around the members of a class or
// file. A comment is no statement, and no statement of the query spans
// such rows (the bounded parse checks it: elision.spans), so blanked
// they leave every statement as it is; the outline's documentation rows
// there are put back from f (elision.outline). Java and Go (the brace
// languages of boundedLanguages).
func commentGaps(language string, lines []string, f *symtab.File, end int) []rowRange {
	if language != "java" && language != "go" || end <= 0 {
		return nil
	}
	blocks := ccg.CommentBlocks(lines[:end], language)
	if len(blocks) == 0 {
		return nil
	}
	// The rows of the symbols other than types.
	var in []rowRange
	for i := range f.Symbols {
		if s := &f.Symbols[i]; !s.Kind.IsType() {
			in = append(in, rowRange{s.StartRow, s.EndRow})
		}
	}
	var out []rowRange
	for _, b := range blocks {
		r := rowRange{b[0], b[1]}
		if !slices.ContainsFunc(in, func(s rowRange) bool { return s.from <= r.to && r.from <= s.to }) {
			out = append(out, r)
		}
	}
	return out
}

// shared returns the indexed outline of the buffer's file and how many of
// lines (the buffer's rows before the cursor, or the source parsed for
// them) from the first on are the indexed version's; nil when the file
// is not indexed in the buffer's language.
func (st *state) shared(b *buffer, lines []string, l *lang.Language) (*symtab.File, int) {
	f, indexed := st.indexed(b, l)
	if f == nil {
		return nil, 0
	}
	same := 0
	for same < len(lines) && same < len(indexed) && lines[same] == indexed[same] {
		same++
	}
	return f, same
}

// braceOpen returns the row of the '{' opening the body of callable s in
// lines: ending the signature's last row (a trailing line comment aside)
// and the only brace there (in `int[] f() { return new int[] {` the
// brace ending the row is an array's), or alone on the row after it,
// with no block comment on that row; -1 when the body does not open so.
func braceOpen(lines []string, s *lang.Symbol) int {
	if s.SigEnd < s.StartRow || s.SigEnd >= len(lines) {
		return -1
	}
	open := -1
	if code := trimLineComment(lines[s.SigEnd]); strings.HasSuffix(code, "{") && strings.Count(code, "{") == 1 && !strings.Contains(code, "}") {
		open = s.SigEnd
	} else if s.SigEnd+1 < len(lines) && s.SigEnd+1 < s.EndRow && strings.TrimSpace(lines[s.SigEnd+1]) == "{" {
		open = s.SigEnd + 1
	}
	if open < 0 || strings.Contains(lines[open], "/*") {
		return -1
	}
	return open
}

// blank returns the elision of lines (rows of the indexed file f) that
// blanks the plain bodies of f's callables and types for which pick
// holds and the rows of comments (outside every body), on top of the
// regions of prev (an elision of the same rows; nil for none), or nil
// when nothing is blanked.
func blank(language string, lines []string, f *symtab.File, prev *elision, pick func(*lang.Symbol) bool, comments []rowRange) *elision {
	var regions []rowRange
	var pass []int // per region, the row that becomes `pass` (Python), or -1
	if prev != nil {
		for _, r := range prev.regions {
			regions = append(regions, r)
			pass = append(pass, -2) // blanked already
		}
	}
	for _, r := range comments {
		regions = append(regions, r)
		pass = append(pass, -1)
	}
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if !s.Kind.IsCallable() && !s.Kind.IsType() || !pick(s) {
			continue
		}
		r, p, ok := bodyRows(language, lines, s)
		if !ok {
			continue
		}
		regions = append(regions, r)
		pass = append(pass, p)
	}
	if len(regions) == 0 || prev != nil && len(regions) == len(prev.regions) {
		return nil
	}
	order := make([]int, len(regions))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(regions[a].from, regions[b].from), -cmp.Compare(regions[a].to, regions[b].to))
	})
	e := &elision{lines: slices.Clone(lines), indexed: f}
	for _, i := range order {
		r := regions[i]
		if n := len(e.regions); n > 0 && r.from <= e.regions[n-1].to {
			continue // inside a body already blanked
		}
		e.regions = append(e.regions, r)
		if pass[i] == -2 {
			continue
		}
		for row := r.from; row <= r.to; row++ {
			e.lines[row] = ""
		}
		if p := pass[i]; p >= 0 {
			t := lines[p]
			e.lines[p] = t[:len(t)-len(strings.TrimLeft(t, " \t"))] + "pass"
		}
		e.blanked += r.to - r.from + 1
	}
	return e
}

// afterSource returns the source the outline of the declarations after
// the cursor reads (buffer.addAfter): the lines before the cursor with
// the bodies the query parse blanked, the cursor's row blank, the lines
// after it. When these rows are the
// indexed version's, the bodies of the callables after the cursor are
// blanked too: addAfter keeps no declaration inside a body, and the
// symbols around the bodies keep their rows (e.outline puts back what
// the blanking took from them). It returns the elision of the whole
// source (nil when nothing is blanked).
func (st *state) afterSource(b *buffer, l *lang.Language) ([]string, *elision) {
	cursor := len(b.lines)
	src := make([]string, 0, cursor+1+len(b.after))
	src = append(append(append(src, b.lines...), ""), b.after...)
	if b.elided != nil {
		// The bodies the query parse blanked (not its cut of an open
		// comment, which the lines after the cursor close).
		for _, r := range b.elided.regions {
			copy(src[r.from:r.to+1], b.elided.lines[r.from:r.to+1])
		}
	}
	if b.path == "" || !boundedLanguages[l.Name] || b.whole {
		return src, b.elided
	}
	f, _ := st.sameAfter(b, l)
	if f == nil {
		return src, b.elided
	}
	e := blank(l.Name, src, f, b.elided, func(s *lang.Symbol) bool { return s.Kind.IsCallable() && s.StartRow > cursor }, nil)
	if e == nil {
		if b.elided == nil {
			return src, nil
		}
		e = &elision{lines: src, regions: b.elided.regions, indexed: f}
	}
	return e.lines, e
}

// indexed returns the indexed outline of the buffer's file and the
// indexed version's lines; nil when the buffer has no path or its file
// is not indexed in the buffer's language.
func (st *state) indexed(b *buffer, l *lang.Language) (*symtab.File, []string) {
	if b.path == "" {
		return nil, nil
	}
	f := st.syms.File(b.path)
	if f == nil || f.Language != l {
		return nil, nil
	}
	return f, st.sources.lines(st.ix, b.path)
}

// sameAfter returns the indexed outline of the buffer's file and the
// indexed version's lines when the rows after the cursor are the indexed
// version's, row for row; nil otherwise.
func (st *state) sameAfter(b *buffer, l *lang.Language) (*symtab.File, []string) {
	f, indexed := st.indexed(b, l)
	if f == nil {
		return nil, nil
	}
	if !endsWith(indexed, len(b.lines)+1, b.after) {
		return nil, nil
	}
	return f, indexed
}

// endsWith reports whether the rows of indexed from row from on are
// after's, the empty row after a final newline aside: after runs to the
// buffer's end, so a version with rows beyond it is another.
func endsWith(indexed []string, from int, after []string) bool {
	n := len(indexed)
	if n > 0 && indexed[n-1] == "" && n-from == len(after)+1 {
		n--
	}
	if from < 0 || n-from != len(after) {
		return false
	}
	for k, line := range after {
		if indexed[from+k] != line {
			return false
		}
	}
	return true
}

// indexedAfter returns an outline of the buffer's file read from the
// indexed one, standing for a parse of the buffer with the cursor's row
// blank (addAfter), when the rows before the cursor are the indexed
// version's and those after it are too, in one of two ways; false
// otherwise.
//
//   - Row for row: only the cursor's row differs. The outline is the
//     indexed one, whatever the indexed version holds at the cursor's
//     row: the declarations after the cursor are the file's. A parse
//     with that row blank would read code whose brackets the blank row
//     may leave open or unmatched (an argument list going on over the
//     next rows, a Python header without its body, a field's
//     initializer cut): its error recovery decides what follows, at the
//     cost of a parse of the whole buffer, as long as the query's on a
//     long file. A declaration starting at the cursor's row, the code
//     being written, and its members are no declarations after the
//     cursor to withAfter, which leaves them out.
//   - From the cursor's row on, one row down (insertedAfter): the buffer
//     is the indexed version with a row inserted at the cursor, as an
//     editor's is while a new line is typed, and with that row blank
//     the parse reads the same tokens. The outline is the indexed one
//     with the rows from the cursor's on moved one down.
func (st *state) indexedAfter(b *buffer, l *lang.Language) ([]lang.Symbol, bool) {
	f, indexed := st.indexed(b, l)
	if f == nil {
		return nil, false
	}
	cursor := len(b.lines)
	if len(indexed) < cursor {
		return nil, false
	}
	for k, line := range b.lines {
		if indexed[k] != line {
			return nil, false
		}
	}
	if endsWith(indexed, cursor+1, b.after) {
		return f.Symbols, true
	}
	if !endsWith(indexed, cursor, b.after) {
		return nil, false
	}
	return insertedAfter(l.Name, indexed, f.Symbols, cursor)
}

// insertLanguages are the languages whose syntax tree a blank row
// inserted between two rows leaves as it was but for the rows
// (insertedAfter): a newline is white space to the Java grammar, a line
// holding nothing is skipped by Python's indentation scanner, and Go's
// grammar reads a newline as a terminator only where a statement may end,
// so that a second one is white space.
var insertLanguages = map[string]bool{"python": true, "java": true, "go": true}

// insertedAfter returns syms, the outline of lines (a file of language),
// as an outline of lines with a blank row inserted before row at: the
// rows from at on one down; false when the blank row may shape the
// outline. In Python the row before it must not end in a backslash,
// which would join it to the blank row rather than to the next; in Go it
// must not be a comment's, since a Go declaration's documentation is the
// comment on the rows right above it (frontend.DocAbove). A blank
// row in a signature or between a declaration and its documentation
// moves the rows after it and nothing else: both outliners read a
// signature's rows from the syntax tree, a Python docstring from the
// first statement of the body and a Java doc comment from the node
// before the declaration, each from its first row holding text.
func insertedAfter(language string, lines []string, syms []lang.Symbol, at int) ([]lang.Symbol, bool) {
	if !insertLanguages[language] || at <= 0 || at > len(lines) {
		return nil, false
	}
	if language == "python" && strings.HasSuffix(strings.TrimRight(lines[at-1], " \t"), "\\") {
		return nil, false
	}
	if t := strings.TrimSpace(lines[at-1]); language == "go" && (strings.HasPrefix(t, "//") || strings.HasSuffix(t, "*/")) {
		return nil, false
	}
	out := slices.Clone(syms)
	down := func(r *int) {
		if *r >= at {
			*r++
		}
	}
	for i := range out {
		s := &out[i]
		down(&s.StartRow)
		down(&s.EndRow)
		down(&s.SigStart)
		down(&s.SigEnd)
		down(&s.NameRow)
		down(&s.DocRow)
	}
	return out, true
}

// bodyRows returns the rows of the body of callable s that can be blanked
// in lines, and for Python the row whose first statement becomes `pass`
// (-1 otherwise); ok is false when the body's rows are not plain (see the
// comment at the top of the file).
func bodyRows(language string, lines []string, s *lang.Symbol) (r rowRange, pass int, ok bool) {
	if s.SigEnd < s.StartRow || s.SigEnd >= s.EndRow || s.EndRow >= len(lines) {
		return rowRange{}, -1, false
	}
	if language == "python" {
		head := strings.TrimRight(lines[s.SigEnd], " \t")
		if !strings.HasSuffix(head, ":") || strings.ContainsRune(head, '#') {
			return rowRange{}, -1, false
		}
		r = rowRange{s.SigEnd + 1, s.EndRow}
		for p := r.from; p <= r.to; p++ {
			t := lines[p]
			body := strings.TrimLeft(t, " \t")
			if body == "" {
				continue
			}
			if len(t)-len(body) <= indentOf(lines[s.NameRow]) {
				return rowRange{}, -1, false
			}
			return r, p, true
		}
		return rowRange{}, -1, false
	}
	// A brace body: '{' ending the signature's last row (a trailing line
	// comment aside) or alone on the row after it, '}' first on the
	// symbol's last row.
	open := braceOpen(lines, s)
	if open < 0 || !strings.HasPrefix(strings.TrimLeft(lines[s.EndRow], " \t"), "}") {
		return rowRange{}, -1, false
	}
	r = rowRange{open + 1, s.EndRow - 1}
	if r.from > r.to {
		return rowRange{}, -1, false
	}
	return r, -1, true
}

// trimLineComment returns line without a trailing // comment and trailing
// white space. A "//" inside a literal cuts the row short, which only
// makes a body look less plain.
func trimLineComment(line string) string {
	if i := strings.Index(line, "//"); i >= 0 {
		line = line[:i]
	}
	return strings.TrimRight(line, " \t")
}

func indentOf(line string) int { return len(line) - len(strings.TrimLeft(line, " \t")) }

// spans reports whether a statement of stmts starts before a blanked
// region and reaches into it: its text would not be the whole prefix's.
func (e *elision) spans(stmts []*lang.Stmt) bool {
	bad := false
	lang.Walk(stmts, func(s *lang.Stmt) {
		if bad {
			return
		}
		// The first region starting after the statement's first row.
		i, _ := slices.BinarySearchFunc(e.regions, s.StartRow, func(r rowRange, row int) int {
			return cmp.Compare(r.from, row+1)
		})
		if i < len(e.regions) && s.EndRow >= e.regions[i].from {
			bad = true
		}
		if i > 0 && s.StartRow <= e.regions[i-1].to && !e.passRow(s) {
			bad = true // a statement inside a region other than its `pass`
		}
	})
	return bad
}

// errorLanguages are the languages whose front end makes a syntax error
// an Error statement of its rows alone, without names, and whose
// bounded parse keeps the error regions of the whole prefix's
// (TestBoundedParseReal): Java.
var errorLanguages = map[string]bool{"java": true}

// throughErrors reports whether f, the parse of e's lines, is the parse
// of base (the lines e blanked bodies of) but for the text of the rows
// it blanked, and if so gives f those rows as base has them. That is so
// when every statement reaching into a blanked region is a syntax error
// that starts and ends outside the regions and has no names and no
// statements inside: an Error statement is its rows, and its text is
// read from the File's lines. A source cut off deep inside a method
// often parses into one such error from its first row to its last
// (tree-sitter's recovery giving up on the unclosed blocks), the whole
// prefix as the bounded one; parsing the whole prefix again would cost
// more than the rest of the request.
func (e *elision) throughErrors(f *lang.File, base []string, language string) bool {
	if !errorLanguages[language] || len(f.Lines) < len(base) {
		return false
	}
	ok := true
	lang.Walk(f.Stmts, func(s *lang.Stmt) {
		if !ok || !e.overlaps(s.StartRow, s.EndRow) {
			return
		}
		if s.Kind != lang.Error || e.overlaps(s.StartRow, s.StartRow) || e.overlaps(s.EndRow, s.EndRow) ||
			len(s.Defs())+len(s.Uses())+len(s.Params()) > 0 || len(s.Body)+len(s.Inner())+len(s.Cases())+len(s.Handlers()) > 0 ||
			s.Else() != nil || s.Finally() != nil || s.Cond() != nil {
			ok = false
		}
	})
	if !ok {
		return false
	}
	for _, r := range e.regions {
		for _, line := range base[r.from : r.to+1] {
			if strings.ContainsRune(line, '\r') {
				return false // the front end reads a lone CR as a line end
			}
		}
	}
	lines := slices.Clone(f.Lines)
	for _, r := range e.regions {
		copy(lines[r.from:r.to+1], base[r.from:r.to+1])
	}
	f.Lines = lines
	return true
}

// overlaps reports whether rows from..to hold a blanked row.
func (e *elision) overlaps(from, to int) bool {
	i, _ := slices.BinarySearchFunc(e.regions, from, func(r rowRange, row int) int { return cmp.Compare(r.to, row) })
	return i < len(e.regions) && e.regions[i].from <= to
}

// passRow reports whether s is the single-row statement a Python region
// holds in place of its body.
func (e *elision) passRow(s *lang.Stmt) bool {
	return s.StartRow == s.EndRow && strings.TrimSpace(e.lines[s.StartRow]) == "pass"
}

// imports returns imps, the bounded parse's imports, with the indexed
// imports on the rows it blanked put back, in row order: a Python class
// body's own imports (idlelib's EditorWindow imports its delegates so),
// which relate the file to the modules they name.
func (e *elision) imports(imps []lang.Import) []lang.Import {
	var back []lang.Import
	for _, imp := range e.indexed.Imports {
		if imp.Row < len(e.lines) && e.overlaps(imp.Row, imp.Row) {
			back = append(back, imp)
		}
	}
	if len(back) == 0 {
		return imps
	}
	out := append(slices.Clone(imps), back...)
	slices.SortStableFunc(out, func(a, b lang.Import) int { return cmp.Compare(a.Row, b.Row) })
	return out
}

// outline returns syms, the bounded parse's outline, with the indexed
// symbols that start inside a blanked region put back, in source order,
// and the rows a blanked body took from the symbols holding it (their
// last row, a Python docstring's row) as the indexed version has them. A
// symbol put back whose parent is neither put back nor found in syms
// (same kind, name and rows) is left out.
func (e *elision) outline(syms []lang.Symbol) []lang.Symbol {
	in := func(row int) bool { return e.overlaps(row, row) }
	type key struct {
		kind            lang.SymbolKind
		name            string
		start, name_row int
	}
	at := make(map[key]int, len(syms))
	for i := range syms {
		s := &syms[i]
		at[key{s.Kind, s.Name, s.StartRow, s.NameRow}] = i
	}
	idx := e.indexed.Symbols
	out := slices.Clone(syms)
	restored := false
	// where[j] is the index in out of indexed symbol j, -1 when absent.
	where := make([]int, len(idx))
	added := false
	for j := range idx {
		where[j] = -1
		s := idx[j]
		if !in(s.StartRow) {
			if i, ok := at[key{s.Kind, s.Name, s.StartRow, s.NameRow}]; ok {
				where[j] = i
				// The rows of a symbol holding a blanked body, and of its
				// documentation when that was blanked, as the indexed
				// version has them.
				if s.EndRow < len(e.lines) && e.overlaps(s.StartRow, s.EndRow) && out[i].EndRow != s.EndRow {
					out[i].EndRow, restored = s.EndRow, true
				}
				if s.DocRow >= 0 && in(s.DocRow) && out[i].DocRow != s.DocRow {
					out[i].DocRow, restored = s.DocRow, true
				}
			}
			continue
		}
		if s.Parent >= 0 {
			if s.Parent >= j || where[s.Parent] < 0 {
				continue
			}
			s.Parent = where[s.Parent]
		}
		where[j] = len(out)
		out = append(out, s)
		added = true
	}
	if !added {
		if restored {
			return out
		}
		return syms
	}
	// Source order, a parent before its members: sort by first row,
	// stably, and renumber the parents. The parse's second definitions of
	// a name put back go (firstStands).
	drop := e.firstStands(syms, out, where)
	perm := make([]int, 0, len(out))
	for i := range out {
		if drop == nil || !drop[i] {
			perm = append(perm, i)
		}
	}
	slices.SortStableFunc(perm, func(a, b int) int { return cmp.Compare(out[a].StartRow, out[b].StartRow) })
	pos := make([]int, len(out))
	for i, p := range perm {
		pos[p] = i
	}
	sorted := make([]lang.Symbol, len(perm))
	for i, p := range perm {
		s := out[p]
		if s.Parent >= 0 {
			s.Parent = pos[s.Parent]
			if s.Parent >= i {
				s.Parent = -1
			}
		}
		sorted[i] = s
	}
	return sorted
}

// firstStands returns the symbols of out (syms, the bounded parse's
// outline, then the indexed symbols put back) that a parse of the whole
// source would not have, by the Python outliner's rule that the first
// definition of a name in a scope stands for it: an instance attribute
// first assigned in a blanked body is put back, and the parse had found
// it again where it is next assigned (a method's `self.x = ...` below).
// Such a value symbol of the parse (field, variable, constant) matches no
// indexed symbol, and one put back has its scope, kind and name; it has
// no members. where[j] is the index in out of indexed symbol j (-1:
// none); the result is nil (none) for other languages.
func (e *elision) firstStands(syms, out []lang.Symbol, where []int) []bool {
	if e.indexed.Language == nil || e.indexed.Language.Name != "python" || len(out) == len(syms) {
		return nil
	}
	type named struct {
		parent int
		kind   lang.SymbolKind
		name   string
	}
	value := func(k lang.SymbolKind) bool {
		return k == lang.SymField || k == lang.SymVariable || k == lang.SymConstant
	}
	back := make(map[named]bool, len(out)-len(syms))
	for _, s := range out[len(syms):] {
		if value(s.Kind) {
			back[named{s.Parent, s.Kind, s.Name}] = true
		}
	}
	matched := make([]bool, len(syms))
	for _, i := range where {
		if i >= 0 && i < len(syms) {
			matched[i] = true
		}
	}
	var drop []bool
	for i, s := range syms {
		if !matched[i] && value(s.Kind) && back[named{s.Parent, s.Kind, s.Name}] {
			if drop == nil {
				drop = make([]bool, len(out))
			}
			drop[i] = true
		}
	}
	return drop
}
