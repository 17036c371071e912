package tsflat

import (
	"context"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
)

// SyntaxParser runs tree-sitter alone: the syntax tree is built and freed.
// It is the parse floor that index build times are measured against, and
// satisfies lang.SyntaxParser.
type SyntaxParser struct{ ts *sitter.Parser }

// NewSyntaxParser returns a SyntaxParser for the grammar l.
func NewSyntaxParser(l *sitter.Language) SyntaxParser {
	ts := sitter.NewParser()
	ts.SetLanguage(l)
	return SyntaxParser{ts}
}

// ParseSyntax parses src and frees the tree.
func (p SyntaxParser) ParseSyntax(src []byte) error {
	tree, err := Parse(context.Background(), p.ts, src, 0)
	if err != nil {
		return err
	}
	tree.Close()
	return nil
}

// Parse parses src with ts, bounded by maxMicros of parse time (0: no
// bound) and by ctx's deadline. The binding's cancellable parse can leave
// its cancellation flag set when a context is cancelled just as a parse
// completes, and every later parse with that parser then fails; so the
// parse is never handed ctx: ctx is checked around it, and its deadline
// becomes tree-sitter's own time limit, which leaves no state behind. A
// halted parser is reset so the next call starts afresh.
func Parse(ctx context.Context, ts *sitter.Parser, src []byte, maxMicros int64) (*sitter.Tree, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	limit := maxMicros
	if d, ok := ctx.Deadline(); ok {
		left := max(time.Until(d).Microseconds(), 1)
		if limit == 0 || left < limit {
			limit = left
		}
	}
	ts.SetOperationLimit(int(limit))
	tree, err := ts.ParseCtx(context.Background(), nil, src)
	if err != nil {
		ts.Reset()
		if cerr := ctx.Err(); cerr != nil {
			err = cerr
		}
		return nil, err
	}
	return tree, nil
}
