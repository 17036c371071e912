package typescript

import (
	"testing"

	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

// TestGolden compares the statement tree of every fixture in testdata with
// its .golden file (go test -update rewrites them). Every golden was read
// by hand, against its fixture, when it was written.
func TestGolden(t *testing.T) {
	langtest.Golden(t, NewParser(), "*.ts")
	langtest.Golden(t, NewParser(), "*.tsx")
}
