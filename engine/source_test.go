package engine

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/retrieve"
	"github.com/graphcoder/graphcoder/slice"
	"github.com/graphcoder/graphcoder/token"
)

// fileFromSource builds the record of one file the way the database
// does: one statement per CCG vertex, one entry per statement.
func fileFromSource(t testing.TB, tok token.Tokenizer, path string, src []byte) *retrieve.File {
	l := lang.ForPath(path)
	f, err := l.NewParser().Parse(context.Background(), path, src)
	if err != nil {
		t.Fatal(err)
	}
	g := ccg.Build(f)
	rec := &retrieve.File{Path: path, Language: l.Name, Lines: g.Lines}
	ids := map[string]uint32{}
	var words []string
	for v := range g.Nodes {
		words = tok.Split(words[:0], g.Text(int32(v)))
		var set []uint32
		for _, w := range words {
			id, ok := ids[w]
			if !ok {
				id = uint32(len(rec.Vocab))
				ids[w] = id
				rec.Vocab = append(rec.Vocab, w)
			}
			set = append(set, id)
		}
		slices.Sort(set)
		n := &g.Nodes[v]
		rec.Stmts = append(rec.Stmts, retrieve.Stmt{StartRow: n.StartRow, EndRow: n.EndRow, Tokens: slices.Compact(set), Defs: n.Defs, Params: n.Params})
	}
	var sl slice.Slicer
	for v := range g.Nodes {
		s := sl.Of(g, int32(v), slice.DefaultOptions())
		e := retrieve.Entry{Target: uint32(v), Hop: s.Hop, Edges: s.Edges}
		for _, n := range s.Nodes {
			e.Nodes = append(e.Nodes, uint32(n))
		}
		rec.Entries = append(rec.Entries, e)
	}
	return rec
}

// engineFromSource indexes every source file under repo without a
// database.
func engineFromSource(t testing.TB, repo string) *Engine {
	t.Helper()
	repo, _ = filepath.Abs(repo)
	tok, err := token.ByName("code")
	if err != nil {
		t.Fatal(err)
	}
	b := retrieve.NewBuilder(tok, retrieve.Params{Hops: 5, MaxStatements: 20})
	err = filepath.WalkDir(repo, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() || lang.ForPath(p) == nil {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		r, _ := filepath.Rel(repo, p)
		return b.Add(fileFromSource(t, tok, filepath.ToSlash(r), src))
	})
	if err != nil {
		t.Fatal(err)
	}
	return fromIndex(b.Index(), tok, repo, Options{})
}
