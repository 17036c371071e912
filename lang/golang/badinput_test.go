package golang

import (
	"fmt"
	"strings"
	"testing"

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
		{Name: "lone cr", Src: "package p\rvar x = 1\r", MinErrors: 0, Stmts: 2},
		{Name: "keyword soup", Src: "if for switch select go defer func", MinErrors: 1, Stmts: -1},
		{Name: "goto without label", Src: "package p\nfunc f() { goto }\n", MinErrors: 1, Stmts: -1},
	})
}

func TestDeepNesting(t *testing.T) {
	langtest.CheckNesting(t, NewParser(), "deep.go", 200, func(body string) string { return "package p\nfunc deep() {\n" + body + "}\n" },
		"x = 1\n", map[string]langtest.Nesting{
			"if":      func(i int) (string, string) { return fmt.Sprintf("if x%d {\n", i), "}\n" },
			"block":   func(int) (string, string) { return "{\n", "}\n" },
			"funclit": func(i int) (string, string) { return fmt.Sprintf("run(func(a%d int) {\n", i), "})\n" },
		},
		func(e string) string { return "x = " + e + "\n" },
		map[string]langtest.Nesting{"parens": func(int) (string, string) { return "(", ")" }})
}

// bigSource is a generated Go file of about 20,000 lines.
func bigSource() []byte {
	return langtest.Generate("package big\n", "func f%d(a int) int {\n\tb := a * %d\n\tif b > 10 {\n\t\tb -= f%d(a - 1)\n\t}\n\treturn b\n}\n", 20000)
}

func TestLargeFile(t *testing.T) { langtest.CheckLargeFile(t, NewParser(), "big.go", bigSource()) }

func TestCancel(t *testing.T) { langtest.CheckCancel(t, NewParser(), "big.go", bigSource()) }

func TestRegistered(t *testing.T) {
	langtest.CheckRegistered(t, "go", []string{".go"}, "package p\nvar x int\n", 2)
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

// TestManyMembers: a struct of 5,000 fields with 5,000 methods, and an
// interface of 5,000 methods, outline whole.
func TestManyMembers(t *testing.T) {
	var b strings.Builder
	b.WriteString("package p\n\ntype Big struct {\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "\tf%d int\n", i)
	}
	b.WriteString("}\n\ntype Wide interface {\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "\tM%d() error\n", i)
	}
	b.WriteString("}\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "func (b *Big) M%d() error { return nil }\n", i)
	}
	langtest.CheckManyMembers(t, NewParser(), "big.go", []byte(b.String()), 15002)
}
