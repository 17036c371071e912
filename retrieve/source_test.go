package retrieve

import (
	"strings"
	"testing"
)

func TestLineSpan(t *testing.T) {
	tests := []struct {
		src    string
		lo, hi int
	}{
		{"a\nbb\nccc", 0, 0},
		{"a\nbb\nccc", 1, 2},
		{"a\nbb\nccc", 2, 2},
		{"a\nbb\nccc", 0, 2},
		{"\n\nx\n", 1, 3},
		{"", 0, 0},
		{"one", 0, 0},
	}
	for _, tt := range tests {
		lines := strings.Split(tt.src, "\n")
		want := strings.Join(lines[tt.lo:tt.hi+1], "\n")
		a, b := lineSpan([]byte(tt.src), tt.lo, tt.hi)
		if got := tt.src[a:b]; got != want {
			t.Errorf("lineSpan(%q, %d, %d) = %q, want %q", tt.src, tt.lo, tt.hi, got, want)
		}
	}
}

// The compressed source reads back as the lines it was made of.
func TestSourceRoundTrip(t *testing.T) {
	f := &File{Path: "a.py", Lines: []string{"x = 1", "", "\tif x:", "        y = 2", ""}}
	b := NewBuilder(wordTokenizer{}, Params{})
	if err := b.Add(f); err != nil {
		t.Fatal(err)
	}
	ix := b.Index()
	if got := ix.Lines("a.py"); strings.Join(got, "|") != strings.Join(f.Lines, "|") || len(got) != len(f.Lines) {
		t.Errorf("lines = %q, want %q", got, f.Lines)
	}
	if ix.Lines("b.py") != nil {
		t.Error("lines of a file not in the index")
	}
}

// A source that does not decompress is reported, not passed off as blank
// lines.
func TestSourceErrorReported(t *testing.T) {
	b := NewBuilder(wordTokenizer{}, Params{})
	if err := b.Add(&File{Path: "a.py", Lines: []string{"alpha beta", "gamma"}}); err != nil {
		t.Fatal(err)
	}
	ix := b.Index()
	if err := ix.SourceError(); err != nil {
		t.Fatalf("before: %v", err)
	}
	ix.files[0].src = []byte("not zstd")
	if l := ix.Lines("a.py"); len(l) != 2 || l[0] != "" {
		t.Errorf("lines of a damaged source: %q", l)
	}
	if err := ix.SourceError(); err == nil || !strings.Contains(err.Error(), "a.py") {
		t.Errorf("SourceError = %v", err)
	}
}
