package java

import (
	"testing"

	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

// TestOutlineGolden checks the package, symbols and imports of the
// fixtures in testdata/outline and what their imports resolve to.
func TestOutlineGolden(t *testing.T) {
	langtest.OutlineGolden(t, NewParser(), modules{}, "outline/*.java")
}
