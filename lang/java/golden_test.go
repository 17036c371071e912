package java

import (
	"testing"

	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

// TestGolden compares the statement tree of every fixture in testdata with
// its .golden file (go test -update rewrites them).
func TestGolden(t *testing.T) {
	langtest.Golden(t, NewParser(), "*.java")
}
