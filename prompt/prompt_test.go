package prompt

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/token"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name    string
		prefix  string
		path    string
		context []string
		snips   []Snippet
		window  int
	}{
		{
			name: "python", prefix: "#", path: "ledger/importers.py",
			context: []string{
				"import csv",
				"",
				"def load(path):",
				"    with open(path) as f:",
			},
			snips: []Snippet{
				{Path: "ledger/reports.py", Score: 0.9, Text: "def dump(path, rows):\n    with open(path, 'w') as fh:\n        fh.write(render(rows))"},
				{Path: "ledger/accounts.py", Score: 0.4, Text: "class Account:\n\n    def __init__(self, name):\n        self.name = name"},
				// Too big for half of the budget: skipped.
				{Path: "ledger/big.py", Score: 0.7, Text: strings.Repeat("x = compute(a, b, c, d)\n", 40)},
			},
			window: 200,
		},
		{
			name: "java", prefix: "//", path: "src/ledger/Ledger.java",
			context: []string{
				"package ledger;",
				"",
				"public class Ledger {",
				"    public long total() {",
				"        long sum = 0;",
			},
			snips: []Snippet{
				{Path: "src/ledger/Account.java", Score: 0.5, Text: "    public long balance() {\n        long b = 0;\n        for (Entry e : entries) {\n            b += e.amount;"},
				{Path: "src/ledger/Report.java", Score: 0.8, Text: "    int count() {\n        int n = 0;\n        for (Item i : items) {"},
			},
			window: 240,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := Options{ContextWindow: tt.window, MaxNewTokens: 20, CommentPrefix: tt.prefix}
			p := Build(tt.snips, tt.context, tt.path, o)
			if p.Tokens > o.Budget() {
				t.Fatalf("prompt has %d tokens, budget %d", p.Tokens, o.Budget())
			}
			golden(t, tt.name+".golden", p.Text)
			f := BuildFIM(tt.snips, tt.context, []string{"    return sum", "}"}, o)
			var b strings.Builder
			for _, s := range f.Snippets {
				fmt.Fprintf(&b, "== %s (%.2f)\n%s\n", s.Path, s.Score, s.Text)
			}
			fmt.Fprintf(&b, "== prefix\n%s== suffix\n%s== tokens %d\n", f.Prefix, f.Suffix, f.Tokens)
			golden(t, tt.name+".fim.golden", b.String())
		})
	}
}

// The budget property: whatever the snippets, context, tokenizer and
// window, the prompt never exceeds ContextWindow - MaxNewTokens.
func TestBudget(t *testing.T) {
	code, err := token.ByName("code")
	if err != nil {
		t.Fatal(err)
	}
	toks := []Tokenizer{whitespace{}, code}
	if cl, err := token.ByName("cl100k"); err == nil {
		toks = append(toks, cl)
	}
	r := rand.New(rand.NewPCG(7, 8))
	words := []string{"x", "=", "self.value", "(", ")", "return", "for", "i", "in", "range(10):", "'s t r'", "fooBar_baz", "  ", "#", "{", "}"}
	line := func() string {
		var b strings.Builder
		for n := r.IntN(8); n > 0; n-- {
			b.WriteString(words[r.IntN(len(words))])
			if r.IntN(3) > 0 {
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	for trial := 0; trial < 300; trial++ {
		tok := toks[trial%len(toks)]
		var snips []Snippet
		for i := r.IntN(14); i > 0; i-- {
			var ls []string
			for j := r.IntN(25); j > 0; j-- {
				ls = append(ls, line())
			}
			snips = append(snips, Snippet{Path: fmt.Sprintf("p%d.py", i), Text: strings.Join(ls, "\n"), Score: r.Float64()})
		}
		var ctx []string
		for j := r.IntN(200); j > 0; j-- {
			ctx = append(ctx, line())
		}
		o := Options{ContextWindow: r.IntN(600), MaxNewTokens: 1 + r.IntN(50), Tokenizer: tok, CommentPrefix: "//"}
		p := Build(snips, ctx, "a.py", o)
		if n := len(tok.Split(nil, p.Text)); n > o.Budget() || n != p.Tokens {
			t.Fatalf("trial %d: prompt has %d tokens (reported %d), budget %d", trial, n, p.Tokens, o.Budget())
		}
		f := BuildFIM(snips, ctx, ctx, o)
		if f.Tokens > o.Budget() {
			t.Fatalf("trial %d: FIM has %d tokens, budget %d", trial, f.Tokens, o.Budget())
		}
	}
}

// Blocks appear in ascending similarity, the best one last.
func TestAscendingOrder(t *testing.T) {
	snips := []Snippet{{Path: "b", Text: "b", Score: 0.9}, {Path: "a", Text: "a", Score: 0.1}, {Path: "c", Text: "c", Score: 0.5}}
	p := Build(snips, []string{"x"}, "", Options{})
	ia, ic, ib := strings.Index(p.Text, "# a\n"), strings.Index(p.Text, "# c\n"), strings.Index(p.Text, "# b\n")
	if !(ia < ic && ic < ib) || ia < 0 {
		t.Fatalf("blocks out of order:\n%s", p.Text)
	}
	if p.Snippets != 3 || p.ContextLines != 1 {
		t.Fatalf("snippets %d, context lines %d", p.Snippets, p.ContextLines)
	}
}
