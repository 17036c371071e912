package prompt

import (
	"cmp"
	"slices"
	"strings"
)

// Candidate is one piece of context offered to the assembler.
type Candidate struct {
	Source Source
	// Path names the file the text comes from, as Input.Path names the
	// file being completed ("" for text of no file, such as a clipboard).
	Path string
	// StartLine is the 1-based line of Lines[0] in Path; 0 when the text
	// has no known place: it is then never merged with other candidates
	// or cut by rows.
	StartLine int
	Lines     []string
	// Rows, when set, gives the 1-based row in Path of each line of
	// Lines, for text whose lines are not contiguous in the file (a
	// definition: a signature and its members' signatures, best first);
	// StartLine is then ignored. Such a candidate is never merged, loses
	// the lines whose rows the in-file part shows, and is cut to its
	// first lines.
	Rows []int
	// Score is the candidate's relevance, higher is better; ByDensity
	// divides it by the block's tokens. Rank order is the order of
	// Input.Candidates.
	Score float64
	// Focus is the 1-based line the candidate is about (for a retrieved
	// window, the statement that stands where the cursor's does); 0 for
	// none. A block cut to fit keeps the lines nearest its best
	// candidate's focus.
	Focus int
}

// Input is everything the model may see.
type Input struct {
	// Path is the file being completed, named as candidates name theirs.
	Path string
	// Prefix holds the lines before the cursor's line; Prefix[0] is line
	// PrefixStart (1-based; 0 means 1) of the file.
	Prefix      []string
	PrefixStart int
	// Suffix holds the lines after the cursor's line, for layouts that
	// send a suffix.
	Suffix []string
	// Candidates are offered best first.
	Candidates []Candidate
}

// Block is one piece of context the prompt shows.
type Block struct {
	Source Source `json:"source"`
	Path   string `json:"path"`
	// StartLine and EndLine (1-based, inclusive) place the block in Path;
	// both are 0 for text of no known place.
	StartLine int `json:"start_line"`
	EndLine   int `json:"end_line"`
	// Tokens is the cost of the block as the layout renders it.
	Tokens int `json:"tokens"`
	// Rank is the best (lowest, 0-based) rank of the candidates the block
	// holds, Score the best of their scores, Candidates their number.
	Rank       int     `json:"rank"`
	Score      float64 `json:"score"`
	Candidates int     `json:"candidates"`
	// Elided counts the lines replaced by elision markers.
	Elided int `json:"elided"`
	// Lines are what the prompt shows of the block; Rows the 1-based row
	// of each in Path, 0 for an elision marker and for text of no place.
	Lines []string `json:"-"`
	Rows  []int    `json:"-"`
	focus int
	whole []string
	// wholeRows are the rows of whole for a block of Candidate.Rows; nil
	// for a contiguous block.
	wholeRows []int
	// prio is the position of the block's source in Options.Priority
	// (len(Priority) for the others): with rank, the order blocks compete
	// and stand in.
	prio int
}

// HasRow reports whether the block holds row r (1-based) of its file,
// shown or elided because the prompt shows it elsewhere.
func (b *Block) HasRow(r int) bool {
	if b.wholeRows != nil {
		return slices.Contains(b.wholeRows, r)
	}
	return b.StartLine > 0 && b.StartLine <= r && r <= b.EndLine
}

// before reports whether b is offered and placed as a better block than c:
// a source earlier in Options.Priority, then a better (lower) rank.
func (b *Block) before(c *Block) bool {
	if b.prio != c.prio {
		return b.prio < c.prio
	}
	return b.Rank < c.Rank
}

// Text returns the block's lines, each ending in '\n'.
func (b *Block) Text() string { return joinLines(b.Lines) }

// Whole returns the block's lines before elision: what the prompt shows
// of rows StartLine..EndLine, here or (for elided lines) elsewhere.
func (b *Block) Whole() []string { return b.whole }

// Stats count what the assembler did with the candidates.
type Stats struct {
	Offered int `json:"offered"` // candidates given
	Merged  int `json:"merged"`  // candidates folded into another's block
	InFile  int `json:"in_file"` // candidates wholly inside the in-file context
	Repeats int `json:"repeats"` // blocks dropped as mostly shown already
	Capped  int `json:"capped"`  // blocks dropped by the per-file cap
	NoRoom  int `json:"no_room"` // blocks that did not fit what was left
	Cut     int `json:"cut"`     // blocks cut to fit, or to leave in-file rows out
}

// Context is an assembled prompt: the chosen blocks and the in-file lines,
// within the budget, rendered for one layout.
type Context struct {
	Layout Layout `json:"layout"`
	Path   string `json:"path"`
	// Blocks in prompt order (see Options.Position).
	Blocks []Block `json:"blocks"`
	// Prefix holds the in-file lines before the cursor that the prompt
	// shows, from line PrefixStart; Suffix the lines after the cursor's
	// line it shows (none for Paper).
	Prefix      []string `json:"-"`
	PrefixStart int      `json:"prefix_start"`
	Suffix      []string `json:"-"`
	// Budget is ContextWindow - MaxNewTokens; Tokens what the rendered
	// prompt takes of it, counted by the tokenizer.
	Budget int   `json:"budget"`
	Tokens int   `json:"tokens"`
	Stats  Stats `json:"stats"`

	text string
}

// Text returns the prompt of a Paper or FIM layout (blocks as comments,
// then the in-file lines before the cursor); for Files, the in-file lines
// before the cursor.
func (c *Context) Text() string { return c.text }

// PrefixText returns the in-file lines before the cursor that the prompt
// shows, each ending in '\n'.
func (c *Context) PrefixText() string { return joinLines(c.Prefix) }

// SuffixText returns the in-file lines after the cursor's line that the
// prompt shows, each ending in '\n'.
func (c *Context) SuffixText() string { return joinLines(c.Suffix) }

// unit is a block while the assembler works on it: its whole lines (rows
// StartLine..EndLine) and, in Block.Lines, what elision leaves of them.
type unit struct {
	Block
	full []string
	rows []int // the row of each whole line, for a candidate with Rows
	line []int // tokens of each whole line as rendered; none before measure
	code int   // non-blank lines shown that are not elision markers
	from []int // per shown line, its index in full; -1 for a marker
}

func (u *unit) end() int { return u.StartLine + len(u.full) - 1 }

// sparse reports a unit of a candidate with Rows.
func (u *unit) sparse() bool { return u.rows != nil }

// span sets StartLine and EndLine of a sparse unit to its lowest and
// highest rows.
func (u *unit) span() {
	u.StartLine, u.EndLine = 0, 0
	for _, r := range u.rows {
		if r <= 0 {
			continue
		}
		if u.StartLine == 0 || r < u.StartLine {
			u.StartLine = r
		}
		u.EndLine = max(u.EndLine, r)
	}
}

// Assemble chooses and lays out what the model sees. It fails only on
// options Validate refuses; any input gives a prompt within the budget.
func Assemble(in Input, o Options) (*Context, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	a := &assembler{o: o, c: newCounter(o.Tokenizer), in: in, budget: o.Budget(), keywords: keywordSet(o.Keywords), frames: map[frameKey]int{}}
	if a.in.PrefixStart <= 0 {
		a.in.PrefixStart = 1
	}
	return a.run(), nil
}

type assembler struct {
	o      Options
	c      *counter
	in     Input
	budget int
	limit  int // the blocks' tokens, their header excluded

	header, instruction string
	fixed               int // tokens of the instruction
	headerTokens        int
	keywords            map[string]bool
	frames              map[frameKey]int // tokens of an empty block
	own                 map[string]bool  // elide's lines shown in the block, reused
	scratch             []byte           // a line or block rendered to be counted, reused
}

// measureEagerly makes the assembler measure every block before the
// packing and count every block the packing reaches, its frame too
// large or not: the plain order of the work, which TestProperties
// compares the default's prompts with.
var measureEagerly bool

// cursor returns the 1-based line of the cursor.
func (a *assembler) cursor() int { return a.in.PrefixStart + len(a.in.Prefix) }

func (a *assembler) withSuffix() bool { return a.o.Layout != Paper && len(a.in.Suffix) > 0 }

func (a *assembler) run() *Context {
	o := a.o
	if o.Layout != Files {
		p := o.CommentPrefix
		a.header = p + " Here are some relevant code fragments from other files of the repo:\n"
		a.instruction = p + " Complete the next line of the code below, from " + a.in.Path + ":\n"
		if a.in.Path == "" {
			a.instruction = p + " Complete the next line of the code below:\n"
		}
		a.fixed = a.c.count(a.instruction)
		a.headerTokens = a.c.count(a.header)
	}
	share := int(o.Share * float64(a.budget))
	limit := max(share-a.headerTokens, 0)

	// The in-file lines shown even when the blocks take their whole share.
	minPre, minSuf, spare := a.inFile(a.budget - share)
	if !o.FixedShare {
		limit += spare
	}
	a.limit = limit
	st := Stats{Offered: len(a.in.Candidates)}
	units := a.units(minPre, minSuf, &st)
	a.sortUnits(units)

	shown := map[string]bool{}
	for _, l := range a.in.Prefix[len(a.in.Prefix)-minPre:] {
		addShown(shown, l)
	}
	for _, l := range a.in.Suffix[:minSuf] {
		addShown(shown, l)
	}
	var chosen []*unit
	used := 0
	type fileKey struct {
		src  Source
		path string
	}
	perFile := map[fileKey]int{}
	bySource := map[Source]int{}
	leadUsed, framed := 0, 0
	for _, u := range units {
		// Blocks with explicit rows (definitions) are bounded by whoever
		// made them, not by MaxBlocks, unless CapAllBlocks.
		capped := o.CapAllBlocks || !u.sparse()
		if capped && framed == o.MaxBlocks {
			continue
		}
		fk := fileKey{u.Source, u.Path}
		if o.PerFile != NoCap && u.Path != "" && !u.sparse() && perFile[fk] >= o.PerFile {
			st.Capped++
			continue
		}
		if share, blank := repeatShare(u.full, shown); blank || share > o.MaxRepeat {
			st.Repeats++
			continue
		}
		room := limit - used
		if u.prio < 0 {
			room = min(room, int(o.LeadShare*float64(limit))-leadUsed)
		} else if sh, ok := o.Shares[u.Source]; ok {
			room = min(room, int(sh*float64(limit))-bySource[u.Source])
		}
		if !measureEagerly && a.frame(u.Source, u.Path) > room {
			// The frame alone overflows: neither the block nor any cut
			// of it fits (each costs its frame and more), which needs
			// no count of its lines.
			st.NoRoom++
			continue
		}
		if len(u.line) == 0 {
			a.measure(u) // not measured yet: every block kept has a line
		}
		a.elide(u, shown)
		if u.Tokens > room {
			if o.NoCut || room <= 0 || !a.cut(u, room) {
				st.NoRoom++
				continue
			}
			a.elide(u, shown)
			st.Cut++
		}
		if u.code == 0 {
			st.Repeats++
			continue
		}
		chosen = append(chosen, u)
		if capped {
			framed++
		}
		used += u.Tokens
		bySource[u.Source] += u.Tokens
		if u.prio < 0 {
			leadUsed += u.Tokens
		}
		if !u.sparse() {
			perFile[fk]++
		}
		for _, l := range u.full {
			addShown(shown, l)
		}
	}

	// The in-file part takes what the blocks leave. Rows it shows are cut
	// from blocks of the same file and lines it shows are elided from the
	// others, which frees tokens for more in-file lines: repeat while that
	// changes anything, a few rounds at most. The in-file part never
	// shrinks from one round to the next (a marker can cost a token more
	// than the line it replaces), and the final count in finish keeps the
	// prompt within the budget.
	var pre, suf int
	for round := 0; round < maxRounds; round++ {
		rest := a.budget - used
		if len(chosen) > 0 {
			rest -= a.headerTokens
		}
		p, q, _ := a.inFile(rest)
		pre, suf = max(pre, p), max(suf, q)
		shown := map[string]bool{}
		for _, l := range a.in.Prefix[len(a.in.Prefix)-pre:] {
			addShown(shown, l)
		}
		for _, l := range a.in.Suffix[:suf] {
			addShown(shown, l)
		}
		changed := false
		kept := chosen[:0]
		used = 0
		for _, u := range chosen {
			before := u.Tokens
			if a.excludeInFile(u, pre, suf) {
				st.Cut++
				if len(u.full) == 0 || !a.trimEdges(u) {
					st.Cut--
					st.InFile++
					changed = true
					continue
				}
				a.measure(u)
			}
			a.elide(u, shown)
			if u.code == 0 {
				st.Repeats++
				changed = true
				continue
			}
			changed = changed || u.Tokens != before
			for _, l := range u.full {
				addShown(shown, l)
			}
			kept = append(kept, u)
			used += u.Tokens
		}
		chosen = kept
		var n int
		if chosen, n = overShare(chosen, func(u *unit) *Block { return &u.Block }, a.o.Shares, limit); n > 0 {
			st.NoRoom += n
			used = 0
			for _, u := range chosen {
				used += u.Tokens
			}
			changed = true
		}
		if !changed {
			break
		}
	}
	ordered := a.position(chosen)
	ctx := &Context{Layout: o.Layout, Path: a.in.Path, Budget: a.budget, Stats: st,
		Prefix: a.in.Prefix[len(a.in.Prefix)-pre:], PrefixStart: a.cursor() - pre, Suffix: a.in.Suffix[:suf]}
	for _, u := range ordered {
		u.whole = u.full
		if u.sparse() {
			u.wholeRows = u.rows
		}
		ctx.Blocks = append(ctx.Blocks, u.Block)
	}
	a.finish(ctx)
	return ctx
}

// inFile returns how many lines before the cursor (the last ones) and
// after it (the first ones) fit in n tokens: a quarter for the suffix
// where the layout sends one, the rest for the prefix, less the
// instruction. spare is what of n they leave unused when they show the
// whole prefix and suffix, 0 when lines had to stay out.
func (a *assembler) inFile(n int) (pre, suf, spare int) {
	if n -= a.fixed; n <= 0 {
		return 0, 0, 0
	}
	sufUsed := 0
	if a.withSuffix() {
		suf, sufUsed = a.head(a.in.Suffix, n/4)
	}
	pre, preUsed := a.tail(a.in.Prefix, n-sufUsed)
	if pre == len(a.in.Prefix) && (!a.withSuffix() || suf == len(a.in.Suffix)) {
		spare = n - sufUsed - preUsed
	}
	return pre, suf, spare
}

// tail returns the number of last lines whose token total fits in limit,
// and that total.
func (a *assembler) tail(lines []string, limit int) (int, int) {
	used, i := 0, len(lines)
	for i > 0 {
		n := a.c.count(lines[i-1])
		if used+n > limit {
			break
		}
		used += n
		i--
	}
	return len(lines) - i, used
}

// head returns the number of first lines that fit in limit, and their
// token total.
func (a *assembler) head(lines []string, limit int) (int, int) {
	used, i := 0, 0
	for i < len(lines) {
		n := a.c.count(lines[i])
		if used+n > limit {
			break
		}
		used += n
		i++
	}
	return i, used
}

// units turns the candidates into blocks: rows the in-file context shows
// (pre lines before the cursor, suf after its line) are cut from
// candidates of the file being completed, and windows of one file that
// overlap or touch are merged.
func (a *assembler) units(pre, suf int, st *Stats) []*unit {
	var out []*unit
	for rank, cand := range a.in.Candidates {
		if len(cand.Lines) == 0 {
			st.InFile++ // nothing to show; counted with what the file shows
			continue
		}
		u := &unit{Block: Block{Source: cand.Source, Path: cand.Path, Rank: rank, Score: cand.Score,
			Candidates: 1, focus: cand.Focus, prio: a.priority(cand.Source)}, full: cand.Lines}
		if cand.Rows != nil {
			u.rows = make([]int, len(cand.Lines))
			copy(u.rows, cand.Rows) // rows past len(Rows) are of no known place
			u.span()
			if a.excludeInFile(u, pre, suf) && len(u.full) == 0 {
				st.InFile++
				continue
			}
		} else if cand.StartLine > 0 {
			u.StartLine = cand.StartLine
			u.EndLine = u.end()
			if a.excludeInFile(u, pre, suf) && len(u.full) == 0 {
				st.InFile++
				continue
			}
		}
		out = append(out, u)
	}
	if !a.o.NoMerge {
		out = merge(out, st)
	}
	a.lead(out)
	kept := out[:0]
	for _, u := range out {
		if a.o.MaxLines != NoCap && !u.sparse() && len(u.full) > a.o.MaxLines {
			a.window(u, a.o.MaxLines)
			st.Cut++
		}
		if !a.trimEdges(u) {
			st.Repeats++ // nothing but trivial lines
			continue
		}
		if a.o.Order == ByDensity || measureEagerly {
			// The order needs every block's tokens; by rank, a block
			// is measured when its turn comes (most never do: the
			// pool is larger than MaxBlocks).
			a.measure(u)
			a.elide(u, nil)
		}
		kept = append(kept, u)
	}
	return kept
}

// window keeps the n lines of a block around its focus, one more after it
// than before when n is even.
func (a *assembler) window(u *unit, n int) {
	f := 0
	if u.StartLine > 0 && u.focus > u.StartLine {
		f = min(u.focus-u.StartLine, len(u.full)-1)
	}
	lo := max(0, f-(n-1)/2)
	hi := min(len(u.full), lo+n)
	lo = max(0, hi-n)
	u.full = u.full[lo:hi]
	if u.StartLine > 0 {
		u.StartLine += lo
		u.EndLine = u.StartLine + hi - lo - 1
	}
}

// trimEdges drops the blank and trivial lines (see trivial) at both ends
// of a block: a window cut out of a file starts with the closing lines of
// the code before it and ends with the opening lines of the code after
// it, which say nothing alone. It reports whether a line is left.
func (a *assembler) trimEdges(u *unit) bool {
	lo, hi := 0, len(u.full)
	for lo < hi && a.trivial(u.full[lo]) {
		lo++
	}
	for hi > lo && a.trivial(u.full[hi-1]) {
		hi--
	}
	if lo == 0 && hi == len(u.full) {
		return hi > 0
	}
	u.full = u.full[lo:hi]
	if len(u.line) > 0 {
		u.line = u.line[lo:hi]
	}
	if u.sparse() {
		u.rows = u.rows[lo:hi]
		u.span()
	} else if u.StartLine > 0 {
		u.StartLine += lo
		u.EndLine = u.StartLine + hi - lo - 1
	}
	return hi > lo
}

// merge folds the placed blocks of one source and file whose rows overlap
// or touch into one block over the union of their rows, with the best rank,
// score and focus of its parts. Blocks keep their rank order.
func merge(units []*unit, st *Stats) []*unit {
	type key struct {
		src  Source
		path string
	}
	groups := map[key][]*unit{}
	for _, u := range units {
		if u.StartLine > 0 && !u.sparse() {
			k := key{u.Source, u.Path}
			groups[k] = append(groups[k], u)
		}
	}
	gone := map[*unit]bool{}
	for _, g := range groups {
		if len(g) < 2 {
			continue
		}
		slices.SortStableFunc(g, func(x, y *unit) int { return cmp.Compare(x.StartLine, y.StartLine) })
		cur := g[0]
		for _, u := range g[1:] {
			if u.StartLine > cur.EndLine+1 {
				cur = u
				continue
			}
			// Overlapping or touching: u joins cur (or cur joins u when
			// u ranks better, so that the better block stays in place).
			keep, drop := cur, u
			if u.Rank < cur.Rank {
				keep, drop = u, cur
			}
			start := min(cur.StartLine, u.StartLine)
			end := max(cur.EndLine, u.EndLine)
			lines := make([]string, end-start+1)
			for _, part := range []*unit{drop, keep} { // keep's text wins
				copy(lines[part.StartLine-start:], part.full)
			}
			keep.full, keep.StartLine, keep.EndLine = lines, start, end
			keep.Candidates += drop.Candidates
			keep.Score = max(keep.Score, drop.Score)
			gone[drop] = true
			st.Merged += drop.Candidates
			cur = keep
		}
	}
	out := units[:0]
	for _, u := range units {
		if !gone[u] {
			out = append(out, u)
		}
	}
	return out
}

// excludeInFile cuts from a block of the file being completed the rows the
// in-file context shows (pre lines before the cursor, suf after its line),
// keeping the remaining run that holds the focus, or else the longer one.
// It reports whether the block changed.
func (a *assembler) excludeInFile(u *unit, pre, suf int) bool {
	if u.StartLine == 0 || u.Path != a.in.Path || a.o.KeepInFileRows {
		return false
	}
	cursor := a.cursor()
	lo, hi := cursor-pre, cursor+suf // shown: [lo, hi], the cursor's line included
	if u.sparse() {
		full, rows := u.full[:0:0], u.rows[:0:0]
		for i, r := range u.rows {
			if r < lo || r > hi {
				full, rows = append(full, u.full[i]), append(rows, r)
			}
		}
		if len(rows) == len(u.rows) {
			return false
		}
		u.full, u.rows = full, rows
		u.span()
		return true
	}
	if u.EndLine < lo || u.StartLine > hi {
		return false
	}
	before := [2]int{u.StartLine, min(u.EndLine, lo-1)}
	after := [2]int{max(u.StartLine, hi+1), u.EndLine}
	holds := func(r [2]int) bool { return u.focus >= r[0] && u.focus <= r[1] }
	bn, an := before[1]-before[0]+1, after[1]-after[0]+1
	keep := before
	switch {
	case bn <= 0 && an <= 0:
		u.full = nil
		return true
	case bn <= 0:
		keep = after
	case an <= 0:
	case holds(after):
		keep = after
	case holds(before):
	case an > bn:
		keep = after
	}
	u.full = u.full[keep[0]-u.StartLine : keep[1]-u.StartLine+1]
	u.StartLine, u.EndLine = keep[0], keep[1]
	return true
}

// sortUnits orders blocks as they compete for the budget.
func (a *assembler) sortUnits(units []*unit) {
	if a.o.Order != ByDensity {
		slices.SortStableFunc(units, func(x, y *unit) int { return cmp.Or(cmp.Compare(x.prio, y.prio), cmp.Compare(x.Rank, y.Rank)) })
		return
	}
	density := func(u *unit) float64 { return u.Score / float64(max(u.Tokens, 1)) }
	slices.SortStableFunc(units, func(x, y *unit) int {
		return cmp.Or(cmp.Compare(x.prio, y.prio), cmp.Compare(density(y), density(x)), cmp.Compare(x.Rank, y.Rank))
	})
}

// overShare drops, while the blocks of a source take more than its share
// of limit, that source's weakest block, and returns the blocks left and
// how many it dropped. The packing counted a block as the sum of its
// lines; elision against the in-file lines finally shown can cost a token
// more than the line it replaces, and a block counted whole can cost more
// (the newlines of a byte-pair encoding), so the share is checked again.
func overShare[T any](blocks []T, block func(T) *Block, shares map[Source]float64, limit int) ([]T, int) {
	dropped := 0
	for src, sh := range shares {
		for {
			total, worst := 0, -1
			for i, x := range blocks {
				b := block(x)
				if b.Source != src {
					continue
				}
				total += b.Tokens
				if worst < 0 || block(blocks[worst]).before(b) {
					worst = i
				}
			}
			if worst < 0 || total <= int(sh*float64(limit)) {
				break
			}
			blocks = slices.Delete(blocks, worst, worst+1)
			dropped++
		}
	}
	return blocks, dropped
}

// lead puts the Lead best-ranked retrieved blocks before every source
// of Options.Priority, when blocks of such a source compete.
func (a *assembler) lead(units []*unit) {
	if a.o.Lead <= 0 {
		return
	}
	var ret []*unit
	prior := false
	for _, u := range units {
		if u.Source == Retrieved {
			ret = append(ret, u)
		} else if u.prio < len(a.o.Priority) {
			prior = true
		}
	}
	if !prior {
		return
	}
	slices.SortStableFunc(ret, func(x, y *unit) int { return cmp.Compare(x.Rank, y.Rank) })
	for _, u := range ret[:min(len(ret), a.o.Lead)] {
		u.prio = -1
	}
}

// priority returns the position of a source in Options.Priority, or
// len(Priority) for a source not listed.
func (a *assembler) priority(s Source) int {
	if i := slices.Index(a.o.Priority, s); i >= 0 {
		return i
	}
	return len(a.o.Priority)
}

// position orders the chosen blocks for the prompt.
func (a *assembler) position(chosen []*unit) []*unit {
	byRank := slices.Clone(chosen)
	slices.SortStableFunc(byRank, func(x, y *unit) int { return cmp.Or(cmp.Compare(x.prio, y.prio), cmp.Compare(x.Rank, y.Rank)) })
	out := make([]*unit, len(byRank))
	if a.o.Position == Edges {
		// Best last, second best first, third second to last, ...
		lo, hi := 0, len(out)-1
		for i, u := range byRank {
			if i%2 == 0 {
				out[hi] = u
				hi--
			} else {
				out[lo] = u
				lo++
			}
		}
		return out
	}
	for i, u := range byRank {
		out[len(out)-1-i] = u
	}
	return out
}

// measure counts the tokens of each of the block's whole lines as
// rendered.
func (a *assembler) measure(u *unit) {
	u.line = u.line[:0]
	for _, l := range u.full {
		u.line = append(u.line, a.countLine(l))
	}
}

// elide sets what the block shows: its whole lines, with each run of
// lines shown already (by the prompt, or earlier in the block), and the
// blank lines between them, replaced by one marker line when the run holds
// a line that is not trivial (see trivial); from a run of trivial lines
// only the closing lines go (see closer, unless KeepClosers). Blank lines
// at a run's edges stay. shown nil (or NoElide) elides nothing. It sets
// the block's tokens to those of what it shows.
func (a *assembler) elide(u *unit, shown map[string]bool) {
	u.Lines, u.Rows, u.from, u.Elided, u.code = u.Lines[:0], u.Rows[:0], u.from[:0], 0, 0
	row := func(i int) int {
		u.from = append(u.from, i)
		switch {
		case u.sparse():
			return u.rows[i]
		case u.StartLine == 0:
			return 0
		}
		return u.StartLine + i
	}
	// Lines shown earlier in the block count as shown too.
	if a.own == nil {
		a.own = map[string]bool{}
	}
	own := a.own
	clear(own)
	isShown := func(l string) bool {
		t := strings.TrimSpace(l)
		return shown != nil && (shown[t] || own[t])
	}
	n := len(u.full)
	for i := 0; i < n; {
		if blank := strings.TrimSpace(u.full[i]) == ""; blank || !isShown(u.full[i]) || a.o.NoElide {
			u.Lines, u.Rows = append(u.Lines, u.full[i]), append(u.Rows, row(i))
			if !blank {
				u.code++
				own[strings.TrimSpace(u.full[i])] = true
			}
			i++
			continue
		}
		// A run of shown lines starts at i; it may go on across blank lines.
		j, last, informative := i, i, false
		for j < n && (strings.TrimSpace(u.full[j]) == "" || isShown(u.full[j])) {
			if strings.TrimSpace(u.full[j]) != "" {
				last = j
				informative = informative || !a.trivial(u.full[j])
			}
			j++
		}
		if informative {
			indent := u.full[i][:len(u.full[i])-len(strings.TrimLeft(u.full[i], " \t"))]
			u.Lines, u.Rows, u.from = append(u.Lines, indent+a.o.CommentPrefix+" ..."), append(u.Rows, 0), append(u.from, -1)
			u.Elided += last - i + 1
		} else {
			// Trivial lines stay, but for closing lines ("}", "});"),
			// which the indentation of what follows stands for.
			for k := i; k <= last; k++ {
				t := strings.TrimSpace(u.full[k])
				if !a.o.KeepClosers && closer(t) {
					u.Elided++
					continue
				}
				u.Lines, u.Rows = append(u.Lines, u.full[k]), append(u.Rows, row(k))
				if t != "" {
					u.code++
				}
			}
		}
		i = last + 1 // the blank lines after the run are kept
	}
	// The sum of the lines' counts and the frame's: finish counts the
	// chosen blocks whole once they are final.
	u.Tokens = a.frame(u.Source, u.Path)
	for i, j := range u.from {
		if j >= 0 {
			u.Tokens += u.line[j]
		} else {
			u.Tokens += a.countLine(u.Lines[i])
		}
	}
}

// frame returns the tokens of an empty block of a source and path: its
// separators and the line naming it.
func (a *assembler) frame(src Source, path string) int {
	k := frameKey{src == Definition, path}
	if n, ok := a.frames[k]; ok {
		return n
	}
	n := a.countBlock(&Block{Path: path, Source: src})
	a.frames[k] = n
	return n
}

// frameKey names the frame of a block: definitions have their own.
type frameKey struct {
	definition bool
	path       string
}

// trivial reports whether a line holds no word but the language's
// keywords (Options.Keywords): "else:", "}", "return", a closing quote, a
// blank line.
// Such lines repeat everywhere and carry no information of their own, so
// a run of them alone is not elided.
func (a *assembler) trivial(line string) bool {
	for i := 0; i < len(line); {
		c := line[i]
		if !isWordStart(c) {
			i++
			continue
		}
		j := i
		for j < len(line) && (isWordStart(line[j]) || line[j] >= '0' && line[j] <= '9') {
			j++
		}
		if !a.keywords[line[i:j]] {
			return false
		}
		i = j
	}
	return true
}

// closer reports whether a trimmed line holds only closing brackets and
// the punctuation that ends a statement after them.
func closer(t string) bool {
	if t == "" || strings.Trim(t, ")]}") == t {
		return false
	}
	return strings.Trim(t, ")]};,") == ""
}

func isWordStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// cut shrinks a block to the lines around its focus that fit in limit
// tokens, at least minCutLines of them (or the whole block when it is
// shorter). It reports false, leaving the block alone, when they do not fit.
func (a *assembler) cut(u *unit, limit int) bool {
	if u.sparse() {
		return a.cutFirst(u, limit)
	}
	lines, costs, start := u.full, u.line, u.StartLine
	n := len(lines)
	frame := a.frame(u.Source, u.Path)
	f := 0
	switch {
	case u.focus == 0 || start == 0:
	case u.focus >= start+n:
		f = n - 1
	case u.focus > start:
		f = u.focus - start
	}
	lo, hi := f, f+1 // the kept lines are [lo, hi)
	used := frame + costs[f]
	// Grow after the focus first (what follows the statement is what a
	// completion needs most), then before, one line at a time.
	for grew := used <= limit; grew; {
		grew = false
		if hi < n && used+costs[hi] <= limit {
			used += costs[hi]
			hi++
			grew = true
		}
		if lo > 0 && used+costs[lo-1] <= limit {
			used += costs[lo-1]
			lo--
			grew = true
		}
	}
	least := min(minCutLines, n)
	set := func() {
		u.full, u.line = lines[lo:hi], costs[lo:hi]
		if start > 0 {
			u.StartLine, u.EndLine = start+lo, start+hi-1
		}
		a.trimEdges(u)
		a.elide(u, nil)
	}
	if used > limit || hi-lo < least {
		return false
	}
	set()
	// Counting the whole block may disagree with the sum of its lines:
	// give up lines from the side farther from the focus.
	for u.Tokens > limit && hi-lo > least {
		if f-lo >= hi-1-f {
			lo++
		} else {
			hi--
		}
		set()
	}
	if u.Tokens > limit {
		lo, hi = 0, n
		set()
		return false
	}
	return true
}

// cutFirst shrinks a block of Candidate.Rows, whose lines come best first,
// to its first lines that fit in limit tokens, at least minCutLines of them
// (or the whole block when it is shorter). It reports false, leaving the
// block alone, when they do not fit.
func (a *assembler) cutFirst(u *unit, limit int) bool {
	lines, costs, rows := u.full, u.line, u.rows
	n := len(lines)
	used := a.frame(u.Source, u.Path)
	hi := 0
	for hi < n && used+costs[hi] <= limit {
		used += costs[hi]
		hi++
	}
	least := min(minCutLines, n)
	if hi < least {
		return false
	}
	set := func() {
		u.full, u.line, u.rows = lines[:hi], costs[:hi], rows[:hi]
		u.span()
		a.trimEdges(u)
		a.elide(u, nil)
	}
	set()
	for u.Tokens > limit && hi > least {
		hi--
		set()
	}
	if u.Tokens > limit {
		hi = n
		set()
		return false
	}
	return true
}

// maxRounds bounds the rounds of fitting the in-file part to the blocks.
const maxRounds = 4

// minCutLines is the fewest lines a block is cut down to.
const minCutLines = 3

// addShown records a line as shown, by its text without surrounding white
// space; blank lines are never repeats.
func addShown(shown map[string]bool, line string) {
	if t := strings.TrimSpace(line); t != "" {
		shown[t] = true
	}
}

// keywordSet returns the words of Options.Keywords as a set.
func keywordSet(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// repeatShare returns the share of the non-blank lines that are shown
// already, and whether there is no non-blank line.
func repeatShare(lines []string, shown map[string]bool) (float64, bool) {
	n, rep := 0, 0
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		n++
		if shown[t] {
			rep++
		}
	}
	if n == 0 {
		return 0, true
	}
	return float64(rep) / float64(n), false
}
