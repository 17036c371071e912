//go:build !linux

package engine

import "time"

// threadCPU is 0 where the thread's CPU time is not read.
func threadCPU() time.Duration { return 0 }

// processCPU is 0 where the process's CPU time is not read.
func processCPU() time.Duration { return 0 }
