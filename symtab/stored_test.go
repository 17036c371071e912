package symtab

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/graphcoder/graphcoder/internal/mapfile"
	"github.com/graphcoder/graphcoder/internal/mapfile/mapfiletest"
)

// storeTable writes t to a file and opens it stored, with a loader that
// makes each file's record anew from the outline of files (by path), as
// a loader decoding stored outlines does.
func storeTable(tb testing.TB, t *Table, files []*File, repo *Repo) (*Table, *int) {
	tb.Helper()
	m := mapfiletest.Write(tb, t.WriteTo)
	byPath := map[string]*File{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	loads := new(int)
	var mu sync.Mutex // loaders may run at once
	st, err := OpenStored(m, func(id int) *File {
		mu.Lock()
		*loads++
		mu.Unlock()
		o := byPath[t.files[id].Path]
		return NewFile(o.Path, o.Language, repo, o.Package, o.Symbols, o.Imports)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return st, loads
}

// TestStoredTable: a stored table answers every lookup of the golden
// tests as the table it was written from, decoding only the files the
// lookups reach; alone and under a table of changed files.
func TestStoredTable(t *testing.T) {
	for _, dir := range []string{"py", "java", "go", "ts"} {
		files := parseTree(t, filepath.Join("testdata", dir))
		mem := buildTable(t, files, dir)
		st, loads := storeTable(t, mem, files, NewRepo(filepath.Join("testdata", dir)))
		if *loads != 0 {
			t.Errorf("%s: opening loaded %d files", dir, *loads)
		}
		if st.Files() != mem.Files() || NewView(st).Root() != dir {
			t.Fatalf("%s: %d files, root %q", dir, st.Files(), NewView(st).Root())
		}
		want := graphDump(NewView(mem), files)
		if got := graphDump(NewView(st), files); got != want {
			t.Errorf("%s: stored table's graph:\n%s\nwant:\n%s", dir, got, want)
		}
		// A fresh stored table: NamedRefs ranks without loading outlines.
		fresh, freshLoads := storeTable(t, mem, files, NewRepo(filepath.Join("testdata", dir)))
		for _, f := range files {
			fv := NewView(fresh)
			rel, memRel := fv.Relations(f), NewView(mem).Relations(f)
			before := *freshLoads
			for _, s := range f.Symbols {
				a := NewView(mem).Named(s.Name)
				i := 0
				for n := range fv.NamedRefs(s.Name) {
					if i >= len(a) {
						t.Fatalf("%s: NamedRefs(%s): more refs than %d definitions", dir, s.Name, len(a))
					}
					d := a[i]
					if n.Sym != d.Sym || n.Kind != d.Symbol().Kind || n.Language != d.File.Language ||
						rel.RelationOfRef(n) != memRel.RelationOf(d.File) || fv.RankOf(n) != NewView(mem).Rank(d.File.Path) {
						t.Fatalf("%s: NamedRefs(%s)[%d] does not describe %s", dir, s.Name, i, d)
					}
					i++
				}
				if i != len(a) {
					t.Fatalf("%s: NamedRefs(%s): %d refs, want %d", dir, s.Name, i, len(a))
				}
			}
			if *freshLoads != before {
				t.Errorf("%s: NamedRefs of the names of %s loaded %d outlines", dir, f.Path, *freshLoads-before)
			}
		}
		for _, f := range files {
			for _, s := range f.Symbols {
				a, b := NewView(mem).Named(s.Name), NewView(st).Named(s.Name)
				if len(a) != len(b) {
					t.Fatalf("%s: Named(%s): %d defs, want %d", dir, s.Name, len(b), len(a))
				}
				for i := range a {
					if a[i].String() != b[i].String() {
						t.Fatalf("%s: Named(%s)[%d] = %s, want %s", dir, s.Name, i, b[i], a[i])
					}
				}
			}
			for _, m := range f.Modules() {
				a, b := NewView(mem).module(m, f.Path), NewView(st).module(m, f.Path)
				if len(a) != len(b) {
					t.Fatalf("%s: module %s: %d files, want %d", dir, m, len(b), len(a))
				}
				for i := range a {
					if a[i].Path != b[i].Path {
						t.Fatalf("%s: module %s: %s, want %s", dir, m, b[i].Path, a[i].Path)
					}
				}
			}
		}
		// A changed file and a removed one on top.
		top := NewBuilder(dir, false)
		top.Add(files[0])
		over := top.Finish()
		removed := []string{files[len(files)-1].Path}
		vm, vs := NewView(mem).With(over, removed), NewView(st).With(over, removed)
		if a, b := graphDump(vm, files[:len(files)-1]), graphDump(vs, files[:len(files)-1]); a != b {
			t.Errorf("%s: layered stored view:\n%s\nwant:\n%s", dir, b, a)
		}
		if vm.Files() != vs.Files() || vs.File(removed[0]) != nil {
			t.Errorf("%s: layered: %d files, want %d", dir, vs.Files(), vm.Files())
		}
		if v := NewView(st); v.File(files[1].Path) != v.File(files[1].Path) {
			t.Errorf("%s: a stored file is loaded twice", dir)
		}
	}
}

func TestStoredResolution(t *testing.T) {
	files := parseTree(t, "testdata/py")
	st, _ := storeTable(t, buildTable(t, files, "py"), files, NewRepo("testdata/py"))
	v := NewView(st)
	got := graphDump(v, files) + resolveAll(t, v, []query{
		{"pkg/sub/deep.py", "", "models.Account.deposit"},
		{"pkg/sub/deep.py", "", "pkg.base.Base.save"},
		{"pkg/sub/deep.py", "", "helper"},
		{"pkg/sub/deep.py", "Report", "self.ledger.post"},
		{"pkg/models.py", "", "Loop.mixed"},
	})
	mv := NewView(buildTable(t, files, "py"))
	want := graphDump(mv, files) + resolveAll(t, mv, []query{
		{"pkg/sub/deep.py", "", "models.Account.deposit"},
		{"pkg/sub/deep.py", "", "pkg.base.Base.save"},
		{"pkg/sub/deep.py", "", "helper"},
		{"pkg/sub/deep.py", "Report", "self.ledger.post"},
		{"pkg/models.py", "", "Loop.mixed"},
	})
	if got != want {
		t.Errorf("stored:\n%s\nwant:\n%s", got, want)
	}
}

// TestStoredRelations: the relations of a file in a stored table are
// those of the table it was written from, and preparing them loads no
// outline of the files importing it (only what resolving its own imports
// loads, and the file itself): a popular file has thousands of importers.
func TestStoredRelations(t *testing.T) {
	for _, dir := range []string{"py", "java", "go", "ts"} {
		files := parseTree(t, filepath.Join("testdata", dir))
		mem := buildTable(t, files, dir)
		repo := NewRepo(filepath.Join("testdata", dir))
		importers := 0
		for _, f := range files {
			mv := NewView(mem)
			importers += len(mv.ImportedBy(f.Path))
			targets, tl := storeTable(t, mem, files, repo)
			NewView(targets).ImportTargets(f)
			st, loads := storeTable(t, mem, files, repo)
			sv := NewView(st)
			rel := sv.Relations(f)
			if *loads > *tl+1 {
				t.Errorf("%s: relations of %s loaded %d files, resolving its imports %d", dir, f.Path, *loads, *tl)
			}
			want := mv.Relations(f)
			for _, g := range files {
				if a, b := rel.Relation(g.Path), want.Relation(g.Path); a != b {
					t.Errorf("%s: relation of %s to %s: stored %v, want %v", dir, f.Path, g.Path, a, b)
				}
			}
			var paths []string
			for _, g := range sv.ImportedBy(f.Path) {
				paths = append(paths, g.Path)
			}
			var wantPaths []string
			for _, g := range mv.ImportedBy(f.Path) {
				wantPaths = append(wantPaths, g.Path)
			}
			if !slices.Equal(paths, wantPaths) {
				t.Errorf("%s: %s imported by %v, want %v", dir, f.Path, paths, wantPaths)
			}
		}
		if importers == 0 {
			t.Errorf("%s: no file has importers: the test shows nothing", dir)
		}
	}
}

// TestStoredPin: a pinned view keeps the outlines it loads for itself
// (the same file is the same *File), answers as an unpinned one, and
// once the table has loaded more than MaxLoaded files the next pin starts
// again from none, leaving views pinned before unchanged.
func TestStoredPin(t *testing.T) {
	defer func(n int64) { MaxLoaded = n }(MaxLoaded)
	MaxLoaded = 2
	files := parseTree(t, filepath.Join("testdata", "java"))
	mem := buildTable(t, files, "java")
	st, loads := storeTable(t, mem, files, NewRepo(filepath.Join("testdata", "java")))
	if len(files) < 4 {
		t.Fatalf("%d files: too few to pass MaxLoaded", len(files))
	}
	first := NewView(st).Pin()
	for _, f := range files {
		if g := first.File(f.Path); g == nil || g != first.File(f.Path) {
			t.Fatalf("pinned view: %s loaded as %p then %p", f.Path, g, first.File(f.Path))
		}
	}
	if *loads != len(files) {
		t.Fatalf("pinned view loaded %d files, want %d", *loads, len(files))
	}
	second := NewView(st).Pin() // past MaxLoaded: starts again
	f0 := files[0].Path
	if second.File(f0) == first.File(f0) || *loads != len(files)+1 {
		t.Errorf("the pin after %d loads reuses the loaded files (%d loads)", len(files), *loads)
	}
	if first.File(f0) != first.File(f0) || *loads != len(files)+1 {
		t.Error("the first pinned view loaded again")
	}
	want := graphDump(NewView(mem), files)
	for _, v := range []*View{first, second, NewView(st).Pin()} {
		if got := graphDump(v, files); got != want {
			t.Errorf("pinned view's graph:\n%s\nwant:\n%s", got, want)
		}
	}
	mv := NewView(mem)
	if v := mv.Pin(); v != mv {
		t.Error("pinning a view of an in-memory table made a new view")
	}
}

// TestStoredPinConcurrent: views pinned and read at once while the
// loaded files keep starting again (go test -race) each see every file
// once, as the table it was written from has it.
func TestStoredPinConcurrent(t *testing.T) {
	defer func(n int64) { MaxLoaded = n }(MaxLoaded)
	MaxLoaded = 1
	files := parseTree(t, filepath.Join("testdata", "py"))
	mem := buildTable(t, files, "py")
	st, _ := storeTable(t, mem, files, NewRepo(filepath.Join("testdata", "py")))
	want := graphDump(NewView(mem), files)
	errs := make(chan string, 8)
	for range 8 {
		go func() {
			for range 5 {
				v := NewView(st).Pin()
				if got := graphDump(v, files); got != want {
					errs <- got
					return
				}
				for _, f := range files {
					if v.File(f.Path) != v.File(f.Path) {
						errs <- "a pinned view loaded " + f.Path + " twice"
						return
					}
				}
			}
			errs <- ""
		}()
	}
	for range 8 {
		if e := <-errs; e != "" {
			t.Errorf("pinned view:\n%s\nwant:\n%s", e, want)
		}
	}
}

// TestStoredResolveAll: in every file and class scope of the fixtures,
// every name they define, and each as an attribute of every module name
// they have (pkg.Name), resolves in a stored table, alone and under a
// table of a changed file, as in the table it was written from, and as
// when the stored table does not say which definitions are top-level (a
// table of layout version 2: module members are looked for in the
// module's files, in order): a module's member found among the
// definitions of its name (firstDefining) is the one the module's files
// give.
func TestStoredResolveAll(t *testing.T) {
	for _, dir := range []string{"py", "java", "go", "ts"} {
		files := parseTree(t, filepath.Join("testdata", dir))
		mem := buildTable(t, files, dir)
		st, _ := storeTable(t, mem, files, NewRepo(filepath.Join("testdata", dir)))
		byFiles, _ := storeTable(t, mem, files, NewRepo(filepath.Join("testdata", dir)))
		byFiles.st.tops = false
		var paths [][]string
		seen := map[string]bool{}
		add := func(p ...string) {
			if k := strings.Join(p, "."); !seen[k] {
				seen[k] = true
				paths = append(paths, p)
			}
		}
		for _, f := range files {
			for _, s := range f.Symbols {
				add(s.Name)
				for _, m := range f.Modules() {
					add(append(strings.Split(m, "."), s.Name)...)
				}
			}
		}
		top := NewBuilder(dir, false)
		top.Add(files[0])
		over := top.Finish()
		views := [][2]*View{{NewView(byFiles), NewView(st)}, {NewView(byFiles), NewView(mem)},
			{NewView(byFiles).With(over, nil), NewView(st).With(over, nil)}, {NewView(byFiles).With(over, nil), NewView(mem).With(over, nil)}}
		resolved := 0
		for _, vs := range views {
			for _, f := range files {
				scopes := []int{-1}
				for i, s := range f.Symbols {
					if s.Kind.IsType() {
						scopes = append(scopes, i)
					}
				}
				rm, rs := vs[0].Resolver(vs[0].File(f.Path)), vs[1].Resolver(vs[1].File(f.Path))
				for _, class := range scopes {
					for _, p := range paths {
						a, b := defs(rm.Path(p, class)), defs(rs.Path(p, class))
						if a != b {
							t.Fatalf("%s: %s in %s [%d]: %s, want %s", dir, strings.Join(p, "."), f.Path, class, b, a)
						}
						if a != "-" {
							resolved++
						}
					}
				}
			}
		}
		if resolved == 0 {
			t.Errorf("%s: nothing resolved: the test shows nothing", dir)
		}
	}
}

// TestStoredDamaged: a stored table missing any one of its sections, or
// with one of its sections cut short, does not open, and says it is
// damaged (ErrStored).
func TestStoredDamaged(t *testing.T) {
	files := parseTree(t, filepath.Join("testdata", "py"))
	whole := mapfiletest.Write(t, buildTable(t, files, "r").WriteTo)
	load := func(int) *File { return nil }
	if _, err := OpenStored(whole, load); err != nil {
		t.Fatal(err)
	}
	secs := whole.Sections()
	if len(secs) < 20 {
		t.Fatalf("%d sections, want the import graph's and version 2's too", len(secs))
	}
	for _, drop := range secs {
		for _, cut := range []bool{false, true} {
			m := mapfiletest.Write(t, func(w *mapfile.Writer) error {
				for _, s := range secs {
					b, err := whole.Section(s.Name)
					if err != nil {
						return err
					}
					if s.Name == drop.Name {
						if !cut {
							continue
						}
						if len(b) == 0 {
							b = []byte{1} // longer, where shorter cannot be
						} else {
							b = b[:len(b)-min(len(b), 8)]
						}
					}
					if err := w.Section(s.Name, b); err != nil {
						return err
					}
				}
				return nil
			})
			if _, err := OpenStored(m, load); !errors.Is(err, ErrStored) {
				t.Errorf("%s (cut %v): %v, want %v", drop.Name, cut, err, ErrStored)
			}
		}
	}
}
