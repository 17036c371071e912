package llm

import (
	"context"
	"fmt"
	"time"
)

// ollama speaks Ollama's POST /api/generate. Without a template it sends
// the suffix and lets the model's own template place the fill-in-the-middle
// tokens (Ollama ignores suffix in raw mode, so raw is off then); with a
// template, or with nothing after the cursor, it sends the prompt raw.
type ollama struct {
	c    *client
	post postProcess
}

type ollamaOptions struct {
	NumPredict  int      `json:"num_predict"`
	Temperature float64  `json:"temperature"`
	Stop        []string `json:"stop,omitempty"`
}

type ollamaRequest struct {
	Model   string        `json:"model"`
	Prompt  string        `json:"prompt"`
	Suffix  string        `json:"suffix,omitempty"`
	Raw     bool          `json:"raw"`
	Stream  bool          `json:"stream"`
	Options ollamaOptions `json:"options"`
}

type ollamaResponse struct {
	Model    string `json:"model"`
	Response string `json:"response"`
	Done     bool   `json:"done"`
	Error    string `json:"error"`
}

func (b *ollama) Name() string { return b.c.name() }

// Complete asks Ollama for the text at the cursor.
func (b *ollama) Complete(ctx context.Context, req Request) (Response, error) {
	start := time.Now()
	body := ollamaRequest{
		Model:  b.c.model,
		Prompt: inFilePrefix(req),
		Suffix: req.Suffix,
		Raw:    req.Suffix == "",
		Options: ollamaOptions{
			NumPredict:  b.post.tokens(req),
			Temperature: req.Temperature,
			Stop:        b.post.stops(req),
		},
	}
	switch {
	case req.Raw:
		body.Prompt, body.Suffix, body.Raw = req.Prompt, "", true
	case b.post.tmpl != nil:
		body.Prompt, body.Suffix, body.Raw = b.post.tmpl.Render(req), "", true
	}
	var ans ollamaResponse
	if err := b.c.post(ctx, "/api/generate", body, &ans); err != nil {
		return Response{}, err
	}
	if ans.Error != "" {
		return Response{}, fmt.Errorf("%s: server error: %s", b.Name(), ans.Error)
	}
	model := ans.Model
	if model == "" {
		model = b.c.model
	}
	return Response{
		Text:    b.post.finish(ans.Response, req),
		Model:   model,
		Latency: time.Since(start),
	}, nil
}
