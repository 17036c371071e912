package defctx

import (
	"cmp"
	"slices"
	"strings"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/symtab"
)

// Origin says why a definition is in the context.
type Origin string

// Origins, in the order Collect considers them.
const (
	// Near: a name the last lines before the cursor or the query's slice
	// read resolves to it.
	Near Origin = "near"
	// Declared: the declared type of a local name read near the cursor.
	Declared Origin = "declared"
	// Enclosing: the class the cursor is in, or one of its bases.
	Enclosing Origin = "enclosing"
	// Predicted: the statement of a retrieved candidate that stands where
	// the cursor's does calls it.
	Predicted Origin = "predicted"
	// ByName: a called name the resolver could not follow (an attribute
	// of a value of unknown type) has a definition of that name in the
	// repository.
	ByName Origin = "by-name"
)

// Options tune Collect. Zero values select the defaults.
type Options struct {
	// NearLines is the number of lines before the cursor whose names are
	// resolved (default 6); past them, FarCalls is the number of distinct
	// called paths of the rest of the buffer, those called most and
	// nearest first, resolved as well (default 60, negative for none).
	NearLines, FarCalls int
	// Predictors is the number of retrieved candidates, best first, whose
	// aligned statements give predicted APIs (default 10).
	Predictors int
	// MaxLines bounds the lines of one block (default 30).
	MaxLines int
	// FullSignature is the score from which a member with a reason is
	// shown with its whole signature and first doc line (default 0.5);
	// below it, and for the members listed for context, its name line
	// alone.
	FullSignature float64
	// MaxFiles bounds the blocks, one per file (default 6); MaxUnits the
	// classes and functions of one block (default 4); MaxMembers the
	// members listed under a class (default 16), EnclosingMembers under
	// the class of the cursor (default 40).
	MaxFiles, MaxUnits, MaxMembers, EnclosingMembers int
	// NoNear, NoPredicted, NoEnclosing and NoByName leave out the
	// definitions of one origin (and NoNear those of Declared), for
	// ablations.
	NoNear, NoPredicted, NoEnclosing, NoByName bool
	// ByName bounds the definitions one name gives by name alone
	// (default 2). ByNameExternal looks names up also for locals declared
	// of a type the repository does not define (sb.append of a
	// StringBuilder sb finds a repository append), for ablations.
	ByName         int
	ByNameExternal bool
	// NoBareByName leaves out the lookup by name of a bare call the scope
	// of a class does not resolve (see bareUnknown), for ablations.
	NoBareByName bool
	// FarNearest takes the FarCalls nearest called paths of the rest of
	// the buffer, each at the weight of its nearest call site, for
	// ablations.
	FarNearest bool
	// FillLast offers the blocks of members listed for context after
	// every block of definitions with a reason (by default each block
	// goes by its score: a file's listed members at contextScore of it),
	// for ablations.
	FillLast bool
	// KeepOverloads shows every overload of a name with a reason among
	// the definitions with a reason and counts them all in its class's
	// score (by default the best one is shown and counted, the others
	// are listed for context), for ablations.
	KeepOverloads bool
	// NoMemberDocs leaves out the doc lines of members.
	NoMemberDocs bool
	// NoRank orders the definitions found by name alone without the
	// PageRank of their files (import-graph nearness, then path), for
	// ablations.
	NoRank bool
	// WholeRows shows signature rows as written, without leaving out
	// what the language's Signatures say (Java: access modifiers, marker
	// annotations, the brace opening the body), for ablations.
	WholeRows bool
	// NoAfter leaves out the buffer's declarations after the cursor, for
	// ablations (the engine then passes the outline of the code before
	// the cursor alone; a File that still has them resolves names to
	// them, which then give nothing).
	NoAfter bool
}

// Defaults of Options.
const (
	DefaultNearLines  = 6
	DefaultFarCalls   = 60
	DefaultPredictors = 10
	// DefaultWindowPredictors is the number of best candidates whose
	// whole windows' calls count as well.
	DefaultWindowPredictors = 10
	DefaultMaxFiles         = 6
	DefaultMaxUnits         = 4
	DefaultMaxMembers       = 16
	DefaultMaxLines         = 30
	DefaultByName           = 2
	// DefaultFullSignature is the default of Options.FullSignature.
	DefaultFullSignature = 0.5
	// DefaultEnclosingMembers is the default of Options.EnclosingMembers.
	DefaultEnclosingMembers = 40
)

func (o Options) withDefaults() Options {
	if o.NearLines == 0 {
		o.NearLines = DefaultNearLines
	}
	if o.FarCalls == 0 {
		o.FarCalls = DefaultFarCalls
	}
	if o.Predictors == 0 {
		o.Predictors = DefaultPredictors
	}
	if o.MaxFiles == 0 {
		o.MaxFiles = DefaultMaxFiles
	}
	if o.MaxUnits == 0 {
		o.MaxUnits = DefaultMaxUnits
	}
	if o.MaxMembers == 0 {
		o.MaxMembers = DefaultMaxMembers
	}
	if o.ByName == 0 {
		o.ByName = DefaultByName
	}
	if o.MaxLines == 0 {
		o.MaxLines = DefaultMaxLines
	}
	if o.FullSignature == 0 {
		o.FullSignature = DefaultFullSignature
	}
	if o.EnclosingMembers == 0 {
		o.EnclosingMembers = DefaultEnclosingMembers
	}
	return o
}

// Candidate is one retrieved candidate: the statement of file Path at line
// Line that stands where the cursor's statement does.
type Candidate struct {
	Path string
	Line int // 1-based
	Text string
	// Lines is the candidate's window, from line Start (1-based): the
	// line after the statement, and for the best candidates the whole
	// window, count as weaker predictions.
	Lines []string
	Start int
	// Window is the window's text, Lines joined by '\n' ("": joined
	// when read).
	Window string
}

// Input is one cursor.
type Input struct {
	// View holds the repository's outlines with the buffer's on top
	// (File), so that nothing of the buffer's indexed version at or after
	// the cursor is seen.
	View *symtab.View
	File *symtab.File
	// Lines are the buffer's lines before the cursor; Line is the
	// cursor's (1-based, len(Lines)+1).
	Lines []string
	Line  int
	// After holds the buffer's lines after the cursor's line (from line
	// Line+1), nil when unknown. File may declare symbols there (the
	// engine's outline of the whole buffer): of them only signature rows
	// are shown, never a doc line, a field or a body.
	After []string
	// Slice holds the text of the query slice's statements.
	Slice []string
	// Candidates are the retrieved candidates, best first.
	Candidates []Candidate
	// Source returns the lines of a repository file, nil when unknown
	// (a nil interface); the buffer's lines come from Lines. The context
	// reads a few rows of each file it shows (signatures, a local's
	// declaration), so a Text that reads them row by row (the index's
	// framed sources) need not produce the whole file.
	Source func(path string) Text
	// CommentPrefix is the language's line comment; Keywords its reserved
	// words (never resolved).
	CommentPrefix string
	Keywords      []string
}

// Text is a file's lines, read by row.
type Text interface {
	Len() int            // the number of rows
	Line(row int) string // row, 0-based, 0 <= row < Len()
}

// Lines is the Text of lines in memory.
type Lines []string

// Len returns len(l).
func (l Lines) Len() int { return len(l) }

// Line returns l[row].
func (l Lines) Line(row int) string { return l[row] }

// linesText returns l as a Text, nil for nil lines (unknown).
func linesText(l []string) Text {
	if l == nil {
		return nil
	}
	return Lines(l)
}

// Definition is one definition a block shows, with why.
type Definition struct {
	Path   string  `json:"path"`
	Name   string  `json:"name"` // qualified: Class.method
	Kind   string  `json:"kind"`
	Line   int     `json:"line"` // 1-based row of the name
	Origin Origin  `json:"origin"`
	Reason string  `json:"reason"`
	Score  float64 `json:"score"`
}

// Block is the definition context of one file: lines of the file (a
// class's signature and documentation, its members' signatures, function
// signatures), best first, each with its 1-based row.
type Block struct {
	Path  string
	Lines []string
	Rows  []int
	Score float64
	// Definitions are the definitions the block holds for a reason, best
	// first (a class block also lists members for context).
	Definitions []Definition
}

// Stats count what Collect did.
type Stats struct {
	Names      int  `json:"names"`      // access paths resolved
	Resolved   int  `json:"resolved"`   // of them, found in the repository
	ByName     int  `json:"by_name"`    // found by name alone
	Candidates int  `json:"candidates"` // definitions with a reason
	Exhausted  bool `json:"exhausted"`  // the resolver ran out of its budget
}

type evidence struct {
	score, best float64
	origin      Origin
	reason      string
}

type collector struct {
	in Input
	// encl is the type of the cursor: its class, or the receiver's type
	// of the method it is in where methods are declared outside their
	// types (Go; in any file); hasEncl false for none.
	encl     symtab.Def
	hasEncl  bool
	o        Options
	r        *symtab.Resolver
	ev       map[symtab.Def]*evidence
	keywords map[string]bool
	rel      *symtab.Relations
	top      []namedKey // bestNamed's selection, reused
	// named holds byName's lookups so far: the same names are called
	// from the buffer and from several candidates, and a lookup walks
	// every definition of a name (thousands of a common one).
	named map[string]namedLookup
	st    Stats
}

// namedLookup is what bestNamed returned for a name.
type namedLookup struct {
	defs  []symtab.Def
	found bool
}

// Collect finds the repository definitions the code at the cursor
// probably needs and returns them as blocks, best first (see the package
// comment for the rules).
func Collect(in Input, o Options) ([]Block, Stats) {
	o = o.withDefaults()
	if in.View == nil || in.File == nil {
		return nil, Stats{}
	}
	c := &collector{in: in, o: o, r: in.View.Resolver(in.File), ev: map[symtab.Def]*evidence{},
		keywords: map[string]bool{}}
	for _, k := range in.Keywords {
		c.keywords[k] = true
	}
	f := in.File
	cursor := len(in.Lines)          // the cursor's 0-based row
	class := f.Enclosing(cursor - 1) // the class of the cursor in the buffer, -1 for none
	here := scopeText{f: f, lines: linesText(in.Lines), row: cursor}
	if !o.NoNear {
		var chs []chain
		var arena []string // the chains' parts (appendChains)
		for row := cursor - 1; row >= max(cursor-o.NearLines, 0); row-- {
			w := pow(0.85, cursor-1-row)
			chs, arena = appendChains(in.Lines[row], in.CommentPrefix, chs[:0], arena[:0])
			for _, ch := range chs {
				c.resolve(c.r, ch, class, w, Near, why{form: whyNear, parts: ch.parts, row: row + 1}, here)
			}
		}
		for _, text := range in.Slice {
			chs, arena = appendChains(text, in.CommentPrefix, chs[:0], arena[:0])
			for _, ch := range chs {
				c.resolve(c.r, ch, class, 0.5, Near, why{form: whySlice, parts: ch.parts}, here)
			}
		}
		// The APIs the rest of the buffer calls: code calls the same
		// APIs again, the more so the more it called them. Each call
		// site weighs 0.3 x 0.995^d (d rows above the last lines), the
		// FarCalls heaviest paths count, each at most maxFarWeight.
		type far struct {
			ch  chain
			row int
			w   float64
		}
		calls := map[string]*far{}
		var order []string
		var kb []byte // a path's key, the parts joined by '.', looked up without a string
		for row, d := cursor-o.NearLines-1, 1.0; row >= 0; row, d = row-1, d*0.995 {
			chs, arena = appendChains(in.Lines[row], in.CommentPrefix, chs[:0], arena[:0])
			for _, ch := range chs {
				if !ch.call {
					continue
				}
				kb = kb[:0]
				for i, p := range ch.parts {
					if i > 0 {
						kb = append(kb, '.')
					}
					kb = append(kb, p...)
				}
				if fc := calls[string(kb)]; fc != nil {
					fc.w += 0.3 * d
					continue
				}
				key := string(kb)
				calls[key] = &far{ch: chain{parts: slices.Clone(ch.parts), call: true}, row: row, w: 0.3 * d}
				order = append(order, key)
			}
		}
		if !o.FarNearest {
			slices.SortStableFunc(order, func(a, b string) int { return -cmp.Compare(calls[a].w, calls[b].w) })
		}
		for _, key := range order[:min(len(order), max(o.FarCalls, 0))] {
			fc := calls[key]
			w := min(fc.w, maxFarWeight)
			if o.FarNearest {
				w = 0.3 * pow(0.995, cursor-o.NearLines-1-fc.row)
			}
			c.resolve(c.r, fc.ch, f.Enclosing(fc.row), w, Near, why{form: whyFar, text: key, row: fc.row + 1}, here)
		}
	}
	if class >= 0 {
		c.encl, c.hasEncl = symtab.Def{File: f, Sym: class}, true
	} else if d, ok := c.receiverType(cursor - 1); ok {
		c.encl, c.hasEncl = d, true
	}
	if !o.NoEnclosing && c.hasEncl {
		d := c.encl
		c.add(d, 0.5, Enclosing, why{text: "the class of the cursor"})
		for _, b := range c.r.Bases(d) {
			c.add(b, 0.4, Enclosing, why{text: "a base class of " + d.Qualified()})
		}
	}
	if !o.NoPredicted {
		var chs []chain
		var arena []string
		for i, cand := range in.Candidates {
			if i == o.Predictors {
				break
			}
			g := in.View.File(cand.Path)
			if g == nil {
				continue
			}
			rr := c.r.For(g)
			gclass := g.Enclosing(cand.Line - 1)
			there := scopeText{f: g, row: cand.Line - 1}
			if g == f {
				there.lines = linesText(in.Lines)
			} else if in.Source != nil {
				// Read when a local's declaration is looked for: most
				// candidates' calls resolve without.
				path := g.Path
				there.load = &lazyLines{load: func() Text { return in.Source(path) }}
			}
			w := 1.5 / float64(1+i)
			predict := func(text string, w float64, where string) {
				chs, arena = appendChains(text, in.CommentPrefix, chs[:0], arena[:0])
				for _, ch := range chs {
					if ch.call {
						c.resolve(rr, ch, gclass, w, Predicted,
							why{form: whySnippet, parts: ch.parts, snip: i + 1, path: cand.Path, row: cand.Line, text: where}, there)
					}
				}
			}
			predict(cand.Text, w, "")
			// The line after the statement: the alignment is often one
			// statement off; for the best candidates, the whole window.
			if k := cand.Line - cand.Start + 1; k >= 0 && k < len(cand.Lines) {
				predict(cand.Lines[k], 0.4*w, " on the next line")
			}
			if i < DefaultWindowPredictors {
				window := cand.Window
				if window == "" {
					window = strings.Join(cand.Lines, "\n")
				}
				predict(window, 0.1*w, " in its window")
			}
		}
	}
	c.st.Candidates = len(c.ev)
	c.st.Exhausted = c.r.Exhausted()
	return c.blocks(), c.st
}

func pow(b float64, n int) float64 {
	v := 1.0
	for range n {
		v *= b
	}
	return v
}

func (c *collector) add(d symtab.Def, score float64, origin Origin, reason why) {
	if k := d.Symbol().Kind; !k.IsCallable() && !k.IsType() {
		score *= valueWeight // code calls APIs more than it reads fields
	}
	if d.File == c.in.File && d.Symbol().Kind.IsCallable() && d.Symbol().StartRow <= len(c.in.Lines)-1 && len(c.in.Lines)-1 <= d.Symbol().EndRow {
		return // the function the cursor is in: its header is right above
	}
	if c.after(d) && (c.o.NoAfter || !d.Symbol().Kind.IsCallable() && !d.Symbol().Kind.IsType()) {
		return // after the cursor only signatures are shown: no fields
	}
	e := c.ev[d]
	if e == nil {
		e = &evidence{}
		c.ev[d] = e
	}
	e.score += score
	if score > e.best {
		e.best, e.origin, e.reason = score, origin, reason.String()
	}
}

// after reports a declaration of the buffer after the cursor.
func (c *collector) after(d symtab.Def) bool {
	return d.File == c.in.File && d.Symbol().StartRow > len(c.in.Lines)
}

// scopeText is where a path is read: a file, its lines and the 0-based row
// of the reading statement, for finding the declarations of local names.
type scopeText struct {
	f     *symtab.File
	lines Text
	row   int
	load  *lazyLines // the lines, when read on first use (text)
}

// lazyLines are a file's lines read on first use.
type lazyLines struct {
	load  func() Text
	lines Text
	done  bool
}

// text returns the lines of the scope, nil when unknown.
func (s scopeText) text() Text {
	if s.load == nil {
		return s.lines
	}
	if !s.load.done {
		s.load.lines, s.load.done = s.load.load(), true
	}
	return s.load.lines
}

// resolve records what an access path read in r's file refers to: the
// definitions of its longest prefix the resolver follows (the whole path
// weighs w, a shorter prefix less); for a local name, the type its
// declaration names; for a called path it cannot follow to its end, the
// definitions of its last name anywhere.
func (c *collector) resolve(r *symtab.Resolver, ch chain, class int, w float64, origin Origin, reason why, at scopeText) {
	c.resolveBy(r, ch, class, w, origin, reason, at, true)
}

// resolveBy is resolve, with the lookup by name or without.
func (c *collector) resolveBy(r *symtab.Resolver, ch chain, class int, w float64, origin Origin, reason why, at scopeText, byName bool) {
	parts := ch.parts
	if c.keywords[parts[0]] && !r.IsReceiver(parts[0]) && parts[0] != "super" {
		return
	}
	c.st.Names++
	t, n, typ, external := c.typed(r, at, parts, class, 0)
	if typ != nil {
		dr := reason
		dr.declared = parts[0]
		c.add(*typ, 0.7*w, Declared, dr)
	}
	if n > 0 {
		c.st.Resolved++
		scale := w
		if n < len(parts) {
			scale *= 0.6
		}
		for _, d := range t.Defs {
			c.add(d, scale, origin, reason)
		}
	}
	if n < len(parts) && len(parts) > 1 && ch.call && byName && (!external || c.o.ByNameExternal) && !c.o.NoByName {
		c.byName(parts[len(parts)-1], 0.4*w, reason)
	}
	if n == 0 && len(parts) == 1 && ch.call && byName && !c.o.NoByName && !c.o.NoBareByName && c.bareUnknown(r, parts[0], class) {
		c.byName(parts[0], 0.4*w, reason)
	}
}

// bareUnknown reports a bare name called inside a class of a language
// that reads members bare (Java) that the class's scope does not resolve:
// it cannot be a local or a builtin there, so it is a method of the
// enclosing classes defined further down (the leak rule hides it), a
// constructor of a type defined there, or a member inherited or imported
// from outside. Names an import binds and classes with bases the
// repository does not define are left out: what they call comes from
// outside more likely than not.
func (c *collector) bareUnknown(r *symtab.Resolver, name string, class int) bool {
	if class < 0 || !r.BareMembers() || r.Imported(name) {
		return false
	}
	return !r.ExternalBases(class)
}

// typed resolves the longest prefix of parts it can and returns what that
// prefix refers to and its length (0: nothing). A first name the resolver
// does not know (a local variable) is followed through its declaration
// (see declared), and the rest of the path read as members of its type.
// It also returns the type of a local name it followed (nil for none),
// and whether the local is declared of a type the repository does not
// define (its attributes are no repository API: nothing is looked up by
// name for them).
func (c *collector) typed(r *symtab.Resolver, at scopeText, parts []string, class, depth int) (symtab.Target, int, *symtab.Def, bool) {
	for k := len(parts); k >= 1; k-- {
		t := r.Path(parts[:k], class)
		if len(t.Defs) > 0 {
			return t, k, nil, false
		}
		if t.Module != "" {
			return symtab.Target{}, 0, nil, false // a module the repository does not define below this
		}
	}
	if len(parts) < 2 || r.IsReceiver(parts[0]) || depth > 1 || at.text() == nil {
		return symtab.Target{}, 0, nil, false
	}
	typ, ok, external := c.declared(r, at, parts[0], class, depth)
	if !ok {
		return symtab.Target{}, 0, nil, external
	}
	// The rest as members of the type, in its own file.
	rest := append(strings.Split(typ.Qualified(), "."), parts[1:]...)
	rr := r.For(typ.File)
	for k := len(rest); k > len(rest)-len(parts)+1; k-- {
		if t := rr.Path(rest[:k], -1); len(t.Defs) > 0 {
			return t, k - (len(rest) - len(parts)), &typ, false
		}
	}
	return symtab.Target{Defs: []symtab.Def{typ}}, 1, &typ, false
}

// declared returns the repository type a local name's declaration names,
// searched in the rows of the function enclosing the reading statement,
// up to it (at most 60 rows up): a type, or what a function returns when
// the name is assigned a call (x = store.open(n)). When the nearest
// declaration writes a type the repository does not define (StringBuilder
// sb = ...), it reports external.
func (c *collector) declared(r *symtab.Resolver, at scopeText, name string, class, depth int) (def symtab.Def, ok, external bool) {
	from := max(at.row-60, 0)
	if fn := enclosingCallable(at.f, at.row); fn >= 0 {
		from = max(from, at.f.Symbols[fn].SigStart)
	}
	for _, t := range declaredTypes(at.text(), from, at.row+1, name, c.keywords) {
		parts := strings.Split(t.name, ".")
		tt, n, _, _ := c.typed(r, at, parts, class, depth+1)
		if n == len(parts) {
			for _, d := range tt.Defs {
				if types := r.TypesOf(d); len(types) > 0 {
					return types[0], true, false
				}
			}
		}
		if t.typed && n == 0 {
			return symtab.Def{}, false, true // the nearest typed declaration names no repository type
		}
	}
	return symtab.Def{}, false, false
}

// receiverType returns the type whose method holds row of the buffer,
// where the language declares methods outside their types (a Go method:
// its receiver's type, its only base, in any file of the package).
func (c *collector) receiverType(row int) (symtab.Def, bool) {
	f := c.in.File
	if f.Language == nil || !f.Language.Scoping.DetachedMethods {
		return symtab.Def{}, false
	}
	fn := enclosingCallable(f, row)
	if fn < 0 || f.Symbols[fn].Kind != lang.SymMethod || len(f.Symbols[fn].Bases) != 1 {
		return symtab.Def{}, false
	}
	for _, d := range c.r.Name(f.Symbols[fn].Bases[0], -1).Defs {
		if d.Symbol().Kind.IsType() {
			return d, true
		}
	}
	return symtab.Def{}, false
}

func enclosingCallable(f *symtab.File, row int) int {
	best := -1
	for i := range f.Symbols {
		s := &f.Symbols[i]
		if s.Kind.IsCallable() && s.StartRow <= row && row <= s.EndRow && (best < 0 || s.StartRow >= f.Symbols[best].StartRow) {
			best = i
		}
	}
	return best
}

// maxFarWeight bounds the weight of a path the rest of the buffer calls:
// three call sites' worth.
const maxFarWeight = 0.9

// valueWeight scales the score of fields, constants and variables.
const valueWeight = 0.5

// byName records, for an attribute a.f(...) of something the resolver
// cannot follow (a bare name it does not know is a builtin or a local
// more often than a repository API), the callables and types called name anywhere in the
// repository, in files of the buffer's language: those of files closest to the buffer in the import graph
// first, then of the files ranked highest by PageRank.
func (c *collector) byName(name string, w float64, reason why) {
	if c.keywords[name] {
		return
	}
	l, ok := c.named[name]
	if !ok {
		l.defs, l.found = c.bestNamed(name, nil)
		if c.named == nil {
			c.named = map[string]namedLookup{}
		}
		c.named[name] = l
	}
	best, found := l.defs, l.found
	if !found {
		return
	}
	c.st.ByName++
	reason.byName = true
	for _, d := range best {
		c.add(d, w, ByName, reason)
	}
}

// namedKey is a definition found by name with what it is ranked by.
type namedKey struct {
	ref       symtab.NamedRef
	rel, rank float64
}

// bestNamed returns the Options.ByName best callables and types called
// name in files of the buffer's language, best first (by relation to the
// buffer, then PageRank, path and symbol), and whether there is any. Of
// the thousands of definitions a common name has on a large repository
// it keeps the best few as it goes (symtab.NamedRefs: no outline is
// decoded but those kept), which gives exactly the first of the order a
// sort of them all gives: the key is a total order. A ref whose outline
// turns out unreadable (Def false) is left out, as symtab.Named leaves it
// out, and the selection made again without it (skip).
func (c *collector) bestNamed(name string, skip []symtab.NamedRef) ([]symtab.Def, bool) {
	k := c.o.ByName
	top := c.top[:0]
	found := false
	for n := range c.in.View.NamedRefs(name) {
		if !(n.Kind.IsCallable() || n.Kind.IsType()) || n.Language != c.in.File.Language || slices.Contains(skip, n) {
			continue
		}
		found = true
		if k <= 0 {
			continue
		}
		if c.rel == nil {
			c.rel = c.in.View.Relations(c.in.File)
		}
		key := namedKey{ref: n, rel: c.rel.RelationOfRef(n)}
		if !c.o.NoRank {
			key.rank = c.in.View.RankOf(n)
		}
		if len(top) == k && !namedBefore(&key, &top[k-1]) {
			continue
		}
		// Insert in order, dropping the last when k are kept.
		i := len(top)
		if i < k {
			top = append(top, key)
		} else {
			i--
		}
		for ; i > 0 && namedBefore(&key, &top[i-1]); i-- {
			top[i] = top[i-1]
		}
		top[i] = key
	}
	c.top = top
	defs := make([]symtab.Def, 0, len(top))
	for _, key := range top {
		d, ok := key.ref.Def()
		if !ok {
			return c.bestNamed(name, append(skip, key.ref))
		}
		defs = append(defs, d)
	}
	return defs, found
}

// namedBefore orders definitions found by name: nearest the buffer in
// the import graph first, then of the files of highest PageRank, then by
// path and symbol.
func namedBefore(a, b *namedKey) bool {
	if a.rel != b.rel {
		return a.rel > b.rel
	}
	if a.rank != b.rank {
		return a.rank > b.rank
	}
	if c := symtab.ComparePaths(a.ref, b.ref); c != 0 {
		return c < 0
	}
	return a.ref.Sym < b.ref.Sym
}

// unit is a class (with the members that have a reason) or a function or
// value of one block.
type unit struct {
	head symtab.Def // the class, or the function or value itself
	// members are the head's members with a reason, best first: the
	// best overload of each name (every overload with KeepOverloads),
	// overloads the others, listed for context.
	members, overloads []symtab.Def
	score              float64
}

type fileBlock struct {
	f     *symtab.File
	units []*unit
	score float64
}

// blocks groups the definitions with a reason by file and class and
// renders the best of them.
func (c *collector) blocks() []Block {
	units := map[symtab.Def]*unit{}
	for d := range c.ev {
		head := d
		if p, ok := d.Parent(); ok && !d.Symbol().Kind.IsType() {
			head = p
		}
		u := units[head]
		if u == nil {
			u = &unit{head: head}
			units[head] = u
		}
		if head != d {
			u.members = append(u.members, d)
		}
	}
	files := map[*symtab.File]*fileBlock{}
	for _, u := range units {
		scores := []float64{}
		if e := c.ev[u.head]; e != nil {
			scores = append(scores, e.score)
		}
		slices.SortFunc(u.members, func(a, b symtab.Def) int {
			return cmp.Or(-cmp.Compare(c.ev[a].score, c.ev[b].score), cmp.Compare(a.Sym, b.Sym))
		})
		if !c.o.KeepOverloads {
			u.members, u.overloads = bestOverloads(u.members)
		}
		for _, m := range u.members {
			// Overloads of one name count once, by the best of them.
			scores = append(scores, c.ev[m].score)
		}
		u.score = combine(scores, 0.25)
		fb := files[u.head.File]
		if fb == nil {
			fb = &fileBlock{f: u.head.File}
			files[u.head.File] = fb
		}
		fb.units = append(fb.units, u)
	}
	var fbs []*fileBlock
	for _, fb := range files {
		slices.SortFunc(fb.units, func(a, b *unit) int {
			return cmp.Or(-cmp.Compare(a.score, b.score), cmp.Compare(a.head.Sym, b.head.Sym))
		})
		if len(fb.units) > c.o.MaxUnits {
			fb.units = fb.units[:c.o.MaxUnits]
		}
		var scores []float64
		for _, u := range fb.units {
			scores = append(scores, u.score)
		}
		fb.score = combine(scores, 0.1)
		fbs = append(fbs, fb)
	}
	slices.SortFunc(fbs, func(a, b *fileBlock) int {
		return cmp.Or(-cmp.Compare(a.score, b.score), strings.Compare(a.f.Path, b.f.Path))
	})
	// Each file's block of definitions with a reason, best first; then
	// the blocks of the members listed for context only, which come after
	// every definition with a reason when the budget is shared out.
	var out, fill []Block
	for _, fb := range fbs {
		if len(out) == c.o.MaxFiles {
			break
		}
		b, rest := c.render(fb)
		if len(b.Lines) > 0 {
			out = append(out, b)
		}
		if len(rest.Lines) > 0 {
			rest.Score = contextScore * b.Score
			fill = append(fill, rest)
		}
	}
	// The members a strong class lists for context come before the weak
	// definitions of other files.
	out = append(out, fill...)
	if !c.o.FillLast {
		slices.SortStableFunc(out, func(a, b Block) int { return -cmp.Compare(a.Score, b.Score) })
	}
	return out
}

// bestOverloads splits members, best first, into the first of each name
// and the rest, each in the order given.
func bestOverloads(members []symtab.Def) (best, rest []symtab.Def) {
	named := make(map[string]bool, len(members))
	best = members[:0] // in place: best never passes the member read
	for _, m := range members {
		if n := m.Symbol().Name; named[n] {
			rest = append(rest, m)
		} else {
			named[n] = true
			best = append(best, m)
		}
	}
	return best, rest
}

// contextScore scales a file's score for the block of its members listed
// for context only.
const contextScore = 0.1

// combine is the best score plus share times the others (they are sorted
// or not: the best is found).
func combine(scores []float64, share float64) float64 {
	best, sum := 0.0, 0.0
	for _, s := range scores {
		sum += s
		best = max(best, s)
	}
	return best + share*(sum-best)
}

// Rows of a signature a block shows at most: a class or function's, a
// member's.
const (
	maxSigRows    = 4
	maxMemberRows = 3
)

// render returns the block of a file's definitions with a reason, and the
// block of the members its classes list for context only.
func (c *collector) render(fb *fileBlock) (Block, Block) {
	f := fb.f
	var src Text
	cursor := -1 // the cursor's row in src, when src is the buffer's
	if f == c.in.File {
		lines := c.in.Lines
		cursor = len(lines)
		if len(c.in.After) > 0 && !c.o.NoAfter {
			lines = append(append(slices.Clip(lines), ""), c.in.After...)
		}
		src = linesText(lines)
	} else if c.in.Source != nil {
		src = c.in.Source(f.Path)
	}
	if src == nil {
		return Block{}, Block{}
	}
	nsrc := src.Len()
	b := Block{Path: f.Path, Score: fb.score}
	rest := Block{Path: f.Path}
	into := &b
	seen := map[int]bool{}
	// sig says r is a signature's row: only those are shown at and
	// after the cursor.
	addRow := func(r int, sig bool) {
		if r < 0 || r >= nsrc || seen[r] || len(into.Lines) >= c.o.MaxLines || cursor >= 0 && r >= cursor && (!sig || r == cursor) {
			return
		}
		line := src.Line(r)
		if sig && f.Language != nil && !c.o.WholeRows {
			if line = f.Language.Signatures.Compact(line); line == "" {
				return // marker annotations alone
			}
		}
		seen[r] = true
		into.Lines = append(into.Lines, line)
		into.Rows = append(into.Rows, r+1)
	}
	addSig := func(s *lang.Symbol, limit int, doc bool) {
		from := s.SigStart
		if s.SigEnd-from+1 > limit {
			from = s.NameRow // leave out decorators and annotations
		}
		for r := from; r <= s.SigEnd && r < from+limit; r++ {
			addRow(r, s.Kind.IsCallable() || s.Kind.IsType())
		}
		if doc && s.DocRow >= 0 {
			addRow(s.DocRow, false)
		}
	}
	addValue := func(s *lang.Symbol) { addRow(s.NameRow, s.Kind.IsCallable() || s.Kind.IsType()) }
	reasoned := func(d symtab.Def) {
		e := c.ev[d]
		if e == nil {
			return
		}
		s := d.Symbol()
		b.Definitions = append(b.Definitions, Definition{Path: f.Path, Name: d.Qualified(), Kind: s.Kind.String(),
			Line: s.NameRow + 1, Origin: e.origin, Reason: e.reason, Score: e.score})
	}
	for _, u := range fb.units {
		hs := u.head.Symbol()
		reasoned(u.head)
		if !hs.Kind.IsType() {
			if hs.Kind.IsCallable() {
				addSig(hs, maxSigRows, true)
			} else {
				addValue(hs)
			}
			continue
		}
		addSig(hs, maxSigRows, true)
		listed := map[int]bool{}
		member := func(d symtab.Def, reasoned bool, limit int) {
			if listed[d.Sym] || len(listed) >= limit {
				return
			}
			listed[d.Sym] = true
			s := d.Symbol()
			if reasoned && c.ev[d].score >= c.o.FullSignature && (s.Kind.IsCallable() || s.Kind.IsType()) {
				addSig(s, maxMemberRows, !c.o.NoMemberDocs)
			} else {
				addValue(s) // the rest of the class, one line each
			}
		}
		// The best overload of each name with a reason; the others go
		// with the members listed for context, first among them: one
		// signature says what the API is, and the budget is better spent
		// on other APIs than on the rest of its overloads.
		for _, m := range u.members {
			reasoned(m)
			member(m, true, c.o.MaxMembers)
		}
		// Then the constructors and the other callables and types, each
		// in source order: the class of the cursor lists more of them
		// (EnclosingMembers).
		limit := c.o.MaxMembers
		if c.hasEncl && u.head == c.encl {
			limit = max(limit, c.o.EnclosingMembers)
		}
		rank := func(k lang.SymbolKind) int {
			switch {
			case k == lang.SymConstructor:
				return 0
			case k.IsCallable() || k.IsType():
				return 1
			}
			return 2
		}
		into = &rest
		for _, m := range u.overloads {
			member(m, false, limit)
		}
		for pass := 0; pass < 2; pass++ { // fields and constants only with a reason
			for _, i := range f.FileMembers(u.head.Sym) {
				if rank(f.Symbols[i].Kind) == pass && !(c.o.NoAfter && c.after(symtab.Def{File: f, Sym: int(i)})) {
					member(symtab.Def{File: f, Sym: int(i)}, false, limit)
				}
			}
		}
		into = &b
	}
	slices.SortStableFunc(b.Definitions, func(x, y Definition) int { return -cmp.Compare(x.Score, y.Score) })
	return b, rest
}
