package python

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse feeds mutated source to the front end: it must not panic, and
// every statement tree must obey the row invariants.
func FuzzParse(f *testing.F) {
	fixtures, _ := filepath.Glob("testdata/*.py")
	for _, fx := range fixtures {
		if src, err := os.ReadFile(fx); err == nil {
			f.Add(src)
		}
	}
	f.Add([]byte("match x:\n    case {**r}: pass\n"))
	f.Add([]byte("x = (\xff"))
	p := NewParser()
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := p.Parse(context.Background(), "fuzz.py", src)
		if err != nil {
			t.Fatalf("Parse: %v", err)
		}
		checkInvariants(t, file)
		checkCoverage(t, file, src)
	})
}
