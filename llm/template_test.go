package llm

import (
	"strings"
	"testing"
)

func TestTemplates(t *testing.T) {
	req := Request{
		Prefix:   "def add(a, b):\n    ",
		Suffix:   "\n\nprint(add(1, 2))\n",
		RepoName: "acme/calc",
		Path:     "calc/ops.py",
		Snippets: []Snippet{
			{Path: "calc/util.py", Text: "def sub(a, b):\n    return a - b\n"},
			{Path: "calc/mul.py", Text: "def mul(a, b):\n    return a * b"},
		},
	}
	withPrompt := req
	withPrompt.Prompt = "# calc/util.py\n# def sub(a, b):\ndef add(a, b):\n    "

	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"starcoder", req, "<fim_prefix>def add(a, b):\n    <fim_suffix>\n\nprint(add(1, 2))\n<fim_middle>"},
		{"starcoder", withPrompt, "<fim_prefix># calc/util.py\n# def sub(a, b):\ndef add(a, b):\n    <fim_suffix>\n\nprint(add(1, 2))\n<fim_middle>"},
		{"codellama", req, "<PRE> def add(a, b):\n     <SUF>\n\nprint(add(1, 2))\n <MID>"},
		{"deepseek", req, "<｜fim▁begin｜>def add(a, b):\n    <｜fim▁hole｜>\n\nprint(add(1, 2))\n<｜fim▁end｜>"},
		{"qwen", req, "<|fim_prefix|>def add(a, b):\n    <|fim_suffix|>\n\nprint(add(1, 2))\n<|fim_middle|>"},
		{"qwen-repo", withPrompt, "<|repo_name|>acme/calc\n" +
			"<|file_sep|>calc/util.py\ndef sub(a, b):\n    return a - b\n" +
			"<|file_sep|>calc/mul.py\ndef mul(a, b):\n    return a * b\n" +
			"<|file_sep|>calc/ops.py\n" +
			"<|fim_prefix|>def add(a, b):\n    <|fim_suffix|>\n\nprint(add(1, 2))\n<|fim_middle|>"},
		{"qwen-repo", Request{Prefix: "x = ", Path: "a.py"}, "<|repo_name|>\n<|file_sep|>a.py\n<|fim_prefix|>x = <|fim_suffix|><|fim_middle|>"},
	}
	for _, tt := range tests {
		tmpl, err := TemplateByName(tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if got := tmpl.Render(tt.req); got != tt.want {
			t.Errorf("%s.Render:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestTemplateTokenSpelling pins the code points of the tokens whose
// look-alike characters are easy to get wrong.
func TestTemplateTokenSpelling(t *testing.T) {
	for _, tok := range []string{deepSeekBegin, deepSeekHole, deepSeekEnd, deepSeekEOS} {
		if !strings.ContainsRune(tok, '\uFF5C') || strings.ContainsRune(tok, '|') {
			t.Errorf("%q: want fullwidth vertical lines U+FF5C", tok)
		}
	}
	for _, tok := range []string{deepSeekBegin, deepSeekHole, deepSeekEnd} {
		if !strings.ContainsRune(tok, '\u2581') {
			t.Errorf("%q: want U+2581 between words", tok)
		}
	}
	for _, tok := range qwenStop {
		if !strings.HasPrefix(tok, "<|") || !strings.HasSuffix(tok, "|>") {
			t.Errorf("qwen token %q: want <|...|>", tok)
		}
	}
}

func TestTemplateByName(t *testing.T) {
	tests := []struct {
		name, want string
		wantErr    bool
	}{
		{"starcoder", "starcoder", false},
		{"StarCoder2", "starcoder", false},
		{" deepseek-coder ", "deepseek", false},
		{"qwen2.5-coder", "qwen", false},
		{"qwen2.5-coder-repo", "qwen-repo", false},
		{"code-llama", "codellama", false},
		{"gpt2", "", true},
		{"", "", true},
	}
	for _, tt := range tests {
		got, err := TemplateByName(tt.name)
		if (err != nil) != tt.wantErr {
			t.Errorf("TemplateByName(%q) error = %v, want error %v", tt.name, err, tt.wantErr)
			continue
		}
		if got.Name != tt.want {
			t.Errorf("TemplateByName(%q) = %q, want %q", tt.name, got.Name, tt.want)
		}
	}
	if got := strings.Join(TemplateNames(), ","); got != "codellama,deepseek,qwen,qwen-repo,starcoder" {
		t.Errorf("TemplateNames() = %s", got)
	}
}
