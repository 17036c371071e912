package lsp

import (
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/graphcoder/graphcoder/lang"
)

// ErrRange reports a position or range that does not lie in the document.
var ErrRange = errors.New("position out of range")

// Position is a zero-based line and a character offset counted in the
// negotiated encoding's code units.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is a half-open span [Start, End).
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Encoding is an LSP position encoding: how characters are counted.
type Encoding string

// The position encodings of LSP 3.17.
const (
	UTF16 Encoding = "utf-16"
	UTF8  Encoding = "utf-8"
	UTF32 Encoding = "utf-32"
)

// units returns how many code units a rune of size bytes counts for.
func (e Encoding) units(r rune, size int) int {
	switch e {
	case UTF8:
		return size
	case UTF32:
		return 1
	}
	if r >= 0x10000 && size == 4 {
		return 2 // a surrogate pair
	}
	return 1
}

// lineStart returns the byte offset of zero-based line n. LSP ends lines
// at "\n", "\r\n" or "\r", as package lang does; the line after a final
// terminator exists and is empty.
func lineStart(text string, n int) (int, bool) {
	start, _, ok := lang.LineRange(text, n)
	return start, ok
}

// lineEnd returns the byte offset where the line starting at off ends,
// before its terminator.
func lineEnd(text string, off int) int {
	end, _ := lang.NextLine(text, off)
	return end
}

// Offset converts a position to a byte offset in text. A character past
// the end of its line means the end of the line (as LSP specifies); a line
// past the end of the document or a negative position is [ErrRange]. A
// position inside a multi-unit character stays before it.
func Offset(text string, p Position, enc Encoding) (int, error) {
	if p.Line < 0 || p.Character < 0 {
		return 0, fmt.Errorf("%d:%d: %w", p.Line, p.Character, ErrRange)
	}
	start, ok := lineStart(text, p.Line)
	if !ok {
		return 0, fmt.Errorf("line %d: %w", p.Line, ErrRange)
	}
	end := lineEnd(text, start)
	i, units := start, 0
	for i < end && units < p.Character {
		r, size := utf8.DecodeRuneInString(text[i:end])
		u := enc.units(r, size)
		if units+u > p.Character {
			break
		}
		units += u
		i += size
	}
	return i, nil
}

// PositionOf converts a byte offset in text (clamped to the text, and
// moved back to the start of a character it falls inside) to a position.
func PositionOf(text string, off int, enc Encoding) Position {
	off = min(max(off, 0), len(text))
	for off > 0 && off < len(text) && !utf8.RuneStart(text[off]) {
		off--
	}
	line, start := lang.LineOf(text, off)
	return Position{Line: line, Character: Units(text[start:off], enc)}
}

// Units counts the code units of s in the encoding.
func Units(s string, enc Encoding) int {
	if enc == UTF8 {
		return len(s)
	}
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		n += enc.units(r, size)
		i += size
	}
	return n
}

// ContentChange is one entry of didChange: a replacement of Range by Text,
// or of the whole document when Range is nil.
type ContentChange struct {
	Range *Range `json:"range,omitempty"`
	Text  string `json:"text"`
}

// Apply applies changes in order and returns the new text. On error the
// original text is unchanged.
func Apply(text string, changes []ContentChange, enc Encoding) (string, error) {
	for i, c := range changes {
		if c.Range == nil {
			text = c.Text
			continue
		}
		s, err := Offset(text, c.Range.Start, enc)
		if err != nil {
			return "", fmt.Errorf("change %d: start: %w", i, err)
		}
		e, err := Offset(text, c.Range.End, enc)
		if err != nil {
			return "", fmt.Errorf("change %d: end: %w", i, err)
		}
		if e < s {
			return "", fmt.Errorf("change %d: end before start: %w", i, ErrRange)
		}
		text = text[:s] + c.Text + text[e:]
	}
	return text, nil
}
