package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/lang"
)

// indexRepo copies the fixture repository to a temporary folder and builds
// its .graphcoder index there.
func indexRepo(t *testing.T) string {
	t.Helper()
	repo := t.TempDir()
	src := "../../engine/testdata/finestage"
	err := filepath.WalkDir(src, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return err
		}
		r, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Join(repo, filepath.Dir(r)), 0o755)
		return os.WriteFile(filepath.Join(repo, r), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(filepath.Join(repo, indexDirName), db.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	b, err := db.NewBuilder(d, db.BuildOptions{Root: repo})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"shop/lexical.py", "shop/structural.py"} {
		content, _ := os.ReadFile(filepath.Join(repo, p))
		if err := b.Add(context.Background(), p, content); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.Finish(context.Background()); err != nil {
		t.Fatal(err)
	}
	if lang.ForPath("x.py") == nil {
		t.Fatal("python not registered")
	}
	return repo
}

func runComplete(args ...string) (string, error) {
	var out bytes.Buffer
	err := runCmd(newCompleteCmd(), &out, &out, args...)
	return out.String(), err
}

func TestCompleteJSON(t *testing.T) {
	repo := indexRepo(t)
	query := filepath.Join(repo, "app", "new.py")
	os.MkdirAll(filepath.Dir(query), 0o755)
	src := "def summarize(records):\n    total = 0\n    count = 0\n    for record in records:\n        total += record.amount\n        pass\n"
	if err := os.WriteFile(query, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := runComplete("--format", "json", query+":6")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Target struct {
			Path string `json:"path"`
			Line int    `json:"line"`
		} `json:"target"`
		Snippets []struct {
			Path        string  `json:"path"`
			StartLine   int     `json:"start_line"`
			EndLine     int     `json:"end_line"`
			Score       float64 `json:"score"`
			CoarseScore float64 `json:"coarse_score"`
			Text        string  `json:"text"`
		} `json:"snippets"`
		Context []struct {
			Source    string `json:"source"`
			Path      string `json:"path"`
			StartLine int    `json:"start_line"`
			EndLine   int    `json:"end_line"`
			Tokens    int    `json:"tokens"`
		} `json:"context"`
		Definitions []struct {
			Path     string `json:"path"`
			Name     string `json:"name"`
			Origin   string `json:"origin"`
			Reason   string `json:"reason"`
			InPrompt bool   `json:"in_prompt"`
		} `json:"definitions"`
		Prompt     string          `json:"prompt"`
		Prediction string          `json:"prediction"`
		Stats      json.RawMessage `json:"stats"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	// The best snippet's block comes last of the retrieved ones (the
	// definitions follow it, next to the code), and every block the
	// prompt names is shown in it.
	var retrieved []int
	for i, b := range got.Context {
		if b.Source == "retrieved" {
			retrieved = append(retrieved, i)
		}
	}
	if n := len(retrieved); n == 0 || got.Context[retrieved[n-1]].Path != "shop/structural.py" ||
		got.Context[retrieved[n-1]].Tokens <= 0 || got.Context[retrieved[n-1]].StartLine < 1 ||
		got.Context[retrieved[n-1]].EndLine < got.Context[retrieved[n-1]].StartLine {
		t.Errorf("context %+v", got.Context)
	}
	for _, b := range got.Context {
		header := "# " + b.Path + "\n"
		if b.Source == "definition" {
			header = "# definitions in " + b.Path + ":\n"
		}
		if !strings.Contains(got.Prompt, header) {
			t.Errorf("the prompt does not show block %+v", b)
		}
	}
	// Every definition says why it was chosen; one the prompt shows has a
	// definition block of its file.
	for _, d := range got.Definitions {
		if d.Origin == "" || d.Reason == "" || d.Name == "" {
			t.Errorf("definition without its reason: %+v", d)
		}
		if d.InPrompt && !strings.Contains(got.Prompt, "# definitions in "+d.Path+":\n") {
			t.Errorf("definition %+v in the prompt without its block", d)
		}
	}
	if got.Target.Path != "app/new.py" || got.Target.Line != 6 {
		t.Errorf("target %+v", got.Target)
	}
	if len(got.Snippets) == 0 || got.Snippets[0].Path != "shop/structural.py" || got.Snippets[0].StartLine != 1 {
		t.Errorf("snippets %+v", got.Snippets)
	}
	if got.Prediction != "        record.settled = True" || got.Prompt == "" || len(got.Stats) == 0 {
		t.Errorf("prediction %q, prompt %d bytes", got.Prediction, len(got.Prompt))
	}

	// Every mode finds the structural twin; hybrid and bm25 report their
	// rankers.
	for _, mode := range []string{"hybrid", "bm25", "coarse", "fine"} {
		out, err := runComplete("--format", "json", "--mode", mode, query+":6")
		if err != nil || !strings.Contains(out, `"shop/structural.py"`) {
			t.Errorf("mode %s: %v\n%s", mode, err, out)
		}
		if mode == "hybrid" && !strings.Contains(out, `"bm25"`) {
			t.Errorf("mode %s: no bm25 ranker in %s", mode, out)
		}
	}
	out, err = runComplete("--format", "json", "--rerank", "30", "--vote", "3", query+":6")
	if err != nil || !strings.Contains(out, `"shop/structural.py"`) {
		t.Errorf("--rerank, --vote: %v\n%s", err, out)
	}

	out, err = runComplete("--format", "prompt", query+":6")
	if err != nil || !strings.HasSuffix(out, "        total += record.amount\n") {
		t.Errorf("prompt format: %v\n%s", err, out)
	}
	out, err = runComplete(query + ":6")
	if err != nil || !strings.Contains(out, "prediction (graphcoder):\n        record.settled = True") {
		t.Errorf("text format: %v\n%s", err, out)
	}
}

func TestCompleteErrors(t *testing.T) {
	repo := indexRepo(t)
	noIndex := t.TempDir()
	os.WriteFile(filepath.Join(noIndex, "a.py"), []byte("x = 1\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "blob.py"), []byte("x\x00y\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "notes.txt"), []byte("hi\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "late_nul.py"), []byte(strings.Repeat("x = 1\n", 3000)+"\x00\n"), 0o644)
	os.WriteFile(filepath.Join(noIndex, "secret.py"), []byte("password = 1\n"), 0o644)
	syscall.Mkfifo(filepath.Join(repo, "fifo.py"), 0o644)
	os.Symlink("/dev/zero", filepath.Join(repo, "zero.py"))
	os.Symlink(filepath.Join(noIndex, "secret.py"), filepath.Join(repo, "leak.py"))
	lexical := filepath.Join(repo, "shop", "lexical.py")
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"line past the end", []string{lexical + ":99"}, exitBadInput, "line out of range"},
		{"binary", []string{filepath.Join(repo, "blob.py") + ":1"}, exitBadInput, "binary"},
		{"language", []string{filepath.Join(repo, "notes.txt") + ":1"}, exitBadInput, "unsupported language"},
		{"outside", []string{"--index", filepath.Join(repo, indexDirName), filepath.Join(noIndex, "a.py") + ":1"}, exitBadInput, "outside the repository"},
		{"no index found", []string{filepath.Join(noIndex, "a.py") + ":1"}, exitNoIndex, "no .graphcoder index"},
		{"missing index", []string{"--index", filepath.Join(noIndex, "none"), filepath.Join(noIndex, "a.py") + ":1"}, exitNoIndex, "no index"},
		{"missing file", []string{filepath.Join(repo, "nope.py") + ":1"}, exitBadInput, "no such file"},
		{"bad argument", []string{"file.py"}, exitBadInput, "FILE:LINE"},
		{"bad mode", []string{"--mode", "best", lexical + ":1"}, exitBadInput, "unknown mode"},
		{"a NUL past 8 KiB", []string{filepath.Join(repo, "late_nul.py") + ":1"}, exitBadInput, "binary"},
		{"FIFO", []string{filepath.Join(repo, "fifo.py") + ":1"}, exitBadInput, "not a regular file"},
		{"link to a device", []string{filepath.Join(repo, "zero.py") + ":1"}, exitBadInput, "outside the repository"},
		{"link out of the repository", []string{filepath.Join(repo, "leak.py") + ":1"}, exitBadInput, "outside the repository"},
		{"top-k 0", []string{"--top-k", "0", lexical + ":1"}, exitBadInput, "--top-k must be at least 1"},
		{"negative top-k", []string{"--top-k", "-3", lexical + ":1"}, exitBadInput, "--top-k must be at least 1"},
		{"budget-less prompt", []string{"--max-new-tokens", "4096", lexical + ":1"}, exitBadInput, "less than --context-window"},
		{"unknown flag", []string{"--nope", lexical + ":1"}, exitBadInput, "unknown flag"},
		{"bad embeddings backend", []string{"--embed", "bert", lexical + ":1"}, exitBadInput, "unknown backend kind"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := within(t, "complete", func() error { _, err := runComplete(tt.args...); return err })
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != tt.code || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("error %v, want exit %d with %q", err, tt.code, tt.msg)
			}
		})
	}
}

// With a model backend, complete sends it the retrieved snippets, the
// prefix and the suffix, and prints its text; when the model fails it
// prints the model-free prediction and says why on standard error.
func TestCompleteWithModel(t *testing.T) {
	repo := indexRepo(t)
	query := filepath.Join(repo, "app", "new.py")
	os.MkdirAll(filepath.Dir(query), 0o755)
	src := "def summarize(records):\n    total = 0\n    count = 0\n    for record in records:\n        total += record.amount\n        pass\n    return total\n"
	if err := os.WriteFile(query, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Prompt string `json:"prompt"`
		Suffix string `json:"suffix"`
	}
	fail := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/completions" {
			http.NotFound(w, r)
			return
		}
		if fail {
			http.Error(w, `{"error":"model overloaded"}`, http.StatusServiceUnavailable)
			return
		}
		if err := json.NewDecoder(r.Body).Decode(&got); err != nil {
			t.Errorf("request body: %v", err)
		}
		fmt.Fprint(w, `{"model":"tiny","choices":[{"text":"        count += 1"}]}`)
	}))
	defer srv.Close()

	out, err := runComplete("--format", "json", "--llm-url", srv.URL, "--llm-model", "tiny", query+":6")
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Prediction string `json:"prediction"`
		Predictor  string `json:"predictor"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if res.Prediction != "        count += 1" || !strings.HasPrefix(res.Predictor, "openai") {
		t.Errorf("prediction %q by %q", res.Prediction, res.Predictor)
	}
	// The model saw the retrieved code (the structural twin) and the suffix.
	if !strings.Contains(got.Prompt, "shop/structural.py") || !strings.Contains(got.Prompt, "total += record.amount") {
		t.Errorf("prompt sent to the model lacks the snippets or the prefix:\n%s", got.Prompt)
	}
	if !strings.Contains(got.Suffix, "return total") {
		t.Errorf("suffix sent to the model: %q", got.Suffix)
	}

	fail = true
	out, err = runComplete("--llm-url", srv.URL, "--llm-model", "tiny", query+":6")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "model overloaded") || !strings.Contains(out, "prediction (graphcoder):\n        record.settled = True") {
		t.Errorf("fallback output:\n%s", out)
	}
}
