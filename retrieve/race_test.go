//go:build race

package retrieve

// raceEnabled is true when the tests run with -race, whose detector
// empties sync.Pools at random and so adds allocations.
const raceEnabled = true
