package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"time"
)

// result is one row of the table.
type result struct {
	name    string
	tries   int
	crashes int
	hangs   int
	lost    int
	clear   int
	notes   []string
	skipped string // why the attack could not run here
}

func (r *result) note(format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf(format, args...))
}

// outcome is one run of the binary.
type outcome struct {
	code           int // exit status; -1 when killed by a signal
	signal         string
	hung           bool
	stdout, stderr string
	elapsed        time.Duration
	maxRSS         int64 // bytes
}

// crashed reports a Go runtime crash: a fatal signal or error, a panic,
// or the runtime's exit status 2.
func (o outcome) crashed() bool {
	if o.hung {
		return false
	}
	return o.signal != "" || o.code == 2 || strings.Contains(o.stderr, "panic:") ||
		strings.Contains(o.stderr, "fatal error:") || strings.Contains(o.stderr, "SIGBUS") || strings.Contains(o.stderr, "SIGSEGV")
}

// env is the attack's workplace: the binary and a fixture repository.
type env struct {
	bin  string
	work string
	rng  *rand.Rand
}

// run runs the binary with args within limit, with stdin.
func (e *env) run(limit time.Duration, stdin io.Reader, args ...string) outcome {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, e.bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr, cmd.Stdin = &out, &errb, stdin
	start := time.Now()
	err := cmd.Run()
	o := outcome{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start)}
	if ctx.Err() != nil {
		o.hung = true
	}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			o.maxRSS = ru.Maxrss << 10
		}
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() && !o.hung {
			o.signal = ws.Signal().String()
		}
		o.code = cmd.ProcessState.ExitCode()
	} else if err != nil {
		o.code = -1
		o.stderr += err.Error()
	}
	return o
}

// runMeasured is run with the peak RSS of the command itself: through
// /usr/bin/time when it is installed, since the rusage of a child forked
// from this (large) process starts at this process's own size.
func (e *env) runMeasured(limit time.Duration, args ...string) outcome {
	timeBin, err := exec.LookPath("time")
	if _, serr := os.Stat("/usr/bin/time"); serr == nil {
		timeBin, err = "/usr/bin/time", nil
	}
	if err != nil {
		o := e.run(limit, nil, args...)
		o.maxRSS = -1
		return o
	}
	rss := filepath.Join(e.work, "maxrss")
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, timeBin, append([]string{"-f", "%M", "-o", rss, e.bin}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	cmd.Run()
	o := outcome{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start), hung: ctx.Err() != nil, maxRSS: -1}
	if cmd.ProcessState != nil {
		o.code = cmd.ProcessState.ExitCode()
	}
	if b, err := os.ReadFile(rss); err == nil {
		var kb int64
		if _, err := fmt.Sscan(lastLine(string(b)), &kb); err == nil {
			o.maxRSS = kb << 10
		}
	}
	return o
}

// count records a try's crash and hang.
func (r *result) count(o outcome) {
	r.tries++
	if o.crashed() {
		r.crashes++
		r.note("crash: exit %d %s: %s", o.code, o.signal, firstLines(o.stderr, 3))
	}
	if o.hung {
		r.hangs++
	}
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

func main() {
	out := flag.String("out", "docs/RELIABILITY.md", "the report to write")
	work := flag.String("work", filepath.Join(os.TempDir(), "graphcoder-attack"), "scratch folder (removed first)")
	only := flag.String("only", "", "run only the attacks whose name contains this")
	flag.Parse()
	log.SetFlags(0)
	if err := os.RemoveAll(*work); err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(*work, 0o755); err != nil {
		log.Fatal(err)
	}
	e := &env{work: *work, bin: filepath.Join(*work, "graphcoder"), rng: rand.New(rand.NewPCG(2024, 12))}
	build := exec.Command("go", "build", "-o", e.bin, "./cmd/graphcoder")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		log.Fatalf("go build: %v", err)
	}
	start := time.Now()
	var rows []*result
	for _, a := range attacks {
		if *only != "" && !strings.Contains(a.name, *only) {
			continue
		}
		log.Printf("attack: %s", a.name)
		r := &result{name: a.name}
		a.run(e, r)
		rows = append(rows, r)
		log.Printf("  %d tries, %d crashes, %d hangs, %d lost, %d clear %s", r.tries, r.crashes, r.hangs, r.lost, r.clear, r.skipped)
	}
	if err := writeReport(*out, *work, rows, time.Since(start)); err != nil {
		log.Fatal(err)
	}
	bad := 0
	for _, r := range rows {
		bad += r.crashes + r.hangs + r.lost + (r.tries - r.clear)
	}
	if bad > 0 {
		log.Fatalf("%d failed tries: see %s", bad, *out)
	}
}

// writeReport writes the table and the notes, with the scratch folder
// work written WORK.
func writeReport(path, work string, rows []*result, took time.Duration) error {
	var b strings.Builder
	b.WriteString(`# Reliability: the attack matrix

Every fault a reliability campaign found (issue 12: full disks, damaged
indexes, FIFOs and devices, abandoned requests, LSP framing, bad flags,
memory per file, .gitignore, one walk, and the smaller ones) is replayed
here against the real binary by one program:

    go run ./internal/attack -out docs/RELIABILITY.md

A try is a **crash** when the process dies of a signal or a Go runtime
fatal error (exit status 2, "panic:" or a fault on standard error), a
**hang** when it outlives its time limit, **data lost** when the last
published index (after damage: the index graphcoder build repairs from
the sources) is not whole afterwards, and a **clear error** when graphcoder
answers as documented: the exit status (3 no usable index, 4 no space, 5 bad
input; 2 is never used, it is the Go runtime's) and a message naming the
problem, or, where the input is fine, a correct answer. Damage to a part of
the index a command does not read counts as clear when the command gives the
undamaged index's answer: complete reads the mapped snapshot file, not the
blobs or tables, and the next build finds and repairs the damage. The target
is zero crashes, hangs and losses, and every try clear.

`)
	fmt.Fprintf(&b, "Run on %s (%d cores), %s, as uid %d, in %.0f s.\n\n", hostLine(), runtime.NumCPU(), time.Now().UTC().Format("2006-01-02"), os.Geteuid(), took.Seconds())
	b.WriteString("| attack | tries | crashes | hangs | data lost | clear error |\n| --- | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rows {
		if r.skipped != "" {
			fmt.Fprintf(&b, "| %s | skipped: %s | | | | |\n", r.name, r.skipped)
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d |\n", r.name, r.tries, r.crashes, r.hangs, r.lost, r.clear)
	}
	b.WriteString("\n## Notes\n\n")
	for _, r := range rows {
		if len(r.notes) == 0 {
			continue
		}
		fmt.Fprintf(&b, "**%s**\n\n", r.name)
		seen := map[string]bool{}
		for _, n := range r.notes {
			n = strings.ReplaceAll(n, work, "WORK")
			if !seen[n] {
				seen[n] = true
				fmt.Fprintf(&b, "- %s\n", n)
			}
		}
		b.WriteString("\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

func hostLine() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(l, "model name") {
				if _, v, ok := strings.Cut(l, ":"); ok {
					return strings.TrimSpace(v)
				}
			}
		}
	}
	return runtime.GOARCH
}

// genRepo writes a repository of n Python modules (and a Java class) to
// dir, with content depending on tag.
func genRepo(dir string, n int, tag string) error {
	for i := range n {
		var sb strings.Builder
		fmt.Fprintf(&sb, "import os\n\nTAG = %q\n\n", tag)
		for j := range 12 {
			fmt.Fprintf(&sb, "def f%d_%d(a, b):\n    c = a + b * %d\n    if c > %d:\n        return os.path.join(TAG, str(c))\n    for k in range(c):\n        a += k\n    return a\n\n", i, j, j, i)
		}
		p := filepath.Join(dir, fmt.Sprintf("pkg%d", i%7), fmt.Sprintf("m%d.py", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(sb.String()), 0o644); err != nil {
			return err
		}
	}
	java := fmt.Sprintf("class Main { String tag = %q; int run(int x) { int y = x; if (y > 0) { y++; } return y; } }\n", tag)
	return os.WriteFile(filepath.Join(dir, "Main.java"), []byte(java), 0o644)
}

// copyTree copies a folder (regular files only).
func copyTree(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, en := range entries {
		s, d := filepath.Join(src, en.Name()), filepath.Join(dst, en.Name())
		if en.IsDir() {
			if err := copyTree(s, d); err != nil {
				return err
			}
			continue
		}
		if !en.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(s)
		if err != nil {
			return err
		}
		if err := os.WriteFile(d, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// folderState lists a folder's files with sizes and times.
func folderState(dir string) string {
	entries, _ := os.ReadDir(dir)
	var lines []string
	for _, en := range entries {
		if fi, err := en.Info(); err == nil {
			lines = append(lines, fmt.Sprintf("%s %d %d", en.Name(), fi.Size(), fi.ModTime().UnixNano()))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// firstTable returns the path of a table of the index folder.
func firstTable(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	var best string
	var size int64
	for _, en := range entries {
		if fi, err := en.Info(); err == nil && strings.HasSuffix(en.Name(), ".sst") && fi.Size() > size {
			best, size = filepath.Join(dir, en.Name()), fi.Size()
		}
	}
	if best == "" {
		return "", errors.New("no table in the index")
	}
	return best, nil
}
