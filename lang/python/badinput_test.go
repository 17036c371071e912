package python

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/lang"
)

func TestBadInput(t *testing.T) {
	deep := func(levels int) string {
		var sb strings.Builder
		for i := 0; i < levels; i++ {
			sb.WriteString(strings.Repeat(" ", i))
			sb.WriteString("if x:\n")
		}
		sb.WriteString(strings.Repeat(" ", levels) + "y = x\n")
		return sb.String()
	}
	tests := []struct {
		name string
		src  string
		// minStmts is the least number of statements expected.
		minStmts  int
		wantError bool // File.Errors > 0
	}{
		{name: "empty", src: ""},
		{name: "only newlines", src: "\n\n\n"},
		{name: "only comments", src: "# one\n   # two\n#three"},
		{name: "invalid utf8", src: "x = '\xff\xfe'\ny = \xc3\x28\n", minStmts: 1},
		{name: "nul bytes", src: "a = 1\x00\x00\nb = 2\n", minStmts: 1},
		{name: "binary junk", src: "\x7fELF\x02\x01\x01\x00\x00\x00\xff\xff(((\x00]]", wantError: true},
		{name: "unterminated string", src: "s = 'abc\nt = 1\n", minStmts: 1, wantError: true},
		{name: "unterminated triple string", src: "s = \"\"\"abc\nt = 1\n", wantError: true},
		{name: "unterminated bracket", src: "f(a, [b,\nc = 1\n", wantError: true},
		{name: "crlf", src: "x = 1\r\nif x:\r\n    y = 2\r\n", minStmts: 3},
		{name: "lone cr", src: "x = 1\rif x:\r    y = 2\rz = 3\r", minStmts: 4},
		{name: "no trailing newline", src: "x = 1", minStmts: 1},
		{name: "lone dedent", src: "    x = 1\ny = 2\n", minStmts: 1},
		{name: "200 levels of if", src: deep(200), minStmts: 201},
		{name: "200 nested brackets", src: "x = " + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n", minStmts: 1},
		{name: "200 unclosed brackets", src: "x = " + strings.Repeat("(", 200) + "\n", wantError: true},
		{name: "tabs and spaces", src: "if x:\n\ty = 1\n        z = 2\n"},
		{name: "orphan else", src: "else:\n    x = 1\nexcept E:\n    pass\n", wantError: true},
	}
	p := NewParser()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := p.Parse(context.Background(), "bad.py", []byte(tt.src))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			checkInvariants(t, f)
			n := 0
			lang.Walk(f.Stmts, func(*lang.Stmt) { n++ })
			if n < tt.minStmts {
				t.Errorf("got %d statements, want at least %d:\n%s", n, tt.minStmts, dump(f))
			}
			if tt.wantError && f.Errors == 0 {
				t.Errorf("no syntax error counted:\n%s", dump(f))
			}
			if want := lang.LineCount(tt.src); len(f.Lines) != want {
				t.Errorf("got %d lines, want %d", len(f.Lines), want)
			}
			for _, l := range f.Lines {
				if strings.ContainsAny(l, "\r\n") {
					t.Errorf("line %q keeps its terminator", l)
				}
			}
		})
	}
}

// TestLargeFile parses a generated 20,000-line file and checks that every
// statement is found in reasonable time.
func TestLargeFile(t *testing.T) {
	var sb strings.Builder
	const funcs = 2000 // 10 lines each
	for i := 0; i < funcs; i++ {
		sb.WriteString("def f(a, b):\n")
		sb.WriteString("    total = 0\n")
		sb.WriteString("    for x in range(a):\n")
		sb.WriteString("        if x % 2:\n")
		sb.WriteString("            total += x * b\n")
		sb.WriteString("        else:\n")
		sb.WriteString("            continue\n")
		sb.WriteString("    # a comment\n")
		sb.WriteString("    return total\n")
		sb.WriteString("\n")
	}
	src := []byte(sb.String())
	start := time.Now()
	f := parseFile(t, "large.py", src)
	elapsed := time.Since(start)
	n := 0
	lang.Walk(f.Stmts, func(*lang.Stmt) { n++ })
	if want := funcs * 8; n != want {
		t.Errorf("got %d statements, want %d", n, want)
	}
	checkInvariants(t, f)
	t.Logf("%d lines, %d statements in %v", len(f.Lines)-1, n, elapsed)
	if elapsed > 5*time.Second {
		t.Errorf("parsing 20,000 lines took %v", elapsed)
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := []byte(strings.Repeat("x = 1\n", 200000))
	p := NewParser()
	_, err := p.Parse(ctx, "big.py", src)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("got %v, want context.Canceled", err)
	}
	// The parser must start afresh on the next file.
	small := []byte("def f(a):\n    return a\n")
	f, err := p.Parse(context.Background(), "small.py", small)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := dump(f), dump(parseFile(t, "small.py", small)); got != want {
		t.Errorf("parser reused after cancel:\n%s", lineDiff(want, got))
	}
}

func TestRegistered(t *testing.T) {
	l := lang.ForPath(filepath.Join("pkg", "mod.py"))
	if l == nil || l.Name != "python" || l.CommentPrefix != "#" {
		t.Fatalf("ForPath(mod.py) = %+v", l)
	}
	f, err := l.NewParser().Parse(context.Background(), "mod.py", []byte("x = 1\n"))
	if err != nil || len(f.Stmts) != 1 || f.Language != "python" {
		t.Fatalf("Parse through the registry: %v, %+v", err, f)
	}
	if lang.ForPath("stub.pyi") != l {
		t.Errorf("stubs are not Python")
	}
}

// TestParserReuse checks that one Parser gives the same result for a file
// whether or not it parsed other files before.
func TestParserReuse(t *testing.T) {
	fixtures, _ := filepath.Glob("testdata/*.py")
	p := NewParser()
	for round := 0; round < 2; round++ {
		for _, fx := range fixtures {
			src, err := os.ReadFile(fx)
			if err != nil {
				t.Fatal(err)
			}
			f, err := p.Parse(context.Background(), fx, src)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := dump(f), dump(parseFile(t, fx, src)); got != want {
				t.Errorf("%s: reused parser differs:\n%s", fx, lineDiff(want, got))
			}
		}
	}
}

// TestErrorHoldingStatements parses a standard library file that
// tree-sitter wraps, almost whole, in one ERROR node: its well-formed
// classes and functions must still become statements, and the error
// statements must cover only a few lines.
func TestErrorHoldingStatements(t *testing.T) {
	path := filepath.Join(stdlibDir, "test", "test_compile.py")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Skipf("standard library file not found: %v", err)
	}
	f := parseFile(t, path, src)
	checkInvariants(t, f)
	var stmts, errorRows int
	lang.Walk(f.Stmts, func(s *lang.Stmt) {
		stmts++
		if s.Kind == lang.Error {
			errorRows += s.EndRow - s.StartRow + 1
		}
	})
	if f.Errors == 0 {
		t.Errorf("no syntax errors counted; the grammar may have changed")
	}
	if stmts < 500 || errorRows > len(f.Lines)/20 {
		t.Errorf("%d statements, %d of %d lines in error statements", stmts, errorRows, len(f.Lines))
	}
	t.Logf("%d statements, %d errors, %d of %d lines in error statements", stmts, f.Errors, errorRows, len(f.Lines))
}

// Lone carriage returns end lines, as Python itself reads them: each
// statement is found on its own row, as with "\n".
func TestLoneCR(t *testing.T) {
	lf := "x = 1\nif x:\n    y = 2\nz = 3\n"
	cr := strings.ReplaceAll(lf, "\n", "\r")
	rows := func(src string) []string {
		f, err := NewParser().Parse(context.Background(), "a.py", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		lang.Walk(f.Stmts, func(s *lang.Stmt) {
			out = append(out, fmt.Sprintf("%s %d-%d %q", s.Kind, s.StartRow, s.EndRow, f.Text(s)))
		})
		return out
	}
	if a, b := rows(lf), rows(cr); !slices.Equal(a, b) || len(a) != 4 {
		t.Errorf("lone CR: %q, want %q", b, a)
	}
}
