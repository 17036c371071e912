package python

import (
	"context"
	"github.com/graphcoder/graphcoder/internal/realcode"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/graphcoder/graphcoder/lang"
)

// stdlibDir is the Python standard library used as real-world input.
var stdlibDir = realcode.PythonStdlib()

// stdlibFiles lists the .py files of the standard library (without
// site-packages), or skips the test when it is absent. In -short mode it
// returns an evenly spaced sample of about n files.
func stdlibFiles(t testing.TB, n int) []string {
	t.Helper()
	if _, err := os.Stat(stdlibDir); stdlibDir == "" || err != nil {
		t.Skipf("python standard library not found: %v", err)
	}
	var files []string
	err := filepath.WalkDir(stdlibDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == "site-packages" {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".py") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		files = sample(files, n)
	}
	return files
}

// stdlibSample returns the same evenly spaced sample of about n standard
// library files in every mode, for benchmarks.
func stdlibSample(t testing.TB, n int) []string {
	t.Helper()
	return sample(stdlibFiles(t, n), n)
}

func sample(files []string, n int) []string {
	if len(files) <= n {
		return files
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, files[i*len(files)/n])
	}
	return out
}

// statementTypes are the grammar nodes that start a statement or clause:
// each must begin on a row covered by some Stmt.
func isStatementType(t string) bool {
	switch t {
	case "function_definition", "class_definition", "decorated_definition",
		"elif_clause", "else_clause", "except_clause", "except_group_clause",
		"finally_clause", "case_clause":
		return true
	}
	return strings.HasSuffix(t, "_statement")
}

// holdsStatements reports an ERROR node with whole statements inside,
// whose statements the front end keeps.
func holdsStatements(n *sitter.Node) bool {
	for i := 0; i < int(n.ChildCount()); i++ {
		t := n.Child(i).Type()
		if t == "block" || (isStatementType(t) && !strings.HasSuffix(t, "_clause")) {
			return true
		}
	}
	return false
}

// mayHoldStatements reports the nodes under which statement nodes can
// appear; the walk skips expressions, which keeps it fast.
func mayHoldStatements(typ string, n *sitter.Node) bool {
	switch typ {
	case "ERROR":
		return holdsStatements(n)
	case "module", "block", "if_statement", "for_statement", "while_statement",
		"try_statement", "with_statement", "match_statement",
		"function_definition", "class_definition", "decorated_definition":
		return true
	}
	return strings.HasSuffix(typ, "_clause")
}

// statementRows returns the first rows of the statement nodes of the
// tree-sitter tree of src (outside ERROR nodes, unless they hold whole
// statements), found with the plain
// tree-sitter API (independently of the front end's own tree walk).
func statementRows(t testing.TB, src []byte) []int {
	t.Helper()
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(py.lang)
	tree, err := p.ParseCtx(context.Background(), nil, src)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	var rows []int
	c := sitter.NewTreeCursor(tree.RootNode())
	defer c.Close()
	for {
		n := c.CurrentNode()
		typ := n.Type()
		if isStatementType(typ) {
			rows = append(rows, int(n.StartPoint().Row))
		}
		if mayHoldStatements(typ, n) && c.GoToFirstChild() {
			continue
		}
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return rows
			}
		}
	}
}

func TestStdlibProperties(t *testing.T) {
	files := stdlibFiles(t, 300)
	p := NewParser()
	var stmts, lines int
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		f, err := p.Parse(context.Background(), path, src)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		checkInvariants(t, f)
		checkCoverage(t, f, src)
		lang.Walk(f.Stmts, func(*lang.Stmt) { stmts++ })
		lines += len(f.Lines)
	}
	t.Logf("%d files, %d lines, %d statements", len(files), lines, stmts)
}

// checkCoverage asserts that the first row of every statement node of the
// tree-sitter tree (outside ERROR nodes) lies in the rows of some Stmt.
func checkCoverage(t testing.TB, f *lang.File, src []byte) {
	t.Helper()
	covered := make([]bool, len(f.Lines))
	lang.Walk(f.Stmts, func(s *lang.Stmt) {
		for r := max(s.StartRow, 0); r <= s.EndRow && r < len(covered); r++ {
			covered[r] = true
		}
	})
	for _, r := range statementRows(t, src) {
		if r < len(covered) && !covered[r] {
			t.Errorf("%s:%d: statement line not covered by any Stmt: %q", f.Path, r+1, f.Lines[r])
		}
	}
}
