package llm

import "testing"

func TestCutLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"x = 1", "x = 1"},
		{"x = 1\ny = 2", "x = 1"},
		{"\n    return x\n    y", ""},
		{"  \n\t\nfoo()\nbar()", "  "},
		{"a\r\nb", "a\r"},
	}
	for _, tt := range tests {
		if got := CutLine(tt.in); got != tt.want {
			t.Errorf("CutLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCutBlock(t *testing.T) {
	tests := []struct {
		name, prefix, text, want string
	}{
		{"one statement then dedent", "def f(p):\n    with open(p) as f:\n        ",
			"data = f.read()\n    return data\n", "data = f.read()\n"},
		{"block continues at same depth", "def f():\n    ",
			"x = 1\n    if x:\n        y()\n    return x\nclass C:\n", "x = 1\n    if x:\n        y()\n    return x\n"},
		{"indent comes from the completion", "def f():\n",
			"    a = 1\n    b = 2\nprint(f())\n", "    a = 1\n    b = 2\n"},
		{"blank cursor line takes the first content line", "class C:\n    def m(self):\n        pass\n",
			"\n    def n(self):\n        return 1\n\nx = C()\n", "\n    def n(self):\n        return 1\n\n"},
		{"blank lines never stop", "if x:\n    ",
			"a()\n\n\n    b()\nc()", "a()\n\n\n    b()\n"},
		{"java closing brace below the cursor", "class A {\n    void m() {\n        ",
			"int x = 1;\n        use(x);\n    }\n}\n", "int x = 1;\n        use(x);\n"},
		{"tabs expand to stops of eight", "if x:\n\t",
			"a()\n        b()\n   c()\n", "a()\n        b()\n"},
		{"top level never dedents", "", "x = 1\ny = 2", "x = 1\ny = 2"},
		{"no newline", "    ", "foo(", "foo("},
	}
	for _, tt := range tests {
		if got := CutBlock(tt.text, tt.prefix); got != tt.want {
			t.Errorf("%s: CutBlock(%q, %q) = %q, want %q", tt.name, tt.text, tt.prefix, got, tt.want)
		}
	}
}

func TestTrimEndTokens(t *testing.T) {
	tests := []struct{ in, want string }{
		{"return x<|endoftext|>", "return x"},
		{"return x <EOT>", "return x "},
		{"a<｜end▁of▁sentence｜>b", "a"},
		{"a<|EOT|>", "a"},
		{"a<|file_sep|>util.py\nb", "a"},
		{"a<file_sep>b<|endoftext|>", "a"},
		{"a<|fim_pad|><|fim_pad|>", "a"},
		{"x = '<fim'", "x = '<fim'"},
		{"if a < b and c > d:", "if a < b and c > d:"},
	}
	for _, tt := range tests {
		if got := TrimEndTokens(tt.in); got != tt.want {
			t.Errorf("TrimEndTokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCutAtStops(t *testing.T) {
	tests := []struct {
		in    string
		stops []string
		want  string
	}{
		{"abc", nil, "abc"},
		{"a;b;c", []string{";"}, "a"},
		{"a\n\nb#c", []string{"#", "\n\n"}, "a"},
		{"abc", []string{""}, "abc"},
	}
	for _, tt := range tests {
		if got := CutAtStops(tt.in, tt.stops); got != tt.want {
			t.Errorf("CutAtStops(%q, %q) = %q, want %q", tt.in, tt.stops, got, tt.want)
		}
	}
}

func TestFinish(t *testing.T) {
	qwen, _ := TemplateByName("qwen")
	tests := []struct {
		name string
		post postProcess
		req  Request
		raw  string
		want string
	}{
		{"line mode", postProcess{lineMode: true}, Request{Prefix: "x = "},
			"compute(a)  \nmore()<|endoftext|>", "compute(a)"},
		{"block mode with end token", postProcess{tmpl: &qwen}, Request{Prefix: "def f():\n    "},
			"a = 1\n    return a\n\n<|file_sep|>b.py", "a = 1\n    return a"},
		{"request stop first", postProcess{}, Request{Prefix: "", Stop: []string{"\n\n"}},
			"a = 1\n\nb = 2", "a = 1"},
		{"empty answer", postProcess{}, Request{}, "<|endoftext|>", ""},
	}
	for _, tt := range tests {
		if got := tt.post.finish(tt.raw, tt.req); got != tt.want {
			t.Errorf("%s: finish(%q) = %q, want %q", tt.name, tt.raw, got, tt.want)
		}
	}
}

func TestStopsAndTokens(t *testing.T) {
	cl, _ := TemplateByName("codellama")
	p := postProcess{tmpl: &cl, lineMode: true, maxTokens: 64}
	got := p.stops(Request{Stop: []string{"<EOT>", "\n\n", ""}})
	want := []string{"<EOT>", "\n\n", "<PRE>", "<SUF>", "<MID>", "\n"}
	if len(got) != len(want) {
		t.Fatalf("stops = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("stops = %q, want %q", got, want)
		}
	}
	if n := p.tokens(Request{}); n != 64 {
		t.Errorf("tokens() = %d, want 64", n)
	}
	if n := p.tokens(Request{MaxTokens: 16}); n != 16 {
		t.Errorf("tokens(16) = %d, want 16", n)
	}
}
