package tsflat_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang"
	_ "github.com/graphcoder/graphcoder/lang/golang"
	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
	_ "github.com/graphcoder/graphcoder/lang/java"
	_ "github.com/graphcoder/graphcoder/lang/javascript"
	_ "github.com/graphcoder/graphcoder/lang/python"
	_ "github.com/graphcoder/graphcoder/lang/typescript"
)

// Every front end bounds its parse by MaxParseMicros, without a deadline
// in the context (a front end that passed no bound would parse on).
func TestEveryFrontEndHasTheParseTimeLimit(t *testing.T) {
	usual := tsflat.MaxParseMicros
	defer func() { tsflat.MaxParseMicros = usual }()
	tsflat.MaxParseMicros = 1
	var b strings.Builder
	body := func(format string) string {
		b.Reset()
		for i := range 8000 {
			fmt.Fprintf(&b, format, i)
		}
		return b.String()
	}
	sources := map[string]string{
		"python":     body("x%d = f(a, b, [c, d], {e: g})\n"),
		"java":       "class A {\n" + body("  int f%d() { return g(a, b) + 1; }\n") + "}\n",
		"go":         "package p\n\n" + body("func f%d() int { return g(a, b) + 1 }\n"),
		"javascript": body("let x%d = f(a, b, [c, d], {e: g});\n"),
		"typescript": body("let x%d: number = f(a, b, [c, d], {e: g});\n"),
	}
	langs := lang.Languages()
	if len(langs) < len(sources) {
		t.Fatalf("%d front ends registered, want at least %d", len(langs), len(sources))
	}
	for _, l := range langs {
		src, ok := sources[l.Name]
		if !ok {
			t.Errorf("no test source for front end %s", l.Name)
			continue
		}
		path := "big" + l.Extensions[0]
		_, err := l.Parse(context.Background(), path, []byte(src))
		if !errors.Is(err, sitter.ErrOperationLimit) {
			t.Errorf("%s: a parse limited to 1µs of %d bytes: %v, want %v", l.Name, len(src), err, sitter.ErrOperationLimit)
		}
	}
	// The parsers work again with the usual bound.
	tsflat.MaxParseMicros = usual
	for _, l := range langs {
		if src, ok := sources[l.Name]; ok {
			if _, err := l.Parse(context.Background(), "big"+l.Extensions[0], []byte(src)); err != nil {
				t.Errorf("%s: parse after a timed-out one: %v", l.Name, err)
			}
		}
	}
}
