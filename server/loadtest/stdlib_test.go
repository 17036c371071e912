package loadtest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/internal/cputime"
	"github.com/graphcoder/graphcoder/server"
	"github.com/graphcoder/graphcoder/server/backend"
	"github.com/graphcoder/graphcoder/server/httpapi"
	"github.com/graphcoder/graphcoder/server/loadtest"
)

var (
	loadRepo     = flag.String("load.repo", "", "repository to load-test (e.g. the Python standard library); the test is skipped without it")
	loadIndex    = flag.String("load.index", "", "its index, built by graphcoder build (a copy is used; default REPO/.graphcoder)")
	loadDuration = flag.Duration("load.duration", 30*time.Second, "load test duration")
	loadClients  = flag.Int("load.clients", 8, "concurrent clients")
	loadParallel = flag.Int("load.parallel", 0, "retrievals the server runs at once (0: its default)")
	loadPrompt   = flag.Bool("load.prompt", false, "ask for the prompt in every request (debug_options.return_prompt)")
)

// TestLoad serves a real index in process over loopback HTTP and drives it
// with seeded cursors, reporting latency and memory; then it measures how
// long a changed file takes to become visible. Run with
//
//	go test ./server/loadtest -run TestLoad -v -load.repo DIR -load.index IDX
func TestLoad(t *testing.T) {
	if *loadRepo == "" {
		t.Skip("no -load.repo given")
	}
	repo, _ := filepath.Abs(*loadRepo)
	index := *loadIndex
	if index == "" {
		index = filepath.Join(repo, ".graphcoder")
	}
	d, err := db.Open(index, db.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	t0 := time.Now()
	eng, err := engine.New(d, engine.Options{Root: repo})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("index loaded in %v: %+v", time.Since(t0).Round(time.Millisecond), eng.Info())
	svc, err := server.New(backend.Engine{Engine: eng}, server.Options{Root: repo, Parallel: *loadParallel})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httpapi.NewServer(httpapi.New(svc, httpapi.Options{}), nil)
	go srv.Serve(ln)
	defer srv.Close()

	rules := indexer.NewRules(repo, index, 0)
	walk, err := rules.Walk(context.Background(), repo)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range walk.Files {
		if strings.HasSuffix(f.Rel, ".py") {
			paths = append(paths, f.Rel)
		}
	}
	if len(paths) > 300 {
		step := len(paths) / 300
		var sample []string
		for i := 0; i < len(paths); i += step {
			sample = append(sample, paths[i])
		}
		paths = sample
	}
	bodies, err := loadtest.Cursors(repo, paths, 2000, 42)
	if err != nil {
		t.Fatal(err)
	}
	if *loadPrompt {
		for i, b := range bodies {
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			m["debug_options"] = map[string]bool{"return_prompt": true}
			if bodies[i], err = json.Marshal(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	cpu0 := cputime.Process()
	rep, err := loadtest.Run(context.Background(), loadtest.Options{
		URL: "http://" + ln.Addr().String(), Clients: *loadClients, Duration: *loadDuration, Bodies: bodies,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("load: %v", rep)
	if rep.Requests > 0 {
		t.Logf("process CPU per request (server and clients): %.2f ms", ms(cputime.Process()-cpu0)/float64(rep.Requests))
	}
	if rep.Errors > 0 {
		t.Errorf("%d errors, first: %s", rep.Errors, rep.FirstError)
	}
	var rss uint64
	if f, err := loadtest.ProcessRSS(os.Getpid())(); err == nil {
		rss = f
	}
	t.Logf("process RSS after the run: %.0f MiB", float64(rss)/(1<<20))

	// The live path on a file that did not change: re-index and reload,
	// timed.
	ix := &backend.Indexer{DB: d, Rules: rules}
	t1 := time.Now()
	changed, err := ix.Reindex(context.Background(), []string{filepath.Join(repo, paths[0])})
	if err != nil {
		t.Fatal(err)
	}
	reindex := time.Since(t1)
	if err := svc.Reload(); err != nil {
		t.Fatal(err)
	}
	t.Logf("re-index of an unchanged file %v (%d changed), reload %v", reindex.Round(time.Millisecond), len(changed), (time.Since(t1) - reindex).Round(time.Millisecond))
}

var saves = flag.Int("load.saves", 12, "saves timed by TestSaveVisible")

// TestSaveVisible measures how long a file written on disk takes to be
// visible to queries through the whole live path of graphcoder serve:
// fsnotify, the debounce, the re-index of the changed path, the engine's
// delta update and the cache invalidation. Each save appends a function
// with a fresh name to a file of the repository (which must be a copy:
// the test writes to it) and polls completions until a snippet shows it.
//
//	go test ./server/loadtest -run TestSaveVisible -v -load.repo COPY -load.index IDX
func TestSaveVisible(t *testing.T) {
	if *loadRepo == "" {
		t.Skip("no -load.repo given")
	}
	repo, _ := filepath.Abs(*loadRepo)
	index := *loadIndex
	if index == "" {
		index = filepath.Join(repo, ".graphcoder")
	}
	d, err := db.Open(index, db.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	eng, err := engine.New(d, engine.Options{Root: repo})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	t.Logf("index: %+v", eng.Info())
	svc, err := server.New(backend.Engine{Engine: eng}, server.Options{Root: repo})
	if err != nil {
		t.Fatal(err)
	}
	rules := indexer.NewRules(repo, index, 0)
	ix := &backend.Indexer{DB: d, Rules: rules}
	ctx, cancel := context.WithCancel(context.Background())
	live := server.NewLive(server.LiveOptions{Reindex: ix.Reindex, Reload: svc.Update,
		Logger: log.New(testWriter{t}, "", 0)})
	go live.Run(ctx)
	wait, err := server.Watch(ctx, server.WatchOptions{Rules: rules, Notify: func(p string) { live.Notify(p) }})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); wait() }()

	targets := []string{"argparse.py", "typing.py", "json/decoder.py", "email/message.py"}
	r := rand.New(rand.NewPCG(7, uint64(time.Now().UnixNano())))
	word := func() string {
		b := make([]byte, 12)
		for i := range b {
			b[i] = byte('a' + r.IntN(26))
		}
		return string(b)
	}
	var times []time.Duration
	for i := range *saves {
		fn, arg, loc := word(), word(), word()
		path := filepath.Join(repo, filepath.FromSlash(targets[i%len(targets)]))
		old, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		probe := fmt.Sprintf("\n\ndef %s(%s):\n    %s = %s + 1\n    return %s\n", fn, arg, loc, arg, loc)
		// The same file typed up to the probe's last line, under another
		// name (the leak rule hides the file's own later lines).
		query := append(slices.Clone(old), fmt.Sprintf("\n\ndef %s(%s):\n    %s = %s + 1\n    ", fn, arg, loc, arg)...)
		line := bytes.Count(query, []byte("\n")) + 1
		t0 := time.Now()
		if err := os.WriteFile(path, append(old, probe...), 0o644); err != nil {
			t.Fatal(err)
		}
		var took time.Duration
		for time.Since(t0) < 10*time.Second {
			c, err := svc.Complete(ctx, server.Query{Path: "probe.py", Source: query, Line: line, Column: 4})
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Snippets) > 0 && strings.Contains(c.Snippets[0].Text, "return "+loc) {
				took = time.Since(t0)
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		if took == 0 {
			c, _ := svc.Complete(ctx, server.Query{Path: "probe.py", Source: query, Line: line, Column: 4})
			if c != nil && len(c.Snippets) > 0 {
				t.Logf("best snippet %s:%d: %q; engine %+v", c.Snippets[0].Path, c.Snippets[0].StartLine, c.Snippets[0].Text, eng.Info())
			}
			t.Fatalf("save %d of %s not visible after 10 s", i, targets[i%len(targets)])
		}
		times = append(times, took)
		time.Sleep(300 * time.Millisecond) // let the run settle before the next save
	}
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	t.Logf("saved file visible after (ms): %v", millis(times))
	t.Logf("median %.1f ms, max %.1f ms over %d saves; engine %+v", ms(sorted[len(sorted)/2]), ms(sorted[len(sorted)-1]), len(sorted), eng.Info())
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func millis(ds []time.Duration) []float64 {
	out := make([]float64, len(ds))
	for i, d := range ds {
		out[i] = math.Round(ms(d)*10) / 10
	}
	return out
}
