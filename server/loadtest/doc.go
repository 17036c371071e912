// Package loadtest drives a graphcoder HTTP server with concurrent
// completion requests and reports latency percentiles and memory, for the
// benchmarks of the editor server.
//
// It is deliberately bounded: it talks to loopback addresses only, runs
// for a fixed duration (capped at ten minutes) and stops by itself, so a
// benchmark run can never turn into a load generator against someone
// else's machine.
package loadtest
