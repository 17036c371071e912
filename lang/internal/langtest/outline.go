package langtest

import (
	"context"
	"fmt"
	goldenfile "github.com/graphcoder/graphcoder/internal/golden"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/lang"
)

// Outline renders the symbols, imports and package of f, one per line,
// rows 1-based: kind, qualified name, whole rows, signature rows, name
// row, doc row and text, bases, type, and the signature's first line. With
// ms, each import is followed by what ms resolves it to for a file at
// f.Path.
func Outline(f *lang.File, ms lang.ModuleSystem) string {
	var b strings.Builder
	if f.Package != "" {
		fmt.Fprintf(&b, "package %s\n", f.Package)
	}
	for i, s := range f.Symbols {
		depth := 0
		for p := s.Parent; p >= 0 && p < i && depth < len(f.Symbols); p = f.Symbols[p].Parent {
			depth++
		}
		fmt.Fprintf(&b, "%s%s %s L%d-%d sig %d-%d name %d", strings.Repeat("  ", depth), s.Kind, f.Qualified(i),
			s.StartRow+1, s.EndRow+1, s.SigStart+1, s.SigEnd+1, s.NameRow+1)
		if s.DocRow >= 0 && s.DocRow < len(f.Lines) {
			fmt.Fprintf(&b, " doc %d %q", s.DocRow+1, lang.DocText(f.Lines[s.DocRow]))
		}
		if len(s.Bases) > 0 {
			fmt.Fprintf(&b, " bases=%s", strings.Join(s.Bases, ","))
		}
		if s.Type != "" {
			fmt.Fprintf(&b, " type=%s", s.Type)
		}
		if s.NameRow >= 0 && s.NameRow < len(f.Lines) {
			fmt.Fprintf(&b, " | %s", strings.TrimSpace(f.Lines[s.NameRow]))
		}
		b.WriteByte('\n')
	}
	for _, imp := range f.Imports {
		fmt.Fprintf(&b, "import L%d module=%q name=%q", imp.Row+1, imp.Module, imp.Name)
		if imp.Alias != "" {
			fmt.Fprintf(&b, " alias=%q", imp.Alias)
		}
		if imp.Static {
			b.WriteString(" static")
		}
		if ms != nil {
			r := ms.Resolve(imp, f.Path, f.Package)
			fmt.Fprintf(&b, " -> module=%q member=%q local=%q", r.Module, r.Member, r.Local)
			if r.All {
				b.WriteString(" all")
			}
		}
		b.WriteByte('\n')
	}
	if ms != nil {
		fmt.Fprintf(&b, "module names %q\n", ms.ModuleNames(f.Path, f.Package, "root"))
		for _, r := range ms.Implicit(f.Path, f.Package) {
			fmt.Fprintf(&b, "implicit module=%q member=%q all=%v\n", r.Module, r.Member, r.All)
		}
	}
	return b.String()
}

// CheckSymbols checks the contract of lang.Symbol: rows inside the file and
// nested as documented, parents before their members and of a type kind.
func CheckSymbols(t testing.TB, f *lang.File) {
	t.Helper()
	for i, s := range f.Symbols {
		if s.Name == "" {
			t.Errorf("symbol %d has no name", i)
		}
		if !(0 <= s.StartRow && s.StartRow <= s.SigStart && s.SigStart <= s.NameRow && s.NameRow <= s.SigEnd && s.SigEnd <= s.EndRow && s.EndRow < len(f.Lines)) {
			t.Errorf("symbol %s: rows %d..%d, signature %d..%d, name %d out of order (%d lines)", f.Qualified(i), s.StartRow, s.EndRow, s.SigStart, s.SigEnd, s.NameRow, len(f.Lines))
		}
		if s.DocRow < -1 || s.DocRow >= len(f.Lines) {
			t.Errorf("symbol %s: doc row %d", f.Qualified(i), s.DocRow)
		}
		if s.Parent >= i || s.Parent < -1 || (s.Parent >= 0 && !f.Symbols[s.Parent].Kind.IsType()) {
			t.Errorf("symbol %s: bad parent %d", f.Qualified(i), s.Parent)
		}
	}
	for _, imp := range f.Imports {
		if imp.Row < 0 || imp.Row >= len(f.Lines) {
			t.Errorf("import %+v: row out of range", imp)
		}
	}
}

// OutlineGolden parses every file of testdata matching pattern with p and
// compares its Outline (imports resolved by ms) with the .golden file next
// to it, and, when p reads outlines alone (lang.OutlineParser), that its
// Outline is the same. A fixture's first line names the path it is parsed as, after
// "path: " (in a comment: "# path: pkg/mod.py").
func OutlineGolden(t *testing.T, p lang.Parser, ms lang.ModuleSystem, pattern string) {
	fixtures, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no fixtures matching testdata/%s: %v", pattern, err)
	}
	for _, fx := range fixtures {
		t.Run(filepath.Base(fx), func(t *testing.T) {
			src, err := os.ReadFile(fx)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(src), "\n")
			_, path, ok := strings.Cut(first, "path: ")
			if !ok {
				t.Fatalf("%s: the first line does not name a path", fx)
			}
			f, err := p.Parse(context.Background(), strings.TrimSpace(path), src)
			if err != nil {
				t.Fatal(err)
			}
			CheckSymbols(t, f)
			goldenfile.CheckFile(t, strings.TrimSuffix(fx, filepath.Ext(fx))+".golden", Outline(f, ms))
			if op, ok := p.(lang.OutlineParser); ok {
				o, err := op.Outline(context.Background(), strings.TrimSpace(path), src)
				if err != nil {
					t.Fatal(err)
				}
				if got, want := Outline(o, ms), Outline(f, ms); got != want {
					t.Errorf("Outline differs from Parse's outline:\n%s\nwant:\n%s", got, want)
				}
			}
		})
	}
}

// CheckManyMembers parses src, a file declaring one type with members
// members (and as many other definitions), and checks that the outline
// holds at least want symbols within the contract and is made in time
// linear in the file (well under a second).
func CheckManyMembers(t *testing.T, p lang.Parser, path string, src []byte, want int) {
	t.Helper()
	start := time.Now()
	f, err := p.Parse(context.Background(), path, src)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("parse took %v", d)
	}
	CheckSymbols(t, f)
	if len(f.Symbols) < want {
		t.Errorf("%d symbols, want at least %d", len(f.Symbols), want)
	}
}
