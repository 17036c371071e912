package golang

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
	langtest.CheckBadInput(t, NewParser(), "input.go", []langtest.BadInput{
		{Name: "empty", Src: "", MinErrors: 0, Stmts: 0},
		{Name: "only newline", Src: "\n", MinErrors: 0, Stmts: 0},
		{Name: "only comments", Src: "// a\n/* b\n c */\n", MinErrors: 0, Stmts: 0},
		{Name: "invalid utf8", Src: "package p\nfunc f() { x := 1 }\n\xff\xfe\xfd\n", MinErrors: 1, Stmts: -1},
		{Name: "utf8 in names", Src: "package p\nvar ñ = 1\nfunc f() { ñ++ }\n", MinErrors: 0, Stmts: 4},
		{Name: "nul bytes", Src: "package p\nfunc f() {\x00 g() }", MinErrors: 1, Stmts: -1},
		{Name: "binary junk", Src: "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x03\x00>\x00\x01\x00", MinErrors: 1, Stmts: -1},
		{Name: "unterminated string", Src: "package p\nvar s = \"abc\nfunc f() {}\n", MinErrors: 1, Stmts: -1},
		{Name: "unterminated brace", Src: "package p\nfunc f() {\n\tif x {\n\t\tg()\n", MinErrors: 1, Stmts: -1},
		{Name: "unterminated comment", Src: "package p\n/* never closed\nfunc f() {}\n", MinErrors: 1, Stmts: -1},
		{Name: "stray closers", Src: "} } ) ;\npackage p\n", MinErrors: 1, Stmts: -1},
		{Name: "crlf", Src: "package p\r\n\r\nvar x = 1\r\n", MinErrors: 0, Stmts: 2},
		{Name: "keyword soup", Src: "if for switch select go defer func", MinErrors: 1, Stmts: -1},
		{Name: "goto without label", Src: "package p\nfunc f() { goto }\n", MinErrors: 1, Stmts: -1},
	})
}

func TestDeepNesting(t *testing.T) {
	const depth = 200
	for name, gen := range map[string]func(i int) (string, string){
		"if":      func(i int) (string, string) { return fmt.Sprintf("if x%d {\n", i), "}\n" },
		"block":   func(int) (string, string) { return "{\n", "}\n" },
		"funclit": func(i int) (string, string) { return fmt.Sprintf("run(func(a%d int) {\n", i), "})\n" },
		"parens":  func(int) (string, string) { return "(", ")" },
	} {
		t.Run(name, func(t *testing.T) {
			var open, close strings.Builder
			for i := range depth {
				o, c := gen(i)
				open.WriteString(o)
				close.WriteString(c)
			}
			src := "package p\nfunc deep() {\n" + open.String() + "x = 1\n" + close.String() + "}\n"
			min := depth
			if name == "parens" || name == "block" {
				src = "package p\nfunc deep() {\nx = " + open.String() + "1" + close.String() + "\n}\n"
				min = 1
			}
			langtest.CheckDeep(t, NewParser(), "deep.go", src, min)
		})
	}
}

// bigSource is a generated Go file of about 20,000 lines.
func bigSource() []byte {
	var sb strings.Builder
	sb.WriteString("package big\n")
	for i := 0; sb.Len() < 20000*16; i++ {
		fmt.Fprintf(&sb, "func f%d(a int) int {\n\tb := a * %d\n\tif b > 10 {\n\t\tb -= f%d(a - 1)\n\t}\n\treturn b\n}\n", i, i, i)
	}
	return []byte(sb.String())
}

func TestLargeFile(t *testing.T) {
	src := bigSource()
	start := time.Now()
	f, err := NewParser().Parse(context.Background(), "big.go", src)
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
	langtest.CheckCancel(t, NewParser(), "big.go", bigSource())
}

func TestRegistered(t *testing.T) {
	l := lang.ForPath("cmd/main.go")
	if l == nil || l.Name != "go" || l.CommentPrefix != "//" || lang.ByName("go") != l {
		t.Fatalf("ForPath(.go) = %+v", l)
	}
	f, err := l.NewParser().Parse(context.Background(), "a.go", []byte("package p\nvar x int\n"))
	if err != nil || len(f.Stmts) != 2 || f.Language != "go" {
		t.Fatalf("registered parser: %v %+v", err, f)
	}
	if err := l.NewSyntaxParser().ParseSyntax([]byte("package p\n")); err != nil {
		t.Fatal(err)
	}
}

func TestPackageName(t *testing.T) {
	for path, want := range map[string]string{
		`"fmt"`: "fmt", `"net/http"`: "http", `"github.com/smacker/go-tree-sitter"`: "sitter",
		`"gopkg.in/yaml.v3"`: "yaml", `"github.com/dgraph-io/badger/v4"`: "badger",
		"`os`": "os", `"v2"`: "v2", `"example.com/9lives"`: "",
	} {
		if got := packageName(path); got != want {
			t.Errorf("packageName(%s) = %q, want %q", path, got, want)
		}
	}
}

// FuzzParse feeds mutated source to the front end: it must not fail, hang
// or break the row invariants.
func FuzzParse(f *testing.F) {
	langtest.Fuzz(f, NewParser(), "fuzz.go", []string{"*.go", "*.go.txt"},
		"package p\nfunc f() {\nL:\n\tswitch {\n\tcase x:\n\t\tfallthrough\n\tdefault:\n\t\tgoto L\n\t}\n}\n")
}
