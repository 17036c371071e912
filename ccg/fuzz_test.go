package ccg_test

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/slice"
)

// FuzzBuild feeds mutated Python and Java source through the front end,
// Build, AppendTarget, every dump format and the slice of every statement:
// none may panic or hang. The first byte chooses the language.
func FuzzBuild(f *testing.F) {
	for _, pattern := range []string{"../lang/python/testdata/*.py", "../lang/java/testdata/*.java"} {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			src, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			sel := byte(0)
			if filepath.Ext(p) == ".java" {
				sel = 1
			}
			f.Add(append([]byte{sel}, src...))
		}
	}
	f.Add([]byte{0})
	f.Add([]byte("\x01class A { void f() { while (true) { } } }"))
	py, java := lang.ByName("python"), lang.ByName("java")
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		l := py
		if data[0]&1 == 1 {
			l = java
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		file, err := l.NewParser().Parse(ctx, "fuzz", data[1:])
		if err != nil {
			return
		}
		g := ccg.Build(file)
		var s slice.Slicer
		for v := range g.Nodes {
			s.Of(g, int32(v), slice.DefaultOptions())
		}
		target := g.AppendTarget()
		sl := s.Of(g, target, slice.DefaultOptions())
		for _, format := range []string{"text", "json", "dot"} {
			if err := ccg.Write(io.Discard, g, format, nil); err != nil {
				t.Fatal(err)
			}
			if err := ccg.Write(io.Discard, g, format, &ccg.Subset{Target: target, Nodes: sl.Nodes, Hops: sl.Hop}); err != nil {
				t.Fatal(err)
			}
		}
	})
}
