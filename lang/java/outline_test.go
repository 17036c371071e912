package java

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

// TestOutlineGolden checks the package, symbols and imports of the
// fixtures in testdata/outline and what their imports resolve to.
func TestOutlineGolden(t *testing.T) {
	langtest.OutlineGolden(t, NewParser(), modules{}, "outline/*.java")
}

// TestOutlineAlone: Outline reads the same package, imports and symbols
// as Parse, on every fixture, and no statements.
func TestOutlineAlone(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.java")
	more, err2 := filepath.Glob("testdata/outline/*.java")
	paths = append(paths, more...)
	if err != nil || err2 != nil || len(more) == 0 {
		t.Fatalf("fixtures: %v %v %v", paths, err, err2)
	}
	p := NewParser()
	for _, path := range paths {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := p.Parse(context.Background(), path, src)
		if err != nil {
			t.Fatal(err)
		}
		o, err := p.Outline(context.Background(), path, src)
		if err != nil {
			t.Fatal(err)
		}
		if o.Package != f.Package || !reflect.DeepEqual(o.Imports, f.Imports) || !reflect.DeepEqual(o.Symbols, f.Symbols) ||
			!reflect.DeepEqual(o.Lines, f.Lines) || len(o.Stmts) != 0 {
			t.Errorf("%s: Outline differs from Parse's outline", path)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Outline(ctx, "A.java", []byte("class A {}")); err == nil {
		t.Error("Outline with a done context did not fail")
	}
}
