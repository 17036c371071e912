package langtest

import (
	"context"
	"errors"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/internal/cputime"
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/internal/realcode"
	"github.com/graphcoder/graphcoder/lang"
)

// SampleSize is n, or in -short mode short, or the value of the
// GRAPHCODER_SAMPLE environment variable (0: every file), for a property
// test over real code that would take too long on every file.
func SampleSize(n, short int) int {
	if s := os.Getenv("GRAPHCODER_SAMPLE"); s != "" {
		if v, err := strconv.Atoi(s); err == nil {
			return v
		}
	}
	if testing.Short() {
		return short
	}
	return n
}

// maxIndexed is the size of the largest file a build reads by default
// (indexer.DefaultMaxFileSize): a larger file the front end refuses as
// lang.ErrTooLarge is no violation.
const maxIndexed = 1 << 20

// Properties parses each file with p, checks the row invariants and the
// coverage rule against a plain tree-sitter parse with the grammar grammar
// picks for the file, and logs what it read. It stops at the first file
// with a violation.
func Properties(t *testing.T, p lang.Parser, grammar func(path string) *sitter.Language, rule Rule, files []string) {
	t.Helper()
	parsers := map[*sitter.Language]*sitter.Parser{}
	start := time.Now()
	var lines, stmts, errFiles, tooLarge int
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		f, err := p.Parse(context.Background(), path, src)
		if errors.Is(err, lang.ErrTooLarge) && len(src) > maxIndexed {
			tooLarge++ // never read by a build
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		CheckInvariants(t, f)
		CheckSymbols(t, f)
		g := grammar(path)
		ts := parsers[g]
		if ts == nil {
			ts = sitter.NewParser()
			ts.SetLanguage(g)
			parsers[g] = ts
		}
		tree, err := ts.ParseCtx(context.Background(), nil, src)
		if err != nil {
			t.Fatal(err)
		}
		errs := CoverageErrors(tree.RootNode(), f, rule)
		tree.Close()
		for i, e := range errs {
			if i == 5 {
				t.Errorf("%s: ... %d more", path, len(errs)-5)
				break
			}
			t.Errorf("%s: %s", path, e)
		}
		lines += len(f.Lines)
		stmts += CountStmts(f.Stmts)
		if f.Errors > 0 {
			errFiles++
		}
		if t.Failed() {
			return
		}
	}
	t.Logf("%d files (%d over the size limit, not read), %d lines, %d statements, %d files with syntax errors, %v", len(files), tooLarge, lines, stmts, errFiles, time.Since(start))
}

// NPMFiles returns the files under the folders of installed npm package
// pkg whose names end in one of exts (type declaration files .d.ts left
// out), or skips the test when the package is not installed.
func NPMFiles(t testing.TB, pkg string, sub string, exts ...string) []string {
	t.Helper()
	dir := realcode.NPMPackage(pkg)
	if dir == "" {
		t.Skipf("npm package %s not installed in %s (make deps installs it)", pkg, realcode.NPMDir())
	}
	var out []string
	for _, f := range realcode.Files(dir+"/"+sub, exts, "node_modules") {
		if len(f) > 5 && f[len(f)-5:] == ".d.ts" {
			continue
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		t.Skipf("no %v files in %s/%s", exts, dir, sub)
	}
	return out
}

// BenchRatio measures a front end against tree-sitter's parse alone, file
// by file, interleaved, in CPU time of the process (which includes the
// garbage collector's work), so that load from other processes does not
// skew the figure. It reports the front end's time as a multiple of the
// parse time (x-parse) and both speeds in lines per CPU second.
func BenchRatio(b *testing.B, p lang.Parser, grammar func(path string) *sitter.Language, files []string) {
	type file struct {
		path string
		src  []byte
	}
	var srcs []file
	lines := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		srcs = append(srcs, file{path, src})
		lines += lang.LineCount(src)
	}
	if len(srcs) == 0 {
		b.Skip("no files")
	}
	parsers := map[*sitter.Language]*sitter.Parser{}
	ctx := context.Background()
	var floor, front time.Duration
	b.ResetTimer()
	for b.Loop() {
		for _, f := range srcs {
			g := grammar(f.path)
			ts := parsers[g]
			if ts == nil {
				ts = sitter.NewParser()
				ts.SetLanguage(g)
				parsers[g] = ts
			}
			t0 := cputime.Process()
			tree, err := ts.ParseCtx(ctx, nil, f.src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
			t1 := cputime.Process()
			if _, err := p.Parse(ctx, f.path, f.src); err != nil {
				b.Fatal(err)
			}
			t2 := cputime.Process()
			floor += t1 - t0
			front += t2 - t1
		}
	}
	b.ReportMetric(float64(front)/float64(floor), "x-parse")
	b.ReportMetric(float64(lines*b.N)/floor.Seconds(), "parse-lines/cpu-s")
	b.ReportMetric(float64(lines*b.N)/front.Seconds(), "frontend-lines/cpu-s")
}
