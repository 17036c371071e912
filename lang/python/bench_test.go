package python

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/internal/cputime"
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

// benchSources reads a fixed sample of about 200 standard library files.
func benchSources(b *testing.B) (srcs [][]byte, lines int) {
	b.Helper()
	for _, path := range stdlibSample(b, 200) {
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		srcs = append(srcs, src)
		lines += bytes.Count(src, []byte("\n")) + 1
	}
	return srcs, lines
}

// BenchmarkParseOnly is the floor: tree-sitter parsing alone.
func BenchmarkParseOnly(b *testing.B) {
	srcs, lines := benchSources(b)
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(py.lang)
	ctx := context.Background()
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			tree, err := p.ParseCtx(ctx, nil, src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
		}
	}
	reportLines(b, lines, cputime.Process()-cpu0)
}

// BenchmarkFrontEnd is the whole front end: parse plus statement tree.
func BenchmarkFrontEnd(b *testing.B) {
	srcs, lines := benchSources(b)
	p := NewParser()
	ctx := context.Background()
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		for _, src := range srcs {
			if _, err := p.Parse(ctx, "bench.py", src); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportLines(b, lines, cputime.Process()-cpu0)
}

func reportLines(b *testing.B, lines int, cpu time.Duration) {
	total := float64(lines) * float64(b.N)
	b.ReportMetric(total/b.Elapsed().Seconds(), "lines/s")
	if cpu > 0 {
		b.ReportMetric(total/cpu.Seconds(), "lines/cpu-s")
	}
}

// BenchmarkOutline is the symbol and import outline alone, on trees the
// front end has already flattened: its share of BenchmarkFrontEnd.
func BenchmarkOutline(b *testing.B) {
	srcs, lines := benchSources(b)
	p := NewParser()
	ctx := context.Background()
	type parsed struct {
		nodes []node
		src   []byte
		f     *lang.File
	}
	var all []parsed
	for _, src := range srcs {
		f, err := p.Parse(ctx, "bench.py", src)
		if err != nil {
			b.Fatal(err)
		}
		src = lang.NormalizeCR(src)
		tree, err := tsflat.Parse(ctx, p.ts, src, 0)
		if err != nil {
			b.Fatal(err)
		}
		nodes, err := flatten(tree.RootNode(), nil)
		tree.Close()
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, parsed{nodes, src, f})
	}
	b.ResetTimer()
	cpu0 := cputime.Process()
	for i := 0; i < b.N; i++ {
		for _, a := range all {
			a.f.Symbols, a.f.Imports = a.f.Symbols[:0], a.f.Imports[:0]
			p.b.reset(a.nodes, a.src, len(a.f.Lines))
			p.b.outline(a.f)
		}
	}
	reportLines(b, lines, cputime.Process()-cpu0)
}
