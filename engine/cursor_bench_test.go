package engine

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/retrieve"
)

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
	at := os.Getenv("GRAPHCODER_BENCH_AT")
	if at == "" {
		b.Skip("GRAPHCODER_BENCH_AT names no cursor")
	}
	mode := retrieve.CoarseToFine
	if m := os.Getenv("GRAPHCODER_BENCH_MODES"); m != "" {
		mode = retrieve.Mode(strings.Split(m, ",")[0])
	}
	for _, c := range strings.Split(at, ",") {
		i := strings.LastIndexByte(c, ':')
		line, err := strconv.Atoi(c[i+1:])
		if i < 0 || err != nil {
			b.Fatalf("GRAPHCODER_BENCH_AT: %q is no PATH:LINE", c)
		}
		path := c[:i]
		b.Run(strings.ReplaceAll(filepath.Base(c), ":", "-"), func(b *testing.B) {
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
				c0 := processCPU()
				res, err := e.Complete(context.Background(), req)
				if err != nil {
					b.Fatal(err)
				}
				cpu = append(cpu, processCPU()-c0)
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
