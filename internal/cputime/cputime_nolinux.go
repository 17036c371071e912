//go:build !linux

package cputime

import "time"

// Thread is 0 off Linux, where the thread's CPU time is not read.
func Thread() time.Duration { return 0 }
