package typescript

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

func TestBadInput(t *testing.T) {
	langtest.CheckBadInput(t, NewParser(), "input.ts", []langtest.BadInput{
		{Name: "empty", Src: "", MinErrors: 0, Stmts: 0},
		{Name: "only newline", Src: "\n", MinErrors: 0, Stmts: 0},
		{Name: "only comments", Src: "// a\n/* b\n c */\n/** doc */\n", MinErrors: 0, Stmts: 0},
		{Name: "hash bang", Src: "#!/usr/bin/env node\nrun();\n", MinErrors: 0, Stmts: 1},
		{Name: "invalid utf8", Src: "function f() { let x = 1; }\n\xff\xfe\xfd\n", MinErrors: 1, Stmts: -1},
		{Name: "utf8 in names", Src: "let ñ = 1;\nfunction f() { ñ++; }\n", MinErrors: 0, Stmts: 3},
		{Name: "nul bytes", Src: "function f() {\x00 g(); }", MinErrors: 1, Stmts: -1},
		{Name: "binary junk", Src: "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x03\x00>\x00\x01\x00", MinErrors: 1, Stmts: -1},
		{Name: "unterminated string", Src: "let s = \"abc;\nfunction f() {}\n", MinErrors: 0, Stmts: -1}, // tree-sitter ends the string at the line break
		{Name: "unterminated template", Src: "let s = `abc ${x\nfunction f() {}\n", MinErrors: 1, Stmts: -1},
		{Name: "unterminated brace", Src: "function f() {\n  if (x) {\n    g();\n", MinErrors: 1, Stmts: -1},
		{Name: "unterminated comment", Src: "/* never closed\nfunction f() {}\n", MinErrors: 1, Stmts: -1},
		{Name: "stray closers", Src: "} } ) ;\nlet a = 1;", MinErrors: 1, Stmts: -1},
		{Name: "crlf", Src: "let x = 1;\r\nlet y = 2;\r\n", MinErrors: 0, Stmts: 2},
		{Name: "keyword soup", Src: "if while for do switch case class", MinErrors: 1, Stmts: -1},
	})
}

func TestDeepNesting(t *testing.T) {
	const depth = 200
	for name, gen := range map[string]func(i int) (string, string){
		"if":     func(i int) (string, string) { return fmt.Sprintf("if (x%d) {\n", i), "}\n" },
		"block":  func(int) (string, string) { return "{\n", "}\n" },
		"arrow":  func(i int) (string, string) { return fmt.Sprintf("run((a%d) => {\n", i), "});\n" },
		"class":  func(int) (string, string) { return "new (class { m() {\n", "} })();\n" },
		"parens": func(int) (string, string) { return "(", ")" },
	} {
		t.Run(name, func(t *testing.T) {
			var open, close strings.Builder
			for i := range depth {
				o, c := gen(i)
				open.WriteString(o)
				close.WriteString(c)
			}
			src := "function deep() {\n" + open.String() + "x = 1;\n" + close.String() + "}\n"
			min := depth
			if name == "parens" || name == "block" {
				src = "function deep() {\nx = " + open.String() + "1" + close.String() + ";\n}\n"
				min = 1
			}
			langtest.CheckDeep(t, NewParser(), "deep.ts", src, min)
		})
	}
}

// bigSource is a generated file of about 20,000 lines.
func bigSource() []byte {
	var sb strings.Builder
	for i := 0; strings.Count(sb.String(), "\n") < 20000; i++ {
		fmt.Fprintf(&sb, "function f%d(a) {\n  let b = a * %d;\n  if (b > 10) {\n    b -= f%d(a - 1);\n  }\n  return b;\n}\n", i, i, i)
	}
	return []byte(sb.String())
}

func TestLargeFile(t *testing.T) {
	src := bigSource()
	start := time.Now()
	f, err := NewParser().Parse(context.Background(), "big.ts", src)
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	langtest.CheckInvariants(t, f)
	n := langtest.CountStmts(f.Stmts)
	t.Logf("%d lines, %d statements in %v", len(f.Lines), n, elapsed)
	if n < len(f.Lines)*5/7 {
		t.Errorf("only %d statements", n)
	}
	if elapsed > 10*time.Second {
		t.Errorf("took %v", elapsed)
	}
}

func TestCancel(t *testing.T) {
	langtest.CheckCancel(t, NewParser(), "big.ts", bigSource())
}

func TestRegistered(t *testing.T) {
	for _, ext := range extensions {
		l := lang.ForPath("src/main" + ext)
		if l == nil || l.Name != "typescript" || l.CommentPrefix != "//" || lang.ByName("typescript") != l {
			t.Fatalf("ForPath(%s) = %+v", ext, l)
		}
		f, err := l.NewParser().Parse(context.Background(), "a"+ext, []byte("let x = 1;\n"))
		if err != nil || len(f.Stmts) != 1 || f.Language != "typescript" || f.Errors != 0 {
			t.Fatalf("registered parser on %s: %v %+v", ext, err, f)
		}
		if err := l.NewSyntaxParser().(lang.PathSyntaxParser).ParseSyntaxPath("a"+ext, []byte("let x = 1;\n")); err != nil {
			t.Fatal(err)
		}
	}
}

// FuzzParse feeds mutated source to the front end: it must not fail, hang
// or break the row invariants.
func FuzzParse(f *testing.F) {
	langtest.Fuzz(f, NewParser(), "fuzz.ts", []string{"*.ts", "*.tsx"},
		"label: for (;;) { switch (x) { case 1: continue label; default: break label; } }",
		"class A { static { try { x } catch { } finally { } } #p = () => this.#p; }")
}
