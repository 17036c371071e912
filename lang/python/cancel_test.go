package python

import (
	"context"
	"strings"
	"testing"
	"time"
)

// racingContext models a context cancelled at the instant a parse runs:
// Done has fired but Err is not yet observed by the caller's check.
type racingContext struct{ context.Context }

func (racingContext) Done() <-chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}

// A context cancelled while a parse runs must never break the parser for
// the next call.
func TestParserSurvivesCancelledContexts(t *testing.T) {
	p := NewParser()
	// Large enough that tree-sitter polls its cancellation flag.
	src := []byte("x = 1\n" + strings.Repeat("x += 1\n", 2000))
	for i := 0; i < 20; i++ {
		_, _ = p.Parse(racingContext{context.Background()}, "a.py", src)
	}
	for i := 0; i < 3; i++ {
		if _, err := p.Parse(context.Background(), "a.py", src); err != nil {
			t.Fatalf("parse %d after a cancelled context: %v", i, err)
		}
	}
}

// A context already cancelled fails the parse with its error.
func TestParseCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewParser().Parse(ctx, "a.py", []byte("x = 1\n")); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("Parse with a cancelled context: err = %v, want context canceled", err)
	}
}

// soonContext has a deadline a millisecond away but never reports itself
// done, so only the deadline itself can stop a parse.
type soonContext struct{ context.Context }

func (soonContext) Deadline() (time.Time, bool) { return time.Now().Add(time.Millisecond), true }

// A deadline bounds a parse, and the parser works again afterwards.
func TestParseDeadline(t *testing.T) {
	p := NewParser()
	big := []byte(strings.Repeat("x = f(a, b, [c, d], {e: g})\n", 100_000))
	start := time.Now()
	if _, err := p.Parse(soonContext{context.Background()}, "big.py", big); err == nil {
		t.Skipf("parsed %d bytes within a millisecond", len(big))
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("parse stopped after %v, want about a millisecond", d)
	}
	if _, err := p.Parse(context.Background(), "a.py", []byte("x = 1\n")); err != nil {
		t.Fatalf("parse after a deadline: %v", err)
	}
}
