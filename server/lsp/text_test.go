package lsp

import (
	"errors"
	"testing"
)

func TestOffset(t *testing.T) {
	// "é" is 2 bytes, 1 UTF-16 unit; "😀" is 4 bytes, 2 UTF-16 units.
	const text = "aé😀b\r\nx\ry\n"
	tests := []struct {
		name string
		pos  Position
		enc  Encoding
		want int
		err  error
	}{
		{"start", Position{0, 0}, UTF16, 0, nil},
		{"after ascii", Position{0, 1}, UTF16, 1, nil},
		{"after two-byte rune", Position{0, 2}, UTF16, 3, nil},
		{"inside surrogate pair stays before", Position{0, 3}, UTF16, 3, nil},
		{"after surrogate pair", Position{0, 4}, UTF16, 7, nil},
		{"end of line", Position{0, 5}, UTF16, 8, nil},
		{"past end of line clamps", Position{0, 99}, UTF16, 8, nil},
		{"after CRLF", Position{1, 0}, UTF16, 10, nil},
		{"after lone CR", Position{2, 0}, UTF16, 12, nil},
		{"empty last line", Position{3, 0}, UTF16, 14, nil},
		{"line past end", Position{4, 0}, UTF16, 0, ErrRange},
		{"negative", Position{-1, 0}, UTF16, 0, ErrRange},
		{"utf-8 units", Position{0, 3}, UTF8, 3, nil},
		{"utf-8 inside rune stays before", Position{0, 2}, UTF8, 1, nil},
		{"utf-32 units", Position{0, 3}, UTF32, 7, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Offset(text, tt.pos, tt.enc)
			if !errors.Is(err, tt.err) || (err == nil && got != tt.want) {
				t.Fatalf("Offset(%v, %s) = %d, %v; want %d, %v", tt.pos, tt.enc, got, err, tt.want, tt.err)
			}
		})
	}
}

func TestPositionOfRoundTrip(t *testing.T) {
	const text = "aé😀b\r\nx\ry\n"
	for off := 0; off <= len(text); off++ {
		for _, enc := range []Encoding{UTF8, UTF16, UTF32} {
			p := PositionOf(text, off, enc)
			back, err := Offset(text, p, enc)
			if err != nil {
				t.Fatalf("offset %d %s: %v", off, enc, err)
			}
			// Offsets inside a rune or a CRLF map back to a boundary at or before them.
			if back > off {
				t.Fatalf("offset %d %s -> %v -> %d", off, enc, p, back)
			}
		}
	}
	if p := PositionOf(text, 10, UTF16); p != (Position{1, 0}) {
		t.Fatalf("PositionOf after CRLF = %v", p)
	}
	if p := PositionOf(text, 7, UTF16); p != (Position{0, 4}) {
		t.Fatalf("PositionOf after emoji = %v", p)
	}
}

func TestApply(t *testing.T) {
	rng := func(l1, c1, l2, c2 int) *Range { return &Range{Position{l1, c1}, Position{l2, c2}} }
	tests := []struct {
		name    string
		text    string
		changes []ContentChange
		want    string
		err     error
	}{
		{"full replace", "old", []ContentChange{{Text: "new\n"}}, "new\n", nil},
		{"insert", "ab\ncd\n", []ContentChange{{Range: rng(1, 1, 1, 1), Text: "X"}}, "ab\ncXd\n", nil},
		{"delete across lines", "ab\ncd\nef", []ContentChange{{Range: rng(0, 1, 2, 1), Text: ""}}, "af", nil},
		{"after surrogate pair", "😀x\n", []ContentChange{{Range: rng(0, 2, 0, 3), Text: "y"}}, "😀y\n", nil},
		{"sequence", "abc", []ContentChange{{Range: rng(0, 3, 0, 3), Text: "\nd"}, {Range: rng(1, 0, 1, 1), Text: "D"}}, "abc\nD", nil},
		{"full then incremental", "zzz", []ContentChange{{Text: "a\nb"}, {Range: rng(1, 1, 1, 1), Text: "c"}}, "a\nbc", nil},
		{"append at new last line", "a\n", []ContentChange{{Range: rng(1, 0, 1, 0), Text: "b"}}, "a\nb", nil},
		{"line out of range", "a\n", []ContentChange{{Range: rng(5, 0, 5, 0), Text: "b"}}, "", ErrRange},
		{"end before start", "abc", []ContentChange{{Range: rng(0, 2, 0, 1), Text: "b"}}, "", ErrRange},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Apply(tt.text, tt.changes, UTF16)
			if !errors.Is(err, tt.err) || got != tt.want {
				t.Fatalf("Apply = %q, %v; want %q, %v", got, err, tt.want, tt.err)
			}
		})
	}
}
