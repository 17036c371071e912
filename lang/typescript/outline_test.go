package typescript

import (
	"testing"

	"github.com/graphcoder/graphcoder/lang/internal/ecma"
	"github.com/graphcoder/graphcoder/lang/internal/langtest"
)

// TestOutlineGolden checks the symbols and imports of the fixtures in
// testdata/outline and what their imports resolve to.
func TestOutlineGolden(t *testing.T) {
	langtest.OutlineGolden(t, NewParser(), ecma.Modules{}, "outline/*.ts*")
}
