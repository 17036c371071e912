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
	"strings"

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

// cpuProfile names a file to write a CPU profile of the command to.
var cpuProfile string

func init() {
	rootCmd.PersistentFlags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the command to this file")
	_ = rootCmd.PersistentFlags().MarkHidden("cpuprofile")
	badFlags(rootCmd)
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	err := run(ctx)
	stop()
	if err != nil {
		exit(err)
	}
}

func run(ctx context.Context) (err error) {
	var profile *os.File
	rootCmd.PersistentPreRunE = func(*cobra.Command, []string) error {
		if cpuProfile == "" {
			return nil
		}
		f, err := os.Create(cpuProfile)
		if err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("cpu profile: %w", err)
		}
		profile = f
		return nil
	}
	defer func() {
		if profile == nil {
			return
		}
		pprof.StopCPUProfile()
		if cerr := profile.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("cpu profile: %w", cerr)
		}
	}()
	err = rootCmd.ExecuteContext(ctx)
	if err != nil && strings.HasPrefix(err.Error(), "unknown command") {
		return badInput(err)
	}
	var ee *exitError
	if err != nil && !errors.As(err, &ee) && ctx.Err() != nil {
		return fmt.Errorf("interrupted: %w", err)
	}
	return err
}
