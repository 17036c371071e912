package engine

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/defctx"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/prompt"
	"github.com/graphcoder/graphcoder/retrieve"
	"github.com/graphcoder/graphcoder/symtab"
)

// buffer is the code of one request before the cursor, parsed once for
// the query, the definition context and the import-graph re-rank.
type buffer struct {
	path  string // as the symbol table names it; "" for code of no file
	lines []string
	// after holds the buffer's lines after the cursor's line (never the
	// cursor's own): the signatures of the declarations there are
	// definitions too (see addAfter).
	after     []string
	withAfter bool // addAfter ran
	// prefix is the outline of the code before the cursor alone, when
	// addAfter added declarations (for defctx.Options.NoAfter).
	prefix *symtab.File

	parsed  *lang.File
	blanked int      // rows the bounded parse blanked
	elided  *elision // its elision, nil for none
	whole   bool     // the engine parses whole prefixes
	// hops is the h of the query slice, which the bounded parse may cut
	// the module's definitions for (elision.cutModule); 0: it cuts none.
	hops   int
	file   *symtab.File
	graph  *ccg.Graph // the query graph, with its target vertex
	target int32
	cached bool         // parsed, file and graph come from the state's bufferCache
	view   *symtab.View // the state's outlines with the buffer's on top
	pinned *symtab.View // the state's outlines, pinned for the request
	slice  []string     // the text of the query slice's statements
	// The retrieved candidates and their windows' text.
	cands  []retrieve.Candidate
	values []string
	// valueLines are the lines of each window (strings.Split by '\n').
	valueLines [][]string
	// recovered says parsed is the parse of the lines with their brackets
	// closed, the lines themselves parsing into one syntax error around
	// the cursor (recover.go); unrecovered turns that off
	// (Options.NoQueryRecovery).
	recovered, unrecovered bool
	// ahead lets parse run the outline's parse beside the query's on
	// a large buffer (ahead.go): a core is free for it.
	ahead bool
	// afterAhead is the outline after the cursor parsed beside the
	// retrieval (ahead.go), nil when it is not.
	afterAhead *afterAhead
}

// newBuffer returns the buffer of a cursor on 1-based line of a file of
// lines (lang.SplitLines): the lines before it, and those after it but
// the empty line after a final newline (the new line at the end).
func newBuffer(path string, lines []string, line int) *buffer {
	b := &buffer{path: path, lines: lines[:min(line-1, len(lines))]}
	if line < len(lines) {
		b.after = lines[line:]
		if n := len(b.after); b.after[n-1] == "" {
			b.after = b.after[:n-1]
		}
	}
	return b
}

// parse parses the buffer's lines (once) and makes its outline: the
// bounded parse of st (bounded.go), and without a block comment open at
// their end (withoutOpenComment), unless whole asks for every line as
// it is.
func (b *buffer) parse(ctx context.Context, l *lang.Language, name string, st *state, whole bool) (*lang.File, error) {
	if b.parsed != nil {
		return b.parsed, nil
	}
	// base is what the query parses without the bounded parse: the
	// lines, an open comment at their end left out.
	base, cut := b.lines, 0
	var e *elision
	var gapsEnd int // the rows the outline's source blanks comments of
	if !whole {
		base, cut = withoutOpenComment(b.lines, l.Name)
		e, gapsEnd = st.elide(b, base, l)
	}
	lines := base
	if e != nil {
		lines = e.lines
	}
	// The outline's source when the query's statements come from e (the
	// usual case): e with the comments between the declarations blanked
	// as well, or the lines as they are without e.
	oeOrig, osrc := e, base
	if l.Modules != nil && e != nil {
		if c := e.withComments(l.Name, base, gapsEnd); c != nil {
			oeOrig = c
		}
		osrc = oeOrig.lines
	}
	var ahead *closedAhead // the outline parsed ahead (ahead.go)
	if l.Modules != nil && b.ahead && parsesAhead(linesBytes(lines)) {
		ahead = startClosed(ctx, l, name, osrc, !b.unrecovered && errorLanguages[l.Name])
	}
	f, err := parseLines(ctx, l, name, lines)
	// The elision of the source the outline is read from: the query's,
	// and when the statements are read through syntax errors
	// (elision.throughErrors), that of the parse they come from.
	outlined := e
	if err == nil && e != nil && e.spans(f.Stmts) {
		if !e.throughErrors(f, base, l.Name) {
			outlined = nil
			f, err = parseLines(ctx, l, name, base)
		}
		e, lines = nil, base
	}
	if err != nil {
		ahead.stop()
		return nil, err
	}
	queried := outlined // the elision the query's statements come from
	b.parsed, b.blanked, b.elided, b.whole = f, cut, e, whole
	pkg, syms, imports := f.Package, f.Symbols, f.Imports
	if outlined != nil {
		b.blanked += outlined.blanked
	}
	var closed *lang.File
	var closedSrc []string // the lines closed was parsed from
	var oelided *elision   // the elision of the closed source
	if l.Modules != nil {
		// The outline's source has the comments between the declarations
		// blanked as well.
		oe, src := outlined, lines
		if outlined != nil {
			// outlined is orig (the query kept its elision, or reads its
			// statements through errors from it).
			oe, src = oeOrig, osrc
		}
		// Where the query may be recovered, the closed source is parsed
		// whole: its statements may be the query.
		if o := ahead.outline(ctx, l, name, src, !b.unrecovered && endsInError(f, l.Name)); o != nil {
			pkg, syms, imports = o.Package, o.Symbols, o.Imports
			closed, closedSrc, oelided = o, src, oe
			outlined = oe
		}
	}
	if closed != nil && !b.unrecovered && swallowed(f, closed.Symbols, len(base), l.Name) {
		// The query parse is one syntax error holding the declarations
		// around the cursor: the query's statements are read from the
		// source with its brackets closed, the outline's parse when its
		// statements are the query's but for the comments it blanked
		// (recover.go).
		r := closed
		if len(r.Stmts) == 0 || oelided != nil && oelided.spans(r.Stmts) || swallowed(r, closed.Symbols, len(base), l.Name) {
			r = recoverQuery(ctx, l, name, base, queried, closedSrc, closed, closed.Symbols)
		}
		if r != nil {
			b.parsed, b.recovered, f = r, true, r
		}
	}
	if outlined != nil {
		syms, imports = outlined.outline(syms), outlined.imports(imports)
	}
	b.file = symtab.NewFile(b.path, l, st.repo, pkg, syms, imports)
	return f, nil
}

// parseLines parses lines, each ended by a newline.
func parseLines(ctx context.Context, l *lang.Language, name string, lines []string) (*lang.File, error) {
	f, err := l.Parse(ctx, name, source(lines, ""))
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", name, err)
	}
	return f, nil
}

// source returns lines as a source, each ended by a newline, then tail.
func source(lines []string, tail string) []byte {
	b := make([]byte, 0, linesBytes(lines)+len(tail))
	for _, l := range lines {
		b = append(append(b, l...), '\n')
	}
	return append(b, tail...)
}

// parseBuffer parses the buffer (once) as the engine's options ask
// (Options.WholePrefixParse, Options.NoQueryRecovery).
func (e *Engine) parseBuffer(ctx context.Context, st *state, l *lang.Language, name string, b *buffer) (*lang.File, error) {
	b.unrecovered = e.opts.NoQueryRecovery
	b.ahead = 2*int(e.running.Load()) <= runtime.GOMAXPROCS(0)
	return b.parse(ctx, l, name, st, e.opts.WholePrefixParse)
}

// closedOutline returns the outline of lines with the brackets still
// open at its end closed (ccg.Closers), nil when none are open or it
// cannot be read. The code before a cursor ends inside its class and
// method, and the front ends' error recovery loses declarations of such a
// cut-off source (in Java, often the enclosing classes themselves: a
// quarter of the declarations above cuts of JDK files, see
// TestClosedOutlineJDK); closed, its outline has nearly all the
// declarations the whole file has above the cursor. The
// statements of the query are the buffer's own: only its outline is read
// from the closed source, at the cost of a second parse of its syntax
// (lang.OutlineParser). Rows past the buffer (the closers') are clamped
// to its last row.
//
// With stmts, the closed source is parsed whole (lang.Language.Parse):
// the File has its statements too, over the rows of lines (the closers'
// rows dropped, rows past the last clamped to it).
func closedOutline(ctx context.Context, l *lang.Language, name string, lines []string, stmts bool) *lang.File {
	if stmts {
		return parseClosed(ctx, l, name, lines)
	}
	closers := ccg.Closers(lines, l.Name)
	if closers == "" {
		return nil
	}
	o, err := l.Outline(ctx, name, source(lines, closers))
	if err != nil {
		return nil
	}
	clampSymbols(o, len(lines))
	return o
}

// clampSymbols clamps the rows of o's symbols to the last of n rows.
func clampSymbols(o *lang.File, n int) {
	last := max(n-1, 0)
	for i := range o.Symbols {
		s := &o.Symbols[i]
		s.StartRow, s.EndRow = min(s.StartRow, last), min(s.EndRow, last)
		s.SigStart, s.SigEnd, s.NameRow = min(s.SigStart, last), min(s.SigEnd, last), min(s.NameRow, last)
		s.DocRow = min(s.DocRow, last)
	}
}

// addAfter adds to the buffer's outline the declarations of the code
// after the cursor's line: the methods, constructors and types of the
// classes the buffer declares (a helper the code calls before it is
// defined), read from the indexed outline when the buffer is the indexed
// version but for the cursor's row, replaced or inserted
// (state.indexedAfter), else from an
// outline of the whole buffer with the cursor's line left blank
// (state.parsedAfter).
// Declarations inside a body (a local or anonymous
// class, which may be the rest of the statement being written) and those
// under a class the buffer's outline does not have are left out; the
// symbols before the cursor stay as parse made them. The definition
// context shows these declarations by their signature rows alone
// (defctx.Input.After). Nothing happens without lines after the cursor
// (code of no file, a task of the paper's protocol) or when the outline
// cannot be read.
func (b *buffer) addAfter(ctx context.Context, l *lang.Language, name string, st *state) {
	if b.withAfter || b.file == nil || len(b.after) == 0 {
		return
	}
	b.withAfter = true
	cursor := len(b.lines) // the cursor's 0-based row, blank here
	var whole []lang.Symbol
	if syms, ok := st.indexedAfter(b, l); ok {
		// The buffer is the indexed version but for the cursor's row
		// (replaced or inserted): its outline holds the declarations
		// after the cursor, and no parse is needed.
		whole = syms
	} else {
		var ok bool
		if a := b.afterAhead; a != nil && name == b.path {
			r := a.wait() // parsedAfter(ctx, b, l, b.path), parsed ahead
			whole, ok = r.syms, r.ok
		} else {
			whole, ok = st.parsedAfter(ctx, b, l, name)
		}
		if !ok {
			return
		}
	}
	syms := withAfter(b.file.Symbols, whole, cursor)
	if syms == nil {
		return
	}
	b.prefix = b.file
	b.file = symtab.NewFile(b.path, l, st.repo, b.file.Package, syms, b.file.Imports)
	b.view = nil
}

// parsedAfter returns an outline of the whole buffer with the cursor's
// line left blank (and the bodies there blanked: state.afterSource); false
// when it cannot be read.
func (st *state) parsedAfter(ctx context.Context, b *buffer, l *lang.Language, name string) ([]lang.Symbol, bool) {
	src, e := st.afterSource(b, l)
	o, err := l.Outline(ctx, name, source(src, ""))
	if err != nil || ctx.Err() != nil {
		return nil, false
	}
	if e != nil {
		return e.outline(o.Symbols), true
	}
	return o.Symbols, true
}

// withAfter returns the symbols of have (an outline of the code before
// the cursor's row) followed by those of whole (an outline of the whole
// buffer) after the cursor that are no declaration inside a body, nor
// members of a type have does not hold; nil when whole adds none. Parent
// indices are have's or of the symbols added.
func withAfter(have, whole []lang.Symbol, cursor int) []lang.Symbol {
	type key struct {
		row  int
		name string
	}
	at := make(map[key]int, len(have))
	for i, s := range have {
		at[key{s.NameRow, s.Name}] = i
	}
	syms := slices.Clip(have)
	index := make([]int, len(whole)) // whole's symbol -> syms, -1 for none
	bodyEnd := -1                    // the last row of the callables begun so far
	for i := range whole {
		s := whole[i]
		index[i] = -1
		inBody := bodyEnd >= s.EndRow
		if s.Kind.IsCallable() {
			bodyEnd = max(bodyEnd, s.EndRow)
		}
		if s.StartRow <= cursor {
			if j, ok := at[key{s.NameRow, s.Name}]; ok && s.NameRow < cursor {
				index[i] = j
			}
			continue
		}
		if inBody {
			continue
		}
		if s.Parent >= 0 {
			if s.Parent >= i || index[s.Parent] < 0 || !syms[index[s.Parent]].Kind.IsType() {
				continue
			}
			s.Parent = index[s.Parent]
		}
		index[i] = len(syms)
		syms = append(syms, s)
	}
	if len(syms) == len(have) {
		return nil
	}
	return syms
}

// queryView returns the state's outlines with the buffer's on top: the
// indexed version of the buffer's file is hidden, so nothing at or after
// the cursor is read.
func (st *state) queryView(b *buffer, l *lang.Language) *symtab.View {
	if b.view == nil {
		b.view = st.viewWith(b, b.file)
	}
	return b.view
}

// viewWith returns the state's outlines with f (an outline of b) on
// top. The outlines are pinned once per buffer: the request sees one set
// of loaded outlines.
func (st *state) viewWith(b *buffer, f *symtab.File) *symtab.View {
	if b.pinned == nil {
		b.pinned = st.syms.Pin()
	}
	t := symtab.NewBuilder(st.rootName, false)
	t.Add(f) // a one-file builder cannot refuse it
	return b.pinned.With(t.Finish(), nil)
}

// importBoost returns the import-graph boost of a request (0: off).
func (e *Engine) importBoost(req Request) float64 {
	beta := e.opts.ImportBoost
	if beta == 0 {
		beta = DefaultImportBoost
	}
	if req.ImportBoost != nil {
		beta = *req.ImportBoost
	}
	return max(beta, 0)
}

// definitions collects the definition context of a request into res.
func (e *Engine) definitions(ctx context.Context, st *state, l *lang.Language, req Request, res *Result, buf *buffer) error {
	t0 := time.Now()
	if _, err := e.parseBuffer(ctx, st, l, buf.path, buf); err != nil {
		return err
	}
	buf.addAfter(ctx, l, buf.path, st)
	in := st.definitionInput(buf, l)
	for i := range buf.cands {
		c := &buf.cands[i]
		in.Candidates = append(in.Candidates, windowCandidate(c.Path, c.TargetLine, c.StartLine, buf.values[i], buf.valueLines[i]))
	}
	o := e.opts.Definitions
	if req.Definitions != nil {
		o = *req.Definitions
	}
	// Without the declarations after the cursor (an ablation), the
	// outline of the code before it, as without addAfter.
	var prefixView *symtab.View
	collect := func(o defctx.Options) ([]defctx.Block, defctx.Stats) {
		if !o.NoAfter || buf.prefix == nil {
			return defctx.Collect(in, o)
		}
		if prefixView == nil {
			prefixView = st.viewWith(buf, buf.prefix)
		}
		pin := in
		pin.File, pin.View, pin.After = buf.prefix, prefixView, nil
		return defctx.Collect(pin, o)
	}
	blocks, stats := collect(o)
	res.DefinitionBlocks, res.Stats.DefinitionStats = blocks, stats
	for _, b := range blocks {
		res.Definitions = append(res.Definitions, b.Definitions...)
	}
	for name, vo := range req.DefinitionVariants {
		if res.DefinitionVariants == nil {
			res.DefinitionVariants = map[string][]defctx.Block{}
		}
		res.DefinitionVariants[name], _ = collect(vo)
	}
	res.Stats.Definitions = time.Since(t0)
	return ctx.Err()
}

// definitionInput is the definition context's input of buf (parsed, and
// with the declarations after the cursor added), without the candidates.
func (st *state) definitionInput(buf *buffer, l *lang.Language) defctx.Input {
	return defctx.Input{View: st.queryView(buf, l), File: buf.file, Lines: buf.lines, Line: len(buf.lines) + 1, Slice: buf.slice, After: buf.after,
		CommentPrefix: l.CommentPrefix, Keywords: l.Keywords,
		Source: func(p string) defctx.Text {
			if p == buf.path {
				if buf.lines == nil {
					return nil
				}
				return defctx.Lines(buf.lines)
			}
			// Row by row from the index's frames (and the frames it
			// keeps), a nil interface for no file.
			if t := st.ix.Text(p); t != nil {
				return t
			}
			return nil
		}}
}

// windowCandidate is the definition context's candidate of a retrieved
// statement of path on line target (1-based), whose window of lines from
// line start is window, of lines (strings.Split of it by '\n'; nil:
// split here): the statement's first line is read from it.
func windowCandidate(path string, target, start int, window string, lines []string) defctx.Candidate {
	if lines == nil {
		lines = strings.Split(window, "\n")
	}
	text := ""
	if k := target - start; k >= 0 && k < len(lines) {
		text = lines[k]
	}
	return defctx.Candidate{Path: path, Line: target, Text: text, Lines: lines, Window: window, Start: start}
}

// DefinitionCandidates turns definition blocks, best first, into the
// assembler's candidates of source Definition.
func DefinitionCandidates(blocks []defctx.Block) []prompt.Candidate {
	out := make([]prompt.Candidate, len(blocks))
	for i, b := range blocks {
		out[i] = prompt.Candidate{Source: prompt.Definition, Path: b.Path, Lines: b.Lines, Rows: b.Rows, Score: b.Score}
		if len(b.Rows) > 0 {
			out[i].Focus = b.Rows[0]
		}
	}
	return out
}

// boosted re-ranks the candidates of a search by the import graph: each
// candidate's ranking score (and, in mode coarse2fine, its coarse score,
// which picks the r candidates the fine stage ranks) is multiplied by
// 1 + beta x the relation of its file to the buffer's. The first k are
// then the best k of the boosted order (in coarse2fine, of the best r by
// boosted coarse score), the rest follow in boosted order.
func boosted(cands []retrieve.Candidate, k, r int, mode retrieve.Mode, rel *symtab.Relations, beta float64) []retrieve.Candidate {
	n := len(cands)
	factor := make([]float64, n)
	cache := map[string]float64{}
	for i := range cands {
		f, ok := cache[cands[i].Path]
		if !ok {
			f = 1 + beta*rel.Relation(cands[i].Path)
			cache[cands[i].Path] = f
		}
		factor[i] = f
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	byScore := func(a, b int) int {
		ca, cb := &cands[a], &cands[b]
		return cmp.Or(-cmp.Compare(ca.Score*factor[a], cb.Score*factor[b]), -cmp.Compare(ca.Coarse*factor[a], cb.Coarse*factor[b]),
			cmp.Compare(ca.Entry, cb.Entry))
	}
	inR := make([]bool, n)
	for i := range inR {
		inR[i] = true
	}
	if mode == retrieve.CoarseToFine && n > k && r < n {
		byCoarse := slices.Clone(order)
		slices.SortFunc(byCoarse, func(a, b int) int {
			return cmp.Or(-cmp.Compare(cands[a].Coarse*factor[a], cands[b].Coarse*factor[b]), cmp.Compare(cands[a].Entry, cands[b].Entry))
		})
		for _, i := range byCoarse[r:] {
			inR[i] = false
		}
	}
	slices.SortFunc(order, byScore)
	out := make([]retrieve.Candidate, 0, n)
	taken := make([]bool, n)
	for _, i := range order {
		if len(out) == k {
			break
		}
		if inR[i] {
			out = append(out, cands[i])
			taken[i] = true
		}
	}
	for _, i := range order {
		if !taken[i] {
			out = append(out, cands[i])
		}
	}
	return out
}

// InPrompt reports whether the prompt of r shows the name row of a
// definition (in a definition block, or elided there because the prompt
// shows it elsewhere).
func (r *Result) InPrompt(d defctx.Definition) bool {
	if r.Context == nil {
		return false
	}
	for i := range r.Context.Blocks {
		b := &r.Context.Blocks[i]
		if b.Source == prompt.Definition && b.Path == d.Path && b.HasRow(d.Line) {
			return true
		}
	}
	return false
}

// sourceCache keeps the lines of the buffers' indexed versions the
// bounded parse compared the buffers with (state.indexed), decompressed,
// for the requests of one state (whose files do not change): an editor
// asks again and again in the same few files. (The definition context
// reads the rows it shows from the index's frames instead, Snapshot.Text.)
type sourceCache struct {
	mu    sync.Mutex
	files map[string][]string
	order []string // oldest first
}

// maxCachedSources bounds the files a sourceCache holds.
const maxCachedSources = 64

func (c *sourceCache) lines(ix *retrieve.Snapshot, path string) []string {
	c.mu.Lock()
	if l, ok := c.files[path]; ok {
		c.mu.Unlock()
		return l
	}
	c.mu.Unlock()
	l := ix.Lines(path)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[string][]string{}
	}
	if _, ok := c.files[path]; !ok {
		if len(c.order) == maxCachedSources {
			delete(c.files, c.order[0])
			c.order = c.order[1:]
		}
		c.files[path] = l
		c.order = append(c.order, path)
	}
	return l
}
