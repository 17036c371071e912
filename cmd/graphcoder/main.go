// Command graphcoder indexes a repository into code context graph slices
// and retrieves structurally similar code for completion.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// rootCmd is the top-level command; each subcommand registers itself from
// its own file's init.
var rootCmd = &cobra.Command{
	Use:           "graphcoder",
	Short:         "Repository-level code completion by code context graph retrieval",
	SilenceUsage:  true,
	SilenceErrors: true,
}

// exitError carries a specific exit status out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// cpuProfile names a file to write a CPU profile of the command to.
var cpuProfile string

func init() {
	rootCmd.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the command to this file")
	_ = rootCmd.PersistentFlags().MarkHidden("cpuprofile")
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx)
	if err != nil {
		fmt.Fprintf(os.Stderr, "graphcoder: %v\n", err)
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context) error {
	rootCmd.PersistentPreRunE = func(*cobra.Command, []string) error {
		if cpuProfile == "" {
			return nil
		}
		f, err := os.Create(cpuProfile)
		if err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		return pprof.StartCPUProfile(f)
	}
	defer pprof.StopCPUProfile()
	return rootCmd.ExecuteContext(ctx)
}
