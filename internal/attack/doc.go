// Command attack replays graphcoder's attack matrix against the real
// binary and writes the table (attack, tries, crashes, hangs, data lost,
// clear error) to docs/RELIABILITY.md:
//
//	go run ./internal/attack -out docs/RELIABILITY.md
//
// Each attack is what a reliability campaign tried against graphcoder:
// full disks (on a small tmpfs, when run as root), damaged index files,
// a writer killed at random moments, FIFOs, devices and links leaving the
// repository, abandoned HTTP requests, broken LSP framing, bad flags and
// bad bodies, files made to exhaust memory, .gitignore semantics, and the
// smaller faults (lock messages, busy ports, lone carriage returns, NUL
// bytes, names that are not UTF-8). A try counts as a crash when the
// process dies of a signal or a Go runtime fatal error (exit status 2, a
// panic or fault on stderr), as a hang when it outlives its time limit,
// as data lost when the last published index (or, after damage, the index
// graphcoder build repairs) is not whole afterwards, and as a clear error
// when graphcoder answers as documented (exit status and message). The
// commands and figures of each row are in its note.
package main
