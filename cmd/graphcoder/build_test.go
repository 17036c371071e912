package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// runCmd runs cmd with args as the command line, its output to out and
// errOut, and returns its error as main would see it.
func runCmd(cmd *cobra.Command, out, errOut io.Writer, args ...string) error {
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	cmd.SetArgs(args)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	return cmd.ExecuteContext(context.Background())
}

// within returns f's error, failing the test when f takes more than ten
// seconds: what hangs names the command.
func within(t *testing.T, what string, f func() error) error {
	t.Helper()
	var err error
	done := make(chan struct{})
	go func() { defer close(done); err = f() }()
	select {
	case <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("%s hangs", what)
		return nil
	}
}

func runBuild(args ...string) (stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	err = runCmd(newBuildCmd(), &out, &errOut, args...)
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
