package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/spf13/cobra"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/engine"
)

func runCcg(args ...string) (string, error) {
	var out bytes.Buffer
	err := runCmd(newCcgCmd(), &out, &out, args...)
	return out.String(), err
}

// ccg refuses bad flags and files no build would read, with exit status 5,
// and never panics nor hangs.
func TestCcgBadInput(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.py")
	os.WriteFile(ok, []byte("x = 1\ny = x\n"), 0o644)
	syscall.Mkfifo(filepath.Join(dir, "fifo.py"), 0o644)
	os.Symlink("/dev/zero", filepath.Join(dir, "zero.py"))
	os.WriteFile(filepath.Join(dir, "big.py"), []byte(strings.Repeat("x = 1\n", 200_000)), 0o644)
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"negative hops", []string{"--hops", "-1", "--line", "1", ok}, "--hops must be at least 1"},
		{"zero max statements", []string{"--max-statements", "0", "--line", "1", ok}, "--max-statements must be at least 1"},
		{"line zero", []string{"--line", "0", ok}, "--line must be at least 1"},
		{"line past the end", []string{"--line", "9", ok}, "out of range"},
		{"unknown format", []string{"--format", "svg", ok}, "unknown format"},
		{"FIFO", []string{filepath.Join(dir, "fifo.py")}, "not a regular file"},
		{"link to a device", []string{filepath.Join(dir, "zero.py")}, "not a regular file"},
		{"too large", []string{filepath.Join(dir, "big.py")}, "file is too large"},
		{"no language", []string{filepath.Join(dir, "x.txt")}, "unsupported file type"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := within(t, "ccg", func() error { _, err := runCcg(tt.args...); return err })
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != exitBadInput || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("error %v, want exit %d with %q", err, exitBadInput, tt.msg)
			}
		})
	}
	if out, err := runCcg("--line", "2", "--hops", "1", ok); err != nil || !strings.Contains(out, "y = x") {
		t.Errorf("ccg --line 2: %v\n%s", err, out)
	}
}

// Every command validates its numbers instead of taking a zero or negative
// value for the default.
func TestNumericFlags(t *testing.T) {
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "a.py"), []byte("x = 1\n"), 0o644)
	for _, tt := range []struct {
		run  func(...string) error
		args []string
		msg  string
	}{
		{buildRun, []string{"--workers", "-1", repo}, "--workers must be at least 0"},
		{buildRun, []string{"--max-file-size", "0", repo}, "--max-file-size must be at least 1"},
		{buildRun, []string{"--hops", "0", repo}, "--hops must be at least 1"},
		{buildRun, []string{"--max-statements", "70000", repo}, "--max-statements must be at most"},
		{buildRun, []string{"--tokenizer", "nope", repo}, "unknown tokenizer"},
		{buildRun, []string{"--memory-limit", "1.5G", repo}, "--memory-limit: \"1.5G\" is no size"},
		{evalRun, []string{"--repo", repo, "--lang", "python", "--tasks", "0"}, "--tasks must be at least 1"},
		{evalRun, []string{"--repo", repo, "--lang", "python", "--tasks", "-5"}, "--tasks must be at least 1"},
		{evalRun, []string{"--repo", repo, "--lang", "python", "--top-k", "0"}, "--top-k must be at least 1"},
		{evalRun, []string{"--repo", repo, "--lang", "python", "--workers", "0"}, "--workers must be at least 1"},
		{serveRun, []string{"--repo", repo, "--top-k", "0"}, "--top-k must be at least 1"},
		{serveRun, []string{"--repo", repo, "--budget", "-1s"}, "--budget must be more than zero"},
		{serveRun, []string{"--repo", repo, "--parallel", "-2"}, "--parallel must be at least 0"},
		{serveRun, []string{"--repo", repo, "--max-body", "0"}, "--max-body must be at least 1"},
		{serveRun, []string{"--repo", repo, "--memory-limit", "12MB"}, "--memory-limit: \"12MB\" is no size"},
		{serveRun, []string{"--repo", repo, "--release-every", "-1s"}, "--release-every must not be negative"},
		{evalRun, []string{"--repo", repo, "--lang", "python", "--bm25-k1", "0"}, "--bm25-k1, --bm25-b and --bm25-terms"},
		{serveRun, []string{"--repo", repo, "--bm25-b", "1.5"}, "--bm25-k1, --bm25-b and --bm25-terms"},
		{evalRun, []string{"--repo", repo, "--lang", "python", "--bm25-terms", "-1"}, "--bm25-k1, --bm25-b and --bm25-terms"},
		{evalRun, []string{"--repo", repo, "--lang", "python", "--context-lead", "-1"}, "--context-lead must not be negative"},
	} {
		err := tt.run(tt.args...)
		var ee *exitError
		if !errors.As(err, &ee) || ee.code != exitBadInput || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%v: error %v, want exit %d with %q", tt.args, err, exitBadInput, tt.msg)
		}
	}
}

func buildRun(args ...string) error { _, _, err := runBuild(args...); return err }

func evalRun(args ...string) error { return execute(newEvalCmd(), args) }

func serveRun(args ...string) error { return execute(newServeCmd(), args) }

func execute(cmd *cobra.Command, args []string) error {
	return runCmd(cmd, io.Discard, io.Discard, args...)
}

// A second serve on a busy port fails at once, before building an index.
func TestServeBusyPortBuildsNothing(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	repo := t.TempDir()
	os.WriteFile(filepath.Join(repo, "a.py"), []byte("x = 1\n"), 0o644)
	err = serveRun("--repo", repo, "--http", ln.Addr().String(), "--no-watch")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != exitBadInput || !strings.Contains(err.Error(), "listen") {
		t.Fatalf("serve on a busy port: %v", err)
	}
	if _, err := os.Stat(filepath.Join(repo, indexDirName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an index was built before the port failed: %v", err)
	}
}

// The exit status says what kind of failure it was; 2, the Go runtime's
// crash status, is never one of them.
func TestExitCodes(t *testing.T) {
	for _, tt := range []struct {
		err  error
		code int
	}{
		{fmt.Errorf("build: %w", db.ErrNoSpace), exitNoSpace},
		{fmt.Errorf("open: %w", db.ErrCorrupt), exitNoIndex},
		{fmt.Errorf("open: %w", db.ErrLocked), exitNoIndex},
		{fmt.Errorf("open: %w", db.ErrNoIndex), exitNoIndex},
		{&db.SchemaError{Have: 1, Want: 2}, exitNoIndex},
		{fmt.Errorf("read: %w", engine.ErrBinary), exitBadInput},
		{fmt.Errorf("read: %w", engine.ErrTooLarge), exitBadInput},
		{badInput(errors.New("x")), exitBadInput},
		{errors.New("anything else"), exitFailure},
	} {
		if got := exitCode(tt.err); got != tt.code || got == 2 {
			t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.code)
		}
	}
}
