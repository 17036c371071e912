package tsflat

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/python"

	"github.com/graphcoder/graphcoder/internal/mapfile"
)

// Close of a large file's tree gives its memory back to the system: the
// tree of 20,000 definitions (690 KB of source) is about 36 MB of C
// memory, which glibc keeps in the process after a plain free.
func TestCloseReleasesALargeTree(t *testing.T) {
	if !trims {
		t.Skip("the C library has no malloc_trim")
	}
	if resident() == 0 {
		t.Skip("no /proc/self/statm")
	}
	var src strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&src, "def f%d(a, b):\n    return a + b\n", i)
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(python.GetLanguage())
	tree, err := Parse(context.Background(), p, []byte(src.String()), 0)
	if err != nil {
		t.Fatal(err)
	}
	before := resident()
	Close(tree, src.Len())
	after := resident()
	t.Logf("resident %d MiB with the tree, %d MiB after Close", before>>20, after>>20)
	if freed := before - after; freed < 16<<20 {
		t.Errorf("Close gave back %d MiB of a tree of about 36 MiB, want at least 16", freed>>20)
	}
}

// resident returns the process's resident set size (0 where the system
// does not tell).
func resident() int64 {
	r, _ := mapfile.ReadResident()
	return r.Total
}
