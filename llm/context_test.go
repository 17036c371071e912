package llm

import (
	"testing"

	"github.com/graphcoder/graphcoder/prompt"
)

func TestLayout(t *testing.T) {
	for _, tt := range []struct {
		cfg  Config
		want prompt.Layout
	}{
		{Config{}, prompt.Paper},
		{Config{Kind: KindNone}, prompt.Paper},
		{Config{Kind: KindOpenAI}, prompt.FIM},
		{Config{Kind: KindOllama}, prompt.FIM},
		{Config{Kind: KindLlamaCpp}, prompt.Files},
		{Config{Kind: KindLlamaCpp, Template: "starcoder"}, prompt.FIM},
		{Config{Kind: KindOpenAI, Template: "qwen-repo"}, prompt.Files},
		{Config{Kind: KindOpenAI, Template: "qwen2.5-coder-repo"}, prompt.Files},
		{Config{Kind: KindOllama, Template: "qwen"}, prompt.FIM},
	} {
		if got := tt.cfg.Layout(); got != tt.want {
			t.Errorf("%+v: layout %s, want %s", tt.cfg, got, tt.want)
		}
	}
}

// WithContext carries an assembled context into a request as each layout
// needs it: the blocks in prompt order, the in-file lines it shows, and the
// prompt text except for Files.
func TestWithContext(t *testing.T) {
	in := prompt.Input{Path: "q.py", Prefix: []string{"import os", "x = 1"}, Suffix: []string{"y = 2"},
		Candidates: []prompt.Candidate{
			{Source: prompt.Retrieved, Path: "a.py", StartLine: 1, Lines: []string{"def a():", "    return 1"}},
			{Source: prompt.Retrieved, Path: "b.py", StartLine: 4, Lines: []string{"def b():", "    return 2"}},
		}}
	for _, layout := range []prompt.Layout{prompt.Paper, prompt.FIM, prompt.Files} {
		c, err := prompt.Assemble(in, prompt.Options{Layout: layout})
		if err != nil {
			t.Fatal(err)
		}
		r := WithContext(Request{Path: "q.py", Language: "python"}, c)
		if r.Path != "q.py" || r.Language != "python" || r.Prefix != "import os\nx = 1\n" {
			t.Errorf("%s: request %+v", layout, r)
		}
		if len(r.Snippets) != 2 || r.Snippets[0].Path != "b.py" || r.Snippets[1].Path != "a.py" || r.Snippets[1].Text != "def a():\n    return 1\n" {
			t.Errorf("%s: snippets %+v (want b.py then a.py, the best last)", layout, r.Snippets)
		}
		wantSuffix := "y = 2\n"
		if layout == prompt.Paper {
			wantSuffix = ""
		}
		if r.Suffix != wantSuffix {
			t.Errorf("%s: suffix %q", layout, r.Suffix)
		}
		if (layout == prompt.Files) != (r.Prompt == "") || r.Prompt != "" && r.Prompt != c.Text() {
			t.Errorf("%s: prompt %q", layout, r.Prompt)
		}
	}
}
