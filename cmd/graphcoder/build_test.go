package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runBuild(args ...string) (stdout, stderr string, err error) {
	cmd := newBuildCmd()
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err = cmd.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

func TestBuildCommand(t *testing.T) {
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "a.py"), []byte("import os\n\ndef f(x):\n    return os.path.join(x, 'y')\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "B.java"), []byte("class B { int g() { return 1; } }\n"), 0o644)
	os.WriteFile(filepath.Join(repo, "bin.py"), []byte("\x00\x01"), 0o644)

	out, stderr, err := runBuild("--json", repo)
	if err != nil {
		t.Fatal(err)
	}
	var sum map[string]any
	if err := json.Unmarshal([]byte(out), &sum); err != nil || strings.Count(strings.TrimSpace(out), "\n") != 0 {
		t.Fatalf("--json printed %q: %v", out, err)
	}
	for _, k := range []string{"files", "lines", "statements", "entries", "index_bytes", "seconds", "reused", "parsed", "removed", "skipped"} {
		if _, ok := sum[k]; !ok {
			t.Errorf("summary lacks %q", k)
		}
	}
	if sum["files"].(float64) != 2 || sum["skipped"].(map[string]any)["binary"].(float64) != 1 {
		t.Errorf("summary = %v", sum)
	}
	if !strings.Contains(stderr, "walking") {
		t.Errorf("no plain progress on a non-terminal: %q", stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, ".graphcoder", "MANIFEST")); err != nil {
		t.Errorf("no index in REPO/.graphcoder: %v", err)
	}

	out, _, err = runBuild("--index", filepath.Join(t.TempDir(), "idx"), repo)
	if err != nil || !strings.Contains(out, "indexed 2 files") || !strings.Contains(out, "skipped: binary 1") {
		t.Errorf("human summary %q, %v", out, err)
	}

	_, _, err = runBuild(filepath.Join(repo, "nope"))
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitBadInput {
		t.Errorf("missing repository: %v", err)
	}
}
