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
	"github.com/graphcoder/graphcoder/internal/mapfile/mapfiletest"
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
	m := mapfiletest.Write(t, mem.WriteTo)
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

// indexTable opens the symbol table of the snapshot file of the index
// GRAPHCODER_INDEX (skipping without one).
func indexTable(tb testing.TB) *symtab.Table {
	dir := os.Getenv("GRAPHCODER_INDEX")
	if dir == "" {
		tb.Skip("GRAPHCODER_INDEX not set")
	}
	d, err := db.Open(dir, db.OpenOptions{ReadOnly: true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.Close() })
	snap, err := d.Snapshot()
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { snap.Close() })
	path, _, ok := snap.SnapshotFile()
	if !ok {
		tb.Skip("the index has no snapshot file")
	}
	im, err := snapfile.Open(path, snap.Meta(), false)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { im.Close() })
	return im.Symbols
}

// TestBestNamedIndex is TestBestNamed on the symbol table of a real index
// (GRAPHCODER_INDEX, e.g. one of the JDK; skipped without): for the names
// of a sample of its files, each file as the buffer.
func TestBestNamedIndex(t *testing.T) {
	tab := indexTable(t)
	v := symtab.NewView(tab).Pin()
	r := rand.New(rand.NewPCG(13, 1))
	compared := 0
	for range 60 {
		f := tab.FileAt(r.IntN(tab.Files()))
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

// BenchmarkByName times the lookup by name of common names on the symbol
// table of a real index (GRAPHCODER_INDEX; on the JDK get has 747
// definitions, toString 2,178), the buffer one of its files
// (GRAPHCODER_BENCH_BUFFER, default the middle one), each lookup on
// outlines none of which are loaded yet, as in a request after the
// loaded ones started again (symtab.MaxLoaded): "kept" is bestNamed,
// "sorted" the sort of every definition with its outline decoded
// (bestNamedSorted) that it replaced; "kept-loaded" is bestNamed once
// what it decodes is loaded.
func BenchmarkByName(b *testing.B) {
	tab := indexTable(b)
	defer func(n int64) { symtab.MaxLoaded = n }(symtab.MaxLoaded)
	symtab.MaxLoaded = 0 // every pin starts with no outline loaded
	base := symtab.NewView(tab)
	f := tab.FileAt(tab.Files() / 2)
	if p := os.Getenv("GRAPHCODER_BENCH_BUFFER"); p != "" {
		if f = base.File(p); f == nil {
			b.Fatalf("no file %s in the index", p)
		}
	}
	b.Logf("buffer %s", f.Path)
	for _, name := range []string{"get", "toString", "run", "close"} {
		for _, way := range []struct {
			name string
			fn   func(*collector, string) ([]symtab.Def, bool)
		}{{"kept", func(c *collector, n string) ([]symtab.Def, bool) { return c.bestNamed(n, nil) }}, {"sorted", bestNamedSorted}} {
			b.Run(name+"/"+way.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					v := base.Pin()
					c := &collector{in: Input{View: v, File: v.File(f.Path)}, o: Options{}.withDefaults()}
					if _, ok := way.fn(c, name); !ok {
						b.Fatalf("no definition called %s", name)
					}
				}
			})
		}
		// The selection alone, the outlines it decodes loaded: one
		// allocation (the definitions returned), whatever the number of
		// definitions ranked.
		b.Run(name+"/kept-loaded", func(b *testing.B) {
			v := base.Pin()
			c := &collector{in: Input{View: v, File: v.File(f.Path)}, o: Options{}.withDefaults()}
			c.bestNamed(name, nil)
			b.ReportAllocs()
			for b.Loop() {
				c.bestNamed(name, nil)
			}
		})
	}
}
