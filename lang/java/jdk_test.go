package java

import (
	"bytes"
	"context"
	"io"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/internal/cputime"
	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/internal/realcode"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

type sourceFile struct {
	path string
	src  []byte
}

var (
	jdkOnce  sync.Once
	jdkFiles []sourceFile
	jdkErr   error
)

// javaBase returns the .java files of the java.base module, sorted by path,
// read straight from the JDK source archive.
func javaBase(tb testing.TB) []sourceFile {
	tb.Helper()
	jdkOnce.Do(func() {
		r, err := realcode.OpenJDKSources()
		if err != nil {
			jdkErr = err
			return
		}
		defer r.Close()
		for _, f := range r.File {
			if !strings.HasPrefix(f.Name, "java.base/") || !strings.HasSuffix(f.Name, ".java") {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				jdkErr = err
				return
			}
			src, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				jdkErr = err
				return
			}
			jdkFiles = append(jdkFiles, sourceFile{f.Name, src})
		}
		sort.Slice(jdkFiles, func(i, j int) bool { return jdkFiles[i].path < jdkFiles[j].path })
	})
	if jdkErr != nil || len(jdkFiles) == 0 {
		tb.Skipf("JDK sources not available: %v", jdkErr)
	}
	return jdkFiles
}

// sample returns about n files spread evenly over files.
func sample(files []sourceFile, n int) []sourceFile {
	if len(files) <= n {
		return files
	}
	step := len(files) / n
	out := make([]sourceFile, 0, n)
	for i := 0; i < len(files) && len(out) < n; i += step {
		out = append(out, files[i])
	}
	return out
}

// TestJDKProperties parses java.base (a sample of ~300 files with -short)
// and checks the row invariants and that every statement node of the
// syntax tree maps to exactly one statement.
func TestJDKProperties(t *testing.T) {
	files := javaBase(t)
	if testing.Short() {
		files = sample(files, 300)
	}
	p := NewParser()
	ts := sitter.NewParser()
	ts.SetLanguage(language)
	ctx := context.Background()
	var lines, stmts, errFiles int
	start := time.Now()
	for _, sf := range files {
		f, err := p.Parse(ctx, sf.path, sf.src)
		if err != nil {
			t.Fatalf("%s: %v", sf.path, err)
		}
		lines += len(f.Lines)
		if f.Errors > 0 {
			errFiles++
		}
		checkInvariants(t, f)
		tree, err := ts.ParseCtx(ctx, nil, sf.src)
		if err != nil {
			t.Fatal(err)
		}
		errs := coverageErrors(tree.RootNode(), f)
		tree.Close()
		for i, e := range errs {
			if i == 5 {
				t.Errorf("%s: ... %d more", sf.path, len(errs)-5)
				break
			}
			t.Errorf("%s: %s", sf.path, e)
		}
		countStmts(f.Stmts, &stmts)
		if t.Failed() {
			break
		}
	}
	t.Logf("%d files, %d lines, %d statements, %d files with syntax errors, %v", len(files), lines, stmts, errFiles, time.Since(start))
}

// BenchmarkParseOnly is the floor: tree-sitter parsing the sample alone.
func BenchmarkParseOnly(b *testing.B) {
	files, lines := benchFiles(b)
	ts := sitter.NewParser()
	ts.SetLanguage(language)
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		for _, sf := range files {
			tree, err := ts.ParseCtx(ctx, nil, sf.src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
		}
	}
	b.ReportMetric(float64(lines*b.N)/b.Elapsed().Seconds(), "lines/s")
}

// BenchmarkFrontEnd parses the same sample into statement trees.
func BenchmarkFrontEnd(b *testing.B) {
	files, lines := benchFiles(b)
	p := NewParser()
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		for _, sf := range files {
			if _, err := p.Parse(ctx, sf.path, sf.src); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(lines*b.N)/b.Elapsed().Seconds(), "lines/s")
}

// benchFiles is a fixed sample of 100 java.base files.
func benchFiles(b *testing.B) ([]sourceFile, int) {
	files := sample(javaBase(b), 100)
	lines := 0
	for _, f := range files {
		lines += bytes.Count(f.src, []byte("\n")) + 1
	}
	b.SetBytes(0)
	return files, lines
}

func countStmts(stmts []*lang.Stmt, n *int) { *n += langtest.CountStmts(stmts) }

// BenchmarkRatio measures the front end against the parse floor file by
// file, interleaved, in CPU time of the process (which includes the
// garbage collector's work), so that load from other processes on the
// machine does not skew the figure. It reports the front end's time as a
// multiple of tree-sitter's parse time.
func BenchmarkRatio(b *testing.B) {
	files, lines := benchFiles(b)
	ts := sitter.NewParser()
	ts.SetLanguage(language)
	p := NewParser()
	ctx := context.Background()
	var floor, front time.Duration
	b.ResetTimer()
	for b.Loop() {
		for _, sf := range files {
			t0 := cputime.Process()
			tree, err := ts.ParseCtx(ctx, nil, sf.src)
			if err != nil {
				b.Fatal(err)
			}
			tree.Close()
			t1 := cputime.Process()
			if _, err := p.Parse(ctx, sf.path, sf.src); err != nil {
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
