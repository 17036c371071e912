package retrieve

import (
	"context"
	"github.com/graphcoder/graphcoder/internal/realcode"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	_ "github.com/graphcoder/graphcoder/lang/python"
	"github.com/graphcoder/graphcoder/slice"
)

const deriveSample = `import os

def walk(root, skip=None):
    seen = set()
    for dirpath, names, files in os.walk(root):
        if skip and skip(dirpath):
            continue
        for f in files:
            p = os.path.join(dirpath, f)
            if p in seen:
                break
            seen.add(p)
            try:
                st = os.stat(p)
            except OSError as e:
                print(e)
                continue
            else:
                yield p, st.st_size
    while seen:
        x = seen.pop()
        x += 1
    return len(seen)
`

// The index stores no slice edges or hops: it derives them from each
// file's edge union. Slices made by package slice must all be derived
// exactly, none kept as an exception.
func TestDerivedSlices(t *testing.T) {
	sources := map[string][]byte{"sample.py": []byte(deriveSample)}
	stdlib := realcode.PythonStdlib()
	for _, name := range []string{"argparse.py", "json/decoder.py", "asyncio/base_events.py", "tarfile.py"} {
		if src, err := os.ReadFile(filepath.Join(stdlib, name)); err == nil {
			sources[name] = src
		}
	}
	l := lang.ForPath("x.py")
	for name, src := range sources {
		f, err := l.NewParser().Parse(context.Background(), name, src)
		if err != nil {
			t.Fatal(err)
		}
		g := ccg.Build(f)
		file := &File{Path: name, Language: l.Name, Lines: g.Lines}
		var want []*slice.Slice
		for v := range g.Nodes {
			file.Stmts = append(file.Stmts, Stmt{StartRow: g.Nodes[v].StartRow, EndRow: g.Nodes[v].EndRow})
			s := slice.Of(g, int32(v), slice.DefaultOptions())
			want = append(want, s)
			e := Entry{Target: uint32(v), Hop: s.Hop, Edges: s.Edges}
			for _, n := range s.Nodes {
				e.Nodes = append(e.Nodes, uint32(n))
			}
			file.Entries = append(file.Entries, e)
		}
		b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 20})
		if err := b.Add(file); err != nil {
			t.Fatal(err)
		}
		ix := b.Index()
		if len(ix.explicit) != 0 {
			t.Errorf("%s: %d of %d slices not derived", name, len(ix.explicit), ix.Len())
		}
		var fs fineScratch
		for e, s := range want {
			ix.graphOf(uint32(e), &fs)
			if fs.g.Target != s.Target || !slices.Equal(fs.g.Hop, s.Hop) || !slices.Equal(fs.g.Edges, s.Edges) {
				t.Fatalf("%s entry %d: derived target %d hops %v edges %v, want %d %v %v",
					name, e, fs.g.Target, fs.g.Hop, fs.g.Edges, s.Target, s.Hop, s.Edges)
			}
		}
	}
}
