//go:build race

package db

// raceEnabled is true when the tests run with -race, whose detector
// allocates beside the program and keeps shadow memory for its
// allocations, so the memory figures are not the program's.
const raceEnabled = true
