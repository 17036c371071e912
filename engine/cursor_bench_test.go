package engine

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/internal/cputime"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/retrieve"
)

// benchAt is a cursor GRAPHCODER_BENCH_AT names: its path relative to
// the benchmarks' index root, its line, and the sub-benchmark's name.
type benchAt struct {
	name, path string
	line       int
}

// cursorsAt returns the cursors GRAPHCODER_BENCH_AT names (comma
// separated PATH:LINE), skipping b when it names none.
func cursorsAt(b *testing.B) []benchAt {
	at := os.Getenv("GRAPHCODER_BENCH_AT")
	if at == "" {
		b.Skip("GRAPHCODER_BENCH_AT names no cursor")
	}
	var out []benchAt
	for _, c := range strings.Split(at, ",") {
		i := strings.LastIndexByte(c, ':')
		line, err := strconv.Atoi(c[i+1:])
		if i < 0 || err != nil {
			b.Fatalf("GRAPHCODER_BENCH_AT: %q is no PATH:LINE", c)
		}
		out = append(out, benchAt{strings.ReplaceAll(filepath.Base(c), ":", "-"), c[:i], line})
	}
	return out
}

// BenchmarkCursor completes the cursors GRAPHCODER_BENCH_AT names (comma
// separated PATH:LINE, paths relative to the benchmarks' index root), one
// sub-benchmark each, every iteration a whole request in mode
// GRAPHCODER_BENCH_MODES (default coarse2fine) with the buffer cache
// emptied first, so that each parses as a first request does. It reports
// the median of each stage over the iterations (parse, coarse, fine,
// definitions, prompt, total) and of the CPU time the process spent on
// the request (cpu-ms: every goroutine's, which a busy machine inflates
// far less than the wall times; 0 where it is not read), for profiling
// one slow request of
// BenchmarkRetrieval's TSV with -cpuprofile and comparing two builds on
// it. It skips without GRAPHCODER_BENCH_AT.
func BenchmarkCursor(b *testing.B) {
	mode := retrieve.CoarseToFine
	if m := os.Getenv("GRAPHCODER_BENCH_MODES"); m != "" {
		mode = retrieve.Mode(strings.Split(m, ",")[0])
	}
	for _, c := range cursorsAt(b) {
		path, line := c.path, c.line
		b.Run(c.name, func(b *testing.B) {
			e := stdlibEngine(b)
			src, err := os.ReadFile(filepath.Join(e.Root(), path))
			if err != nil {
				b.Fatal(err)
			}
			st := e.cur.Load()
			req := Request{Path: path, Line: line, Source: src, Mode: mode}
			var parse, coarse, fine, defs, prompt, total, cpu []time.Duration
			for b.Loop() {
				st.buffers.mu.Lock()
				st.buffers.entries = nil
				st.buffers.mu.Unlock()
				c0 := cputime.Process()
				res, err := e.Complete(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				cpu = append(cpu, cputime.Process()-c0)
				s := res.Stats
				parse, coarse, fine = append(parse, s.Parse), append(coarse, s.Coarse), append(fine, s.Fine)
				defs, prompt, total = append(defs, s.Definitions), append(prompt, s.Prompt), append(total, s.Total)
			}
			for _, m := range []struct {
				name string
				d    []time.Duration
			}{{"parse", parse}, {"coarse", coarse}, {"fine", fine}, {"definitions", defs}, {"prompt", prompt}, {"total", total}, {"cpu", cpu}} {
				b.ReportMetric(quantileMS(m.d, 0.5), m.name+"-ms")
			}
		})
	}
}

// BenchmarkParseParts times, at the cursors GRAPHCODER_BENCH_AT names (as
// BenchmarkCursor), each tree-sitter pass a first request may make over
// the code above the cursor, alone and in CPU time of the thread: the
// query's source (the lines as the bounded parse reads them) parsed
// whole (lang.Language.Parse) and its syntax tree alone (ParseSyntax),
// the same for the source with its brackets closed (the outline's,
// parseClosed), and the outline of the whole buffer with the cursor's row
// blank (parsedAfter's source). The difference of a parse and its syntax
// tree is the front end's mapping of the tree. Each figure is the median
// of the iterations; it skips without GRAPHCODER_BENCH_AT.
func BenchmarkParseParts(b *testing.B) {
	for _, c := range cursorsAt(b) {
		path, line := c.path, c.line
		b.Run(c.name, func(b *testing.B) {
			e := stdlibEngine(b)
			st := e.cur.Load()
			src, err := os.ReadFile(filepath.Join(e.Root(), path))
			if err != nil {
				b.Fatal(err)
			}
			l := lang.ForPath(path)
			if l == nil {
				b.Fatalf("%s: no language", path)
			}
			buf := newBuffer(path, lang.SplitLines(string(src)), line)
			buf.hops = sliceOptions(st, Request{}).Hops
			base, _ := withoutOpenComment(buf.lines, l.Name)
			lines := base
			if el, _ := st.elide(buf, base, l); el != nil {
				lines = el.lines
				buf.elided = el
			}
			after, _ := st.afterSource(buf, l)
			query, closed := source(lines, ""), source(lines, ccg.Closers(lines, l.Name))
			whole := source(after, "")
			ctx := context.Background()
			parts := []struct {
				name string
				run  func() error
			}{
				{"query-parse", func() error { _, err := l.Parse(ctx, path, query); return err }},
				{"query-syntax", func() error { return l.ParseSyntax(path, query) }},
				{"closed-parse", func() error { _, err := l.Parse(ctx, path, closed); return err }},
				{"closed-syntax", func() error { return l.ParseSyntax(path, closed) }},
				{"after-outline", func() error { _, err := l.Outline(ctx, path, whole); return err }},
				{"after-syntax", func() error { return l.ParseSyntax(path, whole) }},
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu := make([][]time.Duration, len(parts))
			for b.Loop() {
				for k, p := range parts {
					c0 := cputime.Thread()
					if err := p.run(); err != nil {
						b.Fatal(err)
					}
					cpu[k] = append(cpu[k], cputime.Thread()-c0)
				}
			}
			for k, p := range parts {
				b.ReportMetric(quantileMS(cpu[k], 0.5), p.name+"-ms")
			}
			b.ReportMetric(float64(len(query)), "query-bytes")
		})
	}
}
