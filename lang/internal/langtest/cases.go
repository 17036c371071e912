package langtest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/lang"
)

// Nesting generates one level of a deeply nested construct: the text that
// opens level i and the text that closes it.
type Nesting func(i int) (open, close string)

// CheckNesting nests each construct depth times around stmt, puts the
// result where wrap says (a function body), and checks the tree; an
// expression construct (in exprs) is nested around a literal in expr
// instead and must only parse. A statement construct must give a
// statement tree at least depth deep, except "block", which flattens.
func CheckNesting(t *testing.T, p lang.Parser, path string, depth int, wrap func(body string) string,
	stmt string, stmts map[string]Nesting, expr func(e string) string, exprs map[string]Nesting) {
	nest := func(gen Nesting, inner string) string {
		var open, close strings.Builder
		for i := range depth {
			o, c := gen(i)
			open.WriteString(o)
			close.WriteString(c)
		}
		return open.String() + inner + close.String()
	}
	for name, gen := range stmts {
		t.Run(name, func(t *testing.T) {
			min := depth
			if name == "block" {
				min = 1
			}
			CheckDeep(t, p, path, wrap(nest(gen, stmt)), min)
		})
	}
	for name, gen := range exprs {
		t.Run(name, func(t *testing.T) {
			CheckDeep(t, p, path, wrap(expr(nest(gen, "1"))), 1)
		})
	}
}

// CheckLargeFile parses src, a generated file of many short functions, and
// checks the invariants, that most lines are statements, and the time.
func CheckLargeFile(t *testing.T, p lang.Parser, path string, src []byte) {
	start := time.Now()
	f, err := p.Parse(context.Background(), path, src)
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	CheckInvariants(t, f)
	n := CountStmts(f.Stmts)
	t.Logf("%d lines, %d statements in %v", len(f.Lines), n, elapsed)
	if n < len(f.Lines)*5/7 {
		t.Errorf("only %d statements", n)
	}
	if elapsed > 10*time.Second {
		t.Errorf("took %v", elapsed)
	}
}

// Generate repeats one function template, formatted with its index three
// times, until the text has lines lines.
func Generate(header, template string, lines int) []byte {
	var sb strings.Builder
	sb.WriteString(header)
	n := strings.Count(header, "\n")
	per := strings.Count(template, "\n")
	for i := 0; n < lines; i++ {
		fmt.Fprintf(&sb, template, i, i, i)
		n += per
	}
	return []byte(sb.String())
}

// CheckRegistered checks that every extension of the language called name
// finds it, and that its registered parsers parse src into stmts
// statements without errors.
func CheckRegistered(t *testing.T, name string, exts []string, src string, stmts int) {
	for _, ext := range exts {
		l := lang.ForPath("src/main" + ext)
		if l == nil || l.Name != name || l.CommentPrefix != "//" || lang.ByName(name) != l {
			t.Fatalf("ForPath(%s) = %+v", ext, l)
		}
		f, err := l.Parse(context.Background(), "a"+ext, []byte(src))
		if err != nil || CountStmts(f.Stmts) != stmts || f.Language != name || f.Errors != 0 {
			t.Fatalf("registered parser on %s: %v %+v", ext, err, f)
		}
		if err := l.ParseSyntax("a"+ext, []byte(src)); err != nil {
			t.Fatal(err)
		}
	}
}

// The JavaScript and TypeScript front ends share these cases.
var (
	// EcmaBadInputs are malformed JavaScript sources (TypeScript reads them
	// the same way).
	EcmaBadInputs = []BadInput{
		{Name: "empty", Src: "", MinErrors: 0, Stmts: 0},
		{Name: "only newline", Src: "\n", MinErrors: 0, Stmts: 0},
		{Name: "only comments", Src: "// a\n/* b\n c */\n/** doc */\n", MinErrors: 0, Stmts: 0},
		{Name: "hash bang", Src: "#!/usr/bin/env node\nrun();\n", MinErrors: 0, Stmts: 1},
		{Name: "invalid utf8", Src: "function f() { let x = 1; }\n\xff\xfe\xfd\n", MinErrors: 1, Stmts: -1},
		{Name: "utf8 in names", Src: "let ñ = 1;\nfunction f() { ñ++; }\n", MinErrors: 0, Stmts: 3},
		{Name: "nul bytes", Src: "function f() {\x00 g(); }", MinErrors: 1, Stmts: -1},
		{Name: "binary junk", Src: "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x03\x00>\x00\x01\x00", MinErrors: 1, Stmts: -1},
		// tree-sitter ends an unterminated string at the line break.
		{Name: "unterminated string", Src: "let s = \"abc;\nfunction f() {}\n", MinErrors: 0, Stmts: -1},
		{Name: "unterminated template", Src: "let s = `abc ${x\nfunction f() {}\n", MinErrors: 1, Stmts: -1},
		{Name: "unterminated brace", Src: "function f() {\n  if (x) {\n    g();\n", MinErrors: 1, Stmts: -1},
		{Name: "unterminated comment", Src: "/* never closed\nfunction f() {}\n", MinErrors: 1, Stmts: -1},
		{Name: "stray closers", Src: "} } ) ;\nlet a = 1;", MinErrors: 1, Stmts: -1},
		{Name: "crlf", Src: "let x = 1;\r\nlet y = 2;\r\n", MinErrors: 0, Stmts: 2},
		{Name: "lone cr", Src: "let x = 1;\rlet y = 2;\r", MinErrors: 0, Stmts: 2},
		{Name: "keyword soup", Src: "if while for do switch case class", MinErrors: 1, Stmts: -1},
	}
	// EcmaNesting nests statements; EcmaExprNesting expressions.
	EcmaNesting = map[string]Nesting{
		"if":    func(i int) (string, string) { return fmt.Sprintf("if (x%d) {\n", i), "}\n" },
		"block": func(int) (string, string) { return "{\n", "}\n" },
		"arrow": func(i int) (string, string) { return fmt.Sprintf("run((a%d) => {\n", i), "});\n" },
		"class": func(int) (string, string) { return "new (class { m() {\n", "} })();\n" },
	}
	EcmaExprNesting = map[string]Nesting{"parens": func(int) (string, string) { return "(", ")" }}
	// EcmaFunction is the template of generated large files.
	EcmaFunction = "function f%d(a) {\n  let b = a * %d;\n  if (b > 10) {\n    b -= f%d(a - 1);\n  }\n  return b;\n}\n"
	// EcmaFuzzSeeds seed the fuzz targets beyond the fixtures.
	EcmaFuzzSeeds = []string{
		"label: for (;;) { switch (x) { case 1: continue label; default: break label; } }",
		"class A { static { try { x } catch { } finally { } } #p = () => this.#p; }",
	}
)

// CheckEcma runs the bad-input, nesting, large-file, cancellation and
// registration checks of a JavaScript or TypeScript front end, with files
// named with extension ext.
func CheckEcma(t *testing.T, newParser func() lang.Parser, name, ext string, exts []string) {
	t.Run("BadInput", func(t *testing.T) { CheckBadInput(t, newParser(), "input"+ext, EcmaBadInputs) })
	t.Run("DeepNesting", func(t *testing.T) {
		CheckNesting(t, newParser(), "deep"+ext, 200, func(body string) string { return "function deep() {\n" + body + "}\n" },
			"x = 1;\n", EcmaNesting, func(e string) string { return "x = " + e + ";\n" }, EcmaExprNesting)
	})
	big := Generate("", EcmaFunction, 20000)
	t.Run("LargeFile", func(t *testing.T) { CheckLargeFile(t, newParser(), "big"+ext, big) })
	t.Run("Cancel", func(t *testing.T) { CheckCancel(t, newParser(), "big"+ext, big) })
	t.Run("Registered", func(t *testing.T) { CheckRegistered(t, name, exts, "let x = 1;\n", 1) })
}
