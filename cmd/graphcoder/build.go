package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/graphcoder/graphcoder/indexer"
	_ "github.com/graphcoder/graphcoder/lang/golang"
	_ "github.com/graphcoder/graphcoder/lang/java"
	_ "github.com/graphcoder/graphcoder/lang/javascript"
	_ "github.com/graphcoder/graphcoder/lang/python"
	_ "github.com/graphcoder/graphcoder/lang/typescript"
	"github.com/graphcoder/graphcoder/llm"
	"github.com/graphcoder/graphcoder/token"
)

func init() {
	rootCmd.AddCommand(newBuildCmd())
	rootCmd.AddCommand(newParseFloorCmd())
}

// maxSliceStatements is the largest l an index records (db.NewBuilder).
const maxSliceStatements = 1 << 16

func newBuildCmd() *cobra.Command {
	var (
		opts       indexer.Options
		asJSON     bool
		maxSize    int64
		memLimit   string
		embedFlags *llm.EmbedFlags
	)
	cmd := &cobra.Command{
		Use:   "build [--index DIR] [--workers N] [--json] [--max-file-size BYTES] [--tokenizer code|cl100k] [--rebuild] REPO",
		Short: "Index a repository's statements and their code context graph slices",
		Long: `Build (or update) the index of REPO. The index goes to REPO/.graphcoder unless
--index names another folder. Files whose content did not change since the
last build are not parsed again; the new index replaces the old one
atomically, so an interrupted build leaves the previous index usable.

The walk honours .gitignore files and skips .git, the index folder, vendored
and generated folders (node_modules, vendor, build, dist, .venv, __pycache__,
...), binary and non-UTF-8 files, files over --max-file-size, special files
and symbolic-link loops; each skipped file is counted in the summary.

With --json the summary is one JSON object on stdout with the fields files,
lines, statements, entries, index_bytes, seconds, seen, reused, parsed,
removed, skipped (counts by reason), failures (first messages), unsupported, syntax_errors, generation,
published, tokenizer, repo, index, repaired (what damage to the index the
build found and repaired, if any), and with --embed the object dense
(model, files, embedded, reused, entries, dim, bytes).

A damaged index (a truncated or overwritten store file, a missing MANIFEST, a
blob failing its checksum) is repaired from the sources. Exit status: 3 when
the index is in use or of another schema (--rebuild replaces it), 4 when its
file system has too little free space, 5 for bad arguments.

With --embed (and --embed-url, --embed-model) the entries also get dense
vectors for mode hybrid, from an embeddings server: openai (POST
/v1/embeddings), ollama (POST /api/embed) or llamacpp (POST /embedding).
Only files without vectors for that model are embedded, so a build that
stops midway (server gone, time out) leaves the graph index published and
usable, keeps the vectors done, and the next build embeds the rest; it
then exits with status 1 after the summary. For example, with Ollama:

  ollama pull nomic-embed-text
  graphcoder build --embed ollama --embed-model nomic-embed-text REPO

or with llama.cpp:

  llama-server -m nomic-embed-text-v1.5.Q8_0.gguf --embeddings --pooling mean --port 8081
  graphcoder build --embed llamacpp --embed-url http://127.0.0.1:8081 REPO

complete, serve and eval take the same --embed flags to embed the query.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Repo = args[0]
			opts.MaxFileSize = maxSize
			if err := checkFlags(
				atLeast("workers", opts.Workers, 0),
				atLeast("max-file-size", maxSize, 1),
				atLeast("hops", opts.Hops, 1),
				atLeast("max-statements", opts.MaxStatements, 1),
				atMost("max-statements", opts.MaxStatements, maxSliceStatements),
			); err != nil {
				return err
			}
			if _, err := parseMemoryLimit(memLimit); err != nil {
				return badInput(fmt.Errorf("--memory-limit: %w", err))
			}
			applyMemoryLimit(memLimit, func() int64 { return defaultBuildMemory })
			if _, err := token.ByName(opts.Tokenizer); err != nil {
				return badInput(err)
			}
			ecfg, err := embedFlags.Config()
			if err != nil {
				return badInput(err)
			}
			if opts.Embedder, err = llm.NewEmbedder(ecfg); err != nil {
				return badInput(err)
			}
			if st, err := os.Stat(opts.Repo); err != nil || !st.IsDir() {
				return badInput(fmt.Errorf("build: %s is not a directory", opts.Repo))
			}
			stderr := cmd.ErrOrStderr()
			p := newProgressPrinter(stderr)
			opts.Progress = p.update
			sum, err := indexer.Build(cmd.Context(), opts)
			p.done()
			if errors.Is(err, indexer.ErrDense) {
				if asJSON {
					json.NewEncoder(cmd.OutOrStdout()).Encode(sum)
				} else {
					printSummary(cmd.OutOrStdout(), &sum)
				}
				return fmt.Errorf("build: %w", err)
			}
			if err != nil {
				return fmt.Errorf("build: %w", err)
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				return enc.Encode(sum)
			}
			printSummary(cmd.OutOrStdout(), &sum)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.IndexDir, "index", "", "index folder (default REPO/.graphcoder)")
	f.IntVar(&opts.Workers, "workers", 0, "parallel parsers (default: number of CPUs)")
	f.BoolVar(&asJSON, "json", false, "print the summary as one JSON object")
	f.Int64Var(&maxSize, "max-file-size", indexer.DefaultMaxFileSize, "skip files larger than this many bytes")
	f.StringVar(&opts.Tokenizer, "tokenizer", "code", "token splitter for the similarity stage: code or cl100k")
	f.IntVar(&opts.Hops, "hops", 5, "h: maximum control-flow hops of a slice")
	f.IntVar(&opts.MaxStatements, "max-statements", 20, "l: maximum statements of a slice")
	f.BoolVar(&opts.Rebuild, "rebuild", false, "remove the existing index first (also one of another schema)")
	f.StringVar(&memLimit, "memory-limit", "", "memory the Go runtime aims to stay within (as GOMEMLIMIT: 1200MiB, 2GiB; off for none; default: GOMEMLIMIT when set, else 1200MiB)")
	embedFlags = llm.AddEmbedFlags(f)
	return badFlags(cmd)
}

func printSummary(w io.Writer, s *indexer.Summary) {
	state := "published generation"
	if !s.Published {
		state = "unchanged, generation"
	}
	fmt.Fprintf(w, "indexed %d files (%d parsed, %d unchanged, %d removed): %d lines, %d statements, %d entries\n",
		s.Files, s.Parsed, s.Reused, s.Removed, s.Lines, s.Statements, s.Entries)
	fmt.Fprintf(w, "index %s: %s, %s %d, %.2f s\n", s.Index, humanBytes(s.IndexBytes), state, s.Generation, s.Seconds)
	if s.SyntaxErrors > 0 {
		fmt.Fprintf(w, "%d files have syntax errors (indexed as recovered)\n", s.SyntaxErrors)
	}
	if len(s.Skipped) > 0 {
		var parts []string
		for r, n := range s.Skipped {
			parts = append(parts, fmt.Sprintf("%s %d", strings.ReplaceAll(r, "_", " "), n))
		}
		sort.Strings(parts)
		fmt.Fprintf(w, "skipped: %s\n", strings.Join(parts, ", "))
	}
	for _, f := range s.Failures {
		fmt.Fprintf(w, "failed: %s\n", f)
	}
	if s.Repaired != "" {
		fmt.Fprintf(w, "repaired: %s\n", s.Repaired)
	}
	if d := s.Dense; d != nil {
		fmt.Fprintf(w, "dense vectors (%s, %d dimensions): %d files embedded (%d entries, %s), %d already had vectors, of %d\n",
			d.Model, d.Dim, d.Embedded, d.Entries, humanBytes(d.Bytes), d.Reused, d.Files)
	}
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// newParseFloorCmd is a hidden benchmark helper: it walks a repository as
// build does and only parses the files with tree-sitter, the floor a build
// is measured against.
func newParseFloorCmd() *cobra.Command {
	var workers int
	cmd := &cobra.Command{
		Use:    "parse-floor [--workers N] REPO",
		Short:  "Parse a repository's files without building anything (benchmark floor)",
		Hidden: true,
		Args:   cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkFlags(atLeast("workers", workers, 0)); err != nil {
				return err
			}
			s, err := indexer.ParseFloor(cmd.Context(), indexer.Options{Repo: args[0], Workers: workers})
			if err != nil {
				return err
			}
			return json.NewEncoder(cmd.OutOrStdout()).Encode(s)
		},
	}
	cmd.Flags().IntVar(&workers, "workers", 0, "parallel parsers (default: number of CPUs)")
	return badFlags(cmd)
}

// defaultBuildMemory is the default of build --memory-limit. A build's
// live heap is mostly what its snapshot file is made from (some 300
// bytes per entry) and the store's write buffers; without a limit the
// collector lets the heap grow to twice the live heap, which on a
// repository of millions of entries is gigabytes of garbage.
const defaultBuildMemory = 1200 << 20
