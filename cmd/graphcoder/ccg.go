package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/lang"
	_ "github.com/graphcoder/graphcoder/lang/golang"
	_ "github.com/graphcoder/graphcoder/lang/java"
	_ "github.com/graphcoder/graphcoder/lang/javascript"
	_ "github.com/graphcoder/graphcoder/lang/python"
	_ "github.com/graphcoder/graphcoder/lang/typescript"
	"github.com/graphcoder/graphcoder/slice"
)

func init() { rootCmd.AddCommand(newCcgCmd()) }

func newCcgCmd() *cobra.Command {
	var (
		line   int
		format string
		opt    = slice.DefaultOptions()
	)
	cmd := &cobra.Command{
		Use:   "ccg [--line N] [--format text|json|dot] FILE",
		Short: "Show the code context graph of a file, or the slice of one statement",
		Long: `ccg prints the code context graph (control flow, control dependence and
data dependence edges between statements) of FILE. With --line N it prints
the slice of the statement that starts on line N (1-based): the context
GraphCoder retrieves by. Render the dot format with Graphviz, e.g.
  graphcoder ccg --format dot FILE | dot -Tsvg > ccg.svg`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch format {
			case "text", "json", "dot":
			default:
				return badInput(fmt.Errorf("unknown format %q (want text, json or dot)", format))
			}
			if err := checkFlags(
				atLeast("hops", opt.Hops, 1),
				atLeast("max-statements", opt.MaxStatements, 1),
				atMost("max-statements", opt.MaxStatements, maxSliceStatements),
			); err != nil {
				return err
			}
			if cmd.Flags().Changed("line") && line < 1 {
				return badInput(fmt.Errorf("--line must be at least 1, got %d", line))
			}
			path := args[0]
			l := lang.ForPath(path)
			if l == nil {
				return badInput(fmt.Errorf("%s: unsupported file type (supported: %s)", path, extensions()))
			}
			// The file as graphcoder build would read it: a regular text
			// file within the size limit (no FIFO, no device).
			src, err := indexer.ReadFile(path, indexer.DefaultMaxFileSize)
			if err != nil {
				return badInput(fmt.Errorf("read %s: %w", path, err))
			}
			f, err := l.Parse(cmd.Context(), path, src)
			if err != nil {
				return err
			}
			g := ccg.Build(f)
			out := cmd.OutOrStdout()
			if !cmd.Flags().Changed("line") {
				return ccg.Write(out, g, format, nil)
			}
			if line > len(f.Lines) {
				return badInput(fmt.Errorf("%s: line %d out of range (the file has %d lines)", path, line, len(f.Lines)))
			}
			target := g.NodeAt(line - 1)
			if target < 0 {
				return badInput(fmt.Errorf("%s: no statement starts on line %d", path, line))
			}
			s := slice.Of(g, target, opt)
			return ccg.Write(out, g, format, &ccg.Subset{Target: target, Nodes: s.Nodes, Hops: s.Hop})
		},
	}
	cmd.Flags().IntVar(&line, "line", 0, "slice the statement starting on this 1-based line")
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json or dot")
	cmd.Flags().IntVar(&opt.Hops, "hops", opt.Hops, "slice: maximum control-flow hops h")
	cmd.Flags().IntVar(&opt.MaxStatements, "max-statements", opt.MaxStatements, "slice: statements l after which collection stops")
	return badFlags(cmd)
}

// extensions lists the file extensions of the registered languages.
func extensions() string {
	var s string
	for _, l := range lang.Languages() {
		for _, e := range l.Extensions {
			if s != "" {
				s += ", "
			}
			s += e
		}
	}
	return s
}
