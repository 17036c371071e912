package java

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
	sitter "github.com/smacker/go-tree-sitter"
)

// bundleSource is a generated resource bundle: one method returning an
// array initialiser of string pairs full of escape sequences.
func bundleSource() []byte {
	var sb strings.Builder
	sb.WriteString("package p;\n\npublic class Names extends Bundle {\n    @Override\n    protected final Object[][] getContents() {\n")
	sb.WriteString("        final String meta = \"\\u10d9\\u10d0\\u10dc\";\n        final Object[][] data = new Object[][] {\n")
	for i := range 300 {
		fmt.Fprintf(&sb, "            { \"k%d\", \"\\u10d9\\u10d0 %d \\t\\\"q\\\" \\u10e3\" },\n", i, i)
	}
	sb.WriteString("            { \"m\", meta },\n        };\n        return data;\n    }\n}\n")
	return []byte(sb.String())
}

// TestPruneUnchanged: leaving the children of string literals out of
// the records (tsflat.Prune) changes neither the parse (statements,
// outline, errors) nor the outline alone, on whole files of java.base
// and a generated bundle and on prefixes of them cut at random bytes
// (inside literals too, where a string holds a syntax error), with and
// without closing braces appended.
func TestPruneUnchanged(t *testing.T) {
	ctx := context.Background()
	srcs := [][]byte{bundleSource()}
	for _, f := range sample(javaBase(t), 120) {
		srcs = append(srcs, f.src)
	}
	r := rand.New(rand.NewPCG(3, 4))
	var cases [][]byte
	for _, src := range srcs {
		cases = append(cases, src)
		for range 3 {
			cut := src[:r.IntN(len(src)+1)]
			cases = append(cases, cut, append(bytes.Clone(cut), "\"\n}}}}\n"...), append(bytes.Clone(cut), "\n}}}}\n"...))
		}
	}
	parse := func(src []byte) (any, any) {
		p := NewParser()
		f, err := p.Parse(ctx, "x.java", src)
		o, oerr := p.Outline(ctx, "x.java", src)
		return []any{f, err}, []any{o, oerr}
	}
	type result struct{ parse, outline any }
	pruned := make([]result, len(cases))
	for i, src := range cases {
		pruned[i].parse, pruned[i].outline = parse(src)
	}
	tsflat.Prune(language) // nothing left out
	defer tsflat.Prune(language, "string_literal")
	for i, src := range cases {
		f, o := parse(src)
		if !reflect.DeepEqual(f, pruned[i].parse) {
			t.Fatalf("case %d (%d bytes): the parse with the string literals' children left out differs", i, len(src))
		}
		if !reflect.DeepEqual(o, pruned[i].outline) {
			t.Fatalf("case %d (%d bytes): the outline with the string literals' children left out differs", i, len(src))
		}
	}
}

// TestPruneActive: Java's whole parses do leave the insides of string
// literals out of their records (the front end registers them in its
// init), so that TestPruneUnchanged compares two different parses.
func TestPruneActive(t *testing.T) {
	ts := sitter.NewParser()
	defer ts.Close()
	ts.SetLanguage(language)
	recs, n, err := tsflat.ParseFlat(context.Background(), ts, bundleSource(), 0, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) >= n {
		t.Fatalf("%d records of %d: a bundle's whole parse left no string literal's children out", len(recs), n)
	}
}
