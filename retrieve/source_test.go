package retrieve

import (
	"bytes"
	"fmt"
	"math/rand/v2"
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

// source.span, reading the line offsets, is lineSpan on random sources
// and rows, out of range ones included.
func TestSourceSpan(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		var lines []string
		for range r.IntN(8) {
			lines = append(lines, strings.Repeat("ab", r.IntN(3)))
		}
		text := []byte(strings.Join(lines, "\n"))
		s := &source{text: text, starts: lineStarts(text)}
		if len(s.starts) != bytes.Count(text, []byte{'\n'})+1 {
			t.Fatalf("%q: %d line offsets", text, len(s.starts))
		}
		lo, hi := r.IntN(len(lines)+3)-1, r.IntN(len(lines)+3)-1
		a, b := s.span(lo, hi)
		if wa, wb := lineSpan(text, lo, hi); a != wa || b != wb {
			t.Fatalf("span(%q, %d, %d) = %d, %d; lineSpan %d, %d", text, lo, hi, a, b, wa, wb)
		}
	}
}

// The index's source cache hands out the sources a fresh decompression
// gives, in any order of reads, and holds at most sourceCacheBytes, never
// a source over maxCachedSource.
func TestSourceCache(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	b := NewBuilder(wordTokenizer{}, Params{})
	var files []*File
	for i := range 60 {
		f := &File{Path: fmt.Sprintf("f%d.py", i)}
		n := 1 + r.IntN(2000)
		if i%20 == 0 {
			n = maxCachedSource / 12 // about 700 KB, over maxCachedSource: never kept
		}
		for j := range n {
			f.Lines = append(f.Lines, fmt.Sprintf("line_%d = %d", j, r.IntN(1000)))
		}
		files = append(files, f)
		if err := b.Add(f); err != nil {
			t.Fatal(err)
		}
	}
	ix := b.Index()
	uncached := *ix
	uncached.srcs = nil
	for range 1000 {
		fi := int32(r.IntN(len(files)))
		n := len(files[fi].Lines)
		lo := r.IntN(n)
		hi := lo + r.IntN(12)
		var got, want string
		ix.withSource(fi, func(s *source) { a, b := s.span(lo, hi); got = string(s.text[a:b]) })
		uncached.withSource(fi, func(s *source) { a, b := lineSpan(s.text, lo, hi); want = string(s.text[a:b]) })
		if got != want || want != strings.Join(files[fi].Lines[lo:min(hi+1, n)], "\n") {
			t.Fatalf("%s rows %d-%d: cached %q, fresh %q", files[fi].Path, lo, hi, got, want)
		}
		c := ix.srcs
		c.mu.Lock()
		sum := 0
		for _, s := range c.entries {
			sum += s.cost()
			if len(s.text) > maxCachedSource {
				t.Fatalf("a source of %d bytes is kept", len(s.text))
			}
		}
		if sum != c.bytes || c.bytes > sourceCacheBytes || len(c.order) != len(c.entries) {
			t.Fatalf("cache holds %d bytes (counted %d) in %d entries, order of %d", sum, c.bytes, len(c.entries), len(c.order))
		}
		c.mu.Unlock()
	}
	if len(ix.srcs.entries) < 2 {
		t.Fatalf("the cache kept %d sources", len(ix.srcs.entries))
	}
}
