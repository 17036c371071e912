package golang

import (
	"testing"

	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

// TestGolden compares the statement tree of every fixture in testdata with
// its .golden file (go test -update rewrites them). Every golden was read
// by hand, against its fixture, when it was written. Fixtures with syntax
// errors are named .go.txt so that gofmt leaves them alone.
func TestGolden(t *testing.T) {
	langtest.Golden(t, NewParser(), "*.go")
	langtest.Golden(t, NewParser(), "*.go.txt")
}
