package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/graphcoder/graphcoder/embed"
)

// EmbedConfig says which embeddings model to ask and how. The kinds are
// those of Config: "openai" speaks POST /v1/embeddings (OpenAI, vLLM,
// llama.cpp and Ollama all serve it), "ollama" POST /api/embed, "llamacpp"
// llama.cpp's own POST /embedding; "" or "none" means no dense retrieval.
type EmbedConfig struct {
	Kind      string
	URL       string // base URL, without the endpoint path
	Model     string
	APIKeyEnv string
	// Timeout bounds one request (default DefaultEmbedTimeout).
	Timeout time.Duration
}

// DefaultEmbedTimeout bounds one embeddings request: a batch of a build
// holds many texts.
const DefaultEmbedTimeout = 60 * time.Second

// Enabled reports whether the config names an embeddings backend.
func (c EmbedConfig) Enabled() bool { return c.Kind != "" && c.Kind != KindNone }

// Validate reports settings no embeddings backend could use.
func (c EmbedConfig) Validate() error {
	return validateServer("embed", c.Kind, c.Model, c.URL, c.Timeout)
}

// NewEmbedder returns the embeddings backend cfg describes, or nil when it
// names none.
func NewEmbedder(cfg EmbedConfig) (embed.Embedder, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if !cfg.Enabled() {
		return nil, nil
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultEmbedTimeout
	}
	return &embedder{c: newClient(cfg.Kind, cfg.Model, cfg.URL, cfg.APIKeyEnv, cfg.Timeout)}, nil
}

// embedder asks one server for embeddings in its wire format.
type embedder struct{ c *client }

func (e *embedder) Name() string { return e.c.name() }

type openAIEmbedRequest struct {
	Model          string   `json:"model,omitempty"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
}

type openAIEmbedResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float32 `json:"embedding"`
	} `json:"data"`
}

type ollamaEmbedRequest struct {
	Model    string   `json:"model"`
	Input    []string `json:"input"`
	Truncate bool     `json:"truncate"`
}

type ollamaEmbedResponse struct {
	Embeddings [][]float32 `json:"embeddings"`
	Error      string      `json:"error"`
}

type llamaCppEmbedRequest struct {
	Content []string `json:"content"`
}

// Embed returns one vector per text, in order. An answer with another
// number of vectors, vectors of different lengths or an empty one is an
// error; nothing partial is returned.
func (e *embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	var out [][]float32
	switch e.c.kind {
	case KindOpenAI:
		var ans openAIEmbedResponse
		if err := e.c.post(ctx, "/v1/embeddings", openAIEmbedRequest{Model: e.c.model, Input: texts, EncodingFormat: "float"}, &ans); err != nil {
			return nil, err
		}
		out = make([][]float32, len(texts))
		for _, d := range ans.Data {
			if d.Index < 0 || d.Index >= len(texts) || out[d.Index] != nil {
				return nil, fmt.Errorf("%s: answer with a bad or repeated index %d for %d texts", e.Name(), d.Index, len(texts))
			}
			out[d.Index] = d.Embedding
		}
		if len(ans.Data) != len(texts) {
			return nil, fmt.Errorf("%s: %d embeddings for %d texts", e.Name(), len(ans.Data), len(texts))
		}
	case KindOllama:
		var ans ollamaEmbedResponse
		if err := e.c.post(ctx, "/api/embed", ollamaEmbedRequest{Model: e.c.model, Input: texts, Truncate: true}, &ans); err != nil {
			return nil, err
		}
		if ans.Error != "" {
			return nil, fmt.Errorf("%s: server error: %s", e.Name(), ans.Error)
		}
		out = ans.Embeddings
	case KindLlamaCpp:
		var raw json.RawMessage
		if err := e.c.post(ctx, "/embedding", llamaCppEmbedRequest{Content: texts}, &raw); err != nil {
			return nil, err
		}
		var err error
		if out, err = decodeLlamaCpp(raw, len(texts)); err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
	default:
		return nil, fmt.Errorf("embed: unknown backend kind %q", e.c.kind)
	}
	if len(out) != len(texts) {
		return nil, fmt.Errorf("%s: %d embeddings for %d texts", e.Name(), len(out), len(texts))
	}
	for i, v := range out {
		if len(v) == 0 {
			return nil, fmt.Errorf("%s: empty embedding for text %d", e.Name(), i)
		}
		if len(v) != len(out[0]) {
			return nil, fmt.Errorf("%s: embeddings of %d and %d dimensions in one answer", e.Name(), len(out[0]), len(v))
		}
	}
	return out, nil
}

// decodeLlamaCpp reads llama.cpp's /embedding answer: an array of {index,
// embedding} where embedding is one vector, or one row per token of which
// a pooled server sends one; older servers answer one text with
// {"embedding": [...]}.
func decodeLlamaCpp(raw json.RawMessage, n int) ([][]float32, error) {
	var items []struct {
		Index     int             `json:"index"`
		Embedding json.RawMessage `json:"embedding"`
	}
	if err := json.Unmarshal(raw, &items); err != nil {
		var one struct {
			Embedding []float32 `json:"embedding"`
		}
		if json.Unmarshal(raw, &one) != nil || one.Embedding == nil {
			return nil, fmt.Errorf("decode answer from /embedding: %w (body: %s)", err, excerpt(raw))
		}
		return [][]float32{one.Embedding}, nil
	}
	out := make([][]float32, n)
	for _, it := range items {
		if it.Index < 0 || it.Index >= n || out[it.Index] != nil {
			return nil, fmt.Errorf("answer with a bad or repeated index %d for %d texts", it.Index, n)
		}
		var flat []float32
		if err := json.Unmarshal(it.Embedding, &flat); err != nil {
			var rows [][]float32
			if err := json.Unmarshal(it.Embedding, &rows); err != nil {
				return nil, fmt.Errorf("decode embedding %d: %w", it.Index, err)
			}
			if len(rows) != 1 {
				return nil, errors.New("the server sends one vector per token: start it with --pooling mean (or cls, last)")
			}
			flat = rows[0]
		}
		out[it.Index] = flat
	}
	if len(items) != n {
		return nil, fmt.Errorf("%d embeddings for %d texts", len(items), n)
	}
	return out, nil
}

// Embedding flag names, shared by build, complete, serve and eval.
const (
	FlagEmbedKind      = "embed"
	FlagEmbedURL       = "embed-url"
	FlagEmbedModel     = "embed-model"
	FlagEmbedAPIKeyEnv = "embed-api-key-env"
	FlagEmbedTimeout   = "embed-timeout"
)

// EmbedFlags binds the embeddings settings to command-line flags.
type EmbedFlags struct{ cfg EmbedConfig }

// AddEmbedFlags registers the embeddings flags on fs.
func AddEmbedFlags(fs *pflag.FlagSet) *EmbedFlags {
	f := &EmbedFlags{}
	fs.StringVar(&f.cfg.Kind, FlagEmbedKind, "", "embeddings backend for dense retrieval: openai, llamacpp, ollama or none")
	fs.StringVar(&f.cfg.URL, FlagEmbedURL, "", "embeddings server base URL (default per backend, on loopback)")
	fs.StringVar(&f.cfg.Model, FlagEmbedModel, "", "embeddings model name sent to the server")
	fs.StringVar(&f.cfg.APIKeyEnv, FlagEmbedAPIKeyEnv, "", "environment variable holding the embeddings API key")
	fs.DurationVar(&f.cfg.Timeout, FlagEmbedTimeout, 0, fmt.Sprintf("time allowed for one embeddings request (default %v)", DefaultEmbedTimeout))
	return f
}

// Config returns the settings given on the command line; an URL or model
// without a kind means the OpenAI-compatible API.
func (f *EmbedFlags) Config() (EmbedConfig, error) {
	c := f.cfg
	if c.Kind == "" && (c.URL != "" || c.Model != "") {
		c.Kind = KindOpenAI
	}
	return c, c.Validate()
}
