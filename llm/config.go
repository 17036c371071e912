package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// Backend kinds.
const (
	KindNone     = "none"
	KindOpenAI   = "openai"
	KindLlamaCpp = "llamacpp"
	KindOllama   = "ollama"
)

// Defaults applied by New to fields left zero.
const (
	DefaultTimeout   = 10 * time.Second
	DefaultMaxTokens = 100
)

// defaultURLs are the servers' usual loopback addresses.
var defaultURLs = map[string]string{
	KindOpenAI:   "http://127.0.0.1:8000",
	KindLlamaCpp: "http://127.0.0.1:8080",
	KindOllama:   "http://127.0.0.1:11434",
}

// Config says which model to ask and how. The same Config serves the
// command line, the editor server and the benchmark.
type Config struct {
	// Kind is "openai", "llamacpp", "ollama" or "none" (also the empty string).
	Kind string
	// URL is the server's base URL, without the endpoint path.
	URL string
	// Model is the model name sent to servers that route by it.
	Model string
	// Template names a fill-in-the-middle template (see TemplateNames); with
	// one, the backend sends the rendered prompt instead of prefix and suffix.
	Template string
	// APIKeyEnv names the environment variable holding the API key, so that
	// configuration files never hold secrets.
	APIKeyEnv string
	// Timeout bounds one completion; JSON takes a Go duration ("2s", "500ms").
	Timeout time.Duration
	// MaxTokens bounds generated tokens when the request does not.
	MaxTokens int
	// StopAtLineEnd cuts completions at the end of the line; otherwise they
	// are cut where the indentation returns below the cursor's line.
	StopAtLineEnd bool
}

// configJSON is Config's file form, with the timeout as a duration string.
type configJSON struct {
	Kind          string `json:"kind"`
	URL           string `json:"url,omitempty"`
	Model         string `json:"model,omitempty"`
	Template      string `json:"template,omitempty"`
	APIKeyEnv     string `json:"api_key_env,omitempty"`
	Timeout       string `json:"timeout,omitempty"`
	MaxTokens     int    `json:"max_tokens,omitempty"`
	StopAtLineEnd bool   `json:"stop_at_line_end,omitempty"`
}

// MarshalJSON writes the timeout as a duration string.
func (c Config) MarshalJSON() ([]byte, error) {
	j := configJSON{Kind: c.Kind, URL: c.URL, Model: c.Model, Template: c.Template,
		APIKeyEnv: c.APIKeyEnv, MaxTokens: c.MaxTokens, StopAtLineEnd: c.StopAtLineEnd}
	if c.Timeout != 0 {
		j.Timeout = c.Timeout.String()
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the file form; unknown fields are errors, so that a
// misspelt setting is not silently ignored.
func (c *Config) UnmarshalJSON(data []byte) error {
	var j configJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return err
	}
	*c = Config{Kind: j.Kind, URL: j.URL, Model: j.Model, Template: j.Template,
		APIKeyEnv: j.APIKeyEnv, MaxTokens: j.MaxTokens, StopAtLineEnd: j.StopAtLineEnd}
	if j.Timeout != "" {
		d, err := time.ParseDuration(j.Timeout)
		if err != nil {
			return fmt.Errorf("timeout: %w", err)
		}
		c.Timeout = d
	}
	return nil
}

// LoadConfig reads a Config from a JSON file such as
//
//	{"kind": "ollama", "model": "qwen2.5-coder:1.5b", "timeout": "2s"}
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("llm: read config: %w", err)
	}
	var c Config
	if err := json.Unmarshal(data, &c); err != nil {
		return Config{}, fmt.Errorf("llm: config %s: %w", path, err)
	}
	if err := c.Validate(); err != nil {
		return Config{}, fmt.Errorf("llm: config %s: %w", path, err)
	}
	return c, nil
}

// Validate reports settings no backend could use.
func (c Config) Validate() error {
	if err := validateServer("llm", c.Kind, c.Model, c.URL, c.Timeout); err != nil {
		return err
	}
	if c.Template != "" {
		if _, err := TemplateByName(c.Template); err != nil {
			return err
		}
	}
	if c.MaxTokens < 0 {
		return fmt.Errorf("llm: negative max tokens %d", c.MaxTokens)
	}
	return nil
}

// validateServer checks the settings a model server and an embeddings
// server share; what names the setting in messages.
func validateServer(what, kind, model, url string, timeout time.Duration) error {
	switch kind {
	case "", KindNone, KindOpenAI, KindLlamaCpp, KindOllama:
	default:
		return fmt.Errorf("%s: unknown backend kind %q (want openai, llamacpp, ollama or none)", what, kind)
	}
	if timeout < 0 {
		return fmt.Errorf("%s: negative timeout %v", what, timeout)
	}
	if kind == KindOllama && model == "" {
		return fmt.Errorf("%s: ollama needs a model name", what)
	}
	if url != "" && !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		return fmt.Errorf("%s: url %q is not http or https", what, url)
	}
	return nil
}

// withDefaults fills the zero fields New needs.
func (c Config) withDefaults() Config {
	if c.Kind == "" {
		c.Kind = KindNone
	}
	if c.URL == "" {
		c.URL = defaultURLs[c.Kind]
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.MaxTokens == 0 {
		c.MaxTokens = DefaultMaxTokens
	}
	return c
}

// lookupEnv is os.Getenv, replaceable in tests.
var lookupEnv = os.Getenv

// Flags binds the backend settings to command-line flags. A config file
// given with --llm-config is read first; flags set explicitly override it.
type Flags struct {
	fs         *pflag.FlagSet
	cfg        Config
	configPath string
}

// Flag names, shared by every command that talks to a model.
const (
	FlagConfig    = "llm-config"
	FlagKind      = "llm"
	FlagURL       = "llm-url"
	FlagModel     = "llm-model"
	FlagTemplate  = "llm-template"
	FlagAPIKeyEnv = "llm-api-key-env"
	FlagTimeout   = "llm-timeout"
	FlagMaxTokens = "llm-max-tokens"
	FlagLineEnd   = "llm-line"
)

// AddFlags registers the backend flags on fs.
func AddFlags(fs *pflag.FlagSet) *Flags {
	f := &Flags{fs: fs}
	fs.StringVar(&f.configPath, FlagConfig, "", "JSON file with the model backend settings")
	fs.StringVar(&f.cfg.Kind, FlagKind, "", "model backend: openai, llamacpp, ollama or none")
	fs.StringVar(&f.cfg.URL, FlagURL, "", "model server base URL (default per backend, on loopback)")
	fs.StringVar(&f.cfg.Model, FlagModel, "", "model name sent to the server")
	fs.StringVar(&f.cfg.Template, FlagTemplate, "", "fill-in-the-middle template: "+strings.Join(TemplateNames(), ", "))
	fs.StringVar(&f.cfg.APIKeyEnv, FlagAPIKeyEnv, "", "environment variable holding the API key")
	fs.DurationVar(&f.cfg.Timeout, FlagTimeout, 0, fmt.Sprintf("time allowed for one completion (default %v)", DefaultTimeout))
	fs.IntVar(&f.cfg.MaxTokens, FlagMaxTokens, 0, fmt.Sprintf("maximum generated tokens (default %d)", DefaultMaxTokens))
	fs.BoolVar(&f.cfg.StopAtLineEnd, FlagLineEnd, false, "stop completions at the end of the line instead of the block")
	return f
}

// Config returns the settings: the config file if one was given, then
// every flag set on the command line over it.
func (f *Flags) Config() (Config, error) {
	var c Config
	if f.configPath != "" {
		var err error
		if c, err = LoadConfig(f.configPath); err != nil {
			return Config{}, err
		}
	}
	set := func(name string, apply func()) {
		if fl := f.fs.Lookup(name); fl != nil && fl.Changed {
			apply()
		}
	}
	set(FlagKind, func() { c.Kind = f.cfg.Kind })
	set(FlagURL, func() { c.URL = f.cfg.URL })
	set(FlagModel, func() { c.Model = f.cfg.Model })
	set(FlagTemplate, func() { c.Template = f.cfg.Template })
	set(FlagAPIKeyEnv, func() { c.APIKeyEnv = f.cfg.APIKeyEnv })
	set(FlagTimeout, func() { c.Timeout = f.cfg.Timeout })
	set(FlagMaxTokens, func() { c.MaxTokens = f.cfg.MaxTokens })
	set(FlagLineEnd, func() { c.StopAtLineEnd = f.cfg.StopAtLineEnd })
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}
