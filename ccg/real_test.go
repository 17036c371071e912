package ccg_test

import (
	"archive/zip"
	"bytes"
	"fmt"
	"github.com/graphcoder/graphcoder/internal/realcode"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/slice"
)

type source struct {
	name string
	src  []byte
}

// pythonSources returns every step-th .py file of the standard library
// (without site-packages), or skips the test when it is absent.
func pythonSources(t testing.TB, limit int) []source {
	t.Helper()
	pythonStdlib := realcode.PythonStdlib()
	if _, err := os.Stat(pythonStdlib); pythonStdlib == "" || err != nil {
		t.Skipf("python stdlib not found: %v", err)
	}
	var paths []string
	filepath.WalkDir(pythonStdlib, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "site-packages" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".py") {
			paths = append(paths, p)
		}
		return nil
	})
	var out []source
	for _, p := range sample(len(paths), limit) {
		src, err := os.ReadFile(paths[p])
		if err == nil {
			out = append(out, source{strings.TrimPrefix(paths[p], pythonStdlib+"/"), src})
		}
	}
	return out
}

// javaSources reads every step-th java.base source from the JDK's src.zip.
func javaSources(t testing.TB, limit int) []source {
	t.Helper()
	zr, err := realcode.OpenJDKSources()
	if err != nil {
		t.Skipf("JDK sources not found: %v", err)
	}
	defer zr.Close()
	var files []*zip.File
	for _, f := range zr.File {
		if strings.HasPrefix(f.Name, "java.base/") && strings.HasSuffix(f.Name, ".java") {
			files = append(files, f)
		}
	}
	var out []source
	for _, i := range sample(len(files), limit) {
		rc, err := files[i].Open()
		if err != nil {
			continue
		}
		src, err := io.ReadAll(rc)
		rc.Close()
		if err == nil {
			out = append(out, source{files[i].Name, src})
		}
	}
	return out
}

// goSources returns every step-th .go file of $(go env GOROOT)/src.
func goSources(t testing.TB, limit int) []source {
	t.Helper()
	dir := realcode.GoSrc()
	if dir == "" {
		t.Skip("no Go installation found")
	}
	return readSources(dir, realcode.Files(dir, []string{".go"}), limit)
}

// npmSources returns every step-th source with one of exts of the npm
// package pkg (under its folder sub), or skips when it is not installed.
func npmSources(t testing.TB, pkg, sub string, limit int, exts ...string) []source {
	t.Helper()
	dir := realcode.NPMPackage(pkg)
	if dir == "" {
		t.Skipf("npm package %s not installed (make deps)", pkg)
	}
	var paths []string
	for _, p := range realcode.Files(filepath.Join(dir, sub), exts) {
		if !strings.HasSuffix(p, ".d.ts") {
			paths = append(paths, p)
		}
	}
	return readSources(dir, paths, limit)
}

func typescriptSources(t testing.TB, limit int) []source {
	return npmSources(t, "effect", "src", limit, ".ts")
}

func javascriptSources(t testing.TB, limit int) []source {
	return npmSources(t, "svelte", "src", limit, ".js")
}

func readSources(root string, paths []string, limit int) []source {
	var out []source
	for _, i := range sample(len(paths), limit) {
		src, err := os.ReadFile(paths[i])
		if err == nil {
			out = append(out, source{strings.TrimPrefix(paths[i], root+"/"), src})
		}
	}
	return out
}

// sample picks up to limit indexes spread evenly over n.
func sample(n, limit int) []int {
	var out []int
	if limit <= 0 || limit >= n {
		for i := 0; i < n; i++ {
			out = append(out, i)
		}
		return out
	}
	for i := 0; i < limit; i++ {
		out = append(out, i*n/limit)
	}
	return out
}

func parseAll(t testing.TB, srcs []source) []*lang.File {
	var out []*lang.File
	parsers := map[string]lang.Parser{}
	for _, s := range srcs {
		l := lang.ForPath(s.name)
		p := parsers[l.Name]
		if p == nil {
			p = l.NewParser()
			parsers[l.Name] = p
		}
		f, err := p.Parse(t.Context(), s.name, s.src)
		if err != nil {
			t.Logf("skip %s: %v", s.name, err)
			continue
		}
		out = append(out, f)
	}
	return out
}

func TestPropertiesRealCode(t *testing.T) {
	limit := 400
	if testing.Short() {
		limit = 60
	}
	for _, tc := range []struct {
		name string
		srcs func(testing.TB, int) []source
		// share of the limit: the later front ends read a smaller sample
		// to keep the suite fast.
		share int
	}{{"python", pythonSources, 1}, {"java", javaSources, 1}, {"go", goSources, 3},
		{"typescript", typescriptSources, 3}, {"javascript", javascriptSources, 3}} {
		t.Run(tc.name, func(t *testing.T) {
			files := parseAll(t, tc.srcs(t, limit/tc.share))
			var s slice.Slicer
			stmts := 0
			for _, f := range files {
				g := ccg.Build(f)
				stmts += len(g.Nodes)
				checkGraph(t, f, g)
				checkSlices(t, g, &s)
			}
			t.Logf("%d files, %d statements", len(files), stmts)
		})
	}
}

// checkGraph asserts the invariants of a CCG built from f.
func checkGraph(t *testing.T, f *lang.File, g *ccg.Graph) {
	t.Helper()
	// Every statement is exactly one vertex, in walk order.
	var walked []*lang.Stmt
	lang.Walk(f.Stmts, func(s *lang.Stmt) { walked = append(walked, s) })
	if len(walked) != len(g.Nodes) {
		t.Fatalf("%s: %d statements, %d vertices", f.Path, len(walked), len(g.Nodes))
	}
	for i, s := range walked {
		n := g.Nodes[i]
		if n.StartRow != s.StartRow || n.EndRow != s.EndRow || n.Kind != s.Kind {
			t.Fatalf("%s: vertex %d is not statement %d", f.Path, i, i)
		}
		if v := int32(i); !slices.Equal(g.Defs(v), s.Defs()) || !slices.Equal(g.Uses(v), s.Uses()) || !slices.Equal(g.Params(v), s.Params()) {
			t.Fatalf("%s: vertex %d has defs %v uses %v params %v, statement %d %v %v %v", f.Path, i, g.Defs(v), g.Uses(v), g.Params(v), i, s.Defs(), s.Uses(), s.Params())
		}
	}
	for _, e := range g.Edges {
		if e.From == e.To {
			t.Fatalf("%s: self loop %+v", f.Path, e)
		}
		switch e.Type {
		case ccg.DD:
			v := g.Var(e)
			defs, params, uses := g.Defs(e.From), g.Params(e.From), g.Uses(e.To)
			param := slices.Contains(params, v) && !slices.Contains(defs, v)
			if !(param || slices.Contains(defs, v)) || !slices.Contains(uses, v) {
				t.Fatalf("%s: DD edge %d->%d %q: defs %v params %v uses %v", f.Path, e.From, e.To, v, defs, params, uses)
			}
			if param && !within(g, e.To, e.From) {
				t.Fatalf("%s: DD edge %d->%d %q carries a parameter out of its scope", f.Path, e.From, e.To, v)
			}
		case ccg.CF, ccg.CD:
			// Within a scope, or from a scope's header into it.
			a, b := g.Nodes[e.From].Scope, g.Nodes[e.To].Scope
			if a != b && b != e.From {
				t.Fatalf("%s: %s edge %d->%d crosses scopes %d -> %d", f.Path, e.Type, e.From, e.To, a, b)
			}
		}
	}
	// Reachability from each scope's entry, except dead code.
	dead := deadSet(f)
	reached := make([]bool, len(g.Nodes))
	var stack []int32
	push := func(v int32) {
		if !reached[v] {
			reached[v] = true
			stack = append(stack, v)
		}
	}
	if len(g.Nodes) > 0 {
		push(0)
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range g.Out(v, ccg.CF) {
			push(w)
		}
	}
	for i, s := range walked {
		if !reached[i] && !dead[s] {
			t.Fatalf("%s: vertex %d (line %d, %s) unreachable but not dead", f.Path, i, s.StartRow+1, s.Kind)
		}
	}
}

// deadSet returns the statements that are dead code, defined
// syntactically: a statement is dead when an earlier statement of the same
// block cannot complete normally, when it is nested in a dead statement,
// or when it is the else clause of a loop that never ends normally or of a
// try whose body cannot complete normally. A
// statement cannot complete normally when it is a return, raise, break or
// continue; an if with an else whose branches both cannot; a block-bodied
// header (else, with without a label, case) whose block cannot; a try whose
// finally block cannot, or whose body and every handler cannot (and has no
// else); or a constant-true loop (while True, for (;;)) that contains no
// break to it.
func deadSet(f *lang.File) map[*lang.Stmt]bool {
	dead := map[*lang.Stmt]bool{}
	var markAll func(s *lang.Stmt)
	markAll = func(s *lang.Stmt) {
		lang.Walk([]*lang.Stmt{s}, func(x *lang.Stmt) { dead[x] = true })
	}
	var block func([]*lang.Stmt)
	var one func(*lang.Stmt)
	block = func(stmts []*lang.Stmt) {
		gone := false
		for _, s := range stmts {
			if gone {
				markAll(s)
				continue
			}
			one(s)
			gone = !completes(f, s)
		}
	}
	one = func(s *lang.Stmt) {
		if s == nil {
			return
		}
		for _, in := range s.Inner() {
			block(in)
		}
		block(s.Body)
		one(s.Cond())
		for _, c := range s.Cases() {
			one(c)
		}
		for _, h := range s.Handlers() {
			one(h)
		}
		if s.Kind == lang.Loop && s.Else() != nil && infinite(f, s) ||
			s.Kind == lang.Try && s.Else() != nil && !completesBlock(f, s.Body) {
			markAll(s.Else())
		} else {
			one(s.Else())
		}
		one(s.Finally())
	}
	block(f.Stmts)
	return dead
}

func completesBlock(f *lang.File, stmts []*lang.Stmt) bool {
	for _, s := range stmts {
		if !completes(f, s) {
			return false
		}
	}
	return true
}

func completes(f *lang.File, s *lang.Stmt) bool {
	switch s.Kind {
	case lang.Return, lang.Raise, lang.Break, lang.Continue, lang.Goto:
		return false
	case lang.If:
		return s.Else() == nil || completesBlock(f, s.Body) || completes(f, s.Else())
	case lang.Else, lang.Case:
		return completesBlock(f, s.Body)
	case lang.With:
		return s.Label() != "" || completesBlock(f, s.Body)
	case lang.Try:
		if s.Finally() != nil && !completesBlock(f, s.Finally().Body) {
			return false
		}
		if s.Else() != nil || completesBlock(f, s.Body) {
			return true
		}
		for _, h := range s.Handlers() {
			if completesBlock(f, h.Body) {
				return true
			}
		}
		return len(s.Handlers()) == 0 && s.Finally() == nil
	case lang.Loop:
		return !infinite(f, s)
	case lang.Do:
		return !infinite(f, s.Cond()) || hasBreak(s.Body)
	}
	return true
}

// infinite reports a constant-true loop with no break in its body.
func infinite(f *lang.File, s *lang.Stmt) bool {
	if s == nil {
		return false
	}
	t := strings.Join(strings.Fields(f.Lines[s.StartRow]), "")
	t = strings.TrimPrefix(t, "}")
	if i := strings.Index(t, ":while("); i > 0 {
		t = t[i+1:]
	}
	if i := strings.Index(t, ":for("); i > 0 {
		t = t[i+1:]
	}
	constTrue := false
	if i := strings.Index(t, ":for{"); i > 0 {
		t = t[i+1:]
	}
	for _, p := range []string{"whileTrue:", "while(True):", "while1:", "while(true)", "for(;;)", "for{"} {
		constTrue = constTrue || strings.HasPrefix(t, p)
	}
	return constTrue && (s.Kind == lang.DoCond || !hasBreak(s.Body))
}

// hasBreak reports whether a block holds a break (labeled or not) outside
// nested scopes; a conservative stand-in for "a break that leaves this loop".
func hasBreak(stmts []*lang.Stmt) bool {
	found := false
	var visit func([]*lang.Stmt)
	visit = func(ss []*lang.Stmt) {
		for _, s := range ss {
			if s == nil {
				continue
			}
			if s.Kind == lang.Break {
				found = true
			}
			if s.Kind == lang.Func || s.Kind == lang.Class {
				continue
			}
			visit(s.Body)
			visit(s.Cases())
			visit(s.Handlers())
			visit([]*lang.Stmt{s.Else(), s.Finally(), s.Cond()})
		}
	}
	visit(stmts)
	return found
}

// checkSlices slices every statement and checks the proven bound
// |slice| <= max(l,1) + D.
func checkSlices(t *testing.T, g *ccg.Graph, s *slice.Slicer) {
	t.Helper()
	d := 0
	for v := range g.Nodes {
		seen := map[int32]bool{}
		for _, z := range g.In(int32(v), ccg.DD) {
			seen[z] = true
		}
		for _, z := range g.In(int32(v), ccg.CD) {
			seen[z] = true
		}
		d = max(d, len(seen))
	}
	for _, opt := range []slice.Options{slice.DefaultOptions(), {Hops: 2, MaxStatements: 5}} {
		for v := range g.Nodes {
			sl := s.Of(g, int32(v), opt)
			if len(sl.Nodes) > max(opt.MaxStatements, 1)+d {
				t.Fatalf("%s: slice of %d has %d vertices > l + D = %d", g.Path, v, len(sl.Nodes), opt.MaxStatements+d)
			}
		}
	}
}

// TestLargeFile builds the CCG of a 20,000-line file made of standard
// library modules laid end to end.
func TestLargeFile(t *testing.T) {
	srcs := pythonSources(t, 0)
	var buf bytes.Buffer
	lines := 0
	for _, s := range srcs {
		if lines >= 20000 {
			break
		}
		if bytes.Contains(s.src, []byte("\t")) {
			continue // mixed indentation does not concatenate cleanly
		}
		buf.Write(s.src)
		buf.WriteByte('\n')
		lines += bytes.Count(s.src, []byte("\n")) + 1
	}
	f := parseAll(t, []source{{"big.py", buf.Bytes()}})[0]
	start := time.Now()
	g := ccg.Build(f)
	elapsed := time.Since(start)
	t.Logf("%d lines, %d vertices, %d edges: Build %v", len(f.Lines), len(g.Nodes), len(g.Edges), elapsed)
	if elapsed > 5*time.Second {
		t.Errorf("Build took %v on a %d-line file", elapsed, len(f.Lines))
	}
}

func BenchmarkBuild(b *testing.B) {
	for _, tc := range []struct {
		name string
		srcs func(testing.TB, int) []source
	}{{"python", pythonSources}, {"java", javaSources}} {
		b.Run(tc.name, func(b *testing.B) {
			files := parseAll(b, tc.srcs(b, 100))
			lines := 0
			for _, f := range files {
				lines += len(f.Lines)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				for _, f := range files {
					ccg.Build(f)
				}
			}
			b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
		})
	}
}

func BenchmarkSlicePerStatement(b *testing.B) {
	files := parseAll(b, pythonSources(b, 100))
	var graphs []*ccg.Graph
	stmts := 0
	for _, f := range files {
		g := ccg.Build(f)
		graphs = append(graphs, g)
		stmts += len(g.Nodes)
	}
	var s slice.Slicer
	opt := slice.DefaultOptions()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, g := range graphs {
			for v := range g.Nodes {
				s.Of(g, int32(v), opt)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*stmts), "ns/stmt")
	_ = fmt.Sprint()
}

// within reports whether vertex v lies in the scope opened by header h, at
// any depth.
func within(g *ccg.Graph, v, h int32) bool {
	for s := g.Nodes[v].Scope; s != ccg.NoScope; s = g.Nodes[s].Scope {
		if s == h {
			return true
		}
	}
	return false
}
