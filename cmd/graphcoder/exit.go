package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/engine"
)

// Exit statuses of every command.
const (
	exitFailure = 1 // the command failed: an I/O or internal error
	// 2 is what the Go runtime exits with when the process crashes (an
	// unrecovered panic, a fatal signal): graphcoder never uses it, so a
	// crash is never taken for bad input.
	exitNoIndex  = 3 // no usable index: missing, of another schema, damaged or in use
	exitNoSpace  = 4 // the index's file system has no room to write
	exitBadInput = 5 // bad flags or arguments, or a file or line that cannot be served
)

// exitError carries a specific exit status out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// exitCode returns the exit status for err: its own, or the one its kind
// of failure calls for.
func exitCode(err error) int {
	var ee *exitError
	var se *db.SchemaError
	switch {
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, db.ErrNoSpace):
		return exitNoSpace
	case errors.As(err, &se), errors.Is(err, db.ErrCorrupt), errors.Is(err, db.ErrLocked), errors.Is(err, db.ErrNoIndex):
		return exitNoIndex
	case engine.IsBadRequest(err):
		return exitBadInput
	}
	return exitFailure
}

// badInput marks err as the caller's mistake.
func badInput(err error) error { return &exitError{exitBadInput, err} }

// badFlags makes cobra's flag and argument errors bad input, for cmd and
// its subcommands.
func badFlags(cmd *cobra.Command) *cobra.Command {
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return badInput(err) })
	if cmd.Args != nil {
		args := cmd.Args
		cmd.Args = func(c *cobra.Command, a []string) error {
			if err := args(c, a); err != nil {
				return badInput(err)
			}
			return nil
		}
	}
	return cmd
}

// flagCheck is one condition on a flag's value.
type flagCheck struct {
	ok  bool
	msg string
}

// atLeast requires an integer flag to be min or more.
func atLeast[T int | int64](name string, v, min T) flagCheck {
	return flagCheck{v >= min, fmt.Sprintf("--%s must be at least %d, got %d", name, min, v)}
}

// atMost requires an integer flag to be max or less.
func atMost[T int | int64](name string, v, max T) flagCheck {
	return flagCheck{v <= max, fmt.Sprintf("--%s must be at most %d, got %d", name, max, v)}
}

// positive requires a duration flag to be more than zero.
func positive(name string, d time.Duration) flagCheck {
	return flagCheck{d > 0, fmt.Sprintf("--%s must be more than zero, got %v", name, d)}
}

// checkFlags returns the first failed condition as bad input.
func checkFlags(checks ...flagCheck) error {
	for _, c := range checks {
		if !c.ok {
			return badInput(errors.New(c.msg))
		}
	}
	return nil
}

// exit prints err and exits with its status.
func exit(err error) {
	fmt.Fprintf(os.Stderr, "graphcoder: %v\n", err)
	os.Exit(exitCode(err))
}
