package lang

import (
	"slices"
	"testing"
)

// The one definition of a source line: "\n", "\r\n" and a lone "\r" end a
// line, and a final terminator leaves an empty last line.
func TestSplitLines(t *testing.T) {
	tests := []struct {
		src  string
		want []string
	}{
		{"", []string{""}},
		{"a", []string{"a"}},
		{"a\n", []string{"a", ""}},
		{"a\nb", []string{"a", "b"}},
		{"a\r\nb\r\n", []string{"a", "b", ""}},
		{"a\rb\r", []string{"a", "b", ""}},
		{"a\r\r\nb", []string{"a", "", "b"}},
		{"\n\n", []string{"", "", ""}},
		{"a\n\rb", []string{"a", "", "b"}},
		{"x\r", []string{"x", ""}},
	}
	for _, tt := range tests {
		got := SplitLines(tt.src)
		if !slices.Equal(got, tt.want) {
			t.Errorf("SplitLines(%q) = %q, want %q", tt.src, got, tt.want)
		}
		if b := SplitLines([]byte(tt.src)); !slices.Equal(b, got) {
			t.Errorf("SplitLines([]byte(%q)) = %q, want %q", tt.src, b, got)
		}
		if n := LineCount(tt.src); n != len(tt.want) {
			t.Errorf("LineCount(%q) = %d, want %d", tt.src, n, len(tt.want))
		}
		// LineRange and LineOf agree with SplitLines.
		for row, line := range tt.want {
			s, e, ok := LineRange(tt.src, row)
			if !ok || tt.src[s:e] != line {
				t.Errorf("LineRange(%q, %d) = %d, %d, %v; want the line %q", tt.src, row, s, e, ok, line)
			}
			for off := s; off <= e; off++ {
				if r, start := LineOf(tt.src, off); r != row || start != s {
					t.Errorf("LineOf(%q, %d) = %d, %d; want %d, %d", tt.src, off, r, start, row, s)
				}
			}
		}
		if _, _, ok := LineRange(tt.src, len(tt.want)); ok {
			t.Errorf("LineRange(%q, %d) exists", tt.src, len(tt.want))
		}
		if _, _, ok := LineRange(tt.src, -1); ok {
			t.Errorf("LineRange(%q, -1) exists", tt.src)
		}
		// NormalizeCR keeps offsets and makes "\n" count the same lines.
		norm := NormalizeCR([]byte(tt.src))
		if len(norm) != len(tt.src) || !slices.Equal(SplitLines(norm), tt.want) {
			t.Errorf("NormalizeCR(%q) = %q", tt.src, norm)
		}
		rows := 1
		for _, c := range norm {
			if c == '\n' {
				rows++
			}
		}
		if rows != len(tt.want) {
			t.Errorf("NormalizeCR(%q) has %d newline rows, want %d", tt.src, rows, len(tt.want))
		}
	}
	// No copy without a lone CR.
	src := []byte("a\r\nb\n")
	if n := NormalizeCR(src); &n[0] != &src[0] {
		t.Error("NormalizeCR copied a source without a lone CR")
	}
	// Between the two bytes of "\r\n" is still the line they end.
	if r, _ := LineOf("ab\r\ncd", 3); r != 0 {
		t.Errorf("LineOf inside CRLF = %d, want 0", r)
	}
}
