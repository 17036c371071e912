package lang

// Source lines, one definition for every package: a line ends at "\n",
// "\r\n" or a lone "\r" (the terminators of Python, Java and LSP), and the
// text after the last terminator is the last line, so n terminators always
// make n+1 lines and a final newline leaves an empty last line. These are
// the rows tree-sitter counts once NormalizeCR has turned lone carriage
// returns into newlines, and the lines an editor numbers.

// NextLine returns the end of the line that starts at offset start of s
// (the offset of its terminator, or len(s)) and the offset where the next
// line starts, or -1 when the line is the last one.
func NextLine[T ~string | ~[]byte](s T, start int) (end, next int) {
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '\n':
			return i, i + 1
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				return i, i + 2
			}
			return i, i + 1
		}
	}
	return len(s), -1
}

// SplitLines splits src into its lines, without terminators.
func SplitLines[T ~string | ~[]byte](src T) []string {
	lines := make([]string, 0, LineCount(src))
	start := 0
	for {
		end, next := NextLine(src, start)
		lines = append(lines, string(src[start:end]))
		if next < 0 {
			return lines
		}
		start = next
	}
}

// LineCount returns the number of lines of src: one more than its
// terminators.
func LineCount[T ~string | ~[]byte](src T) int {
	n := 1
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\n':
			n++
		case '\r':
			if i+1 >= len(src) || src[i+1] != '\n' {
				n++
			}
		}
	}
	return n
}

// LineRange returns the byte range of 0-based line row of src, without its
// terminator, and false when src has no such line.
func LineRange[T ~string | ~[]byte](src T, row int) (start, end int, ok bool) {
	if row < 0 {
		return 0, 0, false
	}
	for range row {
		_, next := NextLine(src, start)
		if next < 0 {
			return 0, 0, false
		}
		start = next
	}
	end, _ = NextLine(src, start)
	return start, end, true
}

// LineOf returns the 0-based line holding byte offset off of src (clamped
// to src) and the offset where that line starts. An offset between the
// two bytes of "\r\n" belongs to the line they end.
func LineOf[T ~string | ~[]byte](src T, off int) (row, start int) {
	off = min(max(off, 0), len(src))
	for {
		end, next := NextLine(src, start)
		if next < 0 || off <= end || off < next {
			return row, start
		}
		row, start = row+1, next
	}
}

// NormalizeCR returns src with every lone "\r" replaced by "\n", so that
// tree-sitter, which counts rows at "\n" only, numbers the lines that
// SplitLines returns. Offsets are unchanged. src itself is returned when it
// has no lone "\r"; otherwise a copy is.
func NormalizeCR(src []byte) []byte {
	var out []byte
	for i := 0; i < len(src); i++ {
		if src[i] == '\r' && (i+1 >= len(src) || src[i+1] != '\n') {
			if out == nil {
				out = append([]byte(nil), src...)
			}
			out[i] = '\n'
		}
	}
	if out == nil {
		return src
	}
	return out
}
