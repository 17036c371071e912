package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

func killedBuild(e *env, r *result) {
	repo, files, err := e.fixture("kill-repo", 400)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	idx := filepath.Join(repo, ".graphcoder")
	// How long a build that rewrites every blob takes.
	genRepo(repo, 400, "timing")
	t0 := time.Now()
	e.build(repo)
	whole := time.Since(t0)
	for i := range 30 {
		genRepo(repo, 400, fmt.Sprintf("kill%d", i))
		cmd := exec.Command(e.bin, "build", repo)
		if err := cmd.Start(); err != nil {
			r.note("start: %v", err)
			continue
		}
		time.Sleep(time.Duration(e.rng.Int64N(int64(whole))))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		r.tries++
		before := folderState(idx)
		c := e.run(time.Minute, nil, "complete", "--format", "json", query(repo))
		r.count(c)
		r.tries-- // one try: the kill, the reader and the next build
		after := folderState(idx)
		ierr := intact(idx, files)
		b, s := e.build(repo)
		r.count(b)
		r.tries--
		switch {
		case ierr != nil || before != after:
			r.lost++
			r.note("after a kill at %v: intact %v, unchanged by the reader %v", whole, ierr, before == after)
		case c.code != 0 || b.code != 0 || s.Files != files:
			r.note("after a kill: complete exit %d %s, build exit %d (%d files): %s", c.code, firstLines(c.stderr, 2), b.code, s.Files, firstLines(b.stderr, 4))
		default:
			r.clear++
		}
	}
	r.note("a build rewriting every blob takes %v here; each try kills one at a random moment within that, then completes read-only (the index folder must not change) and builds again", whole.Round(time.Millisecond))
}

func specialFiles(e *env, r *result) {
	repo, _, err := e.fixture("special-repo", 20)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	outside := filepath.Join(e.work, "outside.py")
	os.WriteFile(outside, []byte("password = 'secret'\n"), 0o644)
	syscall.Mkfifo(filepath.Join(repo, "fifo.py"), 0o644)
	os.Symlink("/dev/zero", filepath.Join(repo, "zero.py"))
	os.Symlink(outside, filepath.Join(repo, "leak.py"))
	for _, name := range []string{"fifo.py", "zero.py", "leak.py"} {
		p := filepath.Join(repo, name)
		for _, args := range [][]string{{"complete", p + ":1"}, {"ccg", p}} {
			o := e.run(20*time.Second, nil, args...)
			r.count(o)
			// ccg reads any file it is given; a link out of a repository
			// is a concern of complete, which serves one.
			fine := args[0] == "ccg" && name == "leak.py" && o.code == 0
			if fine || o.code == 5 && (strings.Contains(o.stderr, "not a regular file") || strings.Contains(o.stderr, "outside the repository")) {
				r.clear++
			} else {
				r.note("%s %s: exit %d %s", args[0], name, o.code, firstLines(o.stderr, 2))
			}
			if o.maxRSS > 256<<20 {
				r.note("%s %s took %d MiB", args[0], name, o.maxRSS>>20)
			}
		}
	}
	// The build takes none of them either.
	_, s := e.build(repo)
	r.note("complete on each, and ccg on the FIFO and /dev/zero: exit 5 in under %v (ccg reads a link's target like any file it is given); build skips them as %v", 20*time.Second, s.Skipped)
}

func lspFIFO(e *env, r *result) {
	repo, _, err := e.fixture("lsp-repo", 20)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	fifo := filepath.Join(repo, "pkg0", "fifo.py")
	syscall.Mkfifo(fifo, 0o644)
	s, err := e.startServe(true, "--repo", repo, "--no-watch")
	if err != nil {
		r.skipped = err.Error()
		return
	}
	if err := s.initialize(repo); err != nil {
		r.skipped = err.Error()
		s.kill()
		return
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := s.call(100+i, "textDocument/completion", completionParams(fifo, 0, 0), 10*time.Second)
			mu.Lock()
			defer mu.Unlock()
			r.tries++
			switch {
			case err != nil:
				r.hangs++
				r.note("FIFO completion: %v", err)
			case m["error"] != nil:
				r.clear++
			default:
				r.note("FIFO completion answered %v", m)
			}
		}()
	}
	wg.Wait()
	m, err := s.call(200, "textDocument/completion", completionParams(filepath.Join(repo, "pkg0", "m0.py"), 5, 0), 20*time.Second)
	r.tries++
	if err == nil && m["result"] != nil {
		r.clear++
	} else {
		r.hangs++
		r.note("the completion after them: %v %v", m, err)
	}
	r.tries++
	if s.shutdownExit(10 * time.Second) {
		r.clear++
	} else {
		r.hangs++
		r.note("shutdown and exit did not end serve: %s", firstLines(s.stderr.String(), 3))
	}
	if s.crashed() {
		r.crashes++
	}
	r.note("six completions in an unopened FIFO answer with an error at once; the next completion and shutdown/exit work")
}

func lspFraming(e *env, r *result) {
	repo, _, err := e.fixture("frame-repo", 20)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	ping := func(id int) string {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "textDocument/completion",
			"params": completionParams(filepath.Join(repo, "pkg0", "m0.py"), 5, 0)})
		return string(b)
	}
	long := ping(300)
	cases := []struct {
		name   string
		stream func() []byte
	}{
		{"Content-Length 10 short", func() []byte {
			b := ping(300)
			return []byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(b)-10, b))
		}},
		{"Content-Length 10 long", func() []byte { return []byte(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(long)+10, long)) }},
		{"no Content-Length", func() []byte { return []byte("Content-Type: x\r\n\r\n" + ping(300)) }},
		{"10 MB header line", func() []byte { return []byte("X-Huge: " + strings.Repeat("h", 10<<20) + "\r\n\r\n") }},
		{"200 MB header line", func() []byte { return []byte("X-Huge: " + strings.Repeat("h", 200<<20) + "\r\n\r\n") }},
		{"garbage between frames", func() []byte { return []byte("}}}{garbage\r\n\x00\x01\xff\r\n") }},
	}
	for i, c := range cases {
		s, err := e.startServe(true, "--repo", repo, "--no-watch")
		if err != nil {
			r.note("%s: %v", c.name, err)
			continue
		}
		if err := s.initialize(repo); err != nil {
			r.note("%s: initialize: %v", c.name, err)
			s.kill()
			continue
		}
		r.tries++
		go s.writeRaw(c.stream())
		m, err := s.call(400+i, "textDocument/completion", completionParams(filepath.Join(repo, "pkg0", "m0.py"), 5, 0), 60*time.Second)
		answered := err == nil && m["result"] != nil
		hwm := s.hwm()
		exited := s.shutdownExit(20 * time.Second)
		switch {
		case s.crashed():
			r.crashes++
		case !answered || !exited:
			r.hangs++
			r.note("%s: the next request answered %v, exit honoured %v (%v)", c.name, answered, exited, err)
		default:
			r.clear++
		}
		r.note("%s: the next request is answered, exit ends serve with status 0; peak RSS %d MiB", c.name, hwm>>20)
	}
}

func abandonedHTTP(e *env, r *result) {
	repo, _, err := e.fixture("http-repo", 60)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	s, err := e.startServe(false, "--repo", repo, "--no-watch", "--parallel", "2")
	if err != nil {
		r.skipped = err.Error()
		return
	}
	defer s.stop(10 * time.Second)
	// ~1 MB of code under the limits of one file, and some of it over.
	var b strings.Builder
	for b.Len() < 900<<10 {
		b.WriteString("value_of_a_long_name = f(g(other_value, 1), h([a, b]))\n")
	}
	prefix := b.String() + "x = "
	cpu0 := s.cpu()
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := completionBody(fmt.Sprintf("pkg0/big%d.py", i), prefix, "\n")
			c := http.Client{Timeout: 300 * time.Millisecond}
			c.Post("http://"+s.addr+"/v1/completions", "application/json", bytes.NewReader(body))
		}()
	}
	wg.Wait()
	abandoned := time.Now()
	cpuAt := s.cpu()
	time.Sleep(3 * time.Second)
	after := s.cpu() - cpuAt
	code, _, err := s.postCompletion(completionBody("pkg0/m0.py", "import os\n\ndef f(a, b):\n    c = ", "\n"), 10*time.Second)
	r.tries += 12
	switch {
	case s.crashed():
		r.crashes += 12
	case err != nil || code != 200:
		r.hangs += 12
		r.note("the next request: %d %v", code, err)
	case after > 500*time.Millisecond:
		r.note("%v of CPU spent in the 3 s after the clients left", after)
	default:
		r.clear += 12
	}
	r.note("12 clients post %d KiB prefixes and leave after 0.3 s: %v of server CPU until they left, %v in the 3 s after, peak RSS %d MiB; the next request answers %d in %v",
		len(prefix)>>10, (cpuAt - cpu0).Round(10*time.Millisecond), after.Round(10*time.Millisecond), s.hwm()>>20, code, time.Since(abandoned).Round(time.Millisecond)-3*time.Second)
}

func badBodies(e *env, r *result) {
	repo, _, err := e.fixture("body-repo", 20)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	nul := strings.Repeat("x = 1\n", 3000) + "\x00\n"
	os.WriteFile(filepath.Join(repo, "late_nul.py"), []byte(nul), 0o644)
	_, sum := e.build(repo)
	s, err := e.startServe(false, "--repo", repo, "--no-watch")
	if err != nil {
		r.skipped = err.Error()
		return
	}
	defer s.stop(10 * time.Second)
	for _, c := range []struct {
		name string
		body []byte
		want int
	}{
		{"trailing bytes after the JSON", append(completionBody("pkg0/m0.py", "x = ", ""), []byte("garbage")...), 400},
		{"two JSON values", append(completionBody("pkg0/m0.py", "x = ", ""), []byte("{}")...), 400},
		{"a 15 MB body", completionBody("pkg0/m0.py", strings.Repeat("x = 1\n", 15<<20/6), ""), 413},
		{"a NUL past 8 KiB", completionBody("late_nul.py", nul, ""), 400},
	} {
		code, body, err := s.postCompletion(c.body, 30*time.Second)
		r.tries++
		switch {
		case err != nil:
			r.hangs++
			r.note("%s: %v", c.name, err)
		case code == c.want:
			r.clear++
		default:
			r.note("%s: %d %s", c.name, code, body)
		}
	}
	if s.crashed() {
		r.crashes++
	}
	r.note("trailing bytes and a second value: 400; a 15 MB body: 413; a NUL past 8 KiB: 400, as build skips the same file (skipped %v)", sum.Skipped)
}

func badFlags(e *env, r *result) {
	repo, _, err := e.fixture("flags-repo", 10)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	f := filepath.Join(repo, "pkg0", "m0.py")
	for _, args := range [][]string{
		{"ccg", "--hops", "-1", "--line", "1", f},
		{"ccg", "--line", "0", f},
		{"complete", "--top-k", "0", f + ":3"},
		{"complete", "--top-k", "-5", f + ":3"},
		{"eval", "--repo", repo, "--lang", "python", "--tasks", "0"},
		{"eval", "--repo", repo, "--lang", "python", "--tasks", "-1"},
		{"build", "--workers", "-1", repo},
		{"build", "--hops", "0", repo},
		{"serve", "--repo", repo, "--budget", "-1s"},
		{"serve", "--repo", repo, "--top-k", "0"},
		{"complete", "--no-such-flag", f + ":3"},
	} {
		o := e.run(time.Minute, nil, args...)
		r.count(o)
		if o.code == 5 && (strings.Contains(o.stderr, "must be") || strings.Contains(o.stderr, "unknown flag")) {
			r.clear++
		} else {
			r.note("%s: exit %d %s", strings.Join(args, " "), o.code, firstLines(o.stderr, 2))
		}
	}
	r.note("every one exits with status 5 and names the flag and its bounds, e.g. %q", "--hops must be at least 1, got -1")
}

func memoryPerFile(e *env, r *result) {
	dir := filepath.Join(e.work, "mem")
	for _, c := range []struct {
		name, src string
		refused   bool
	}{
		{"one 1 MiB line of 262,143 statements", strings.Repeat("x=1;", (1<<20)/4-1) + "\n", true},
		{"20,000 definitions", func() string {
			var b strings.Builder
			for i := range 20000 {
				fmt.Fprintf(&b, "def f%d(a, b):\n    return a + b\n", i)
			}
			return b.String()
		}(), false},
	} {
		repo := filepath.Join(dir, fmt.Sprint(r.tries))
		os.MkdirAll(repo, 0o755)
		p := filepath.Join(repo, "m.py")
		os.WriteFile(p, []byte(c.src), 0o644)
		o := e.runMeasured(5*time.Minute, "build", "--json", repo)
		var s buildSummary
		json.Unmarshal([]byte(o.stdout), &s)
		r.count(o)
		cp := e.runMeasured(2*time.Minute, "complete", "--format", "json", p+":2")
		r.count(cp)
		r.tries--
		ok := o.code == 0 && (c.refused == (s.Skipped["too_large"] == 1))
		if c.refused {
			ok = ok && cp.code == 5 && strings.Contains(cp.stderr, "too large")
		} else {
			ok = ok && cp.code == 0
		}
		if ok {
			r.clear++
		} else {
			r.note("%s: build exit %d %v, complete exit %d %s", c.name, o.code, s.Skipped, cp.code, firstLines(cp.stderr, 2))
		}
		r.note("%s (%d KiB): build peak RSS %d MiB in %v, complete peak RSS %d MiB in %v%s", c.name, len(c.src)>>10,
			o.maxRSS>>20, o.elapsed.Round(10*time.Millisecond), cp.maxRSS>>20, cp.elapsed.Round(10*time.Millisecond),
			map[bool]string{true: " (refused as too large: over the lexeme limit)", false: ""}[c.refused])
	}
	// A 15 MB buffer over LSP: refused at once.
	repo, _, err := e.fixture("mem-lsp-repo", 10)
	if err != nil {
		r.note("%v", err)
		return
	}
	s, err := e.startServe(true, "--repo", repo, "--no-watch")
	if err != nil {
		r.note("%v", err)
		return
	}
	s.initialize(repo)
	uri := "file://" + filepath.Join(repo, "pkg0", "huge.py")
	text := strings.Repeat("value = compute(alpha, beta)\n", 15<<20/29)
	// What the buffer costs the server: its resident peak over the
	// didOpen and the completion above its resident size before, at
	// most maxGrowth times the buffer (measured: about 4).
	const maxGrowth = 8
	reset := s.resetPeak()
	before := s.status("VmRSS")
	s.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "languageId": "python",
		"text": text}})
	start := time.Now()
	m, err := s.call(500, "textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": map[string]any{"line": 100, "character": 0}}, time.Minute)
	took := time.Since(start)
	grown := s.hwm() - before
	r.tries++
	switch {
	case err != nil:
		r.hangs++
	case m["error"] != nil && took < 5*time.Second && (!reset || grown <= maxGrowth*int64(len(text))):
		r.clear++
	default:
		r.note("15 MB buffer: %v after %v, resident peak %d MiB above the %d MiB before", m, took, grown>>20, before>>20)
	}
	if reset {
		r.note("a 15 MB LSP buffer costs serve %d MiB of resident peak above its %d MiB before the didOpen (%.1f times the buffer; at most %d asserted)",
			grown>>20, before>>20, float64(grown)/float64(len(text)), maxGrowth)
	}
	rss := s.hwm()
	exited := s.shutdownExit(10 * time.Second)
	if s.crashed() {
		r.crashes++
	}
	r.note("a 15 MB LSP buffer: the completion is refused (over the 1 MiB file limit) in %v; serve's peak RSS %d MiB; exit honoured %v", took.Round(time.Millisecond), rss>>20, exited)
}

func gitignoreDepth(e *env, r *result) {
	repo := filepath.Join(e.work, "ignore-repo")
	for p, c := range map[string]string{
		".gitignore":         "workspace/*\n!workspace/keep.py\n",
		"pkg/workspace/x.py": "x = 1\n",
		"workspace/y.py":     "y = 2\n",
		"workspace/keep.py":  "z = 3\n",
	} {
		os.MkdirAll(filepath.Dir(filepath.Join(repo, p)), 0o755)
		os.WriteFile(filepath.Join(repo, p), []byte(c), 0o644)
	}
	o, s := e.build(repo)
	r.count(o)
	if o.code == 0 && s.Files == 2 {
		r.clear++
	} else {
		r.note("indexed %d files, want pkg/workspace/x.py and workspace/keep.py", s.Files)
	}
	r.note("workspace/* is anchored to the root: pkg/workspace/x.py is indexed, workspace/y.py is not; the rules are checked against git check-ignore (indexer/testdata/gitignore.golden)")
}

func evalWalk(e *env, r *result) {
	repo := filepath.Join(e.work, "eval-repo")
	genRepo(repo, 8, "v1")
	os.WriteFile(filepath.Join(repo, ".gitignore"), []byte("generated/\n"), 0o644)
	genRepo(filepath.Join(repo, "generated"), 8, "gen")
	out := filepath.Join(e.work, "eval-out")
	o := e.run(5*time.Minute, nil, "eval", "--repo", repo, "--lang", "python", "--tasks", "40", "--methods", "none", "--out", out)
	r.count(o)
	tasks, _ := os.ReadFile(filepath.Join(out, "tasks.jsonl"))
	if o.code == 0 && len(tasks) > 0 && !bytes.Contains(tasks, []byte("generated/")) {
		r.clear++
	} else {
		r.note("eval exit %d %s; tasks name generated/: %v", o.code, firstLines(o.stderr, 2), bytes.Contains(tasks, []byte("generated/")))
	}
	r.note("eval samples its tasks from the files build indexes: none from the gitignored generated/")
}

func smallFaults(e *env, r *result) {
	repo, _, err := e.fixture("small-repo", 20)
	if err != nil {
		r.skipped = err.Error()
		return
	}
	// The lock message while serve holds the index.
	s, err := e.startServe(false, "--repo", repo, "--no-watch")
	if err == nil {
		o := e.run(time.Minute, nil, "complete", query(repo))
		r.count(o)
		if o.code == 3 && strings.Contains(o.stderr, "graphcoder serve") {
			r.clear++
		} else {
			r.note("complete beside serve: exit %d %s", o.code, firstLines(o.stderr, 2))
		}
		r.note("complete beside serve: %s", shortErr(o.stderr))
		// A second serve on the busy port fails at once, before any index work.
		empty := filepath.Join(e.work, "no-index-repo")
		genRepo(empty, 5, "v1")
		host, port, _ := net.SplitHostPort(s.addr)
		b := e.run(30*time.Second, nil, "serve", "--repo", empty, "--http", net.JoinHostPort(host, port), "--no-watch")
		r.count(b)
		_, statErr := os.Stat(filepath.Join(empty, ".graphcoder"))
		if b.code == 5 && strings.Contains(b.stderr, "listen") && os.IsNotExist(statErr) && b.elapsed < 5*time.Second {
			r.clear++
		} else {
			r.note("serve on a busy port: exit %d in %v, index built %v", b.code, b.elapsed, statErr == nil)
		}
		r.note("a second serve on a busy port: exit %d in %v, no index built", b.code, b.elapsed.Round(time.Millisecond))
		s.stop(10 * time.Second)
	} else {
		r.note("serve: %v", err)
	}
	// Lone carriage returns are line ends.
	cr := filepath.Join(repo, "pkg0", "mac.py")
	os.WriteFile(cr, []byte("import os\rdef f(a):\r    b = a + 1\r    return b\r"), 0o644)
	o := e.run(time.Minute, nil, "ccg", cr)
	r.count(o)
	if o.code == 0 && strings.Contains(o.stdout, "b = a + 1") && !strings.Contains(o.stdout, "\r") {
		r.clear++
	} else {
		r.note("ccg on lone CRs: exit %d\n%s", o.code, o.stdout)
	}
	// A name that is not UTF-8 is skipped and counted.
	os.WriteFile(filepath.Join(repo, "pkg0", "caf\xe9.py"), []byte("x = 1\n"), 0o644)
	b, sum := e.build(repo)
	r.count(b)
	if b.code == 0 && sum.Skipped["name_not_utf8"] == 1 {
		r.clear++
	} else {
		r.note("non-UTF-8 name: exit %d, skipped %v", b.code, sum.Skipped)
	}
	r.note("lone CRs end lines (ccg shows one statement per line); a file name that is not UTF-8 is skipped as name_not_utf8")
}
