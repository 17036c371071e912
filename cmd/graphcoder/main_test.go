package main

import (
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// --cpuprofile writes a whole profile and closes its file.
func TestCPUProfileIsClosed(t *testing.T) {
	repo := t.TempDir()
	if err := os.WriteFile(filepath.Join(repo, "a.py"), []byte("def f(x):\n    return x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(t.TempDir(), "cpu.out")
	rootCmd.SetArgs([]string{"--cpuprofile", prof, "build", "--index", filepath.Join(t.TempDir(), "index"), repo})
	rootCmd.SetOut(io.Discard)
	rootCmd.SetErr(io.Discard)
	t.Cleanup(func() { rootCmd.SetArgs(nil); rootCmd.SetOut(nil); rootCmd.SetErr(nil); cpuProfile = "" })
	if err := run(context.Background()); err != nil {
		t.Fatal(err)
	}
	fds, err := os.ReadDir("/proc/self/fd")
	if err == nil {
		for _, fd := range fds {
			if target, _ := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); target == prof {
				t.Errorf("the profile file is still open (fd %s)", fd.Name())
			}
		}
	}
	f, err := os.Open(prof)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("profile: %v", err)
	}
	if n, err := io.Copy(io.Discard, zr); err != nil || n == 0 {
		t.Fatalf("profile: %d bytes, %v", n, err)
	}
}
