package llm

import "github.com/graphcoder/graphcoder/prompt"

// Layout returns the prompt layout the configured backend takes: Files for
// the formats that carry other files (llama.cpp's /infill with its
// input_extra, the Qwen2.5-Coder repository template), FIM for every other
// model (graphcoder's prompt as the prefix, with a suffix), Paper when no
// model is configured.
func (c Config) Layout() prompt.Layout {
	switch {
	case c.Kind == "" || c.Kind == KindNone:
		return prompt.Paper
	case c.Template != "":
		if t, err := TemplateByName(c.Template); err == nil && t.Name == "qwen-repo" {
			return prompt.Files
		}
		return prompt.FIM
	case c.Kind == KindLlamaCpp:
		return prompt.Files
	}
	return prompt.FIM
}

// WithContext fills the context fields of req from an assembled context:
// the in-file lines it shows as Prefix and Suffix, its blocks as Snippets
// (in prompt order, the best last) and, for the Paper and FIM layouts, its
// text as Prompt.
func WithContext(req Request, c *prompt.Context) Request {
	req.Prefix, req.Suffix = c.PrefixText(), c.SuffixText()
	req.Snippets = make([]Snippet, len(c.Blocks))
	for i := range c.Blocks {
		req.Snippets[i] = Snippet{Path: c.Blocks[i].Path, Text: c.Blocks[i].Text()}
	}
	req.Prompt = ""
	if c.Layout != prompt.Files {
		req.Prompt = c.Text()
	}
	return req
}
