package symtab

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/internal/golden"
	"github.com/graphcoder/graphcoder/lang"
	_ "github.com/graphcoder/graphcoder/lang/golang"
	_ "github.com/graphcoder/graphcoder/lang/java"
	_ "github.com/graphcoder/graphcoder/lang/javascript"
	_ "github.com/graphcoder/graphcoder/lang/python"
	_ "github.com/graphcoder/graphcoder/lang/typescript"
)

// parseTree parses every file under dir into outlines.
func parseTree(t testing.TB, dir string) []*File {
	t.Helper()
	var out []*File
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		l := lang.ForPath(p)
		if l == nil {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		f, err := l.Parse(context.Background(), rel, src)
		if err != nil {
			return err
		}
		out = append(out, FromLang(f, l, NewRepo(dir)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func buildTable(t testing.TB, files []*File, root string) *Table {
	t.Helper()
	b := NewBuilder(root, true)
	for _, f := range files {
		if err := b.Add(f); err != nil {
			t.Fatal(err)
		}
	}
	return b.Finish()
}

func defs(t Target) string {
	if t.Module != "" {
		return "module " + t.Module
	}
	if len(t.Defs) == 0 {
		return "-"
	}
	var parts []string
	for _, d := range t.Defs {
		parts = append(parts, fmt.Sprintf("%s %s", d.Symbol().Kind, d))
	}
	return strings.Join(parts, ", ")
}

// query is one resolution: a dotted path read in file, inside the class
// named class ("" at top level).
type query struct{ file, class, path string }

func resolveAll(t *testing.T, v *View, qs []query) string {
	var b strings.Builder
	for _, q := range qs {
		f := v.File(q.file)
		if f == nil {
			t.Fatalf("no file %s", q.file)
		}
		class := -1
		for i, s := range f.Symbols {
			if q.class != "" && s.Kind.IsType() && f.Symbols[i].Name == q.class {
				class = i
			}
		}
		r := v.Resolver(f)
		fmt.Fprintf(&b, "%s [%s] %s -> %s\n", q.file, q.class, q.path, defs(r.Path(strings.Split(q.path, "."), class)))
	}
	return b.String()
}

func graphDump(v *View, files []*File) string {
	var b strings.Builder
	for _, f := range files {
		var to, from []string
		for _, g := range v.ImportTargets(f) {
			to = append(to, g.Path)
		}
		for _, g := range v.ImportedBy(f.Path) {
			from = append(from, g.Path)
		}
		fmt.Fprintf(&b, "%s modules=%q imports=%v imported-by=%v rank=%.2f\n", f.Path, f.Modules(), to, from, v.Rank(f.Path))
	}
	return b.String()
}

func TestPythonResolution(t *testing.T) {
	files := parseTree(t, "testdata/py")
	v := NewView(buildTable(t, files, "py"))
	got := graphDump(v, files) + resolveAll(t, v, []query{
		{"pkg/sub/deep.py", "", "models"},
		{"pkg/sub/deep.py", "", "models.Account"},
		{"pkg/sub/deep.py", "", "models.Account.deposit"},
		{"pkg/sub/deep.py", "", "Acc"},
		{"pkg/sub/deep.py", "", "Account"}, // the local def shadows the import
		{"pkg/sub/deep.py", "", "pkg"},
		{"pkg/sub/deep.py", "", "pkg.base.Base.save"},
		{"pkg/sub/deep.py", "", "helper"}, // through __init__'s wildcard of util
		{"pkg/sub/deep.py", "", "missing.module"},
		{"pkg/sub/deep.py", "", "nothing"},
		{"pkg/sub/deep.py", "Report", "self.deposit"}, // a member of the base class
		{"pkg/sub/deep.py", "Report", "self.save"},    // two bases up
		{"pkg/sub/deep.py", "Report", "self.ledger.post"},
		{"pkg/sub/deep.py", "Report", "super.deposit"},
		{"pkg/sub/deep.py", "Report", "deposit"}, // Python reads members through self only
		{"pkg/models.py", "Account", "self.balance"},
		{"pkg/models.py", "", "util.helper"},
		{"pkg/models.py", "", "Loop.mixed"}, // base cycle Mixin <-> Loop
		{"pkg/models.py", "", "Loop.nothing"},
		{"pkg/cyc_a.py", "", "thing"}, // import cycle
		{"pkg/__init__.py", "", "helper"},
		{"pkg/__init__.py", "", "_private"},
	})
	golden.Check(t, "py.golden", got)
}

func TestJavaResolution(t *testing.T) {
	files := parseTree(t, "testdata/java")
	v := NewView(buildTable(t, files, "java"))
	got := graphDump(v, files) + resolveAll(t, v, []query{
		{"src/com/acme/app/App.java", "App", "Account"},
		{"src/com/acme/app/App.java", "App", "acc.deposit"}, // overloads
		{"src/com/acme/app/App.java", "App", "acc.save"},
		{"src/com/acme/app/App.java", "App", "acc.helper.owner.deposit"},
		{"src/com/acme/app/App.java", "App", "Inner.inner"},
		{"src/com/acme/app/App.java", "App", "Helper.help"}, // wildcard import
		{"src/com/acme/app/App.java", "App", "List"},
		{"src/com/acme/app/App.java", "App", "run"}, // bare member
		{"src/com/acme/Account.java", "Account", "save"},
		{"src/com/acme/Account.java", "Account", "this.deposit"},
		{"src/com/acme/Account.java", "Account", "help"}, // static import
		{"src/com/acme/Account.java", "Inner", "helper"}, // enclosing class member
		{"src/com/acme/Account.java", "Account", "Base"}, // same package
		{"src/com/acme/util/Helper.java", "Helper", "Account.Inner"},
	})
	golden.Check(t, "java.golden", got)
}

// TestGoResolution: import paths through go.mod, vendored packages, a
// package spread over files (methods declared outside their type, in
// another file), embedded fields as bases, aliases, dot and blank
// imports, an import cycle.
func TestGoResolution(t *testing.T) {
	files := parseTree(t, "testdata/go")
	v := NewView(buildTable(t, files, "go"))
	got := graphDump(v, files) + resolveAll(t, v, []query{
		{"app/main.go", "", "cart.New"},
		{"app/main.go", "", "cart.New.Add"},          // through the return type
		{"app/main.go", "", "cart.New.Add.Total"},    // a method in another file
		{"app/main.go", "", "cart.Cart.Save"},        // promoted from the embedded store.Base
		{"app/main.go", "", "cart.Cart.owner.Greet"}, // a field's type's method
		{"app/main.go", "", "st.Open.Save"},          // an aliased import
		{"app/main.go", "", "store.Open"},            // not bound: the alias renames it
		{"app/main.go", "", "Helper"},                // a dot import
		{"app/main.go", "", "dep.Dep"},               // vendored
		{"app/main.go", "", "fmt.Println"},           // the standard library is not indexed
		{"app/main.go", "", "missing"},
		{"cart/methods.go", "", "New"},  // same package, another file
		{"cart/methods.go", "", "User"}, // same package
		{"cart/cart.go", "", "store.Saver.Save"},
		{"cart/cart.go", "Cart", "Cart.Total"},
		{"cyc/a/a.go", "", "B"}, // an import cycle through dot imports
		{"cyc/a/a.go", "", "nothing"},
	})
	golden.Check(t, "go.golden", got)
}

// TestESResolution: relative specifiers with and without extensions
// (`./math.js` reaches math.ts), index files, namespace, default and
// named imports, re-exports, tsconfig paths and baseUrl, bare specifiers
// kept external, JavaScript importing TypeScript, an export cycle.
func TestESResolution(t *testing.T) {
	files := parseTree(t, "testdata/ts")
	v := NewView(buildTable(t, files, "ts"))
	got := graphDump(v, files) + resolveAll(t, v, []query{
		{"src/app/main.ts", "", "add"},       // tsconfig paths, a wildcard
		{"src/app/main.ts", "", "Vec.zero"},  // a static method
		{"src/app/main.ts", "", "Vec.scale"}, // a base class's method
		{"src/app/main.ts", "", "lib.add"},   // an index file's `export *`
		{"src/app/main.ts", "", "lib.plus"},  // a renamed re-export
		{"src/app/main.ts", "", "lib.Vec.norm"},
		{"src/app/main.ts", "", "M"}, // a default export
		{"src/app/main.ts", "", "M.rows"},
		{"src/app/main.ts", "", "settings"}, // tsconfig paths, an exact pattern
		{"src/app/main.ts", "", "React"},    // a package: external
		{"src/app/main.ts", "", "missing"},  // a missing module
		{"src/app/main.ts", "", "a"},        // an export cycle
		{"src/js/main.mjs", "", "helper"},
		{"src/js/main.mjs", "", "Widget.render"},
		{"src/js/main.mjs", "", "plus"}, // JavaScript importing TypeScript
		{"src/js/main.mjs", "", "settingsModule"},
		{"src/lib/math.ts", "Vec", "this.norm"},
		{"src/lib/math.ts", "Vec", "super.scale"},
	})
	golden.Check(t, "ts.golden", got)
}

// TestBadInput: import cycles through many files, a class with thousands
// of members, hundreds of files with one module name, a base class
// cycle: every lookup ends with bounded output.
func TestBadInput(t *testing.T) {
	py := lang.ByName("python")
	var files []*File
	// A ring of 200 modules, each re-exporting the next one's name.
	for i := 0; i < 200; i++ {
		files = append(files, NewFile(fmt.Sprintf("ring/m%d.py", i), py, RepoNamed("r"), "", nil,
			[]lang.Import{{Module: fmt.Sprintf(".m%d", (i+1)%200), Name: "x"}, {Module: fmt.Sprintf(".m%d", (i+7)%200), Name: "*"}}))
	}
	// A class with 5,000 members, half of them called "dup".
	var syms []lang.Symbol
	syms = append(syms, lang.Symbol{Kind: lang.SymClass, Name: "Big", Parent: -1, EndRow: 5000, DocRow: -1, Bases: []string{"Big", "Other"}})
	for i := 0; i < 5000; i++ {
		name := fmt.Sprintf("m%d", i)
		if i%2 == 0 {
			name = "dup"
		}
		syms = append(syms, lang.Symbol{Kind: lang.SymMethod, Name: name, Parent: 0, StartRow: i + 1, EndRow: i + 1, SigStart: i + 1, SigEnd: i + 1, NameRow: i + 1, DocRow: -1})
	}
	syms = append(syms, lang.Symbol{Kind: lang.SymClass, Name: "Other", Parent: -1, DocRow: -1, Bases: []string{"Big"}})
	files = append(files, NewFile("big.py", py, RepoNamed("r"), "", syms, nil))
	// 600 files whose last name is "util".
	for i := 0; i < 600; i++ {
		files = append(files, NewFile(fmt.Sprintf("d%d/util.py", i), py, RepoNamed("r"), "",
			[]lang.Symbol{{Kind: lang.SymFunction, Name: "f", Parent: -1, DocRow: -1}}, []lang.Import{{Module: "util", Name: "f"}}))
	}
	v := NewView(buildTable(t, files, "r"))
	r := v.Resolver(v.File("ring/m0.py"))
	if got := r.Name("x", -1); !got.Empty() {
		t.Errorf("x in the ring resolved to %v", defs(got))
	}
	if got := r.Name("y", -1); !got.Empty() {
		t.Errorf("y in the ring resolved to %v", defs(got))
	}
	big := v.Resolver(v.File("big.py"))
	if got := big.Path([]string{"Big", "dup"}, -1); len(got.Defs) != maxDefs {
		t.Errorf("Big.dup gave %d definitions, want the bound %d", len(got.Defs), maxDefs)
	}
	if got := big.Path([]string{"Other", "m4999"}, -1); len(got.Defs) != 1 {
		t.Errorf("Other.m4999 through the base = %v", defs(got))
	}
	if got := big.Path([]string{"Other", "none"}, -1); !got.Empty() {
		t.Errorf("Other.none = %v", defs(got))
	}
	if got := big.AllMembers(Def{v.File("big.py"), 0}, 40); len(got) != 40 {
		t.Errorf("AllMembers gave %d, want 40", len(got))
	}
	u := v.Resolver(v.File("d7/util.py"))
	if got := u.Name("f", -1); len(got.Defs) != 1 {
		t.Errorf("f = %v", defs(got))
	}
	if got := v.ImportTargets(v.File("d7/util.py")); len(got) > 1 {
		t.Errorf("a module import links %d files", len(got))
	}
}

// TestBadInputGoES: a Go type with thousands of methods over hundreds of
// files of its package, and an ES module re-exporting itself and a ring
// of modules re-exporting each other: bounded output, no error.
func TestBadInputGoES(t *testing.T) {
	golang, ts := lang.ByName("go"), lang.ByName("typescript")
	repo := RepoNamed("r")
	var files []*File
	files = append(files, NewFile("big/t.go", golang, repo, "big",
		[]lang.Symbol{{Kind: lang.SymClass, Name: "T", Parent: -1, DocRow: -1, Bases: []string{"T"}}}, nil))
	for i := 0; i < 200; i++ {
		var syms []lang.Symbol
		for j := 0; j < 25; j++ {
			name := fmt.Sprintf("m%d_%d", i, j)
			if j == 0 {
				name = "dup"
			}
			syms = append(syms, lang.Symbol{Kind: lang.SymMethod, Name: name, Parent: -1, StartRow: j, EndRow: j,
				SigStart: j, SigEnd: j, NameRow: j, DocRow: -1, Bases: []string{"T"}})
		}
		files = append(files, NewFile(fmt.Sprintf("big/m%d.go", i), golang, repo, "big", syms, []lang.Import{{Module: "big", Alias: "."}}))
	}
	files = append(files, NewFile("self.ts", ts, repo, "", nil,
		[]lang.Import{{Module: "./self", Name: "*"}, {Module: "./self", Name: "x"}, {Name: "y", Alias: "x"}}))
	for i := 0; i < 100; i++ {
		files = append(files, NewFile(fmt.Sprintf("ring/m%d.ts", i), ts, repo, "", nil,
			[]lang.Import{{Module: fmt.Sprintf("./m%d", (i+1)%100), Name: "*"}, {Module: fmt.Sprintf("./m%d.js", (i+3)%100), Name: "z"}}))
	}
	v := NewView(buildTable(t, files, "r"))
	r := v.Resolver(v.File("big/m7.go"))
	if got := r.Path([]string{"T", "dup"}, -1); len(got.Defs) != maxDefs {
		t.Errorf("T.dup gave %d definitions, want the bound %d", len(got.Defs), maxDefs)
	}
	if got := r.Path([]string{"T", "m150_3"}, -1); len(got.Defs) != 1 {
		t.Errorf("T.m150_3 = %v", defs(got))
	}
	if got := r.Path([]string{"T", "none"}, -1); !got.Empty() {
		t.Errorf("T.none = %v", defs(got))
	}
	if got := r.AllMembers(Def{v.File("big/t.go"), 0}, 100); len(got) != 100 {
		t.Errorf("AllMembers gave %d, want 100", len(got))
	}
	for _, p := range []string{"self.ts", "ring/m0.ts"} {
		rr := v.Resolver(v.File(p))
		for _, name := range []string{"x", "y", "z", "nothing"} {
			if got := rr.Name(name, -1); !got.Empty() {
				t.Errorf("%s: %s = %v", p, name, defs(got))
			}
		}
	}
}

// TestBareScope: what a Java class reads bare may come from outside the
// repository when an import binds the name or a base of the class (or of
// a class enclosing it) is not the repository's; Python reads no member
// bare.
func TestBareScope(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Base.java", "package p;\nclass Base {}\n")
	write("Own.java", "package p;\nimport static java.util.Objects.requireNonNull;\nclass Own extends Base {\n    class In {}\n}\n")
	write("Ext.java", "package p;\nimport java.util.ArrayList;\nclass Ext extends ArrayList<String> {\n    class In extends Base {}\n}\n")
	write("m.py", "import os\nclass A:\n    pass\n")
	files := parseTree(t, dir)
	v := NewView(buildTable(t, files, filepath.Base(dir)))
	byPath := map[string]*File{}
	for _, f := range files {
		byPath[f.Path] = f
	}
	class := func(f *File, name string) int {
		for i, s := range f.Symbols {
			if s.Name == name && s.Kind.IsType() {
				return i
			}
		}
		t.Fatalf("%s has no class %s", f.Path, name)
		return -1
	}
	own, ext := v.Resolver(byPath["Own.java"]), v.Resolver(byPath["Ext.java"])
	if !own.BareMembers() || v.Resolver(byPath["m.py"]).BareMembers() {
		t.Error("BareMembers: want Java true, Python false")
	}
	if !own.Imported("requireNonNull") || own.Imported("Objects") || ext.Imported("requireNonNull") || !ext.Imported("ArrayList") {
		t.Error("Imported: want the names the imports bind, and only them")
	}
	if own.ExternalBases(class(own.File(), "Own")) || own.ExternalBases(class(own.File(), "In")) {
		t.Error("Own and Own.In extend repository classes only")
	}
	if !ext.ExternalBases(class(ext.File(), "Ext")) || !ext.ExternalBases(class(ext.File(), "In")) {
		t.Error("Ext extends ArrayList, and Ext.In is enclosed by it")
	}
}

// randomLayers returns a random layered view for the brute-force tests: a
// base table of baseFiles, stored when stored is set (loads counts the
// outlines it decodes, else stays 0), under tables of mkFiles(2) files,
// as many as layers says (asked again after each), each hiding up to two
// paths (path) below it.
func randomLayers(t *testing.T, r *rand.Rand, stored bool, baseFiles []*File, repo *Repo, layers func() int, mkFiles func(int) []*File, path func() string) (*View, *int) {
	t.Helper()
	base := buildTable(t, baseFiles, "r")
	loads := new(int)
	if stored {
		base, loads = storeTable(t, base, baseFiles, repo)
	}
	v := NewView(base)
	for k := 0; k < layers(); k++ {
		var removed []string
		for i := 0; i < r.IntN(3); i++ {
			removed = append(removed, path())
		}
		v = v.With(buildTable(t, mkFiles(2), "r"), removed)
	}
	return v, loads
}

// TestNamedLayers is the brute-force check of View.Named and
// Relations.RelationOf over random layered views (a base, stored or in
// memory, tables on top, paths removed): Named holds exactly the
// definitions of every layer whose file the view shows (visible), in
// layer order, and RelationOf of a shown file is Relation of its path.
// NamedRefs gives the same definitions in the same order, with their
// kinds and languages, RelationOfRef and RankOf are RelationOf and Rank
// of their files, and on a stored base of layout version 2 none of it
// decodes an outline.
func TestNamedLayers(t *testing.T) {
	py := lang.ByName("python")
	repo := RepoNamed("r")
	r := rand.New(rand.NewPCG(7, 11))
	names := []string{"f", "g", "h"}
	mkFiles := func(n int) []*File {
		var files []*File
		for i := 0; i < n; i++ {
			var syms []lang.Symbol
			for j, name := range names {
				if r.IntN(2) == 0 {
					kind := []lang.SymbolKind{lang.SymFunction, lang.SymClass, lang.SymVariable}[r.IntN(3)]
					syms = append(syms, lang.Symbol{Kind: kind, Name: name, Parent: -1, StartRow: j, EndRow: j,
						SigStart: j, SigEnd: j, NameRow: j, DocRow: -1})
				}
			}
			var imps []lang.Import
			for k := 0; k < r.IntN(4); k++ {
				imps = append(imps, lang.Import{Module: fmt.Sprintf("m%d", r.IntN(6))})
			}
			l := py
			if r.IntN(5) == 0 {
				l = nil // a file of no known language
			}
			files = append(files, NewFile(fmt.Sprintf("m%d.py", r.IntN(8)), l, repo, "", syms, imps))
		}
		// One version of a path per table.
		seen := map[string]bool{}
		return slices.DeleteFunc(files, func(f *File) bool { ok := seen[f.Path]; seen[f.Path] = true; return ok })
	}
	for round := 0; round < 200; round++ {
		v, loads := randomLayers(t, r, round%2 == 1, mkFiles(6), repo, func() int { return 1 + r.IntN(2) }, mkFiles,
			func() string { return fmt.Sprintf("m%d.py", r.IntN(8)) })
		me := v.File(fmt.Sprintf("m%d.py", r.IntN(8)))
		var rel *Relations
		if me != nil {
			rel = v.Relations(me)
		}
		for _, name := range names {
			// The refs first, before Named loads the outlines.
			before := *loads
			type refKey struct {
				ref       NamedRef
				rel, rank float64
			}
			var refs []refKey
			for n := range v.NamedRefs(name) {
				k := refKey{ref: n, rank: v.RankOf(n)}
				if rel != nil {
					k.rel = rel.RelationOfRef(n)
				}
				refs = append(refs, k)
			}
			if *loads != before {
				t.Fatalf("round %d: NamedRefs(%s) loaded %d outlines", round, name, *loads-before)
			}
			var want []Def
			for l := v; l != nil; l = l.parent {
				if l.t == nil {
					continue
				}
				for _, d := range l.t.named(name) {
					if v.visible(d.File) {
						want = append(want, d)
					}
				}
			}
			got := v.Named(name)
			if !slices.Equal(got, want) {
				t.Fatalf("round %d: Named(%s) = %v, want %v", round, name, got, want)
			}
			for _, d := range got {
				if rel != nil && rel.RelationOf(d.File) != rel.Relation(d.File.Path) {
					t.Fatalf("round %d: RelationOf(%s) = %v, Relation = %v", round, d.File.Path, rel.RelationOf(d.File), rel.Relation(d.File.Path))
				}
			}
			if len(refs) != len(got) {
				t.Fatalf("round %d: NamedRefs(%s) gave %d refs, Named %d definitions", round, name, len(refs), len(got))
			}
			for i, k := range refs {
				d, ok := k.ref.Def()
				switch {
				case !ok || d != got[i]:
					t.Fatalf("round %d: NamedRefs(%s)[%d] = %v, want %v", round, name, i, d, got[i])
				case k.ref.Kind != d.Symbol().Kind || k.ref.Language != d.File.Language:
					t.Fatalf("round %d: ref of %v: kind %v language %v", round, d, k.ref.Kind, k.ref.Language)
				case k.rank != v.Rank(d.File.Path):
					t.Fatalf("round %d: RankOf(%v) = %v, Rank = %v", round, d, k.rank, v.Rank(d.File.Path))
				case rel != nil && k.rel != rel.RelationOf(d.File):
					t.Fatalf("round %d: RelationOfRef(%v) = %v, RelationOf = %v", round, d, k.rel, rel.RelationOf(d.File))
				}
				if i > 0 {
					if c, want := ComparePaths(refs[i-1].ref, k.ref), strings.Compare(got[i-1].File.Path, d.File.Path); c != want {
						t.Fatalf("round %d: ComparePaths(%v, %v) = %d, want %d", round, got[i-1], d, c, want)
					}
				}
			}
		}
	}
}

// TestFirstDefining is the brute-force check of firstDefining over random
// layered views (a base, stored or in memory, tables on top, paths
// removed): the file it finds is the first of v.module's files, in their
// order, with a top-level definition of the name (topNamed), decoding no
// outline but that file's; moduleFirst gives the first of v.module's
// files and moduleHas whether there are any.
func TestFirstDefining(t *testing.T) {
	py := lang.ByName("python")
	repo := RepoNamed("r")
	r := rand.New(rand.NewPCG(3, 5))
	dirs := []string{"", "a/", "b/", "a/b/", "a/c/"}
	mods := []string{"m0", "m1", "m2"}
	names := []string{"f", "g"}
	mkFiles := func(n int) []*File {
		var files []*File
		seen := map[string]bool{}
		for len(files) < n {
			p := dirs[r.IntN(len(dirs))] + mods[r.IntN(len(mods))] + ".py"
			if seen[p] {
				continue
			}
			seen[p] = true
			var syms []lang.Symbol
			for j := 0; j < r.IntN(4); j++ {
				kind, parent := lang.SymFunction, -1
				if j > 0 && r.IntN(2) == 0 {
					parent = r.IntN(j) // a member when its parent is a class
				}
				if r.IntN(2) == 0 {
					kind = lang.SymClass
				}
				syms = append(syms, lang.Symbol{Kind: kind, Name: names[r.IntN(len(names))], Parent: parent, StartRow: j, EndRow: j,
					SigStart: j, SigEnd: j, NameRow: j, DocRow: -1})
			}
			files = append(files, NewFile(p, py, repo, "", syms, nil))
		}
		return files
	}
	for round := 0; round < 300; round++ {
		baseFiles := mkFiles(8)
		v, loads := randomLayers(t, r, round%2 == 1, baseFiles, repo, func() int { return r.IntN(3) }, mkFiles,
			func() string { return dirs[r.IntN(len(dirs))] + mods[r.IntN(len(mods))] + ".py" })
		from := dirs[r.IntN(len(dirs))] + "x.py"
		var modNames []string
		for _, f := range baseFiles {
			modNames = append(modNames, f.Modules()...)
		}
		for _, m := range modNames {
			for _, name := range names {
				before := *loads
				got := v.firstDefining(m, name, from)
				if got != nil && *loads > before+1 || got == nil && *loads != before {
					t.Fatalf("round %d: firstDefining(%s, %s) decoded %d outlines", round, m, name, *loads-before)
				}
				var want *File
				for _, g := range v.module(m, from) {
					if len(topNamed(g, name)) > 0 {
						want = g
						break
					}
				}
				if got != want {
					t.Fatalf("round %d: firstDefining(%s, %s) from %s = %v, want %v", round, m, name, from, got, want)
				}
				if has := v.moduleHas(m); has != (len(v.module(m, from)) > 0) {
					t.Fatalf("round %d: moduleHas(%s) = %v", round, m, has)
				}
				all := v.module(m, from)
				for _, k := range []int{1, 2, 32} {
					if got, want := v.moduleFirst(m, from, k), all[:min(k, len(all))]; !slices.Equal(got, want) {
						t.Fatalf("round %d: moduleFirst(%s, %d) = %v, want %v", round, m, k, got, want)
					}
				}
			}
		}
	}
}
