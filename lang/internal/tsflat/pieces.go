package tsflat

import (
	"context"
	"errors"
	"math"
	"sync/atomic"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

// A Cutter proposes where a large source may be parsed in pieces. It
// returns the region [lo, hi) of src that holds the children of one node
// (the container: the file's root, or a class body), and the offsets in
// it where a child of the container may start, ascending. It reads the
// source only (no parse), so it may be wrong: ParseFlat checks every
// piece and parses the file whole when a piece does not fit.
type Cutter func(src []byte) (lo, hi int, starts []int)

// PieceFrom is the size of a source from which ParseFlat parses it in
// pieces, and PieceBytes the least size of a piece. Variables so that a
// test can make small sources take the pieces' path.
var (
	PieceFrom  = CollectFrom
	PieceBytes = 32 << 10
)

// pieceStats counts the parses in pieces, and those that fell back to a
// parse of the whole file.
var pieceStats struct{ joined, whole atomic.Int64 }

// PieceStats returns how many sources ParseFlat parsed in pieces and how
// many it tried to but parsed whole, since the process started.
func PieceStats() (joined, whole int64) {
	return pieceStats.joined.Load(), pieceStats.whole.Load()
}

// ParseFlat parses src with ts (Parse: maxMicros bounds the whole parse)
// and returns its records in pre-order (Flatten), in buf grown as needed.
//
// Tree-sitter's tree takes about 110 bytes a node, 45 to 65 times its
// source, five times the records copied out of it, and lives until they
// are. So from PieceFrom bytes, when cut finds where to cut, the source
// is parsed in pieces of at least PieceBytes: each piece is the region
// before lo, a run of the container's children and the region from hi,
// parsed as one document with tree-sitter's included ranges (positions
// stay those of the file), flattened and freed before the next; the
// records of the runs are joined under the container, whose part outside
// [lo, hi) every piece parsed alike. The tree's peak is then a piece's,
// not the file's. The records are those of the whole file's parse: a
// context-free parse of a run of whole children does not depend on the
// children around it. A piece that does not bear that out (a syntax
// error in it, a child across a cut, a container that differs between
// pieces) makes ParseFlat parse the file whole, as it does below
// PieceFrom or without a cutter.
//
// It also returns the number of records of the whole tree, which is
// len(recs) but for the children Prune leaves out.
func ParseFlat(ctx context.Context, ts *sitter.Parser, src []byte, maxMicros int64, cut Cutter, buf []Node) ([]Node, int, error) {
	recs, _, n, err := parseFlat(ctx, ts, src, maxMicros, cut, buf, nil, false)
	return recs, n, err
}

// EachRun receives one piece of a parse in pieces (ParseRuns): recs are
// the piece's records (valid only during the call), container is the
// index in them of the node whose children the pieces divide, and first
// and last are the indexes of the first and the last child of the
// container the piece holds, linked by Next. The first piece also holds
// the container's children before the cut region, the last piece those
// after it, so that the pieces hold every child of the container once,
// in source order. A non-nil error stops the parse and is returned.
type EachRun func(recs []Node, container, first, last int32) error

// ParseRuns is ParseFlat for a front end that maps a large file's
// records piece by piece instead of joined, so that only one piece's
// records live at a time beside what the front end makes of them. When
// src is parsed in pieces of its root's children it calls each for
// every piece, in source order, and returns the pieces' buffer (to
// reuse), true, and the number of records the joined records would hold
// (those of the whole parse). Otherwise (below PieceFrom, without a cut,
// with a container below the root, or when a piece does not fit) it
// returns the file's records as ParseFlat does and false: what each made of the pieces before
// the one that did not fit must then be thrown away, since it is made
// again from the whole records. The records of the pieces are the whole
// parse's but for their Next links, which are the piece's; the
// container's byte and row range is the piece's own.
func ParseRuns(ctx context.Context, ts *sitter.Parser, src []byte, maxMicros int64, cut Cutter, buf []Node, each EachRun) (recs []Node, pieced bool, n int, err error) {
	var visit func(Piece) error
	if each != nil {
		visit = func(p Piece) error { return each(p.Recs, p.Container, p.First, p.Last) }
	}
	return parseFlat(ctx, ts, src, maxMicros, cut, buf, visit, false)
}

// A Piece is one piece of a parse in pieces as ParsePieces hands it to
// a front end. Recs are the piece's records (valid only during the
// call), a whole tree: the records before Run (the head: the root, the
// container's ancestors, the container, what precedes the cut region
// and, in the container, its children before the region's first cut),
// the piece's run of the container's children from Run, and from Tail
// the records of the text from the region's end (the container's
// remaining children, such as a closing brace, and what follows it).
// The head is alike in every piece, so its records, and Run, have the
// same indexes in every piece; the tail is alike too, from Tail on.
// First and Last are the indexes of the first and the last child of
// the container the piece holds (in the first piece its first child,
// in the last piece its last), linked by Next. Final marks the last
// piece. The pieces have no syntax error. Abandoned marks, with nothing
// else set, the call made when a piece does not fit (or the front end
// returned ErrMisfit), before the file is parsed whole: the front end
// drops what it made of the pieces, which would otherwise stay beside
// the whole file's tree.
type Piece struct {
	Recs                        []Node
	Container, First, Last, Run int32
	Tail                        int32
	Final, Abandoned            bool
}

// ErrMisfit, returned by the function ParsePieces calls, makes the
// parse whole, as a piece that does not fit does: what the front end
// made of the pieces must then be thrown away.
var ErrMisfit error = errPiece{}

// ParsePieces is ParseRuns for a front end that maps the children of
// any container piece by piece, the file's root or a node below it (a
// class body, a block): when src is parsed in pieces it calls each for
// every piece, in source order, and returns the pieces' buffer, true and
// the number of records the joined records would hold. A front end
// walks the head and the first piece's run, goes on with each later
// piece's run from Run, and walks the tail once, in the last piece.
// Otherwise, or when each returns ErrMisfit, it returns the file's
// records as ParseFlat does and false.
func ParsePieces(ctx context.Context, ts *sitter.Parser, src []byte, maxMicros int64, cut Cutter, buf []Node, each func(Piece) error) (recs []Node, pieced bool, n int, err error) {
	return parseFlat(ctx, ts, src, maxMicros, cut, buf, each, true)
}

// parseFlat is ParseFlat, or ParseRuns (ParsePieces when nested) when
// each is not nil.
func parseFlat(ctx context.Context, ts *sitter.Parser, src []byte, maxMicros int64, cut Cutter, buf []Node, each func(Piece) error, nested bool) ([]Node, bool, int, error) {
	if cut != nil && len(src) >= PieceFrom && len(src) < math.MaxInt32 {
		start := time.Now()
		recs, ok, runs, n, err := parsePieces(ctx, ts, src, maxMicros, cut, buf, each, nested)
		if err != nil {
			return recs, false, 0, err
		}
		if ok {
			return recs, runs, n, nil
		}
		if maxMicros > 0 {
			maxMicros = max(maxMicros-time.Since(start).Microseconds(), 1)
		}
		buf = recs
	}
	recs, n, err := parseWhole(ctx, ts, src, maxMicros, buf)
	return recs, false, n, err
}

// parseWhole parses src in one piece and flattens its tree into buf,
// without the children Prune registered for its grammar; it returns the
// records and the number of records of the whole tree.
func parseWhole(ctx context.Context, ts *sitter.Parser, src []byte, maxMicros int64, buf []Node) ([]Node, int, error) {
	tree, err := Parse(ctx, ts, src, maxMicros)
	if err != nil {
		return buf[:0], 0, err
	}
	if tree == nil {
		return buf[:0], 0, errNoTree
	}
	root := tree.RootNode()
	nodes, n, err := flattenPruned(root, buf, pruneOf(root))
	Close(tree, len(src))
	return nodes, n, err
}

// everything is tree-sitter's default included range, the whole document.
var everything = []sitter.Range{{
	EndPoint: sitter.Point{Row: math.MaxUint32, Column: math.MaxUint32},
	EndByte:  math.MaxUint32,
}}

// pieces is the state of one parse in pieces.
type pieces struct {
	src    []byte
	cuts   []int // c0 = lo < c1 < ... < ck = hi; piece i is [c(i), c(i+1))
	points []sitter.Point
	lo, hi int
	head   []Node   // piece 0's records before its run (the container and what precedes its run)
	tail   []Node   // piece 0's records after its run, Next relative to the tail's start
	out    []Node   // the joined records so far from the second piece on: the head and the runs, Next as at the end
	runs   [][]Node // the first piece's run, and the runs that do not fit in out, Next as at the end
	n      int      // records in head and runs
	spine  []int32
}

// parsePieces parses src in pieces (ParseFlat), or hands each piece to
// each (ParseRuns) when the container is the file's root (the cut region
// starts the file) or nested is set (ParsePieces); otherwise a nested
// container's pieces are joined, since those front ends map the root's
// children alone piece by piece. It reports
// false, with buf to reuse, when the source cannot be cut or a piece
// does not fit. It reports whether the pieces were handed to each, and
// then returns the pieces' buffer, and the number of records of the
// joined parse.
func parsePieces(ctx context.Context, ts *sitter.Parser, src []byte, maxMicros int64, cut Cutter, buf []Node, each func(Piece) error, nested bool) (_ []Node, ok, runs bool, n int, _ error) {
	lo, hi, starts := cut(src)
	if lo < 0 || hi > len(src) || lo >= hi {
		return buf, false, false, 0, nil
	}
	if lo != 0 && !nested {
		each = nil
	}
	// Every piece parses the text outside [lo, hi) again: the pieces are
	// made few enough that this adds at most a quarter of the file.
	size := PieceBytes
	if outside := lo + len(src) - hi; outside > 0 {
		most := len(src)/(4*outside) + 1
		if most < 2 {
			return buf, false, false, 0, nil
		}
		size = max(size, (hi-lo)/most+1)
	}
	p := pieces{src: src, lo: lo, hi: hi, cuts: []int{lo}}
	for _, s := range starts {
		if last := p.cuts[len(p.cuts)-1]; s > last && s-last >= size && hi-s >= size/2 {
			p.cuts = append(p.cuts, s)
		}
	}
	p.cuts = append(p.cuts, hi)
	if len(p.cuts) < 3 {
		return buf, false, false, 0, nil
	}
	p.pointsOf()
	defer ts.SetIncludedRanges(everything)
	defer trim()
	began := time.Now()
	collected := lo // the end of the pieces visited at the last collection
	for i := range len(p.cuts) - 1 {
		limit := maxMicros
		if maxMicros > 0 {
			limit = max(maxMicros-time.Since(began).Microseconds(), 1)
		}
		ts.SetIncludedRanges(p.ranges(i))
		tree, err := Parse(ctx, ts, src, limit)
		if err != nil {
			return buf[:0], false, false, 0, err
		}
		if tree == nil {
			return buf[:0], false, false, 0, errNoTree
		}
		recs, err := Flatten(tree.RootNode(), buf)
		tree.Close()
		if err != nil {
			return recs[:0], false, false, 0, err
		}
		buf = recs
		if each != nil {
			// The front end's statements grow while the pieces are
			// parsed: the piece's tree is handed back first, so that
			// they do not stack on top of what glibc keeps of it.
			trim()
			last, err := p.visit(recs, i, each)
			if err == nil && !last && p.cuts[i+1]-collected >= len(src)/4 {
				// What the front end made of the pieces so far left
				// garbage (its scratch, its grown tables) that no
				// collection takes while an open index fills the
				// heap: collect it every quarter of the file.
				collected = p.cuts[i+1]
				Collect(len(src))
			}
			var fit errPiece
			switch {
			case errors.As(err, &fit):
				pieceStats.whole.Add(1)
				if nested {
					_ = each(Piece{Abandoned: true})
				}
				return buf, false, false, 0, nil
			case err != nil:
				return buf[:0], false, false, 0, err
			case last:
				pieceStats.joined.Add(1)
				return buf, true, true, p.n + len(p.tail), nil
			}
			continue
		}
		out, err := p.join(recs, i)
		if err != nil {
			pieceStats.whole.Add(1)
			return buf, false, false, 0, nil // does not fit: parse whole
		}
		if out != nil {
			pieceStats.joined.Add(1)
			// The pieces' buffer is garbage, and so is what the records
			// were joined in when they were copied at the end: collect
			// them before the front end's stages.
			buf, p.runs = nil, nil
			Collect(len(src))
			return out, true, false, len(out), nil
		}
	}
	return buf, false, false, 0, errNoTree // not reached: the last piece joins or fails
}

// pointsOf sets the row and column of every cut, of lo and hi and of the
// end of the source.
func (p *pieces) pointsOf() {
	at := append(append([]int{0}, p.cuts...), len(p.src))
	p.points = make([]sitter.Point, len(at))
	row, lineStart, j := 0, 0, 0
	for k, off := range at {
		for ; j < off; j++ {
			if p.src[j] == '\n' {
				row++
				lineStart = j + 1
			}
		}
		p.points[k] = sitter.Point{Row: uint32(row), Column: uint32(off - lineStart)}
	}
}

// ranges returns the included ranges of piece i: what precedes lo, the
// piece and what follows hi.
func (p *pieces) ranges(i int) []sitter.Range {
	rng := func(a, b int) sitter.Range { // indexes of p.points: 0, the cuts, the end
		return sitter.Range{StartPoint: p.points[a], EndPoint: p.points[b],
			StartByte: uint32(p.at(a)), EndByte: uint32(p.at(b))}
	}
	var rs []sitter.Range
	if p.lo > 0 {
		rs = append(rs, rng(0, 1))
	}
	rs = append(rs, rng(i+1, i+2))
	if last := len(p.points) - 1; p.hi < len(p.src) {
		rs = append(rs, rng(last-1, last))
	}
	return rs
}

// at is the offset of p.points[k].
func (p *pieces) at(k int) int {
	switch {
	case k == 0:
		return 0
	case k <= len(p.cuts):
		return p.cuts[k-1]
	}
	return len(p.src)
}

// errPiece marks a piece whose tree does not fit the others.
type errPiece struct{}

func (errPiece) Error() string { return "a piece does not fit" }

// run locates piece i's run in its records: the children of the container
// that lie in [c(i), c(i+1)). It returns the index of the first, the
// index past the last one's subtree, the last one, and the container's
// ancestors and itself (the spine).
func (p *pieces) run(recs []Node, i int, spine []int32) (a, b, last int32, _ []int32, err error) {
	if len(recs) == 0 || recs[0].Flags&HasError != 0 {
		return 0, 0, 0, spine, errPiece{}
	}
	lo, hi := uint32(p.cuts[i]), uint32(p.cuts[i+1])
	spine = append(spine[:0], 0)
	x := int32(0)
	for descended := true; descended; {
		descended = false
		for c := FirstChild(recs, x); c >= 0 && int(c) < len(recs); c = recs[c].Next {
			if recs[c].StartByte < lo && recs[c].EndByte > lo {
				x = c
				spine = append(spine, c)
				descended = true
				break
			}
		}
	}
	// The container's children: those before the run end before lo (in
	// the region before the container's, which precedes c0), those of
	// the run lie in [lo, hi), those after it start at or after ck.
	a, last = -1, -1
	phase := 0
	for c := FirstChild(recs, x); c >= 0; c = recs[c].Next {
		if int(c) >= len(recs) {
			return 0, 0, 0, spine, errPiece{}
		}
		n := &recs[c]
		switch {
		case n.EndByte <= uint32(p.lo) && n.StartByte < uint32(p.lo) && phase == 0:
		case n.StartByte >= lo && n.EndByte <= hi && n.EndByte > n.StartByte && phase <= 1:
			if phase == 0 {
				a, phase = c, 1
			}
			last = c
		case n.StartByte >= uint32(p.hi) && phase >= 1:
			phase = 2
		default:
			return 0, 0, 0, spine, errPiece{}
		}
	}
	if a < 0 {
		return 0, 0, 0, spine, errPiece{}
	}
	b = recs[last].Next
	for k := len(spine) - 1; b < 0 && k >= 0; k-- {
		b = recs[spine[k]].Next
	}
	if b < 0 {
		b = int32(len(recs))
	}
	return a, b, last, spine, nil
}

// tailRef encodes a Next that points into the tail, whose place in the
// joined records is known only at the end.
func tailRef(n, b int32) int32 {
	if n < b {
		return n
	}
	return -2 - (n - b)
}

// check finds piece i's run of the container's children in recs (run)
// and checks it: the first piece's head and tail are kept, every later
// piece's spine must be the first's. It returns the run a..b-1 and the
// piece's last child, or an errPiece when the piece does not fit.
func (p *pieces) check(recs []Node, i int) (a, b, last int32, err error) {
	a, b, last, p.spine, err = p.run(recs, i, p.spine)
	if err != nil {
		return 0, 0, 0, err
	}
	if i == 0 {
		p.keep(recs, a, b)
	} else if err := p.same(recs, a, b, p.spine); err != nil {
		return 0, 0, 0, err
	}
	return a, b, last, nil
}

// join adds piece i, flattened in recs, and returns the joined records
// after the last piece. Each piece's run is copied out of the records
// (the buffer of the next piece's). The joined records are the largest
// thing the file holds until its statements are built, so they are not
// made only at the end from runs kept apart (the file's records twice):
// at the second piece they are made for the records the file would hold
// at that piece's records per byte (the first piece also holds what
// precedes the container's children) and a thirty-second more, and the
// runs are copied into them as they come. Runs that do not fit are kept
// apart and joined at the end as before, and joined records that fill
// less than three quarters of their room are copied to their size.
func (p *pieces) join(recs []Node, i int) ([]Node, error) {
	a, b, last, err := p.check(recs, i)
	if err != nil {
		return nil, err
	}
	off := int32(p.n)
	if p.n+int(b-a)+len(p.tail) >= math.MaxInt32 {
		return nil, errPiece{}
	}
	var run []Node
	if i == 1 {
		rest := int64(p.hi - p.cuts[i])
		est := rest * int64(b-a) / int64(max(p.cuts[i+1]-p.cuts[i], 1))
		est += est/32 + int64(p.n+len(p.tail)) + 64
		p.out = make([]Node, 0, min(est, math.MaxInt32))
		p.out = append(p.out, p.head...)
		p.out = append(p.out, p.runs[0]...)
		p.runs[0] = nil
		p.runs = p.runs[:0]
	}
	if i >= 1 && len(p.runs) == 0 && len(p.out)+int(b-a) <= cap(p.out) {
		p.out = append(p.out, recs[a:b]...)
		run = p.out[off:]
	} else {
		run = append([]Node(nil), recs[a:b]...)
		p.runs = append(p.runs, run)
	}
	for j := range run {
		if n := run[j].Next; n >= a && n < b {
			run[j].Next = n - a + off
		}
	}
	p.n += len(run)
	lastMid := &run[last-a]
	if i < len(p.cuts)-2 {
		lastMid.Next = int32(p.n) // the next piece's first child
		return nil, nil
	}
	// The last piece: its run's last child leads to the tail; the spine
	// ends where the last piece's does.
	lastMid.Next = tailRef(recs[last].Next, b)
	var out []Node
	if room := cap(p.out) - len(p.out) - len(p.tail); len(p.runs) == 0 && room >= 0 && room <= cap(p.out)/4 {
		out = p.out
	} else {
		out = make([]Node, 0, p.n+len(p.tail))
		out = append(out, p.out...)
		for k, run := range p.runs {
			out = append(out, run...)
			p.runs[k] = nil
		}
	}
	p.out, p.runs = nil, nil
	for _, s := range p.spine {
		out[s].EndByte, out[s].EndRow = recs[s].EndByte, recs[s].EndRow
	}
	end := int32(len(out))
	out = append(out, p.tail...)
	for j := range out {
		if n := out[j].Next; n <= -2 {
			out[j].Next = end + (-2 - n)
		} else if j >= int(end) && n >= 0 {
			out[j].Next = n + end
		}
	}
	return out, nil
}

// keep keeps the head and the tail of the first piece, flattened in
// recs, whose run is [a, b): every piece must have them alike.
func (p *pieces) keep(recs []Node, a, b int32) {
	p.head = append([]Node(nil), recs[:a]...)
	for j := range p.head {
		p.head[j].Next = tailRef(p.head[j].Next, b)
	}
	p.tail = append([]Node(nil), recs[b:]...)
	for j := range p.tail {
		if p.tail[j].Next >= 0 {
			p.tail[j].Next -= b
		}
	}
	p.n = len(p.head)
}

// visit checks piece i, flattened in recs, as join does, and hands its
// children of the container to each; it reports whether i was the last
// piece. An errPiece says that the piece does not fit.
func (p *pieces) visit(recs []Node, i int, each func(Piece) error) (bool, error) {
	a, b, last, err := p.check(recs, i)
	if err != nil {
		return false, err
	}
	if p.n+int(b-a)+len(p.tail) >= math.MaxInt32 {
		return false, errPiece{}
	}
	p.n += int(b - a)
	container := p.spine[len(p.spine)-1]
	first := a
	if i == 0 {
		first = FirstChild(recs, container)
	}
	final := i == len(p.cuts)-2
	if final {
		for recs[last].Next >= 0 {
			last = recs[last].Next
		}
	}
	return final, each(Piece{Recs: recs, Container: container, First: first, Last: last, Run: a, Tail: b, Final: final})
}

// same reports whether piece recs, whose run is [a, b), has the first
// piece's head and tail.
func (p *pieces) same(recs []Node, a, b int32, spine []int32) error {
	if int(a) != len(p.head) || len(recs)-int(b) != len(p.tail) {
		return errPiece{}
	}
	onSpine := 0
	for j := range p.head {
		h, r := p.head[j], recs[j]
		r.Next = tailRef(r.Next, b)
		if onSpine < len(spine) && spine[onSpine] == int32(j) {
			onSpine++
			// The spine's ends are the pieces' own where they fall in a
			// run (no text before lo, or none from hi).
			if h.StartByte >= uint32(p.lo) {
				h.StartByte, h.StartRow, r.StartByte, r.StartRow = 0, 0, 0, 0
			}
			if r.EndByte <= uint32(p.hi) || h.EndByte <= uint32(p.hi) {
				h.EndByte, h.EndRow, r.EndByte, r.EndRow = 0, 0, 0, 0
			}
		}
		if h != r {
			return errPiece{}
		}
	}
	if onSpine != len(spine) {
		return errPiece{}
	}
	for j := range p.tail {
		r := recs[int(b)+j]
		if r.Next >= 0 {
			r.Next -= b
		}
		if r != p.tail[j] {
			return errPiece{}
		}
	}
	return nil
}
