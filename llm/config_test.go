package llm

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

var ollamaConfig = Config{
	Kind:          KindOllama,
	URL:           "http://127.0.0.1:11434",
	Model:         "qwen2.5-coder:1.5b-base",
	Template:      "qwen-repo",
	Timeout:       1500 * time.Millisecond,
	MaxTokens:     64,
	StopAtLineEnd: true,
}

func TestLoadConfig(t *testing.T) {
	got, err := LoadConfig(filepath.Join("testdata", "config", "ollama.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got != ollamaConfig {
		t.Errorf("LoadConfig = %+v, want %+v", got, ollamaConfig)
	}
}

func TestLoadConfigErrors(t *testing.T) {
	tests := []struct {
		name, json, wantErr string
	}{
		{"unknown field", `{"kind":"openai","modle":"x"}`, `unknown field "modle"`},
		{"bad timeout", `{"kind":"openai","timeout":"soon"}`, "timeout"},
		{"numeric timeout", `{"kind":"openai","timeout":5}`, "timeout"},
		{"unknown kind", `{"kind":"gpt"}`, `unknown backend kind "gpt"`},
		{"unknown template", `{"kind":"openai","template":"gpt2"}`, `unknown template "gpt2"`},
		{"ollama without model", `{"kind":"ollama"}`, "needs a model"},
		{"not http", `{"kind":"openai","url":"localhost:8000"}`, "not http"},
		{"negative", `{"kind":"openai","max_tokens":-1}`, "negative"},
		{"not json", `kind = openai`, "invalid character"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".json")
		if err := os.WriteFile(path, []byte(tt.json), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConfig(path)
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%s: error = %v, want %q", tt.name, err, tt.wantErr)
		}
	}
	if _, err := LoadConfig(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file: no error")
	}
}

func TestConfigJSONRoundTrip(t *testing.T) {
	data, err := json.Marshal(ollamaConfig)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"kind":"ollama","url":"http://127.0.0.1:11434","model":"qwen2.5-coder:1.5b-base","template":"qwen-repo","timeout":"1.5s","max_tokens":64,"stop_at_line_end":true}`
	if string(data) != want {
		t.Errorf("Marshal = %s\nwant %s", data, want)
	}
	var back Config
	if err := json.Unmarshal(data, &back); err != nil || back != ollamaConfig {
		t.Errorf("round trip = %+v, %v", back, err)
	}
}

func TestFlags(t *testing.T) {
	file := filepath.Join("testdata", "config", "ollama.json")
	tests := []struct {
		name string
		args []string
		want Config
	}{
		{"nothing", nil, Config{}},
		{"flags only", []string{"--llm", "llamacpp", "--llm-url", "http://10.0.0.2:8080", "--llm-timeout", "300ms", "--llm-line"},
			Config{Kind: KindLlamaCpp, URL: "http://10.0.0.2:8080", Timeout: 300 * time.Millisecond, StopAtLineEnd: true}},
		{"file only", []string{"--llm-config", file}, ollamaConfig},
		{"flags override the file", []string{"--llm-config", file, "--llm-model", "starcoder2:3b", "--llm-template", "starcoder",
			"--llm-max-tokens", "32", "--llm-line=false", "--llm-api-key-env", "OLLAMA_KEY"},
			Config{Kind: KindOllama, URL: ollamaConfig.URL, Model: "starcoder2:3b", Template: "starcoder", APIKeyEnv: "OLLAMA_KEY",
				Timeout: ollamaConfig.Timeout, MaxTokens: 32}},
		{"none", []string{"--llm", "none"}, Config{Kind: KindNone}},
	}
	for _, tt := range tests {
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		f := AddFlags(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got, err := f.Config()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if got != tt.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
}

func TestFlagsErrors(t *testing.T) {
	tests := []struct {
		args    []string
		wantErr string
	}{
		{[]string{"--llm", "gpt"}, "unknown backend kind"},
		{[]string{"--llm-config", "testdata/config/absent.json"}, "read config"},
		{[]string{"--llm", "openai", "--llm-template", "nope"}, "unknown template"},
	}
	for _, tt := range tests {
		fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
		f := AddFlags(fs)
		if err := fs.Parse(tt.args); err != nil {
			t.Fatal(err)
		}
		if _, err := f.Config(); err == nil || !strings.Contains(err.Error(), tt.wantErr) {
			t.Errorf("%q: error = %v, want %q", tt.args, err, tt.wantErr)
		}
	}
}

func TestNewErrorsAndNames(t *testing.T) {
	if _, err := New(Config{Kind: "gpt"}); err == nil {
		t.Error("unknown kind: no error")
	}
	if _, err := New(Config{Kind: KindOpenAI, Template: "gpt2"}); err == nil {
		t.Error("unknown template: no error")
	}
	names := []struct {
		cfg  Config
		want string
	}{
		{Config{Kind: KindOpenAI}, "openai"},
		{Config{Kind: KindOpenAI, Model: "gpt-3.5-turbo-instruct"}, "openai:gpt-3.5-turbo-instruct"},
		{Config{Kind: KindLlamaCpp}, "llamacpp"},
		{Config{Kind: KindOllama, Model: "codellama:7b-code"}, "ollama:codellama:7b-code"},
	}
	for _, n := range names {
		b, err := New(n.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if b.Name() != n.want {
			t.Errorf("Name() = %q, want %q", b.Name(), n.want)
		}
	}
}

func TestDefaults(t *testing.T) {
	c := Config{Kind: KindOllama, Model: "m"}.withDefaults()
	if c.URL != "http://127.0.0.1:11434" || c.Timeout != DefaultTimeout || c.MaxTokens != DefaultMaxTokens {
		t.Errorf("withDefaults = %+v", c)
	}
	if c := (Config{}).withDefaults(); c.Kind != KindNone {
		t.Errorf("empty kind became %q", c.Kind)
	}
}
