package java

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

func parseString(t testing.TB, src string) *lang.File {
	t.Helper()
	f, err := NewParser().Parse(context.Background(), "Input.java", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return f
}

func TestBadInput(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		minErrors int // at least this many syntax errors
		stmts     int // -1: any number
	}{
		{"empty", "", 0, 0},
		{"only newline", "\n", 0, 0},
		{"only comments", "// a\n/* b\n c */\n/** doc */\n", 0, 0},
		{"invalid utf8", "class A { void f() { int x = 1; } }\n\xff\xfe\xfd\n", 1, -1},
		{"utf8 in names", "class Ä { int ñ = 1; void f() { ñ++; } }", 0, 4},
		{"nul bytes", "class A {\x00 void f() { g(); } }", 1, -1},
		{"binary junk", "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x03\x00>\x00\x01\x00", 1, -1},
		{"unterminated string", "class A { String s = \"abc;\n void f() {} }", 1, -1},
		{"unterminated brace", "class A { void f() { if (x) { g();\n", 1, -1},
		{"unterminated comment", "class A { /* never closed\n void f() {} }", 1, -1},
		{"stray closers", "} } ) ;\nclass A {}", 1, -1},
		{"crlf", "class A {\r\n  int x;\r\n}\r\n", 0, 2},
		{"lone cr", "class A {\r  int x;\r  int y;\r}\r", 0, 3},
		{"keyword soup", "if while for do switch case class", 1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := parseString(t, tt.src)
			checkInvariants(t, f)
			if f.Errors < tt.minErrors {
				t.Errorf("Errors = %d, want at least %d", f.Errors, tt.minErrors)
			}
			n := 0
			countStmts(f.Stmts, &n)
			if tt.stmts >= 0 && n != tt.stmts {
				t.Errorf("%d statements, want %d:\n%s", n, tt.stmts, langtest.Dump(f))
			}
			for _, l := range f.Lines {
				if strings.ContainsAny(l, "\r\n") {
					t.Errorf("line keeps a terminator: %q", l)
				}
			}
			if want := strings.Count(strings.ReplaceAll(tt.src, "\r\n", "\n"), "\n") + strings.Count(strings.ReplaceAll(tt.src, "\r\n", ""), "\r") + 1; len(f.Lines) != want {
				t.Errorf("%d lines, want %d", len(f.Lines), want)
			}
		})
	}
}

// TestDeepNesting nests 200 blocks, ifs, lambdas, anonymous classes and
// parentheses.
func TestDeepNesting(t *testing.T) {
	const depth = 200
	gens := map[string]func(i int) (string, string){
		"if":        func(i int) (string, string) { return fmt.Sprintf("if (x%d) {\n", i), "}\n" },
		"block":     func(int) (string, string) { return "{\n", "}\n" },
		"lambda":    func(i int) (string, string) { return fmt.Sprintf("run(a%d -> {\n", i), "});\n" },
		"anonymous": func(int) (string, string) { return "new Object() { void f() {\n", "} };\n" },
		"parens":    func(int) (string, string) { return "(", ")" },
	}
	for name, gen := range gens {
		t.Run(name, func(t *testing.T) {
			var open, close strings.Builder
			for i := range depth {
				o, c := gen(i)
				open.WriteString(o)
				close.WriteString(c)
			}
			src := "class Deep { void m() {\n" + open.String() + "x = 1;\n" + close.String() + "\n} }\n"
			if name == "parens" {
				src = "class Deep { void m() {\nx = " + open.String() + "1" + close.String() + ";\n} }\n"
			}
			f := parseString(t, src)
			checkInvariants(t, f)
			maxDepth := 0
			var walk func(stmts []*lang.Stmt, d int)
			walk = func(stmts []*lang.Stmt, d int) {
				maxDepth = max(maxDepth, d)
				for _, s := range stmts {
					walk(s.Body, d+1)
					for _, in := range s.Inner() {
						walk(in, d+1)
					}
				}
			}
			walk(f.Stmts, 0)
			if name != "parens" && name != "block" && maxDepth < depth {
				t.Errorf("statement tree depth %d, want at least %d", maxDepth, depth)
			}
		})
	}
}

// TestLargeFile parses a generated 20,000-line file and times it.
func TestLargeFile(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("class Big {\n")
	lines := 1
	for i := 0; lines < 20000; i++ {
		fmt.Fprintf(&sb, "  int f%d(int a) {\n    int b = a * %d;\n    if (b > 10) {\n      b -= f%d(a - 1);\n    }\n    return b;\n  }\n", i, i, i)
		lines += 7
	}
	sb.WriteString("}\n")
	src := []byte(sb.String())
	start := time.Now()
	f, err := NewParser().Parse(context.Background(), "Big.java", src)
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	checkInvariants(t, f)
	n := 0
	countStmts(f.Stmts, &n)
	t.Logf("%d lines, %d statements in %v", len(f.Lines), n, elapsed)
	if n < 20000*5/7 {
		t.Errorf("only %d statements", n)
	}
	if elapsed > 10*time.Second {
		t.Errorf("took %v", elapsed)
	}
}

func TestCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := NewParser().Parse(ctx, "A.java", []byte("class A {}")); err == nil {
		t.Fatal("no error from a canceled context")
	}
}

func TestRegistered(t *testing.T) {
	l := lang.ForPath("src/Main.java")
	if l == nil || l.Name != "java" || l.CommentPrefix != "//" {
		t.Fatalf("ForPath(.java) = %+v", l)
	}
	for _, kw := range []string{"class", "var", "record", "yield", "sealed", "permits"} {
		found := false
		for _, k := range l.Keywords {
			found = found || k == kw
		}
		if !found {
			t.Errorf("keyword %q missing", kw)
		}
	}
	f, err := l.NewParser().Parse(context.Background(), "A.java", []byte("class A { int x; }"))
	if err != nil || len(f.Stmts) != 1 || f.Language != "java" {
		t.Fatalf("registered parser: %v %+v", err, f)
	}
}

// FuzzParse feeds mutated source to the front end: it must not panic, hang
// or break the row invariants.
func FuzzParse(f *testing.F) {
	fixtures, _ := filepath.Glob("testdata/*.java")
	for _, fx := range fixtures {
		if src, err := os.ReadFile(fx); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("class A { void f() { x = switch (y) { case 1 -> { yield 2; } default -> 3; }; } }"))
	p := NewParser()
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := p.Parse(context.Background(), "Fuzz.java", src)
		if err != nil {
			t.Fatal(err)
		}
		if errs := langtest.RowErrors(file); len(errs) > 0 {
			t.Fatalf("%s\n%s", strings.Join(errs, "\n"), langtest.Dump(file))
		}
	})
}
