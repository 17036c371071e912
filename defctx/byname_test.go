package defctx

import (
	"cmp"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/internal/mapfile"
	"github.com/graphcoder/graphcoder/snapfile"
	"github.com/graphcoder/graphcoder/symtab"
)

// bestNamedSorted is the selection bestNamed makes, by a sort of every
// definition called name (symtab.Named: each outline decoded): what
// bestNamed must give exactly.
func bestNamedSorted(c *collector, name string) ([]symtab.Def, bool) {
	var kept []symtab.Def
	for _, d := range c.in.View.Named(name) {
		if k := d.Symbol().Kind; (k.IsCallable() || k.IsType()) && d.File.Language == c.in.File.Language {
			kept = append(kept, d)
		}
	}
	if len(kept) == 0 {
		return nil, false
	}
	rel := c.in.View.Relations(c.in.File)
	rank := func(d symtab.Def) float64 {
		if c.o.NoRank {
			return 0
		}
		return c.in.View.Rank(d.File.Path)
	}
	slices.SortStableFunc(kept, func(a, b symtab.Def) int {
		return cmp.Or(
			-cmp.Compare(rel.RelationOf(a.File), rel.RelationOf(b.File)),
			-cmp.Compare(rank(a), rank(b)),
			strings.Compare(a.File.Path, b.File.Path), cmp.Compare(a.Sym, b.Sym))
	})
	return kept[:min(len(kept), c.o.ByName)], true
}

// storedView writes the repository's table as a snapshot stores it and
// opens it, each outline decoded (made anew) when a lookup first needs it.
func storedView(t testing.TB, r *repo) *symtab.View {
	t.Helper()
	mem := r.table
	path := filepath.Join(t.TempDir(), "sym")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := mapfile.NewWriter(f)
	if err := mem.WriteTo(w); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	m, err := mapfile.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	st, err := symtab.OpenStored(m, func(id int) *symtab.File {
		o := mem.FileAt(id)
		return symtab.NewFile(o.Path, o.Language, r.repo, o.Package, o.Symbols, o.Imports)
	})
	if err != nil {
		t.Fatal(err)
	}
	return symtab.NewView(st)
}

// TestBestNamed: the definitions found by name, chosen as they come
// (bestNamed), are those a sort of them all gives, for every name the
// fixtures define and every file of them as the buffer, from tables in
// memory and stored, with and without PageRank, for several bounds.
func TestBestNamed(t *testing.T) {
	for _, dir := range []string{"py", "go", "ts"} {
		r := loadRepo(t, filepath.Join("testdata", dir))
		views := map[string]*symtab.View{"memory": r.view, "stored": storedView(t, r)}
		var names []string
		for p := range r.lines {
			for _, s := range r.view.File(p).Symbols {
				names = append(names, s.Name)
			}
		}
		slices.Sort(names)
		names = append(slices.Compact(names), "noSuchName")
		compared := 0
		for kind, v := range views {
			for p := range r.lines {
				for _, o := range []Options{{ByName: 1}, {ByName: 2}, {ByName: 5, NoRank: true}, {ByName: 50}} {
					f := v.File(p)
					c := &collector{in: Input{View: v, File: f}, o: o.withDefaults()}
					for _, name := range names {
						got, gotFound := c.bestNamed(name, nil)
						want, wantFound := bestNamedSorted(c, name)
						if gotFound != wantFound || !slices.Equal(got, want) {
							t.Fatalf("%s %s, buffer %s, %+v: bestNamed(%s) = %v %v, want %v %v", dir, kind, p, o, name, got, gotFound, want, wantFound)
						}
						compared += len(want)
					}
				}
			}
		}
		if compared == 0 {
			t.Errorf("%s: no definition found by name: the test shows nothing", dir)
		}
	}
}

// TestBestNamedIndex is TestBestNamed on the symbol table of a real index
// (GRAPHCODER_INDEX, e.g. one of the JDK; skipped without): for the names
// of a sample of its files, each file as the buffer.
func TestBestNamedIndex(t *testing.T) {
	dir := os.Getenv("GRAPHCODER_INDEX")
	if dir == "" {
		t.Skip("GRAPHCODER_INDEX not set")
	}
	d, err := db.Open(dir, db.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	snap, err := d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	path, _, ok := snap.SnapshotFile()
	if !ok {
		t.Skip("the index has no snapshot file")
	}
	im, err := snapfile.Open(path, snap.Meta(), false)
	if err != nil {
		t.Fatal(err)
	}
	defer im.Close()
	v := symtab.NewView(im.Symbols).Pin()
	r := rand.New(rand.NewPCG(13, 1))
	compared := 0
	for range 40 {
		f := im.Symbols.FileAt(r.IntN(im.Symbols.Files()))
		c := &collector{in: Input{View: v, File: f}, o: Options{}.withDefaults()}
		for _, s := range f.Symbols {
			got, gotFound := c.bestNamed(s.Name, nil)
			want, wantFound := bestNamedSorted(c, s.Name)
			if gotFound != wantFound || !slices.Equal(got, want) {
				t.Fatalf("buffer %s: bestNamed(%s) = %v %v, want %v %v", f.Path, s.Name, got, gotFound, want, wantFound)
			}
			compared++
		}
	}
	t.Logf("%d names compared", compared)
}
