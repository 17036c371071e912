package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/db"
)

// folderState lists a folder's files with sizes and times.
func folderState(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range entries {
		if fi, err := e.Info(); err == nil {
			lines = append(lines, fmt.Sprintf("%s %d %d", e.Name(), fi.Size(), fi.ModTime().UnixNano()))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// Stopping serve while the live index re-indexes waits for the re-index
// to stop before the index closes: nothing is written after serve
// returns, and the index opens whole afterwards.
func TestServeStopsDuringReindex(t *testing.T) {
	repo := t.TempDir()
	for i := range 20 {
		os.WriteFile(filepath.Join(repo, fmt.Sprintf("m%d.py", i)), []byte(fmt.Sprintf("def f(a):\n    return a + %d\n", i)), 0o644)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	// A re-index (with its reload) that is still running when serve is
	// stopped: serve must wait for it before it closes the index.
	var reindexEnd, serveEnd time.Time
	testHookReindexed = func() {
		time.Sleep(300 * time.Millisecond)
		reindexEnd = time.Now()
	}
	defer func() { testHookReindexed = nil }()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := newServeCmd()
	cmd.SetArgs([]string{"--repo", repo, "--http", addr, "--debounce", "5ms"})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	health := func() map[string]any {
		resp, err := http.Get("http://" + addr + "/v1/health")
		if err != nil {
			return nil
		}
		defer resp.Body.Close()
		var v map[string]any
		json.NewDecoder(resp.Body).Decode(&v)
		return v
	}
	deadline := time.Now().Add(time.Minute)
	for h := health(); h == nil || h["files"] == nil; h = health() {
		if time.Now().After(deadline) {
			t.Fatal("serve not ready")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Enough changed files for a re-index that lasts, then stop in it.
	var body strings.Builder
	for j := range 300 {
		fmt.Fprintf(&body, "def g%d(x, y):\n    z = x * y + %d\n    if z > 3:\n        return z\n    return x\n", j, j)
	}
	for i := range 200 {
		os.WriteFile(filepath.Join(repo, fmt.Sprintf("new%d.py", i)), []byte(body.String()+fmt.Sprintf("TAG = %d\n", i)), 0o644)
	}
	for h := health(); h == nil || h["reindexing"] != true; h = health() {
		if time.Now().After(deadline) {
			t.Fatal("no re-index started")
		}
		time.Sleep(2 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond) // in the middle of it
	cancel()
	select {
	case err := <-done:
		serveEnd = time.Now()
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("serve did not stop")
	}
	if reindexEnd.IsZero() || serveEnd.Before(reindexEnd) {
		t.Fatalf("serve returned (and closed the index) at %v, before the re-index in progress ended at %v", serveEnd, reindexEnd)
	}
	idx := filepath.Join(repo, indexDirName)
	before := folderState(t, idx)
	time.Sleep(500 * time.Millisecond)
	if after := folderState(t, idx); after != before {
		t.Fatalf("the index was written after serve returned:\n%s\nthen\n%s", before, after)
	}
	d, err := db.Open(idx, db.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	s, err := d.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.ForEach(context.Background(), func(*db.FileRecord) error { return nil }); err != nil {
		t.Fatalf("the index after the stop: %v", err)
	}
	if n := len(s.Files()); n < 20 {
		t.Errorf("%d files after the stop", n)
	}
}

func TestParseMemoryLimit(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		bad  bool
	}{
		{"", 0, false}, {"off", 0, false}, {"1048576", 1 << 20, false}, {"300MiB", 300 << 20, false},
		{"2GiB", 2 << 30, false}, {"512KiB", 512 << 10, false}, {"10B", 10, false}, {"1TiB", 1 << 40, false},
		{"0", 0, true}, {"-5MiB", 0, true}, {"12MB", 0, true}, {"lots", 0, true}, {"9999999TiB", 0, true},
	} {
		got, err := parseMemoryLimit(c.in)
		if (err != nil) != c.bad || got != c.want {
			t.Errorf("parseMemoryLimit(%q) = %d, %v; want %d, error %v", c.in, got, err, c.want, c.bad)
		}
	}
}

// TestApplyMemoryLimit: the memory limit of build and serve is the one
// --memory-limit gives (none for off), else GOMEMLIMIT's when set, else
// the command's default.
func TestApplyMemoryLimit(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(old) })
	const def = 700 << 20
	for _, tc := range []struct {
		flag, env string
		want      int64
		wantEnv   bool
	}{
		{"off", "", 0, false},
		{"off", "1GiB", 0, false},
		{"300MiB", "", 300 << 20, false},
		{"300MiB", "1GiB", 300 << 20, false},
		{"", "", def, false},
		{"", "1GiB", 1 << 30, true},
	} {
		t.Setenv("GOMEMLIMIT", tc.env)
		if tc.env != "" {
			debug.SetMemoryLimit(1 << 30) // as the runtime does from GOMEMLIMIT at start
		}
		limit, env := applyMemoryLimit(tc.flag, func() int64 { return def })
		runtimeWant := tc.want
		if tc.want == 0 {
			runtimeWant = math.MaxInt64
		}
		if limit != tc.want || env != tc.wantEnv || debug.SetMemoryLimit(-1) != runtimeWant {
			t.Errorf("--memory-limit %q, GOMEMLIMIT %q: %d, %v (runtime %d), want %d, %v", tc.flag, tc.env, limit, env, debug.SetMemoryLimit(-1), tc.want, tc.wantEnv)
		}
	}
}
