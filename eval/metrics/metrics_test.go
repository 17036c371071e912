package metrics

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/graphcoder/graphcoder/prompt"
)

var pyKeywords = []string{"def", "return", "if", "else", "for", "in", "not", "and", "or", "None", "True", "False", "import", "from", "class", "self_is_not_a_keyword"}

func TestNormalize(t *testing.T) {
	py := New("#", pyKeywords)
	java := New("//", []string{"int", "return", "new"})
	tests := []struct {
		name         string
		s            *Scorer
		target, pred string
		wantT, wantP string
	}{
		{"strip", py, "    x = 1  ", "\tx = 1", "x = 1", "x = 1"},
		{"prediction cut to target lines", py, "x = 1\n", "x = 1\ny = 2\nz = 3", "x = 1", "x = 1"},
		{"blank lines dropped before cut", py, "a()\n\nb()", "\n\na()\n   \nb()\nc()", "a()\nb()", "a()\nb()"},
		{"comment lines dropped", py, "a()", "# explain\n  # more\na()", "a()", "a()"},
		{"trailing comment kept", py, "a()  # why", "a()", "a()  # why", "a()"},
		{"java line and block comments", java, "int x = 1;", "/** doc\n * more\n */\n// c\nint x = 1;", "int x = 1;", "int x = 1;"},
		{"hash is not a java comment", java, "#x", "#x", "#x", "#x"},
		{"empty prediction", py, "a()", "", "a()", ""},
		{"empty target keeps nothing", py, "", "a()", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gotT, gotP := tt.s.Normalize(tt.target, tt.pred)
			if gotT != tt.wantT || gotP != tt.wantP {
				t.Errorf("Normalize(%q, %q) = %q, %q; want %q, %q", tt.target, tt.pred, gotT, gotP, tt.wantT, tt.wantP)
			}
		})
	}
}

func TestLevenshtein(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{"flaw", "lawn", 2},
		{"abc", "abc", 0},
		{"héllo", "hello", 1}, // one rune, two bytes
		{"日本語", "日本", 1},
		{"ab", "ba", 2},
	}
	for _, tt := range tests {
		if got := Levenshtein(tt.a, tt.b); got != tt.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
		if got := Levenshtein(tt.b, tt.a); got != tt.want {
			t.Errorf("Levenshtein(%q, %q) = %d, want %d (symmetry)", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestEditSimilarity(t *testing.T) {
	tests := []struct {
		a, b string
		want float64
	}{
		{"", "", 1},
		{"abc", "", 0},
		{"kitten", "sitting", 1 - 3.0/7},
		{"x = 1", "x = 2", 0.8},
		{"héllo", "hello", 0.8}, // on runes: 1 - 1/5
	}
	for _, tt := range tests {
		if got := EditSimilarity(tt.a, tt.b); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("EditSimilarity(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestIdentifiers(t *testing.T) {
	py := New("#", pyKeywords)
	tests := []struct {
		code string
		want []string
	}{
		{"return self.foo(x, 42)", []string{"self", "foo", "x"}},
		{`name = "hello world" + 'it''s'`, []string{"name"}},
		{`log(f"value {v}", rb'\x00')`, []string{"log"}},
		{`s = """doc "quoted" inside"""; t`, []string{"s", "t"}},
		{`x = "esc \" still" + y`, []string{"x", "y"}},
		{"for _i in range(3_0): pass", []string{"_i", "range", "pass"}},
		{"if a and not b2: 9abc", []string{"a", "b2"}},
		{"café = naïve + 1", []string{"café", "naïve"}},
		{`buf = "unterminated`, []string{"buf"}},
		{`elif(x)`, []string{"elif", "x"}}, // not in this keyword list
		{`self_is_not_a_keyword`, nil},
		{`prefix_f"x"`, []string{"prefix_f"}}, // f glued to a word is not a prefix
	}
	for _, tt := range tests {
		if got := py.Identifiers(tt.code); !slices.Equal(got, tt.want) {
			t.Errorf("Identifiers(%q) = %q, want %q", tt.code, got, tt.want)
		}
	}
}

func TestSetF1(t *testing.T) {
	tests := []struct {
		target, pred []string
		want         float64
	}{
		{nil, nil, 1},
		{[]string{"a"}, nil, 0},
		{nil, []string{"a"}, 0},
		{[]string{"a", "b"}, []string{"a", "b"}, 1},
		{[]string{"a", "b"}, []string{"b", "a", "a"}, 1}, // sets
		// P = 1/3 (a of a,c,d), R = 1/2 (a of a,b): F1 = 2*(1/6)/(5/6) = 0.4
		{[]string{"a", "b"}, []string{"a", "c", "d"}, 0.4},
		{[]string{"a"}, []string{"b"}, 0},
	}
	for _, tt := range tests {
		if got := SetF1(tt.target, tt.pred); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("SetF1(%q, %q) = %v, want %v", tt.target, tt.pred, got, tt.want)
		}
	}
}

func TestScore(t *testing.T) {
	py := New("#", pyKeywords)
	tests := []struct {
		name, target, pred string
		want               Score
	}{
		{"exact after normalising", "    return foo(a)\n", "return foo(a)\n    y = 2\n", Score{EM: true, ES: 1, IDEM: true, IDF1: 1}},
		// "x = foo(a)" vs "x = foo(b)": distance 1 of 10 runes; ids [x foo a] vs [x foo b]:
		// P = R = 2/3, F1 = 2/3.
		{"one char off", "x = foo(a)", "x = foo(b)", Score{ES: 0.9, IDF1: 2.0 / 3}},
		// Identifiers equal although the code differs: strings are dropped.
		// Distance: two quote substitutions, a->b, two insertions = 5 of 12 runes.
		{"ids equal, strings differ", `print("a")`, `print('bcd')`, Score{ES: 1 - 5.0/12, IDEM: true, IDF1: 1}},
		// Comment line in the prediction is skipped, then the second line is compared.
		{"comment skipped", "a = b", "# note\na = c", Score{ES: 0.8, IDF1: 0.5}},
		{"both empty", "", "", Score{EM: true, ES: 1, IDEM: true, IDF1: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := py.Score(tt.target, tt.pred)
			if got.EM != tt.want.EM || got.IDEM != tt.want.IDEM ||
				math.Abs(got.ES-tt.want.ES) > 1e-12 || math.Abs(got.IDF1-tt.want.IDF1) > 1e-12 {
				t.Errorf("Score(%q, %q) = %+v, want %+v", tt.target, tt.pred, got, tt.want)
			}
		})
	}
}

func TestHit(t *testing.T) {
	py := New("#", nil)
	values := []string{
		"def f():\n    pass",
		"    # x = compute(a)\n",      // only in a comment: no hit
		"if y:\n    x = compute(a)\n", // indented in the window: hit after stripping
	}
	tests := []struct {
		target string
		k      int
		want   bool
	}{
		{"    x = compute(a)", 1, false},
		{"    x = compute(a)", 2, false},
		{"    x = compute(a)", 3, true},
		{"    x = compute(a)", 10, true},
		{"pass", 1, true},
		{"", 10, false},
		{"# only a comment", 10, false},
		{"if y:\n  x = compute(a)", 3, true}, // multi-line target, stripped lines
	}
	for _, tt := range tests {
		if got := py.Hit(tt.target, values, tt.k); got != tt.want {
			t.Errorf("Hit(%q, k=%d) = %v, want %v", tt.target, tt.k, got, tt.want)
		}
	}
}

func BenchmarkLevenshtein(b *testing.B) {
	x := "result = self.client.request(method, url, headers=headers)"
	y := "response = self.session.send(request, timeout=timeout)"
	b.ReportAllocs()
	for b.Loop() {
		Levenshtein(x, y)
	}
}

func TestReserved(t *testing.T) {
	tests := []struct {
		language string
		keywords []string
		want     []string
	}{
		{"python", []string{"def", "type", "None", "match", "_", "case"}, []string{"def", "None"}},
		{"java", []string{"class", "permits", "var", "null", "record", "to"}, []string{"class", "null"}},
		{"toy", []string{"def", "type"}, []string{"def", "type"}},
	}
	for _, tt := range tests {
		if got := Reserved(tt.language, tt.keywords); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Reserved(%q, %q) = %q, want %q", tt.language, tt.keywords, got, tt.want)
		}
	}
	// A soft keyword used as a name is an identifier of the target.
	s := New("#", Reserved("python", []string{"if", "type"}))
	if got := s.Identifiers("if type == 'bool':"); !reflect.DeepEqual(got, []string{"type"}) {
		t.Errorf("Identifiers = %q, want [type]", got)
	}
	if sc := s.Score("if type == 'bool':", ""); sc.IDEM {
		t.Error("an empty prediction matches the identifiers of a line that has one")
	}
}

// TestContext checks the context metrics of one prompt against values
// worked out by hand (see the comments).
func TestContext(t *testing.T) {
	in := prompt.Input{Path: "q.py", Prefix: []string{"import os", "x = load(path)", "y = x.size"},
		Candidates: []prompt.Candidate{
			{Source: prompt.Retrieved, Path: "a.py", StartLine: 1, Lines: []string{
				"def load(p):", "    if p:", "        data = open(p).read()", "    else:", "        data = empty()",
				"y = x.size", // shown in-file: elided behind a marker (a comment)
			}},
			{Source: prompt.Retrieved, Path: "b.py", StartLine: 1, Lines: []string{"z = compute(x)", "total = z + 1"}},
			{Source: prompt.Retrieved, Path: "c.py", StartLine: 5, Lines: []string{
				"if ready:", "    result = compute(x) + helper(y)", "else:", "    result = fallback()"}},
		}}
	kw := pyKeywords
	c, err := prompt.Assemble(in, prompt.Options{Keywords: kw})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Blocks) != 3 || c.Blocks[2].Path != "a.py" || c.Blocks[2].Elided != 1 {
		t.Fatalf("blocks %+v", c.Blocks)
	}
	s := New("#", kw)
	got := s.Context("result = compute(x) + helper(y)", c)
	want := Context{
		// Ranks a.py 1, b.py 2, c.py 3: c.py holds the target.
		FirstRelevant: 3,
		// result, compute, x, helper, y; the in-file part shows x and y.
		NovelIDs: 3, NovelFound: 3,
		// In prompt order c.py (4 lines), b.py (2), a.py (5 and a marker,
		// which is a comment): a.py's "else:" repeats c.py's.
		Lines: 11, DupLines: 1,
		// c.py's block, whitespace tokens: separator 2, "the below code
		// fragment can be found in:" 9, path 2, separator 2, lines 3 + 6 +
		// 2 + 4, separator 2.
		RelevantTokens: 32, Tokens: c.Tokens, Budget: 1948,
	}
	if got != want {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

// A quote one block line leaves open (a docstring's first line) hides no
// identifier of the lines and blocks after it, whatever their order.
func TestContextOpenQuote(t *testing.T) {
	s := New("#", pyKeywords)
	c := &prompt.Context{Blocks: []prompt.Block{
		{Source: prompt.Definition, Path: "a.py", Lines: []string{"def total(items):", `    """Return the sum of items.`}},
		{Source: prompt.Retrieved, Path: "b.py", Lines: []string{"result = summarize(records)"}},
	}}
	got := s.Context("out = summarize(records)", c)
	if got.NovelIDs != 3 || got.NovelFound != 2 {
		t.Fatalf("novel %d, found %d; want 3 and 2", got.NovelIDs, got.NovelFound)
	}
}
