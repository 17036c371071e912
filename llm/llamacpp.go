package llm

import (
	"context"
	"time"
)

// llamaCpp speaks the llama.cpp server's API. Without a template it uses
// POST /infill, where the server arranges the model's own fill-in-the-middle
// tokens and lays the retrieved snippets out as files before the prefix;
// with a template it sends the rendered prompt to POST /completion.
type llamaCpp struct {
	c    *client
	post postProcess
}

// llamaFile is one entry of input_extra.
type llamaFile struct {
	Filename string `json:"filename"`
	Text     string `json:"text"`
}

type llamaInfillRequest struct {
	InputPrefix string      `json:"input_prefix"`
	InputSuffix string      `json:"input_suffix"`
	InputExtra  []llamaFile `json:"input_extra,omitempty"`
	NPredict    int         `json:"n_predict"`
	Temperature float64     `json:"temperature"`
	Stop        []string    `json:"stop,omitempty"`
	Stream      bool        `json:"stream"`
	CachePrompt bool        `json:"cache_prompt"`
}

type llamaCompletionRequest struct {
	Prompt      string   `json:"prompt"`
	NPredict    int      `json:"n_predict"`
	Temperature float64  `json:"temperature"`
	Stop        []string `json:"stop,omitempty"`
	Stream      bool     `json:"stream"`
	CachePrompt bool     `json:"cache_prompt"`
}

type llamaResponse struct {
	Content string `json:"content"`
	Model   string `json:"model"`
}

func (b *llamaCpp) Name() string { return b.c.name() }

// Complete asks the server to fill the hole at the cursor.
func (b *llamaCpp) Complete(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	var (
		path string
		body any
	)
	if b.post.tmpl != nil || req.Raw {
		prompt := req.Prompt
		if !req.Raw {
			prompt = b.post.tmpl.Render(req)
		}
		path = "/completion"
		body = llamaCompletionRequest{
			Prompt:      prompt,
			NPredict:    b.post.tokens(req),
			Temperature: req.Temperature,
			Stop:        b.post.stops(req),
			CachePrompt: true,
		}
	} else {
		path = "/infill"
		extra := make([]llamaFile, 0, len(req.Snippets))
		for _, s := range req.Snippets {
			extra = append(extra, llamaFile{Filename: s.Path, Text: s.Text})
		}
		// The prefix is the file's own: the snippets travel as input_extra
		// rather than as comments in graphcoder's prompt.
		body = llamaInfillRequest{
			InputPrefix: req.Prefix,
			InputSuffix: req.Suffix,
			InputExtra:  extra,
			NPredict:    b.post.tokens(req),
			Temperature: req.Temperature,
			Stop:        b.post.stops(req),
			CachePrompt: true,
		}
	}
	var ans llamaResponse
	if err := b.c.post(ctx, path, body, &ans); err != nil {
		return Response{}, err
	}
	model := ans.Model
	if model == "" {
		model = b.c.model
	}
	return Response{
		Text:    b.post.finish(ans.Content, req),
		Model:   model,
		Latency: time.Since(start),
	}, nil
}
