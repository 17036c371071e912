package db

import (
	"context"
	"strings"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/slice"
)

// The tests of this package index files of a fake language (".fk") whose
// every non-blank line is a statement, with a CF edge from the previous
// one; a statement's slice is it and up to l-1 statements before it. It
// keeps the storage tests independent of the real front ends.

type fakeParser struct{}

func (fakeParser) Parse(ctx context.Context, path string, src []byte) (*lang.File, error) {
	f := &lang.File{Path: path, Language: "fake", Lines: strings.Split(string(src), "\n")}
	for i, l := range f.Lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		kind := lang.Simple
		if strings.HasPrefix(strings.TrimSpace(l), "if") {
			kind = lang.If
		}
		if strings.Contains(l, "ERROR") {
			kind = lang.Error
			f.Errors++
		}
		f.Stmts = append(f.Stmts, &lang.Stmt{Kind: kind, StartRow: i, EndRow: i})
	}
	return f, nil
}

func init() {
	lang.Register(&lang.Language{Name: "fake", Extensions: []string{".fk"}, CommentPrefix: "#",
		NewParser: func() lang.Parser { return fakeParser{} }})
}

// fakeAnalyze stands in for the front end, graph builder and slicer.
func fakeAnalyze(ctx context.Context, b *Builder, l *lang.Language, path string, content []byte) (*analysis, error) {
	f, err := fakeParser{}.Parse(ctx, path, content)
	if err != nil {
		return nil, err
	}
	g := &ccg.Graph{Path: path, Language: f.Language, Lines: f.Lines}
	for i, s := range f.Stmts {
		g.Nodes = append(g.Nodes, ccg.Node{Kind: s.Kind, StartRow: s.StartRow, EndRow: s.EndRow, Scope: ccg.NoScope})
		if i > 0 {
			g.Edges = append(g.Edges, ccg.Edge{From: int32(i - 1), To: int32(i), Type: ccg.CF})
		}
	}
	a := &analysis{graph: g, syntaxErrors: f.Errors}
	var slices []slice.Slice
	for v := range g.Nodes {
		lo := max(0, v-b.slice.MaxStatements+1)
		s := slice.Slice{Target: v - lo}
		for u := lo; u <= v; u++ {
			s.Nodes = append(s.Nodes, int32(u))
			s.Hop = append(s.Hop, uint8(min(v-u, 255)))
			if u > lo {
				s.Edges = append(s.Edges, slice.Edge{From: uint16(u - 1 - lo), To: uint16(u - lo), Type: ccg.CF})
			}
		}
		slices = append(slices, s)
	}
	a.sliceOf = func(v int32) *slice.Slice { return &slices[v] }
	return a, nil
}
