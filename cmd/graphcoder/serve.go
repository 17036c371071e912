package main

import (
	"context"
	"errors"
	"fmt"
	"log"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/llm"
	"github.com/graphcoder/graphcoder/retrieve"
	"github.com/graphcoder/graphcoder/server"
	"github.com/graphcoder/graphcoder/server/backend"
	"github.com/graphcoder/graphcoder/server/httpapi"
	"github.com/graphcoder/graphcoder/server/lsp"
)

func init() { rootCmd.AddCommand(newServeCmd()) }

// testHookReindexed, when set, runs after each live re-index, before its
// reload (tests stretch that moment).
var testHookReindexed func()

// serveFlags holds the settings of graphcoder serve.
type serveFlags struct {
	lsp, noWatch, allowRemote bool
	keepMapped                bool
	releaseEvery              time.Duration
	residentBudget            string
	httpAddr, repo, index     string
	mode, logFormat           string
	memoryLimit               string
	topK, cache, parallel     int
	rerank, vote              int
	budget, debounce, timeout time.Duration
	maxBody                   int64
	window, maxNew            int
	context                   contextFlags
}

func newServeCmd() *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve [--lsp] [--http ADDR] --repo DIR [--index DIR] [backend flags]",
		Short: "Serve completions to editors over LSP (stdio) or HTTP",
		Long: `Serve completions for the repository DIR to editors.

With --lsp, speak the Language Server Protocol on standard input and output
(textDocument/completion and textDocument/inlineCompletion, with full and
incremental document sync, so completions use unsaved buffers); diagnostics
go to standard error. Add --http to serve HTTP as well.

Without --lsp, serve HTTP on --http (default 127.0.0.1:8420), in the shape of
Tabby's server API, so Tabby's editor plugins and agent work unchanged:
  POST /v1/completions  {"language", "segments": {"prefix", "suffix", "filepath", "declarations",
                         "relevant_snippets_from_changed_files", "relevant_snippets_from_recently_opened_files",
                         "clipboard", ...}, "debug_options": {"return_snippets", "return_prompt", "raw_prompt",
                         "disable_retrieval_augmented_code_completion"}}
                     -> {"id", "choices": [{"index", "text"}], "debug_data": {"snippets", "definitions", "prompt"}}
  POST /v1/events       completion views, selections and dismissals (the acceptance rate is in /v1/health)
  GET  /v1/health       Tabby's fields and graphcoder's
  GET  /v1beta/server_setting
The cursor is where prefix ends; filepath is relative to DIR (or absolute
inside it) and optional: without it the code is completed alone, in the
language named. When prefix and suffix are only the lines around the cursor
(Tabby's clients send 20 of each) and the open buffer or the file on disk
holds them, the whole file above them is used. The server listens on
loopback only unless --allow-remote.

Every request is one line on standard error (--log-format text or json):
protocol, path, line, milliseconds per stage, snippets and the sources of the
prompt's blocks, predictor, model time, status and the reason of an error.

The index (DIR/.graphcoder unless --index) is built first when missing, while
the servers already answer ("not ready" until it is loaded; LSP clients that
take work-done progress are shown the build with $/progress). Files
changed on disk or saved in the editor are re-indexed in the background and
queries see the new index once it is complete; --no-watch turns this off.

Each completion retrieves within --budget and answers with the best result
found by then; repeated queries on the same line are served from a cache.
With a model backend (--llm and related flags, or --llm-config FILE) the
model writes the completion from the context the assembler builds out of the
retrieved snippets (within --context-window minus --max-new-tokens, packed by
the --context-* flags, laid out as the backend takes it); when it is absent,
fails or exceeds --llm-timeout, the model-free prediction is used.`,
		Example: `  graphcoder serve --lsp --repo .
  graphcoder serve --repo ~/src/project --http 127.0.0.1:8420
  graphcoder serve --lsp --repo . --llm ollama --llm-model qwen2.5-coder:1.5b --llm-template qwen`,
		DisableFlagsInUseLine: true,
		Args:                  cobra.NoArgs,
	}
	fl := cmd.Flags()
	fl.BoolVar(&f.lsp, "lsp", false, "speak LSP on stdin/stdout")
	fl.StringVar(&f.httpAddr, "http", httpapi.DefaultAddr, "HTTP listen address (with --lsp, HTTP is served only when this is given)")
	fl.BoolVar(&f.allowRemote, "allow-remote", false, "allow an HTTP address that is not loopback")
	fl.StringVar(&f.repo, "repo", "", "repository to serve (required)")
	fl.StringVar(&f.index, "index", "", "index folder (default REPO/"+indexDirName+")")
	fl.StringVar(&f.mode, "mode", "", "retrieval mode: coarse, fine, coarse2fine, bm25 or hybrid (default: hybrid for Java, coarse2fine for the other languages)")
	fl.IntVar(&f.topK, "top-k", 10, "snippets retrieved per completion")
	fl.IntVar(&f.rerank, "rerank", 0, "coarse candidates the fine stage re-ranks (default: top-k in coarse2fine, 50 in hybrid)")
	fl.IntVar(&f.vote, "vote", 0, "best candidates voting for the model-free prediction (default 1: the best alone)")
	fl.DurationVar(&f.budget, "budget", server.DefaultBudget, "retrieval budget per completion; the best result found by then is used")
	fl.IntVar(&f.cache, "cache", 512, "retrieval results kept for repeated queries (0 disables)")
	fl.IntVar(&f.parallel, "parallel", 0, "retrievals computed at once, over LSP and HTTP together (default 2 per CPU)")
	fl.StringVar(&f.memoryLimit, "memory-limit", "", "memory the Go runtime aims to stay within (as GOMEMLIMIT: 300MiB, 1GiB; off for none; default: sized from the index, or GOMEMLIMIT when set)")
	fl.BoolVar(&f.keepMapped, "keep-mapped", false, "keep the pages of the index's snapshot file a request read mapped after it (more resident memory, a page fault less per block of pages the next request reads)")
	fl.DurationVar(&f.releaseEvery, "release-every", engine.DefaultReleaseEvery, "idle time after which the snapshot file's mapped pages are released (0: after every request, the least resident memory, slower requests)")
	fl.StringVar(&f.residentBudget, "resident-budget", "", fmt.Sprintf("resident memory above which a request that ends releases the snapshot file's mapped pages (as --memory-limit: 256MiB; off for none; default %dMiB)", engine.DefaultResidentBudget>>20))
	fl.DurationVar(&f.timeout, "timeout", 10*time.Second, "time allowed for one HTTP request")
	fl.Int64Var(&f.maxBody, "max-body", 4<<20, "largest accepted HTTP request body in bytes")
	fl.BoolVar(&f.noWatch, "no-watch", false, "do not re-index files changed on disk or saved")
	fl.StringVar(&f.logFormat, "log-format", server.LogText, "request log on standard error, one line per request: text or json")
	fl.DurationVar(&f.debounce, "debounce", 50*time.Millisecond, "quiet time after a change before re-indexing")
	fl.IntVar(&f.window, "context-window", 2048, "the model's context window in tokens, for the prompt budget")
	fl.IntVar(&f.maxNew, "max-new-tokens", 100, "tokens kept free for the answer")
	f.context.add(fl)
	llmFlags := llm.AddFlags(fl)
	embedFlags := llm.AddEmbedFlags(fl)
	_ = cmd.MarkFlagRequired("repo")

	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		if err := checkFlags(
			atLeast("top-k", f.topK, 1),
			atLeast("rerank", f.rerank, 0),
			atLeast("vote", f.vote, 0),
			atLeast("cache", f.cache, 0),
			atLeast("parallel", f.parallel, 0),
			atLeast("max-body", f.maxBody, 1),
			atLeast("context-window", f.window, 1),
			atLeast("max-new-tokens", f.maxNew, 0),
			positive("budget", f.budget),
			positive("timeout", f.timeout),
			positive("debounce", f.debounce),
			flagCheck{f.releaseEvery >= 0, fmt.Sprintf("--release-every must not be negative, got %v", f.releaseEvery)},
		); err != nil {
			return err
		}
		if _, err := parseMemoryLimit(f.memoryLimit); err != nil {
			return badInput(fmt.Errorf("--memory-limit: %w", err))
		}
		if _, err := parseMemoryLimit(f.residentBudget); err != nil {
			return badInput(fmt.Errorf("--resident-budget: %w", err))
		}
		cfg, err := llmFlags.Config()
		if err != nil {
			return badInput(err)
		}
		ecfg, err := embedFlags.Config()
		if err != nil {
			return badInput(err)
		}
		return runServe(cmd.Context(), cmd, f, cfg, ecfg)
	}
	return badFlags(cmd)
}

// runServe serves until ctx is done or the LSP client exits. Everything
// that can fail on bad settings (the flags, the HTTP port) fails before an
// index is built; on the way out the servers stop and the live re-index is
// stopped and waited for before the index it writes to is closed, and the
// close is checked.
func runServe(ctx context.Context, cmd *cobra.Command, f serveFlags, cfg llm.Config, ecfg llm.EmbedConfig) (err error) {
	logger := log.New(os.Stderr, "graphcoder serve: ", log.LstdFlags)
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	mode, err := parseMode(f.mode)
	if err != nil {
		return badInput(err)
	}
	po, err := f.context.options(f.window, f.maxNew)
	if err != nil {
		return badInput(err)
	}
	po.Layout = cfg.Layout()
	embedder, err := llm.NewEmbedder(ecfg)
	if err != nil {
		return badInput(err)
	}
	serveHTTP := !f.lsp || cmd.Flags().Changed("http")
	if serveHTTP && !f.allowRemote && !httpapi.IsLoopback(f.httpAddr) {
		return badInput(fmt.Errorf("--http %s is not a loopback address (add --allow-remote to serve it anyway)", f.httpAddr))
	}
	repo, err := filepath.Abs(f.repo)
	if err != nil {
		return badInput(fmt.Errorf("repository: %w", err))
	}
	if fi, err := os.Stat(repo); err != nil || !fi.IsDir() {
		return badInput(fmt.Errorf("repository %s is not a folder", f.repo))
	}
	indexDir := f.index
	if indexDir == "" {
		indexDir = filepath.Join(repo, indexDirName)
	}
	if indexDir, err = filepath.Abs(indexDir); err != nil {
		return badInput(fmt.Errorf("index: %w", err))
	}

	reqLog, err := server.NewRequestLog(os.Stderr, f.logFormat)
	if err != nil {
		return badInput(err)
	}
	// Listen first: a busy port fails before any indexing.
	var ln net.Listener
	if serveHTTP {
		if ln, err = net.Listen("tcp", f.httpAddr); err != nil {
			return badInput(fmt.Errorf("listen: %w", err))
		}
	}

	opts := server.Options{Root: repo, Budget: f.budget, CacheSize: f.cache, Parallel: f.parallel, Logger: logger, RequestLog: reqLog}
	if f.cache == 0 {
		opts.CacheSize = -1
	}
	modelName := ""
	if cfg.Kind != "" && cfg.Kind != llm.KindNone {
		b, err := llm.New(cfg)
		if err != nil {
			return badInput(err)
		}
		opts.Generator = backend.Model{Backend: b, RepoName: filepath.Base(repo)}
		opts.GenerateTimeout = cfg.Timeout
		if opts.GenerateTimeout <= 0 {
			opts.GenerateTimeout = llm.DefaultTimeout
		}
		modelName = b.Name()
		logger.Printf("model backend %s", b.Name())
	} else {
		logger.Printf("no model backend: answering with the model-free prediction")
	}
	// The servers start before the index is ready: until it is, they
	// answer "not ready" and LSP clients are shown the build's progress.
	later := &server.Later{}
	svc, err := server.New(later, opts)
	if err != nil {
		return err
	}
	progress := server.NewProgress("graphcoder: indexing " + filepath.Base(repo))
	var (
		eng *engine.Engine
		ix  *backend.Indexer
		d   *db.DB
		// ready holds eng once it answers, for the health answer.
		ready atomic.Pointer[engine.Engine]
	)
	live := server.NewLive(server.LiveOptions{
		Reindex: func(ctx context.Context, paths []string) ([]string, error) {
			changed, err := ix.Reindex(ctx, paths)
			if testHookReindexed != nil {
				testHookReindexed()
			}
			return changed, err
		},
		Reload:   svc.Update,
		Debounce: f.debounce, Logger: logger,
	})
	onSave := func(string) {}
	if !f.noWatch {
		onSave = func(p string) { live.Notify(p) } // run once the index is open
	}

	errc := make(chan error, 2)
	var httpSrv *http.Server
	var waitWatch func()
	liveDone := make(chan struct{})
	liveStarted := false
	defer func() {
		// Stop the servers, the watcher and the live re-index (waiting for
		// a re-index in progress to abort) before the index closes under
		// them; then close it and report a failed close.
		cancel()
		if httpSrv != nil {
			sctx, scancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer scancel()
			if serr := httpSrv.Shutdown(sctx); serr != nil {
				logger.Printf("http shutdown: %v", serr)
			}
		}
		if waitWatch != nil {
			waitWatch()
		}
		if liveStarted {
			<-liveDone
		}
		if eng != nil {
			eng.Close() // waits for a background fold
		}
		if d != nil {
			if cerr := d.Close(); cerr != nil && err == nil {
				err = cerr
			}
		}
	}()
	if serveHTTP {
		h := httpapi.New(svc, httpapi.Options{MaxBody: f.maxBody, Timeout: f.timeout, Logger: logger, Model: modelName,
			Health: func() map[string]any {
				e := ready.Load()
				if e == nil {
					t, _ := progress.State()
					return map[string]any{"status": "indexing", "indexing": t.Message}
				}
				i := e.Info()
				return map[string]any{"files": i.Files, "entries": i.Entries, "reindexing": live.Busy(), "reindex_runs": live.Runs(),
					"damaged": len(i.Damaged)}
			}})
		httpSrv = httpapi.NewServer(h, logger)
		logger.Printf("HTTP on http://%s", ln.Addr())
		go func() {
			if err := httpSrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				errc <- fmt.Errorf("http: %w", err)
			}
		}()
	}
	if f.lsp {
		srv := lsp.New(svc, lsp.Options{OnSave: onSave, Parallel: f.parallel, Logger: logger, Progress: progress})
		go func() { errc <- srv.Serve(ctx, os.Stdin, os.Stdout) }()
		logger.Printf("LSP on standard input and output")
	}

	fail := func(code int, err error) error {
		progress.Finish(err, "")
		return &exitError{code, err}
	}
	if !db.IsIndex(indexDir) {
		logger.Printf("no index in %s: building one for %s first", indexDir, repo)
		sum, err := indexer.Build(ctx, indexer.Options{Repo: repo, IndexDir: indexDir, Embedder: embedder,
			Progress: func(p indexer.Progress) { reportBuild(progress, p) }})
		if errors.Is(err, indexer.ErrDense) {
			logger.Printf("serving without some dense vectors: %v", err)
			err = nil
		}
		if err != nil {
			return fail(exitCode(err), fmt.Errorf("build index: %w", err))
		}
		logger.Printf("indexed %d files (%d statements) in %.2fs", sum.Files, sum.Statements, sum.Seconds)
	}
	progress.Update(100, "loading the index")
	// One read-write handle serves both the engine and the live re-index.
	if d, err = db.Open(indexDir, db.OpenOptions{}); err != nil {
		return fail(exitCode(err), fmt.Errorf("open index: %w", err))
	}
	rules := indexer.NewRules(repo, indexDir, 0)
	ix = &backend.Indexer{DB: d, Rules: rules, Embedder: embedder, Logf: logger.Printf}
	eo := engine.Options{Root: repo, Prompt: po, Embedder: embedder, KeepMapped: f.keepMapped, ReleaseEvery: f.releaseEvery}
	if f.releaseEvery == 0 {
		eo.ReleaseEvery = -1 // after every request
	}
	switch budget, _ := parseMemoryLimit(f.residentBudget); { // checked with the flags
	case f.residentBudget == "off":
		eo.ResidentBudget = -1
	case budget > 0:
		eo.ResidentBudget = budget
	}
	f.context.engine(&eo)
	if eng, err = engine.New(d, eo); err != nil {
		return fail(exitCode(err), err)
	}
	info := eng.Info()
	logger.Printf("serving %s: %d files, %d entries", repo, info.Files, info.Entries)
	setMemoryLimit(logger, f, eng)
	if len(info.Damaged) > 0 {
		logger.Printf("the index is damaged: %d file(s) left out until `graphcoder build` repairs it", len(info.Damaged))
	}
	if info.Dense != nil {
		logger.Printf("dense vectors of %s: %d entries (%d dimensions)", info.Dense.Model, info.Dense.Entries, info.Dense.Dim)
	}
	later.Set(backend.Engine{Engine: eng, Mode: mode, TopK: f.topK, Rerank: f.rerank, Vote: f.vote})
	ready.Store(eng)
	progress.Finish(nil, "%d files, %d entries", info.Files, info.Entries)

	if !f.noWatch {
		liveStarted = true
		go func() {
			defer close(liveDone)
			live.Run(ctx)
		}()
		wait, err := server.Watch(ctx, server.WatchOptions{Rules: rules, Notify: onSave, Logger: logger})
		if err != nil {
			logger.Printf("not watching the repository (saves still re-index): %v", err)
		} else {
			waitWatch = wait
		}
	}
	select {
	case <-ctx.Done():
		return nil
	case err := <-errc:
		switch {
		case errors.Is(err, lsp.ErrNoShutdown):
			return &exitError{exitFailure, err}
		case err != nil:
			return err
		}
		return nil
	}
}

// setMemoryLimit sets the Go runtime's memory limit of the server: the
// one --memory-limit gives, else GOMEMLIMIT's when it is set (the
// runtime has applied it), else the engine's default for the requests the
// server runs at once. It also bounds the scratch the searches keep to
// those requests (retrieve.SetScratchLimit).
func setMemoryLimit(logger *log.Logger, f serveFlags, eng *engine.Engine) {
	parallel := f.parallel
	if parallel <= 0 {
		parallel = 2 * runtime.GOMAXPROCS(0)
	}
	// Searches beyond the cores wait for one: that many keep scratch.
	searches := min(parallel, runtime.GOMAXPROCS(0))
	retrieve.SetScratchLimit(searches)
	switch limit, env := applyMemoryLimit(f.memoryLimit, func() int64 { return eng.MemoryLimit(searches) }); {
	case limit == 0:
		logger.Printf("no memory limit")
	case env:
		logger.Printf("memory limit %d MiB (GOMEMLIMIT)", limit>>20)
	default:
		logger.Printf("memory limit %d MiB", limit>>20)
	}
}

// applyMemoryLimit sets the Go runtime's memory limit from a
// --memory-limit (already checked by parseMemoryLimit): none for "off",
// the size it gives, else GOMEMLIMIT's when that is set (the runtime has
// applied it), else def(). It returns the limit (0: none) and whether it
// is GOMEMLIMIT's.
func applyMemoryLimit(flag string, def func() int64) (limit int64, env bool) {
	limit, _ = parseMemoryLimit(flag)
	switch {
	case limit == 0 && flag != "":
		debug.SetMemoryLimit(math.MaxInt64)
		return 0, false
	case limit == 0 && os.Getenv("GOMEMLIMIT") != "":
		return debug.SetMemoryLimit(-1), true
	case limit == 0:
		limit = def()
	}
	debug.SetMemoryLimit(limit)
	return limit, false
}

// parseMemoryLimit reads a --memory-limit: bytes, with GOMEMLIMIT's
// suffixes B, KiB, MiB, GiB, TiB; "off" is none (0, as is "").
func parseMemoryLimit(s string) (int64, error) {
	if s == "" || s == "off" {
		return 0, nil
	}
	units := []struct {
		suffix string
		shift  uint
	}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}
	num, shift := s, uint(0)
	for _, u := range units {
		if strings.HasSuffix(s, u.suffix) {
			num, shift = strings.TrimSuffix(s, u.suffix), u.shift
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("%q is no size (a positive number of bytes, with B, KiB, MiB, GiB or TiB; or off)", s)
	}
	return n << shift, nil
}

// reportBuild shows an index build's progress to the servers' clients.
func reportBuild(pr *server.Progress, p indexer.Progress) {
	switch p.Phase {
	case "walk":
		pr.Update(0, "walking the repository")
	case "publish":
		pr.Update(100, "publishing %d files", p.FilesTotal)
	default:
		pct := 100
		if p.BytesTotal > 0 {
			pct = int(100 * p.BytesDone / p.BytesTotal)
		}
		pr.Update(pct, "%d/%d files", p.FilesDone, p.FilesTotal)
	}
}
