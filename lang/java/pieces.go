package java

import (
	"context"
	"iter"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/frontend"
	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

// A large file is parsed in pieces of a container's children
// (tsflat.ParsePieces): of a class body or a block, below the file's
// root, so that a one-class file of a megabyte never has its whole tree,
// nor its whole records, in memory. The outline and the statement
// mapping walk the file as they walk its whole records, once, from the
// root: each is a walk of the first piece's records that, when its loop
// over the container's children reaches the piece's tail, waits for the
// next piece and goes on with that piece's run, and walks the tail of
// the last piece after the container's last child. The records of the
// head (the container's ancestors, the container and what precedes the
// cut region) are alike in every piece and keep their indexes, so the
// walk's own state (its loop variables, its output, the doc row of a
// comment before a member cut from it) is the one the whole walk would
// have. A walk waits inside its loop, so each runs in a coroutine
// (iter.Pull) that the pieces resume.
//
// A walk of the statements that ends before the last piece did not go
// through the container (it met it where it does not map a body's
// children one by one), and a walk that has not ended after the last
// piece is lost: either makes the file parse whole (tsflat.ErrMisfit).
// Before the whole parse (a piece that does not fit, or ErrMisfit) the
// walks are stopped and what they made is dropped (Piece.Abandoned), so
// that the statements of all the pieces but the last do not stay beside
// the whole file's tree.
// The outline does not read method bodies, so it may end in the first
// piece when the container is a block; it reads nothing of the
// container's children then.

// stopWalk unwinds a walk stopped while it waits for a piece.
type stopWalk struct{}

// walker runs walk in a coroutine that pause suspends until the next
// piece; resume runs it on to its next pause or its end, and reports
// whether it ended.
type walker struct {
	next  func() (struct{}, bool)
	stop  func()
	ended bool
}

func newWalker(walk func(pause func())) *walker {
	w := &walker{}
	w.next, w.stop = iter.Pull(func(yield func(struct{}) bool) {
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stopWalk); !ok {
					panic(r)
				}
			}
		}()
		walk(func() {
			if !yield(struct{}{}) {
				panic(stopWalk{})
			}
		})
	})
	return w
}

func (w *walker) resume() bool {
	if !w.ended {
		if _, ok := w.next(); !ok {
			w.ended = true
		}
	}
	return w.ended
}

// pieceMap maps a file piece by piece: the outline over each piece's
// records, then the statements over the nodes written over them.
type pieceMap struct {
	ctx      context.Context
	src      []byte
	f        *lang.File
	o        outliner
	b        *builder
	ow, bw   *walker
	oRun     int32 // the run's first record in the current piece
	bRun     int32 // its node
	finished bool  // the last piece was mapped
}

// piece maps one piece (tsflat.ParsePieces).
func (m *pieceMap) piece(pc tsflat.Piece) error {
	if pc.Abandoned {
		m.abandon() // the file is parsed whole next
		return nil
	}
	if err := m.ctx.Err(); err != nil {
		return err
	}
	if m.ow != nil && m.ow.ended && m.bw.ended {
		return tsflat.ErrMisfit
	}
	tail := pc.Tail
	if pc.Final {
		tail = -1 // the walks go on into the tail
	}
	m.oRun = pc.Run
	if m.ow == nil {
		m.o = outliner{n: pc.Recs, src: m.b.src, f: m.f, base: len(m.f.Symbols), container: pc.Container, tail: tail}
		m.ow = newWalker(func(pause func()) {
			m.o.nextPiece = func() int32 {
				pause()
				return m.oRun
			}
			m.o.members(0, -1, "")
		})
	} else {
		m.o.n, m.o.tail = pc.Recs, tail
	}
	if oEnded := m.ow.resume(); pc.Final && !oEnded {
		return tsflat.ErrMisfit
	}

	// The records are written over by the nodes: the outline is done
	// with this piece.
	marks := [...]int32{pc.Container, pc.Run, pc.Tail}
	nodes, err := flatten(m.ctx, pc.Recs, m.src, marks[:])
	if err != nil {
		return err
	}
	b := m.b
	b.n, m.bRun = nodes, marks[1]
	b.tail = marks[2]
	if pc.Final {
		b.tail = -1
	}
	if m.bw == nil {
		b.container = marks[0]
		if len(nodes) == 0 || nodes[0].kind == kError {
			return tsflat.ErrMisfit
		}
		m.bw = newWalker(func(pause func()) {
			b.nextPiece = func() int32 {
				pause()
				return m.bRun
			}
			m.f.Stmts = b.body(0, false, nil)
		})
	}
	if bEnded := m.bw.resume(); bEnded != pc.Final {
		return tsflat.ErrMisfit
	}
	m.finished = pc.Final
	return nil
}

// close stops the walks that still wait for a piece.
func (m *pieceMap) close() {
	for _, w := range []*walker{m.ow, m.bw} {
		if w != nil {
			w.stop()
		}
	}
	m.o = outliner{}
}

// abandon stops the walks and drops what they made of the pieces
// before the file is parsed whole (tsflat.Piece.Abandoned).
func (m *pieceMap) abandon() {
	m.close()
	m.b.n, m.b.inner, m.b.shadow = nil, nil, nil // a stopped walk's open statements
	m.f.Stmts, m.f.Symbols, m.f.SymbolBlocks, m.f.Imports, m.f.Package = nil, nil, nil, nil, ""
}

// parsePieces parses src (its lexemes counted, lang.CheckLexemes) in
// pieces and maps them into f (pieceMap), with the builder b set up for
// the file, and the symbols left in their blocks when blocks is set. It
// reports false with the whole file's records when the file is not
// parsed in pieces (too small, not cut, a piece that does not fit): f is
// then as it was, and b is to be set up again.
func (p *Parser) parsePieces(ctx context.Context, src []byte, f *lang.File, b *builder, blocks bool) ([]tsflat.Node, bool, error) {
	m := &pieceMap{ctx: ctx, src: src, f: f, b: b}
	defer m.close()
	flat, pieced, n, err := tsflat.ParsePieces(ctx, p.ts, src, tsflat.MaxParseMicros, cut, p.flat, m.piece)
	p.flat = flat
	if err == nil {
		err = lang.CheckSyntaxNodes(n)
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return flat, false, err
	}
	if !pieced || !m.finished {
		f.Stmts, f.Symbols, f.SymbolBlocks, f.Imports, f.Package = nil, nil, nil, nil, ""
		return flat, false, nil
	}
	tsflat.Collect(len(src)) // the pieces' garbage, before the symbols are joined
	frontend.Symbols(f, &m.o.syms, blocks)
	return flat[:0], true, nil
}
