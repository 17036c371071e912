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

// FuzzBuild feeds mutated Python, Java, Go, TypeScript and JavaScript
// source through the front end, Build, AppendTarget, every dump format and
// the slice of every statement: none may panic or hang. The first byte
// chooses the language (its value modulo 5, in that order).
func FuzzBuild(f *testing.F) {
	names := []string{"python", "java", "go", "typescript", "javascript"}
	for sel, pattern := range []string{"../lang/python/testdata/*.py", "../lang/java/testdata/*.java",
		"../lang/golang/testdata/*.go", "../lang/typescript/testdata/*.ts", "../lang/javascript/testdata/*.js"} {
		files, _ := filepath.Glob(pattern)
		for _, p := range files {
			src, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			f.Add(append([]byte{byte(sel)}, src...))
		}
	}
	f.Add([]byte{0})
	f.Add([]byte("\x01class A { void f() { while (true) { } } }"))
	f.Add([]byte("\x02package p\nfunc f() {\nL:\n\tfor {\n\t\tgoto L\n\t}\n}\n"))
	langs := make([]*lang.Language, len(names))
	for i, n := range names {
		langs[i] = lang.ByName(n)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		l := langs[int(data[0])%len(langs)]
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
