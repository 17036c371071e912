package engine

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time the calling OS thread has used (user and
// system), for benchmarks that lock their goroutine to its thread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1, &ru); err != nil { // RUSAGE_THREAD
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
