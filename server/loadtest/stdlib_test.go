package loadtest_test

import (
	"context"
	"flag"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/indexer"
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
	svc, err := server.New(backend.Engine{Engine: eng}, server.Options{Root: repo})
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

	var paths []string
	_ = filepath.WalkDir(repo, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if de.IsDir() && indexer.SkippedDir(de.Name()) {
			return filepath.SkipDir
		}
		if !de.IsDir() && strings.HasSuffix(p, ".py") {
			r, _ := filepath.Rel(repo, p)
			paths = append(paths, r)
		}
		return nil
	})
	sort.Strings(paths)
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
	rep, err := loadtest.Run(context.Background(), loadtest.Options{
		URL: "http://" + ln.Addr().String(), Clients: *loadClients, Duration: *loadDuration, Bodies: bodies,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("load: %v", rep)
	if rep.Errors > 0 {
		t.Errorf("%d errors, first: %s", rep.Errors, rep.FirstError)
	}
	var rss uint64
	if f, err := loadtest.ProcessRSS(os.Getpid())(); err == nil {
		rss = f
	}
	t.Logf("process RSS after the run: %.0f MiB", float64(rss)/(1<<20))

	// A changed file: re-index and reload, timed.
	ix := &backend.Indexer{DB: d, Rules: indexer.NewRules(repo, index, 0)}
	t1 := time.Now()
	if _, err := ix.Build(context.Background()); err != nil {
		t.Fatal(err)
	}
	build := time.Since(t1)
	if err := svc.Reload(); err != nil {
		t.Fatal(err)
	}
	t.Logf("incremental re-index with nothing changed %v, reload %v", build.Round(time.Millisecond), (time.Since(t1) - build).Round(time.Millisecond))
}
