package prompt

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/internal/golden"
	"github.com/graphcoder/graphcoder/token"
)

func mustAssemble(t *testing.T, in Input, o Options) *Context {
	t.Helper()
	c, err := Assemble(in, o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// dump shows everything a context holds, for goldens.
func dump(c *Context) string {
	var b strings.Builder
	fmt.Fprintf(&b, "== layout %s, budget %d, tokens %d, stats %+v\n", c.Layout, c.Budget, c.Tokens, c.Stats)
	for _, bl := range c.Blocks {
		fmt.Fprintf(&b, "== block %s %s:%d-%d rank %d, %d candidates, %d tokens\n", bl.Source, bl.Path, bl.StartLine, bl.EndLine, bl.Rank, bl.Candidates, bl.Tokens)
	}
	fmt.Fprintf(&b, "== prefix from line %d\n%s== suffix\n%s== text\n%s", c.PrefixStart, c.PrefixText(), c.SuffixText(), c.Text())
	return b.String()
}

func lines(from, to int, format string) []string {
	var out []string
	for i := from; i <= to; i++ {
		out = append(out, fmt.Sprintf(format, i))
	}
	return out
}

func TestGolden(t *testing.T) {
	py := Input{
		Path: "ledger/importers.py",
		Prefix: []string{
			"import csv",
			"",
			"def load(path):",
			"    with open(path) as f:",
		},
		Suffix: []string{"    return rows", ""},
		Candidates: []Candidate{
			{Source: Retrieved, Path: "ledger/reports.py", StartLine: 3, Focus: 4, Score: 0.9,
				Lines: []string{"def dump(path, rows):", "    with open(path, 'w') as fh:", "        fh.write(render(rows))"}},
			// Overlaps the first: merged into one block over lines 1-5.
			{Source: Retrieved, Path: "ledger/reports.py", StartLine: 1, Focus: 2, Score: 0.8,
				Lines: []string{"import io", "", "def dump(path, rows):", "    with open(path, 'w') as fh:"}},
			{Source: Retrieved, Path: "ledger/accounts.py", StartLine: 10, Focus: 12, Score: 0.4,
				Lines: []string{"class Account:", "", "    def __init__(self, name):", "        self.name = name"}},
			// Too big for half of the budget: cut around its focus.
			{Source: Retrieved, Path: "ledger/big.py", StartLine: 1, Focus: 20, Score: 0.7,
				Lines: lines(1, 40, "x%d = compute(a, b, c, d)")},
		},
	}
	java := Input{
		Path: "src/ledger/Ledger.java",
		Prefix: []string{
			"package ledger;",
			"",
			"public class Ledger {",
			"    public long total() {",
			"        long sum = 0;",
		},
		Suffix: []string{"        return sum;", "    }", "}"},
		Candidates: []Candidate{
			{Source: Retrieved, Path: "src/ledger/Report.java", StartLine: 7, Focus: 9, Score: 0.8,
				Lines: []string{"    int count() {", "        int n = 0;", "        for (Item i : items) {"}},
			{Source: Retrieved, Path: "src/ledger/Account.java", StartLine: 20, Focus: 22, Score: 0.5,
				Lines: []string{"    public long balance() {", "        long b = 0;", "        for (Entry e : entries) {", "            b += e.amount;"}},
			// The file being completed: its rows 3-5 are in the in-file part.
			{Source: Retrieved, Path: "src/ledger/Ledger.java", StartLine: 1, Focus: 3, Score: 0.3,
				Lines: []string{"package ledger;", "", "public class Ledger {", "    public long total() {", "        long sum = 0;"}},
		},
	}
	for _, tt := range []struct {
		name   string
		in     Input
		prefix string
		window int
	}{
		{"python", py, "#", 200},
		{"java", java, "//", 240},
	} {
		for _, layout := range []Layout{Paper, FIM, Files} {
			t.Run(tt.name+"-"+string(layout), func(t *testing.T) {
				o := Options{ContextWindow: tt.window, MaxNewTokens: 20, CommentPrefix: tt.prefix, Layout: layout}
				c := mustAssemble(t, tt.in, o)
				if c.Tokens > o.Budget() {
					t.Fatalf("prompt has %d tokens, budget %d", c.Tokens, o.Budget())
				}
				name := tt.name + ".golden"
				if layout != Paper {
					name = tt.name + "." + string(layout) + ".golden"
				}
				golden.Check(t, name, dump(c))
			})
		}
	}
}

// Blocks appear in ascending relevance, the best one last; with Edges the
// best is last, the second first.
func TestPosition(t *testing.T) {
	var cands []Candidate
	for i := range 5 {
		cands = append(cands, Candidate{Source: Retrieved, Path: fmt.Sprintf("f%d.py", i), StartLine: 1, Lines: []string{fmt.Sprintf("v%d = %d", i, i)}})
	}
	in := Input{Prefix: []string{"x"}, Candidates: cands}
	order := func(c *Context) string {
		var s []string
		for _, b := range c.Blocks {
			s = append(s, strings.TrimSuffix(b.Path, ".py"))
		}
		return strings.Join(s, " ")
	}
	if got := order(mustAssemble(t, in, Options{})); got != "f4 f3 f2 f1 f0" {
		t.Errorf("best-last order %q", got)
	}
	if got := order(mustAssemble(t, in, Options{Position: Edges})); got != "f1 f3 f4 f2 f0" {
		t.Errorf("edges order %q", got)
	}
}

func TestMerge(t *testing.T) {
	in := Input{Path: "q.py", Prefix: []string{"pass"}, Candidates: []Candidate{
		{Source: Retrieved, Path: "a.py", StartLine: 11, Focus: 12, Score: 0.9, Lines: lines(11, 15, "a%d()")},
		{Source: Retrieved, Path: "b.py", StartLine: 1, Focus: 1, Score: 0.8, Lines: lines(1, 3, "b%d()")},
		{Source: Retrieved, Path: "a.py", StartLine: 16, Focus: 16, Score: 0.7, Lines: lines(16, 18, "a%d()")}, // touches
		{Source: Retrieved, Path: "a.py", StartLine: 5, Focus: 6, Score: 0.6, Lines: lines(5, 12, "a%d()")},    // overlaps
		{Source: Retrieved, Path: "a.py", StartLine: 30, Focus: 30, Score: 0.5, Lines: lines(30, 31, "a%d()")}, // apart
		{Source: Definition, Path: "a.py", StartLine: 1, Focus: 1, Score: 0.5, Lines: lines(1, 4, "a%d()")},    // other source
	}}
	o := Options{ContextWindow: 4000, PerFile: NoCap, Priority: []Source{}}
	c := mustAssemble(t, in, o)
	var got []string
	for _, b := range c.Blocks {
		got = append(got, fmt.Sprintf("%s %s:%d-%d r%d n%d", b.Source, b.Path, b.StartLine, b.EndLine, b.Rank, b.Candidates))
	}
	want := []string{ // ascending relevance
		"definition a.py:1-4 r5 n1",
		"retrieved a.py:30-31 r4 n1",
		"retrieved b.py:1-3 r1 n1",
		"retrieved a.py:5-18 r0 n3",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("blocks\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if b := c.Blocks[3]; b.Lines[0] != "a5()" || b.Lines[len(b.Lines)-1] != "a18()" || len(b.Lines) != 14 {
		t.Fatalf("merged lines %q", b.Lines)
	}
	if c.Stats.Merged != 2 {
		t.Fatalf("stats %+v", c.Stats)
	}
	o.NoMerge = true
	if c := mustAssemble(t, in, o); len(c.Blocks) != 6 {
		t.Fatalf("without merging %d blocks", len(c.Blocks))
	}
}

func TestRepeatsAndCap(t *testing.T) {
	body := []string{"for x in items:", "    total += x.amount", "    count += 1", "return total"}
	in := Input{Path: "q.py", Prefix: []string{"def f(items):", "    total = 0", "    count = 0"}, Candidates: []Candidate{
		{Source: Retrieved, Path: "a.py", StartLine: 1, Lines: body},
		// The same four lines in another file: a clone, dropped.
		{Source: Retrieved, Path: "b.py", StartLine: 7, Lines: append([]string{"# other"}, body...)},
		// Mostly lines the in-file part shows (2 of 3): dropped.
		{Source: Retrieved, Path: "c.py", StartLine: 3, Lines: []string{"    total = 0", "    count = 0", "    size = 4"}},
		{Source: Retrieved, Path: "a.py", StartLine: 40, Lines: []string{"y = 2"}},
		{Source: Retrieved, Path: "a.py", StartLine: 50, Lines: []string{"z = 3"}}, // a third block of a.py: capped
		{Source: Retrieved, Path: "d.py", StartLine: 1, Lines: []string{"", "  "}}, // blank: dropped
	}}
	c := mustAssemble(t, in, Options{MaxRepeat: 0.5})
	var paths []string
	for _, b := range c.Blocks {
		paths = append(paths, fmt.Sprintf("%s:%d", b.Path, b.StartLine))
	}
	if got := strings.Join(paths, " "); got != "a.py:40 a.py:1" {
		t.Fatalf("blocks %s, stats %+v", got, c.Stats)
	}
	if c.Stats.Repeats != 3 || c.Stats.Capped != 1 {
		t.Fatalf("stats %+v", c.Stats)
	}
	// MaxRepeat 1 and no cap keep everything but the blank block.
	if c := mustAssemble(t, in, Options{MaxRepeat: 1, PerFile: NoCap}); len(c.Blocks) != 5 {
		t.Fatalf("%d blocks, stats %+v", len(c.Blocks), c.Stats)
	}
}

// Rows the in-file part shows are never repeated by a block of the same
// file, and a block wholly inside them is dropped.
func TestInFileRows(t *testing.T) {
	src := lines(1, 60, "line_%d = compute(alpha, beta, gamma, delta)")
	cursor := 51 // complete line 51 from lines 1-50
	in := Input{Path: "q.py", Prefix: src[:cursor-1], Suffix: src[cursor:], Candidates: []Candidate{
		{Source: Retrieved, Path: "q.py", StartLine: 40, Focus: 45, Lines: src[39:50]},
		{Source: Retrieved, Path: "q.py", StartLine: 5, Focus: 10, Lines: src[4:25]},
	}}
	for _, layout := range []Layout{Paper, FIM, Files} {
		c := mustAssemble(t, in, Options{ContextWindow: 300, MaxNewTokens: 20, Layout: layout})
		lo := c.PrefixStart
		hi := cursor + len(c.Suffix)
		for _, b := range c.Blocks {
			if b.Path == "q.py" && b.EndLine >= lo && b.StartLine <= hi {
				t.Errorf("%s: block %d-%d repeats in-file rows %d-%d", layout, b.StartLine, b.EndLine, lo, hi)
			}
		}
		if len(c.Blocks) != 1 || c.Blocks[0].StartLine < 5 {
			t.Errorf("%s: blocks %+v", layout, c.Blocks)
		}
	}
}

// Runs of lines shown already become one marker when they hold a line
// that is not trivial; a run of trivial lines stays.
func TestElide(t *testing.T) {
	in := Input{Path: "q.py", Prefix: []string{"def run(self):", "    try:", "        self.start()", "        self.wait()", "    finally:"},
		Candidates: []Candidate{{Source: Retrieved, Path: "a.py", StartLine: 10, Lines: []string{
			"def go(self):",    // 10 novel
			"    try:",         // 11 shown, trivial alone: kept
			"        self.x()", // 12 novel
			"        self.start()",
			"",
			"        self.wait()", // 13-15 shown with a blank between: one marker
			"    finally:",        // 16 shown, trivial, but in the run above
			"        self.y()",    // 17 novel
		}}}}
	c := mustAssemble(t, in, Options{MaxRepeat: 1, Keywords: []string{"def", "try", "finally", "self"}})
	if len(c.Blocks) != 1 {
		t.Fatalf("blocks %+v", c.Blocks)
	}
	b := c.Blocks[0]
	want := []string{"def go(self):", "    try:", "        self.x()", "        # ...", "        self.y()"}
	if !slices.Equal(b.Lines, want) || !slices.Equal(b.Rows, []int{10, 11, 12, 0, 17}) || b.Elided != 4 {
		t.Fatalf("lines %q rows %v elided %d", b.Lines, b.Rows, b.Elided)
	}
	if c := mustAssemble(t, in, Options{MaxRepeat: 1, NoElide: true}); len(c.Blocks[0].Lines) != 8 {
		t.Fatalf("NoElide lines %q", c.Blocks[0].Lines)
	}
}

func TestDensity(t *testing.T) {
	big := Candidate{Source: Retrieved, Path: "big.py", StartLine: 1, Score: 0.9, Lines: lines(1, 30, "big_%d = g(a, b, c)")}
	small := Candidate{Source: Retrieved, Path: "small.py", StartLine: 1, Score: 0.5, Lines: []string{"s = 1"}}
	in := Input{Prefix: []string{"x = 1"}, Candidates: []Candidate{big, small}}
	// Half of 200 tokens: the big block must be cut; by density the small
	// block is taken first, by rank the big one.
	first := func(o Options) string {
		o.ContextWindow, o.MaxNewTokens = 200, 20
		c := mustAssemble(t, in, o)
		if len(c.Blocks) == 0 {
			t.Fatal("no blocks")
		}
		return fmt.Sprintf("%d blocks, cut %d", len(c.Blocks), c.Stats.Cut)
	}
	if got := first(Options{Order: ByDensity}); got != "2 blocks, cut 1" {
		t.Errorf("density: %s", got)
	}
	if got := first(Options{Order: ByRank}); got != "1 blocks, cut 1" {
		t.Errorf("rank: %s", got)
	}
}

func TestBadInput(t *testing.T) {
	huge := Candidate{Source: Retrieved, Path: "h.py", StartLine: 1, Focus: 500, Lines: lines(1, 1000, "v%d = compute(%d)")}
	for _, tt := range []struct {
		name string
		in   Input
		o    Options
		err  bool
	}{
		{"no room", Input{Prefix: []string{"x"}}, Options{ContextWindow: 50, MaxNewTokens: 50}, true},
		{"negative window", Input{}, Options{ContextWindow: -1}, true},
		{"bad share", Input{}, Options{Share: 1.5}, true},
		{"bad cap", Input{}, Options{PerFile: -3}, true},
		{"bad repeat", Input{}, Options{MaxRepeat: 2}, true},
		{"bad order", Input{}, Options{Order: "random"}, true},
		{"bad position", Input{}, Options{Position: "middle"}, true},
		{"bad layout", Input{}, Options{Layout: "chat"}, true},
		{"tiny budget", Input{Prefix: []string{"a b c d e f"}, Candidates: []Candidate{huge}}, Options{ContextWindow: 3, MaxNewTokens: 1}, false},
		{"one token", Input{Prefix: []string{"a b"}}, Options{ContextWindow: 2, MaxNewTokens: 1}, false},
		{"snippet over budget", Input{Prefix: []string{"x = 1"}, Candidates: []Candidate{huge}}, Options{ContextWindow: 400}, false},
		{"empty prefix", Input{Path: "a.py", Candidates: []Candidate{huge}}, Options{}, false},
		{"nothing", Input{}, Options{}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Assemble(tt.in, tt.o)
			if tt.err {
				if err == nil {
					t.Fatal("no error")
				}
				if tt.name == "no room" && !errors.Is(err, ErrBudget) {
					t.Fatalf("error %v is not ErrBudget", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b := tt.o.Budget()
			if n := len(whitespace{}.Split(nil, c.Text()+c.SuffixText())); n > b || c.Tokens > b {
				t.Fatalf("%d tokens (reported %d), budget %d", n, c.Tokens, b)
			}
			if tt.name == "snippet over budget" || tt.name == "empty prefix" {
				if len(c.Blocks) != 1 || c.Blocks[0].StartLine > 500 || c.Blocks[0].EndLine < 500 {
					t.Fatalf("the huge block is not cut around its focus: %+v", c.Blocks)
				}
			}
		})
	}
}

// The properties, over random inputs, tokenizers, layouts and options:
// the prompt never exceeds the budget, blocks of one file never overlap,
// in-file rows are never repeated, and every block line is a line of a
// candidate at the block's rows.
func TestProperties(t *testing.T) {
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
	files := map[string][]string{}
	for _, p := range []string{"q.py", "a.py", "b.py", "c.py"} {
		var ls []string
		for j := 0; j < 300; j++ {
			ls = append(ls, line())
		}
		files[p] = ls
	}
	for trial := 0; trial < 400; trial++ {
		tok := toks[trial%len(toks)]
		cursor := 1 + r.IntN(250)
		pstart := 1 + r.IntN(cursor)
		q := files["q.py"]
		in := Input{Path: "q.py", Prefix: q[pstart-1 : cursor-1], PrefixStart: pstart, Suffix: q[cursor:min(cursor+r.IntN(40), len(q))]}
		for i := r.IntN(16); i > 0; i-- {
			p := []string{"q.py", "a.py", "b.py", "c.py", ""}[r.IntN(5)]
			if p != "" && r.IntN(4) == 0 {
				// A definition: rows of the file in any order.
				ls := files[p]
				end := len(ls)
				if p == "q.py" {
					end = cursor - 1
				}
				if end < 1 {
					continue
				}
				var rows []int
				var text []string
				for n := 1 + r.IntN(12); n > 0; n-- {
					row := 1 + r.IntN(end)
					if !slices.Contains(rows, row) {
						rows, text = append(rows, row), append(text, ls[row-1])
					}
				}
				in.Candidates = append(in.Candidates, Candidate{Source: Definition, Path: p, Lines: text, Rows: rows,
					Focus: rows[0], Score: r.Float64()})
				continue
			}
			if p == "" {
				in.Candidates = append(in.Candidates, Candidate{Source: Clipboard, Lines: []string{line(), line()}, Score: r.Float64()})
				continue
			}
			ls := files[p]
			end := len(ls)
			if p == "q.py" {
				end = cursor - 1 // the leak rule: never at or after the cursor
			}
			if end < 1 {
				continue
			}
			s := 1 + r.IntN(end)
			e := min(s+r.IntN(25), end)
			in.Candidates = append(in.Candidates, Candidate{Source: Retrieved, Path: p, StartLine: s, Lines: ls[s-1 : e],
				Focus: s + r.IntN(e-s+1), Score: r.Float64()})
		}
		o := Options{ContextWindow: 2 + r.IntN(900), MaxNewTokens: 1 + r.IntN(50), Tokenizer: tok, CommentPrefix: "//",
			Layout: []Layout{Paper, FIM, Files}[r.IntN(3)], NoMerge: r.IntN(4) == 0,
			Order: []Order{ByRank, ByDensity}[r.IntN(2)], Position: []Position{BestLast, Edges}[r.IntN(2)],
			PerFile: []int{0, 1, 3, NoCap}[r.IntN(4)], MaxRepeat: []float64{0, 0.2, 1}[r.IntN(3)], NoElide: r.IntN(3) == 0,
			Share: []float64{0, 0.25, 0.75, 1}[r.IntN(4)], FixedShare: r.IntN(2) == 0,
			Priority: [][]Source{nil, {}, {Retrieved}, {Definition, Clipboard}}[r.IntN(4)],
			Shares:   []map[Source]float64{nil, {}, {Definition: 0.3}, {Definition: 1, Retrieved: 0.5}}[r.IntN(4)]}
		if o.ContextWindow <= o.MaxNewTokens {
			o.ContextWindow = o.MaxNewTokens + 1
		}
		c := mustAssemble(t, in, o)
		// A block is measured when it competes, or not at all when its
		// frame alone overflows: the prompt of measuring every block
		// first.
		measureEagerly = true
		eager := mustAssemble(t, in, o)
		measureEagerly = false
		if !reflect.DeepEqual(c, eager) {
			t.Fatalf("trial %d: the prompt differs from the one of blocks all measured first", trial)
		}
		n := countLines(tok, c.Text()) + countLines(tok, c.SuffixText())
		if o.Layout == Files {
			for i := range c.Blocks {
				n += countLines(tok, c.Blocks[i].Path+"\n"+c.Blocks[i].Text())
			}
		}
		if n > o.Budget() || c.Tokens != n {
			t.Fatalf("trial %d: prompt has %d tokens (reported %d), budget %d", trial, n, c.Tokens, o.Budget())
		}
		lo, hi := c.PrefixStart, cursor+len(c.Suffix)
		if len(c.Prefix) > 0 && (c.PrefixStart+len(c.Prefix) != cursor || !slices.Equal(c.Prefix, q[lo-1:cursor-1])) {
			t.Fatalf("trial %d: prefix is not the lines right before the cursor", trial)
		}
		if len(c.Prefix) == 0 {
			lo = cursor
		}
		framed := 0 // blocks without explicit rows: only definitions have them here
		for _, b := range c.Blocks {
			if b.Source != Definition {
				framed++
			}
		}
		if framed > o.withDefaults().MaxBlocks {
			t.Fatalf("trial %d: %d blocks besides definitions", trial, framed)
		}
		od := o.withDefaults()
		bySource := map[Source]int{}
		for _, b := range c.Blocks {
			bySource[b.Source] += b.Tokens
		}
		limit := int(od.Share * float64(od.Budget())) // the share of the blocks, their header included
		if !od.FixedShare && len(c.Prefix) == len(in.Prefix) {
			// A wholly shown in-file context may have left the blocks
			// more than their share; at most the whole budget.
			limit = od.Budget()
		}
		for src, sh := range od.Shares {
			if bySource[src] > int(sh*float64(limit)) {
				t.Fatalf("trial %d: %s blocks take %d tokens, over their share %g of %d (layout %v, prefix %d of %d, suffix %d of %d, budget %d, share %g, fixed %v)", trial, src, bySource[src], sh, limit, od.Layout, len(c.Prefix), len(in.Prefix), len(c.Suffix), len(in.Suffix), od.Budget(), od.Share, od.FixedShare)
			}
		}
		for i, b := range c.Blocks {
			if b.StartLine == 0 {
				continue
			}
			if b.Source == Definition {
				for j, l := range b.Lines {
					r := b.Rows[j]
					if r == 0 {
						if !strings.HasSuffix(l, "// ...") {
							t.Fatalf("trial %d: definition line %q has no row and is no marker", trial, l)
						}
						continue
					}
					if r < b.StartLine || r > b.EndLine || files[b.Path][r-1] != l || !b.HasRow(r) {
						t.Fatalf("trial %d: definition %s line %d is not row %d", trial, b.Path, j, r)
					}
					if b.Path == "q.py" && r >= lo && r <= hi {
						t.Fatalf("trial %d: definition repeats in-file row %d (%d-%d)", trial, r, lo, hi)
					}
				}
				continue
			}
			prev := b.StartLine - 1
			for j, l := range b.Lines {
				r := b.Rows[j]
				if r == 0 {
					if !strings.HasSuffix(l, "// ...") {
						t.Fatalf("trial %d: block %s:%d-%d line %q has no row and is no marker", trial, b.Path, b.StartLine, b.EndLine, l)
					}
					continue
				}
				if r <= prev || r > b.EndLine || files[b.Path][r-1] != l {
					t.Fatalf("trial %d: block %s:%d-%d line %d is not row %d", trial, b.Path, b.StartLine, b.EndLine, j, r)
				}
				prev = r
			}
			if b.Path == "q.py" && b.EndLine >= lo && b.StartLine <= hi {
				t.Fatalf("trial %d: block %d-%d repeats in-file rows %d-%d", trial, b.StartLine, b.EndLine, lo, hi)
			}
			for _, o2 := range c.Blocks[i+1:] {
				if !o.NoMerge && o2.Source == b.Source && o2.Source != Definition && o2.Path == b.Path && o2.StartLine <= b.EndLine && b.StartLine <= o2.EndLine {
					t.Fatalf("trial %d: blocks %d-%d and %d-%d of %s overlap", trial, b.StartLine, b.EndLine, o2.StartLine, o2.EndLine, b.Path)
				}
			}
		}
	}
}

// On the inputs of the former golden tests, Legacy writes the former
// prompts byte for byte.
func TestLegacy(t *testing.T) {
	py := Input{Path: "ledger/importers.py", Prefix: []string{"import csv", "", "def load(path):", "    with open(path) as f:"},
		Candidates: []Candidate{ // best first, as the former scores ranked them
			{Source: Retrieved, Path: "ledger/reports.py", StartLine: 1, Lines: splitText("def dump(path, rows):\n    with open(path, 'w') as fh:\n        fh.write(render(rows))")},
			{Source: Retrieved, Path: "ledger/big.py", StartLine: 1, Lines: splitText(strings.Repeat("x = compute(a, b, c, d)\n", 40))},
			{Source: Retrieved, Path: "ledger/accounts.py", StartLine: 1, Lines: splitText("class Account:\n\n    def __init__(self, name):\n        self.name = name")},
		}}
	java := Input{Path: "src/ledger/Ledger.java", Prefix: []string{"package ledger;", "", "public class Ledger {", "    public long total() {", "        long sum = 0;"},
		Candidates: []Candidate{
			{Source: Retrieved, Path: "src/ledger/Report.java", StartLine: 1, Lines: splitText("    int count() {\n        int n = 0;\n        for (Item i : items) {")},
			{Source: Retrieved, Path: "src/ledger/Account.java", StartLine: 1, Lines: splitText("    public long balance() {\n        long b = 0;\n        for (Entry e : entries) {\n            b += e.amount;")},
		}}
	for _, tt := range []struct {
		name, prefix string
		in           Input
		window       int
	}{{"python", "#", py, 200}, {"java", "//", java, 240}} {
		o := Legacy(Options{})
		o.ContextWindow, o.MaxNewTokens, o.CommentPrefix = tt.window, 20, tt.prefix
		c := mustAssemble(t, tt.in, o)
		want, err := os.ReadFile(filepath.Join("testdata", "legacy-"+tt.name+".golden"))
		if err != nil {
			t.Fatal(err)
		}
		if c.Text() != string(want) {
			t.Errorf("%s: legacy prompt\n%s\nwant\n%s", tt.name, c.Text(), want)
		}
	}
}

// TestDefinitions: a candidate with explicit rows keeps its own order,
// loses the lines the in-file part shows, is cut to its first lines,
// competes first by default and keeps to its source's share.
func TestDefinitions(t *testing.T) {
	def := Candidate{Source: Definition, Path: "q.py", Score: 1, Focus: 2,
		Lines: []string{"class Ledger:", "    def post(self, entry):", "    def close(self):", "    total = 0", "    def open(self):"},
		Rows:  []int{2, 40, 9, 3, 30}}
	ret := Candidate{Source: Retrieved, Path: "a.py", StartLine: 1, Focus: 1, Score: 0.9, Lines: lines(1, 4, "a%d()")}
	prefix := lines(1, 49, "p%d")
	in := Input{Path: "q.py", Prefix: prefix, Candidates: []Candidate{ret, def}}
	// The whole prefix is shown: the definition's rows are all in-file.
	c := mustAssemble(t, in, Options{ContextWindow: 100000})
	if len(c.Blocks) != 1 || c.Blocks[0].Source != Retrieved || c.Stats.InFile != 1 {
		t.Fatalf("blocks %+v", c.Blocks)
	}
	// From line 36 on: the rows before it stay, in the candidate's order.
	in.Prefix, in.PrefixStart = prefix[35:], 36
	c = mustAssemble(t, in, Options{ContextWindow: 100000, Lead: -1})
	b := c.Blocks[len(c.Blocks)-1]
	if b.Source != Definition || !slices.Equal(b.Rows, []int{2, 9, 3, 30}) || b.StartLine != 2 || b.EndLine != 30 {
		t.Fatalf("definition rows %v, lines %d-%d", b.Rows, b.StartLine, b.EndLine)
	}
	if !b.HasRow(9) || b.HasRow(40) || b.HasRow(10) {
		t.Errorf("HasRow wrong for rows %v", b.Rows)
	}
	// A share that holds all but the last line cuts the definition to its
	// first three.
	whole := b.Tokens
	cost := len(strings.Fields("# " + b.Lines[3])) // the last line as rendered
	o := Options{ContextWindow: 100000, FixedShare: true, Lead: -1}
	header := len(strings.Fields("# Here are some relevant code fragments from other files of the repo:"))
	limit := int(0.5*float64(o.Budget())) - header
	o.Shares = map[Source]float64{Definition: (float64(whole-cost) + 0.5) / float64(limit)}
	c = mustAssemble(t, in, o)
	if b := c.Blocks[len(c.Blocks)-1]; b.Source != Definition || !slices.Equal(b.Rows, []int{2, 9, 3}) {
		t.Errorf("cut definition rows %v, want the first three", b.Rows)
	}
	// Without priority the definition competes by rank, after the window.
	c = mustAssemble(t, in, Options{ContextWindow: 100000, Priority: []Source{}})
	if c.Blocks[len(c.Blocks)-1].Source != Retrieved {
		t.Errorf("without priority the best block is %s", c.Blocks[len(c.Blocks)-1].Source)
	}
	if err := (Options{Shares: map[Source]float64{Definition: 1.5}}).Validate(); err == nil {
		t.Error("a share of 1.5 validated")
	}
}

// A short file leaves the rest of its part to the blocks; with FixedShare
// the blocks keep to their share.
func TestSpareShare(t *testing.T) {
	var cands []Candidate
	for i := range 40 {
		var lines []string
		for j := range 6 {
			lines = append(lines, fmt.Sprintf("value_%d_%d = compute(%d)", i, j, j))
		}
		cands = append(cands, Candidate{Source: Retrieved, Path: fmt.Sprintf("f%d.py", i), StartLine: 1, Lines: lines})
	}
	in := Input{Path: "q.py", Prefix: []string{"import os", "x = 1"}, Candidates: cands}
	o := Options{ContextWindow: 600, MaxNewTokens: 100}
	blocks := func(c *Context) (n int) {
		for _, b := range c.Blocks {
			n += b.Tokens
		}
		return n
	}
	c := mustAssemble(t, in, o)
	if half := int(0.5 * float64(o.Budget())); blocks(c) <= half || c.Tokens > o.Budget() || len(c.Prefix) != 2 {
		t.Fatalf("blocks take %d tokens of %d (half %d), prompt %d, prefix %d lines", blocks(c), o.Budget(), half, c.Tokens, len(c.Prefix))
	}
	o.FixedShare = true
	f := mustAssemble(t, in, o)
	if half := int(0.5 * float64(o.Budget())); blocks(f) > half || len(f.Blocks) >= len(c.Blocks) {
		t.Fatalf("with a fixed share blocks take %d tokens (half %d), %d blocks against %d", blocks(f), half, len(f.Blocks), len(c.Blocks))
	}
	// A prefix that fills its part leaves nothing.
	var long []string
	for i := range 200 {
		long = append(long, fmt.Sprintf("line_%d = %d", i, i))
	}
	in.Prefix = long
	o.FixedShare = false
	if c := mustAssemble(t, in, o); blocks(c) > int(0.5*float64(o.Budget())) {
		t.Fatalf("a long prefix left the blocks %d tokens", blocks(c))
	}
}

// countLines counts text as the assembler does: each line, with its
// newline, alone.
func countLines(tok Tokenizer, text string) int {
	n := 0
	for _, l := range strings.SplitAfter(text, "\n") {
		if l != "" {
			n += len(tok.Split(nil, l))
		}
	}
	return n
}

// A docstring's first line leaves a quote open; the lines after it still
// count.
func TestCountOpenQuote(t *testing.T) {
	c := newCounter(token.Code{})
	text := "# \"\"\"Return the total.\n# def total(self, items) -> int:\n# x = a + b\n"
	want := 0
	for _, l := range strings.SplitAfter(text, "\n") {
		want += len(token.Code{}.Split(nil, l))
	}
	if got, whole := c.count(text), len(token.Code{}.Split(nil, text)); got != want || got <= whole {
		t.Fatalf("count %d, want %d (the whole text at once gives %d)", got, want, whole)
	}
}

// splitText splits a candidate's text into lines without terminators; a
// final newline does not start another line.
func splitText(text string) []string {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// The best retrieved block competes before the definitions, in at most
// LeadShare of the blocks' budget; the rest compete after them.
func TestLead(t *testing.T) {
	var defLines []string
	var rows []int
	for i := range 60 {
		defLines = append(defLines, fmt.Sprintf("def api_%d(a, b): ...", i))
		rows = append(rows, i+1)
	}
	window := func(p string) Candidate {
		var ls []string
		for i := range 21 {
			ls = append(ls, fmt.Sprintf("%s_value_%d = compute(%d)", strings.TrimSuffix(p, ".py"), i, i))
		}
		return Candidate{Source: Retrieved, Path: p, StartLine: 1, Lines: ls, Focus: 11}
	}
	in := Input{Path: "q.py", Prefix: []string{"import os"}, Candidates: []Candidate{
		window("best.py"), window("second.py"),
		{Source: Definition, Path: "api.py", Lines: defLines, Rows: rows, Focus: 1},
	}}
	o := Options{ContextWindow: 500, MaxNewTokens: 100, FixedShare: true}
	c := mustAssemble(t, in, o)
	limit := int(0.5*float64(o.Budget())) - len(strings.Fields("# Here are some relevant code fragments from other files of the repo:"))
	var got []string
	for _, b := range c.Blocks {
		got = append(got, b.Path)
		if b.Path == "best.py" && (b.Tokens > int(DefaultLeadShare*float64(limit)) || !b.HasRow(11)) {
			t.Errorf("lead block of %d tokens (cap %d), rows %d-%d", b.Tokens, int(DefaultLeadShare*float64(limit)), b.StartLine, b.EndLine)
		}
	}
	// Best last: the definitions before the lead block; the second window
	// finds no room after the definitions.
	if strings.Join(got, " ") != "api.py best.py" {
		t.Fatalf("blocks %v", got)
	}
	defTokens := c.Blocks[0].Tokens
	// Without a lead the definitions come first (and stand last), and
	// take more of the budget.
	o.Lead = -1
	c = mustAssemble(t, in, o)
	if len(c.Blocks) != 2 || c.Blocks[1].Source != Definition || c.Blocks[1].Tokens <= defTokens {
		t.Fatalf("without a lead: blocks %+v", c.Blocks)
	}
}
