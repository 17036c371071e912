// Package cputime reads the CPU time a benchmark spends, where the
// operating system tells it: the calling thread's (for a goroutine locked
// to its thread, so that the other core's work and the scheduler's waits
// are not counted) and the whole process's (for work spread over
// goroutines). On a shared machine wall time moves with the load; CPU time
// of the work itself moves far less, which is what lets two variants be
// compared one after the other. Where a reading is not available it is 0.
package cputime
