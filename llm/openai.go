package llm

import (
	"context"
	"fmt"
	"time"
)

// openAI speaks the OpenAI-compatible legacy completions API,
// POST /v1/completions, which takes the text after the cursor as suffix.
type openAI struct {
	c    *client
	post postProcess
}

type openAIRequest struct {
	Model       string   `json:"model,omitempty"`
	Prompt      string   `json:"prompt"`
	Suffix      string   `json:"suffix,omitempty"`
	MaxTokens   int      `json:"max_tokens"`
	Temperature float64  `json:"temperature"`
	Stop        []string `json:"stop,omitempty"`
	Stream      bool     `json:"stream"`
}

type openAIResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Index        int    `json:"index"`
		Text         string `json:"text"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
}

func (b *openAI) Name() string { return b.c.name() }

// Complete sends graphcoder's prompt (or the prefix) and the suffix; with a
// template it sends the rendered prompt alone, since the template already
// places the suffix.
func (b *openAI) Complete(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	body := openAIRequest{
		Model:       b.c.model,
		Prompt:      inFilePrefix(req),
		Suffix:      req.Suffix,
		MaxTokens:   b.post.tokens(req),
		Temperature: req.Temperature,
		Stop:        b.post.stops(req),
	}
	switch {
	case req.Raw:
		body.Prompt, body.Suffix = req.Prompt, ""
	case b.post.tmpl != nil:
		body.Prompt, body.Suffix = b.post.tmpl.Render(req), ""
	}
	var ans openAIResponse
	if err := b.c.post(ctx, "/v1/completions", body, &ans); err != nil {
		return Response{}, err
	}
	if len(ans.Choices) == 0 {
		return Response{}, fmt.Errorf("%s: answer has no choices", b.Name())
	}
	model := ans.Model
	if model == "" {
		model = b.c.model
	}
	return Response{
		Text:    b.post.finish(ans.Choices[0].Text, req),
		Model:   model,
		Latency: time.Since(start),
	}, nil
}
