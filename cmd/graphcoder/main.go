// Command graphcoder indexes a repository into code context graph slices
// and retrieves structurally similar code for completion.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"

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

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := rootCmd.ExecuteContext(ctx); err != nil {
		fmt.Fprintf(os.Stderr, "graphcoder: %v\n", err)
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		os.Exit(1)
	}
}
