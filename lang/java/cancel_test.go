package java

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
	src := []byte("class A { void f() { int x = 1;\n" + strings.Repeat("x++;\n", 2000) + "} }\n")
	for i := 0; i < 20; i++ {
		_, _ = p.Parse(racingContext{context.Background()}, "A.java", src)
	}
	for i := 0; i < 3; i++ {
		if _, err := p.Parse(context.Background(), "A.java", src); err != nil {
			t.Fatalf("parse %d after a cancelled context: %v", i, err)
		}
	}
}

// soonContext has a deadline a millisecond away but never reports itself
// done, so only the deadline itself can stop a parse.
type soonContext struct{ context.Context }

func (soonContext) Deadline() (time.Time, bool) { return time.Now().Add(time.Millisecond), true }

// A deadline bounds a parse, and the parser works again afterwards.
func TestParseDeadline(t *testing.T) {
	p := NewParser()
	big := []byte("class A { void f() {\n" + strings.Repeat("x = g(a, b, new int[] {c, d});\n", 100_000) + "} }\n")
	start := time.Now()
	if _, err := p.Parse(soonContext{context.Background()}, "A.java", big); err == nil {
		t.Skipf("parsed %d bytes within a millisecond", len(big))
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("parse stopped after %v, want about a millisecond", d)
	}
	if _, err := p.Parse(context.Background(), "B.java", []byte("class B {}\n")); err != nil {
		t.Fatalf("parse after a deadline: %v", err)
	}
}
