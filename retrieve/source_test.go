package retrieve

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/graphcoder/graphcoder/lang"
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
	// Row by row (Text), the same: blank rows of the file's shape, past
	// the end none, and the damage reported.
	b = NewBuilder(wordTokenizer{}, Params{})
	if err := b.Add(&File{Path: "a.py", Lines: []string{"alpha beta", "gamma"}}); err != nil {
		t.Fatal(err)
	}
	ix = b.Index()
	ix.files[0].src = []byte("not zstd")
	tx := ix.Text("a.py")
	if tx == nil || tx.Len() != 2 {
		t.Fatalf("text of a damaged source: %v", tx)
	}
	if got := []string{tx.Line(0), tx.Line(1), tx.Line(2)}; !slices.Equal(got, []string{"", "", ""}) {
		t.Errorf("rows of a damaged source: %q", got)
	}
	if err := ix.SourceError(); err == nil || !strings.Contains(err.Error(), "a.py") {
		t.Errorf("SourceError after Text = %v", err)
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

// The index's source cache hands out the frames a fresh decompression
// gives, in any order of reads, and holds at most sourceCacheBytes, never
// a frame over maxCachedSource.
func TestSourceCache(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	b := NewBuilder(wordTokenizer{}, Params{})
	var files []*File
	for i := range 60 {
		f := &File{Path: fmt.Sprintf("f%d.py", i)}
		n := 1 + r.IntN(2000)
		if i%20 == 0 {
			// About 700 KB in one line: a frame over maxCachedSource,
			// never kept.
			f.Lines = append(f.Lines, strings.Repeat("x", maxCachedSource+1))
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
		got, fresh := ix.rowsString(fi, lo, hi), uncached.rowsString(fi, lo, hi)
		if got != fresh || fresh != strings.Join(files[fi].Lines[lo:min(hi+1, n)], "\n") {
			t.Fatalf("%s rows %d-%d: cached %q, fresh %q", files[fi].Path, lo, hi, got, fresh)
		}
		c := ix.srcs
		c.mu.Lock()
		sum := 0
		for _, s := range c.entries {
			sum += s.cost()
			if len(s.text) > maxCachedSource {
				t.Fatalf("a frame of %d bytes is kept", len(s.text))
			}
		}
		if sum != c.bytes || c.bytes > sourceCacheBytes || len(c.order) != len(c.entries) {
			t.Fatalf("cache holds %d bytes (counted %d) in %d entries, order of %d", sum, c.bytes, len(c.entries), len(c.order))
		}
		c.mu.Unlock()
	}
	if len(ix.srcs.entries) < 2 {
		t.Fatalf("the cache kept %d frames", len(ix.srcs.entries))
	}
}

// randomLines returns the lines of a random source as a file's record
// holds them (lang.SplitLines of text with LF, CRLF and CR line ends):
// empty lines, long lines and a last line empty or not.
func randomLines(r *rand.Rand) []string {
	var text strings.Builder
	for range r.IntN(60) {
		switch r.IntN(6) {
		case 0: // an empty line
		case 1:
			text.WriteString(strings.Repeat("long ", 1+r.IntN(40)))
		default:
			text.WriteString(strings.Repeat("\t", r.IntN(3)) + fmt.Sprintf("x%d = y", r.IntN(100)))
		}
		text.WriteString([]string{"\n", "\r\n", "\r"}[r.IntN(3)])
	}
	if r.IntN(2) == 0 {
		text.WriteString("last")
	}
	return lang.SplitLines(text.String())
}

// TestFramesProperty: a window read through the frames it covers is the
// window of the whole text, for random sources cut in frames of random
// sizes (a frame per line and up) and random windows, those starting or
// ending at a frame's edge, empty and last lines, and rows out of range
// included; so is the indentation Predict walks back for, and a file read
// whole. An index written and mapped reads the same, with its frame table
// or without one (as written before frames).
func TestFramesProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	for trial := range 40 {
		b := NewBuilder(wordTokenizer{}, Params{})
		b.cutter.size = []int{1, 2, 10, 50, 300, frameBytes}[trial%6]
		var files []*File
		for i := range 1 + r.IntN(5) {
			f := &File{Path: fmt.Sprintf("f%d.py", i), Lines: randomLines(r)}
			files = append(files, f)
			if err := b.Add(f); err != nil {
				t.Fatal(err)
			}
		}
		built := b.Index()
		if trial%5 == 4 {
			legacySource = legacyZstd // layout 1, written before frames
		}
		mapped := mapIndex(t, built)
		legacySource = nil
		uncached := *built
		uncached.srcs = nil
		for _, ix := range []*Index{built, mapped, &uncached} {
			for fi, f := range files {
				text := []byte(strings.Join(f.Lines, "\n"))
				n := len(f.Lines)
				// Rows at the frames' edges, and random ones.
				var rows []int
				a, e := ix.frames(int32(fi))
				for g := a; g < e; g++ {
					row := int(ix.frameTab.row[g])
					rows = append(rows, row-1, row, row+1)
				}
				for range 20 {
					rows = append(rows, r.IntN(n+4)-2)
				}
				for _, lo := range rows {
					for _, hi := range []int{lo, lo + 1, lo + r.IntN(25), lo - 1, rows[r.IntN(len(rows))], n - 1, n} {
						wa, wb := lineSpan(text, lo, hi)
						got := string(ix.appendRows(nil, int32(fi), lo, hi))
						if want := string(text[wa:wb]); got != want {
							t.Fatalf("trial %d %s (%d lines, frames of %d) rows %d-%d: %q, want %q",
								trial, f.Path, n, b.cutter.size, lo, hi, got, want)
						}
					}
					if lo >= 0 && lo < n {
						want := 0
						for k := lo - 1; k >= 0; k-- {
							if t := strings.TrimLeft(f.Lines[k], " \t"); t != "" {
								want = len(f.Lines[k]) - len(t)
								break
							}
						}
						if got := ix.indentBefore(int32(fi), lo); got != want {
							t.Fatalf("trial %d %s: indentation before row %d %d, want %d", trial, f.Path, lo, got, want)
						}
					}
				}
				if got := ix.Lines(f.Path); !slices.Equal(got, f.Lines) {
					t.Fatalf("trial %d %s: lines %q, want %q", trial, f.Path, got, f.Lines)
				}
				// Row by row, the same lines.
				if tx := ix.Text(f.Path); tx == nil || tx.Len() != n {
					t.Fatalf("trial %d %s: no text of %d rows (%v)", trial, f.Path, n, tx)
				} else {
					for row := range n {
						if got := tx.Line(row); got != f.Lines[row] {
							t.Fatalf("trial %d %s (frames of %d): row %d %q, want %q", trial, f.Path, b.cutter.size, row, got, f.Lines[row])
						}
					}
					for _, row := range []int{-1, n, n + 7} {
						if got := tx.Line(row); got != "" {
							t.Fatalf("trial %d %s: row %d out of range %q", trial, f.Path, row, got)
						}
					}
				}
			}
			if err := ix.SourceError(); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Frames are cut after the first line end past frameBytes of text: every
// frame but a file's last holds at least that much, and ends a line.
func TestFrameCut(t *testing.T) {
	b := NewBuilder(wordTokenizer{}, Params{})
	var lines []string
	for i := range 5000 {
		lines = append(lines, fmt.Sprintf("line %d %s", i, strings.Repeat("x", i%90)))
	}
	if err := b.Add(&File{Path: "a.py", Lines: lines}); err != nil {
		t.Fatal(err)
	}
	ix := b.Index()
	text := strings.Join(lines, "\n")
	a, e := ix.frames(0)
	if e-a < len(text)/frameBytes-1 || e-a > len(text)/frameBytes+1 {
		t.Fatalf("%d frames for %d bytes", e-a, len(text))
	}
	for g := a; g < e; g++ {
		_, raw, rows := ix.frameSpan(0, g)
		if g+1 < e && (raw[1]-raw[0] < frameBytes || raw[1]-raw[0] >= frameBytes+len(lines[rows[1]-1])+1) {
			t.Fatalf("frame %d: %d bytes", g, raw[1]-raw[0])
		}
		if raw[0] > 0 && text[raw[0]-1] != '\n' || strings.Count(text[:raw[0]], "\n") != rows[0] {
			t.Fatalf("frame %d does not start row %d", g, rows[0])
		}
	}
}

// Reading a window whose frames are kept allocates nothing but the
// window's string; appending it to a buffer, nothing at all; reading it
// from frames not kept, nothing but the frames then kept.
func TestWindowAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector drops pooled buffers at random")
	}
	b := NewBuilder(wordTokenizer{}, Params{})
	var lines []string
	for i := range 3000 {
		lines = append(lines, fmt.Sprintf("\tline_%d = call(%d)", i, i))
	}
	if err := b.Add(&File{Path: "a.py", Lines: lines}); err != nil {
		t.Fatal(err)
	}
	ix := b.Index()
	a, _ := ix.frames(0)
	edge := int(ix.frameTab.row[a+1]) // a window over two frames
	buf := make([]byte, 0, 4096)
	for _, w := range [][2]int{{100, 120}, {edge - 10, edge + 10}} {
		ix.appendRows(buf[:0], 0, w[0], w[1]) // keeps the frames
		if n := testing.AllocsPerRun(100, func() { buf = ix.appendRows(buf[:0], 0, w[0], w[1]) }); n != 0 {
			t.Errorf("rows %d-%d into a buffer: %v allocations", w[0], w[1], n)
		}
		if n := testing.AllocsPerRun(100, func() { ix.rowsString(0, w[0], w[1]) }); n != 1 {
			t.Errorf("rows %d-%d as a string: %v allocations", w[0], w[1], n)
		}
		if n := testing.AllocsPerRun(100, func() { ix.indentBefore(0, w[1]) }); n != 0 {
			t.Errorf("indentation before row %d: %v allocations", w[1], n)
		}
	}
	uncached := *ix
	uncached.srcs = nil
	uncached.appendRows(buf[:0], 0, edge-10, edge+10)
	if n := testing.AllocsPerRun(100, func() { buf = uncached.appendRows(buf[:0], 0, edge-10, edge+10) }); n != 0 {
		t.Errorf("rows over two frames not kept: %v allocations", n)
	}
}

// sameWindows reads every window of ix's files (the index of files) and
// says which differs from the files' lines, if one does.
func sameWindows(ix *Index, files []*File) error {
	for fi, f := range files {
		n := len(f.Lines)
		for lo := range n {
			for _, hi := range []int{lo, lo + 3, lo + 20} {
				want := strings.Join(f.Lines[lo:min(hi+1, n)], "\n")
				if got := ix.rowsString(int32(fi), lo, hi); got != want {
					return fmt.Errorf("%s rows %d-%d: %q, want %q", f.Path, lo, hi, got, want)
				}
			}
		}
		if got := ix.Lines(f.Path); !slices.Equal(got, f.Lines) {
			return fmt.Errorf("%s: lines differ", f.Path)
		}
	}
	return nil
}

// FuzzFrameTable: a frame table changed anywhere is refused by the checks
// of opening, or every window read through it is the file's text, or the
// read reports the damage (SourceError); nothing panics.
func FuzzFrameTable(f *testing.F) {
	r := rand.New(rand.NewPCG(23, 24))
	b := NewBuilder(wordTokenizer{}, Params{})
	b.cutter.size = 25
	var files []*File
	for i := range 3 {
		files = append(files, &File{Path: fmt.Sprintf("f%d.py", i), Lines: randomLines(r)})
		if err := b.Add(files[i]); err != nil {
			f.Fatal(err)
		}
	}
	ix := b.Index()
	if err := sameWindows(ix, files); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte{0, 1, 1})
	f.Add([]byte{1, 3, 200, 2, 5, 7})
	f.Add([]byte{3, 0, 1, 4, 2, 2, 0, 9, 9})
	f.Fuzz(func(t *testing.T, edits []byte) {
		tab := frameTable{row: slices.Clone(ix.frameTab.row), comp: slices.Clone(ix.frameTab.comp), raw: slices.Clone(ix.frameTab.raw),
			sum: slices.Clone(ix.frameTab.sum)}
		first := make([]uint32, len(ix.files))
		for i := range ix.files {
			first[i] = ix.files[i].frame0
		}
		// Each edit: which array, which element, the change.
		for ; len(edits) >= 3; edits = edits[3:] {
			arr := [][]uint32{tab.row, tab.comp, tab.raw, tab.sum, first}[edits[0]%5]
			arr[int(edits[1])%len(arr)] += uint32(int8(edits[2]))
		}
		if checkFrames(ix.files, first, &tab) != nil {
			return
		}
		d := *ix
		d.files = slices.Clone(ix.files)
		for i := range d.files {
			d.files[i].frame0 = first[i]
		}
		d.frameTab, d.srcs, d.damage = tab, &sourceCache{}, &sourceDamage{}
		if err := sameWindows(&d, files); err != nil && d.SourceError() == nil {
			t.Fatalf("%v, and no source error", err)
		}
	})
}

// legacyZstd is the source of file fi as a layout 1 file holds it: its
// text as one zstd frame.
func legacyZstd(ix *Index, fi int32) []byte {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBetterCompression), zstd.WithEncoderConcurrency(1))
	if err != nil {
		panic(err)
	}
	return enc.EncodeAll([]byte(strings.Join(ix.lines(fi), "\n")), nil)
}
