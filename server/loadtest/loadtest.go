package loadtest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/lang"
)

// MaxDuration caps a run.
const MaxDuration = 10 * time.Minute

// Options configure [Run].
type Options struct {
	// URL is the server's base URL, e.g. http://127.0.0.1:8420; it must
	// name a loopback address.
	URL string
	// Clients is the number of concurrent clients (default 8).
	Clients int
	// Duration is how long to run (default 30 s, at most MaxDuration).
	Duration time.Duration
	// Bodies are the POST /v1/completions bodies, cycled by every client
	// from a different starting point. Required.
	Bodies [][]byte
	// Memory measures the server's memory before and after (default: this
	// process's live heap after a collection, right for an in-process
	// server; use [ProcessRSS] for another process).
	Memory func() (uint64, error)
}

// Report is the outcome of a run.
type Report struct {
	Clients  int           `json:"clients"`
	Elapsed  time.Duration `json:"elapsed_ns"`
	Requests int           `json:"requests"`
	Errors   int           `json:"errors"`
	// FirstError describes the first failed request.
	FirstError string        `json:"first_error,omitempty"`
	Median     time.Duration `json:"median_ns"`
	P99        time.Duration `json:"p99_ns"`
	Max        time.Duration `json:"max_ns"`
	MemBefore  uint64        `json:"mem_before_bytes"`
	MemAfter   uint64        `json:"mem_after_bytes"`
}

func (r Report) String() string {
	return fmt.Sprintf("%d clients, %v: %d requests (%.0f/s), %d errors; latency median %v, p99 %v, max %v; memory %.1f MiB -> %.1f MiB",
		r.Clients, r.Elapsed.Round(time.Millisecond), r.Requests, float64(r.Requests)/r.Elapsed.Seconds(), r.Errors,
		r.Median.Round(10*time.Microsecond), r.P99.Round(10*time.Microsecond), r.Max.Round(10*time.Microsecond),
		float64(r.MemBefore)/(1<<20), float64(r.MemAfter)/(1<<20))
}

// HeapInUse returns this process's live heap after a garbage collection.
func HeapInUse() (uint64, error) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc, nil
}

// ProcessRSS returns a function reading the resident set size of process
// pid from /proc (Linux).
func ProcessRSS(pid int) func() (uint64, error) {
	return func() (uint64, error) {
		f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
		if err != nil {
			return 0, fmt.Errorf("rss: %w", err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if v, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
				kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				if err != nil {
					return 0, fmt.Errorf("rss: %w", err)
				}
				return kb << 10, nil
			}
		}
		return 0, errors.New("rss: no VmRSS line")
	}
}

// checkLoopback refuses URLs that do not name a loopback host.
func checkLoopback(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("load test URL: %w", err)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("load test URL %s: only loopback addresses are allowed", raw)
}

// Run drives the server until the duration ends or ctx is done.
func Run(ctx context.Context, opts Options) (Report, error) {
	if err := checkLoopback(opts.URL); err != nil {
		return Report{}, err
	}
	if len(opts.Bodies) == 0 {
		return Report{}, errors.New("load test: no request bodies")
	}
	if opts.Clients <= 0 {
		opts.Clients = 8
	}
	if opts.Duration <= 0 {
		opts.Duration = 30 * time.Second
	}
	opts.Duration = min(opts.Duration, MaxDuration)
	if opts.Memory == nil {
		opts.Memory = HeapInUse
	}
	endpoint := strings.TrimRight(opts.URL, "/") + "/v1/completions"
	client := &http.Client{
		Timeout:   30 * time.Second,
		Transport: &http.Transport{MaxIdleConnsPerHost: opts.Clients, DisableCompression: true},
	}
	defer client.CloseIdleConnections()

	rep := Report{Clients: opts.Clients}
	var err error
	if rep.MemBefore, err = opts.Memory(); err != nil {
		return Report{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, opts.Duration)
	defer cancel()
	var (
		mu        sync.Mutex
		latencies []time.Duration
		wg        sync.WaitGroup
	)
	start := time.Now()
	for c := range opts.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local []time.Duration
			errs, first := 0, ""
			for i := c * len(opts.Bodies) / opts.Clients; ctx.Err() == nil; i++ {
				body := opts.Bodies[i%len(opts.Bodies)]
				t0 := time.Now()
				err := post(ctx, client, endpoint, body)
				if ctx.Err() != nil {
					break // the run ended mid-request: not a server error
				}
				if err != nil {
					errs++
					if first == "" {
						first = err.Error()
					}
					continue
				}
				local = append(local, time.Since(t0))
			}
			mu.Lock()
			latencies = append(latencies, local...)
			rep.Errors += errs
			if rep.FirstError == "" {
				rep.FirstError = first
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	rep.Elapsed = time.Since(start)
	client.CloseIdleConnections()
	if rep.MemAfter, err = opts.Memory(); err != nil {
		return Report{}, err
	}
	rep.Requests = len(latencies) + rep.Errors
	if len(latencies) > 0 {
		slices.Sort(latencies)
		rep.Median = latencies[len(latencies)/2]
		rep.P99 = latencies[min(len(latencies)-1, len(latencies)*99/100)]
		rep.Max = latencies[len(latencies)-1]
	}
	return rep, nil
}

func post(ctx context.Context, client *http.Client, endpoint string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d: %s", resp.StatusCode, bytes.TrimSpace(b[:min(len(b), 200)]))
	}
	return nil
}

// Cursors makes n completion request bodies at seeded random cursors in
// the given files (paths relative to root): the cursor sits after the
// indentation of a non-blank line, so the request asks for that line.
func Cursors(root string, paths []string, n int, seed uint64) ([][]byte, error) {
	type file struct {
		path  string
		lines []string
	}
	var files []file
	for _, p := range paths {
		b, err := indexer.ReadRepoFile(root, filepath.ToSlash(p), 0)
		if err != nil {
			return nil, fmt.Errorf("cursors: %w", err)
		}
		if lines := lang.SplitLines(b); len(lines) > 1 {
			files = append(files, file{path: filepath.ToSlash(p), lines: lines})
		}
	}
	if len(files) == 0 {
		return nil, errors.New("cursors: no usable files")
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	bodies := make([][]byte, 0, n)
	for tries := 0; len(bodies) < n && tries < 100*n; tries++ {
		f := files[rng.IntN(len(files))]
		i := rng.IntN(len(f.lines))
		line := f.lines[i]
		if strings.TrimSpace(line) == "" {
			continue
		}
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		prefix := strings.Join(f.lines[:i], "\n")
		if i > 0 {
			prefix += "\n"
		}
		prefix += indent
		suffix := strings.TrimPrefix(strings.Join(f.lines[i:], "\n"), indent)
		b, err := json.Marshal(map[string]any{
			"segments": map[string]string{"prefix": prefix, "suffix": suffix, "filepath": f.path},
		})
		if err != nil {
			return nil, err
		}
		bodies = append(bodies, b)
	}
	return bodies, nil
}
