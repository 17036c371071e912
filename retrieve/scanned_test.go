package retrieve

import (
	"math/rand/v2"
	"testing"
)

// TestScannedSections: every section ScannedSections names is one
// WriteTo writes.
func TestScannedSections(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	b := NewBuilder(wordTokenizer{}, Params{Hops: 5, MaxStatements: 30})
	if err := b.Add(randomFile(r, "f.py", 40, 20)); err != nil {
		t.Fatal(err)
	}
	ix, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	m := mapIndex(t, ix).keep
	for _, name := range ScannedSections() {
		if !m.Has(name) {
			t.Errorf("no section %q in a mapped index", name)
		}
	}
}
