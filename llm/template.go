package llm

import (
	"fmt"
	"sort"
	"strings"
)

// Template spells a fill-in-the-middle prompt in one model family's special
// tokens, for servers that only continue text.
type Template struct {
	// Name is how configurations refer to the template.
	Name string
	// Family says which models were trained on it.
	Family string
	// Stop lists the tokens that end a fill-in-the-middle answer (the end of
	// text, and the other special tokens, which mean the model has run on).
	Stop []string
	// render builds the prompt from the text before and after the cursor.
	render func(req Request) string
}

// Render returns the prompt for req.
func (t Template) Render(req Request) string { return t.render(req) }

// The special tokens, spelled exactly as the models' tokenizers define them.
// DeepSeek-Coder's use U+FF5C (fullwidth vertical line) and U+2581 (lower
// one eighth block), not "|" and "_".
const (
	starCoderPrefix = "<fim_prefix>"
	starCoderSuffix = "<fim_suffix>"
	starCoderMiddle = "<fim_middle>"
	starCoderEnd    = "<|endoftext|>"

	codeLlamaPrefix = "<PRE>"
	codeLlamaSuffix = "<SUF>"
	codeLlamaMiddle = "<MID>"
	codeLlamaEnd    = "<EOT>"

	deepSeekBegin = "<｜fim▁begin｜>"
	deepSeekHole  = "<｜fim▁hole｜>"
	deepSeekEnd   = "<｜fim▁end｜>"
	deepSeekEOS   = "<｜end▁of▁sentence｜>"
	deepSeekEOT   = "<|EOT|>"

	qwenPrefix   = "<|fim_prefix|>"
	qwenSuffix   = "<|fim_suffix|>"
	qwenMiddle   = "<|fim_middle|>"
	qwenPad      = "<|fim_pad|>"
	qwenRepoName = "<|repo_name|>"
	qwenFileSep  = "<|file_sep|>"
	qwenEnd      = "<|endoftext|>"
)

var qwenStop = []string{qwenEnd, qwenPrefix, qwenSuffix, qwenMiddle, qwenPad, qwenRepoName, qwenFileSep, "<|im_start|>", "<|im_end|>"}

// templates holds every known template by name.
var templates = map[string]Template{
	"starcoder": {
		Name:   "starcoder",
		Family: "StarCoder, StarCoder2, SantaCoder",
		Stop:   []string{starCoderEnd, starCoderPrefix, starCoderSuffix, starCoderMiddle, "<file_sep>"},
		render: func(r Request) string {
			return starCoderPrefix + inFilePrefix(r) + starCoderSuffix + r.Suffix + starCoderMiddle
		},
	},
	"codellama": {
		Name:   "codellama",
		Family: "Code Llama",
		Stop:   []string{codeLlamaEnd, codeLlamaPrefix, codeLlamaSuffix, codeLlamaMiddle},
		render: func(r Request) string {
			// The spaces around the tokens are part of the trained format.
			return codeLlamaPrefix + " " + inFilePrefix(r) + " " + codeLlamaSuffix + r.Suffix + " " + codeLlamaMiddle
		},
	},
	"deepseek": {
		Name:   "deepseek",
		Family: "DeepSeek-Coder (base)",
		Stop:   []string{deepSeekEOS, deepSeekEOT, deepSeekBegin, deepSeekHole, deepSeekEnd},
		render: func(r Request) string {
			return deepSeekBegin + inFilePrefix(r) + deepSeekHole + r.Suffix + deepSeekEnd
		},
	},
	"qwen": {
		Name:   "qwen",
		Family: "Qwen2.5-Coder (base), one file",
		Stop:   qwenStop,
		render: func(r Request) string {
			return qwenPrefix + inFilePrefix(r) + qwenSuffix + r.Suffix + qwenMiddle
		},
	},
	"qwen-repo": {
		Name:   "qwen-repo",
		Family: "Qwen2.5-Coder (base), repository layout",
		Stop:   qwenStop,
		render: renderQwenRepo,
	},
}

// aliases are other names people use for the same templates.
var aliases = map[string]string{
	"starcoder2":         "starcoder",
	"code-llama":         "codellama",
	"deepseek-coder":     "deepseek",
	"qwen2.5-coder":      "qwen",
	"qwen2.5-coder-repo": "qwen-repo",
}

// TemplateByName returns the named template (case-insensitive; aliases such
// as "deepseek-coder" and "qwen2.5-coder" are accepted).
func TemplateByName(name string) (Template, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	if a, ok := aliases[key]; ok {
		key = a
	}
	t, ok := templates[key]
	if !ok {
		return Template{}, fmt.Errorf("llm: unknown template %q (want one of %s)", name, strings.Join(TemplateNames(), ", "))
	}
	return t, nil
}

// TemplateNames lists the templates' names, sorted.
func TemplateNames() []string {
	names := make([]string, 0, len(templates))
	for n := range templates {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// inFilePrefix is the text a one-file template puts before the hole:
// graphcoder's prompt when there is one (it already carries the retrieved
// code as comments), otherwise the file's prefix.
func inFilePrefix(r Request) string {
	if r.Prompt != "" {
		return r.Prompt
	}
	return r.Prefix
}

// renderQwenRepo lays the snippets out as files of the repository, then the
// file being edited with the hole at the cursor:
//
//	<|repo_name|>NAME
//	<|file_sep|>PATH
//	TEXT
//	<|file_sep|>PATH
//	<|fim_prefix|>PREFIX<|fim_suffix|>SUFFIX<|fim_middle|>
//
// The file's own prefix is used, not graphcoder's prompt, since the
// snippets travel as files rather than as comments.
func renderQwenRepo(r Request) string {
	var b strings.Builder
	b.WriteString(qwenRepoName)
	b.WriteString(r.RepoName)
	b.WriteByte('\n')
	for _, s := range r.Snippets {
		b.WriteString(qwenFileSep)
		b.WriteString(s.Path)
		b.WriteByte('\n')
		b.WriteString(s.Text)
		if !strings.HasSuffix(s.Text, "\n") {
			b.WriteByte('\n')
		}
	}
	b.WriteString(qwenFileSep)
	b.WriteString(r.Path)
	b.WriteByte('\n')
	b.WriteString(qwenPrefix)
	b.WriteString(r.Prefix)
	b.WriteString(qwenSuffix)
	b.WriteString(r.Suffix)
	b.WriteString(qwenMiddle)
	return b.String()
}
