package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/prompt"
)

func TestPlace(t *testing.T) {
	file := strings.Split("a\nb\nc\nd\ne\nb\nc\nx\ny", "\n")
	tests := []struct {
		name string
		frag string
		cur  int
		want int
	}{
		{"unique", "c\nd\ne\nb\n", 4, 2},                // c d e before the cursor on line 4 of the fragment
		{"at the start", "a\nb\nc\n", 3, 0},             // a whole prefix
		{"typing on the cursor line", "d\ne\nbz", 3, 3}, // the cursor line differs
		{"suffix decides", "b\nc\nx\ny", 2, 5},          // b at 1 and 5; the lines after pick 5
		{"suffix decides the other way", "b\nc\nd\n", 2, 1},
		{"tie", "b\nc\n", 2, -1},       // b before the cursor, "c" typed: both places agree as much
		{"no match", "q\nr\ns", 3, -1}, // unsaved edits
		{"no whole line before the cursor", "b\nc", 1, -1},
		{"past the end", "x\ny\n", 3, 7}, // a new line after the last one
		{"cursor out of range", "a\nb", 9, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Place(file, strings.Split(tt.frag, "\n"), tt.cur); got != tt.want {
				t.Fatalf("Place = %d, want %d", got, tt.want)
			}
		})
	}
}

// A partial source is completed in the file it was cut from (the buffer
// open in the editor first, then the file on disk), with the whole file
// above it; a fragment no file holds is completed alone.
func TestPartialSource(t *testing.T) {
	root := t.TempDir()
	var full strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&full, "v%d = %d\n", i, i)
	}
	full.WriteString("total = v1 +")
	if err := os.WriteFile(filepath.Join(root, "m.py"), []byte(full.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fc := &fakeCompleter{prediction: "total = v1 + v2"}
	s := newTestService(t, fc, Options{Root: root})
	ctx := context.Background()
	// The last 20 lines before the cursor, as Tabby's clients send them.
	lines := strings.Split(full.String(), "\n")
	frag := strings.Join(lines[len(lines)-21:], "\n")
	q := Query{Path: "m.py", Source: []byte(frag), Line: 21, Column: len("total = v1 +"), Partial: true}
	c, err := s.Complete(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if c.Placed != OnDisk || c.Line != 41 || fc.last.Line != 41 || string(fc.last.Source) != full.String() || fc.last.Fragment {
		t.Fatalf("placed %q at line %d; completer saw line %d fragment %v:\n%s", c.Placed, c.Line, fc.last.Line, fc.last.Fragment, fc.last.Source)
	}
	if c.Text != " v2" {
		t.Fatalf("text %q", c.Text)
	}

	// An open buffer wins over the file on disk.
	buf := "import os\n" + full.String()
	s.SetBuffer(filepath.Join(root, "m.py"), buf)
	if c, err = s.Complete(ctx, q); err != nil || c.Placed != InBuffer || c.Line != 42 || string(fc.last.Source) != buf {
		t.Fatalf("in the buffer: %+v, %v", c, err)
	}
	// A fragment the buffer does not hold is looked for on disk.
	s.SetBuffer("m.py", "something else\n")
	if c, err = s.Complete(ctx, q); err != nil || c.Placed != OnDisk || c.Line != 41 {
		t.Fatalf("buffer without the fragment: %+v, %v", c, err)
	}
	s.CloseBuffer("m.py")

	// Unsaved edits: the fragment alone, flagged for the completer.
	edited := strings.Replace(frag, "v30 = 30", "v30 = 31", 1)
	q.Source = []byte(edited)
	if c, err = s.Complete(ctx, q); err != nil || c.Placed != Alone || c.Line != 21 || !fc.last.Fragment || string(fc.last.Source) != edited {
		t.Fatalf("unsaved edits: %+v, fragment %v, %v", c, fc.last.Fragment, err)
	}
	// No such file: alone too.
	q.Path = "new.py"
	if c, err = s.Complete(ctx, q); err != nil || c.Placed != Alone {
		t.Fatalf("no file: %+v, %v", c, err)
	}
	// No path at all: the language and the fragment alone.
	if c, err = s.Complete(ctx, Query{Language: "python", Source: []byte(frag), Line: 21, Column: 12, Partial: true}); err != nil ||
		c.Placed != Alone || c.Path != "" || fc.last.Path != "" || fc.last.Language != "python" || fc.last.Fragment {
		t.Fatalf("no path: %+v, completer %+v, %v", c, fc.last, err)
	}
	if _, err = s.Complete(ctx, Query{Line: 1}); err == nil || !IsBadRequest(err) {
		t.Fatalf("no path and no source: %v", err)
	}
}

// What the completer's answer depends on is in the cache key: the
// language named and the client's context.
func TestCacheKeyHoldsClientContext(t *testing.T) {
	fc := &fakeCompleter{prediction: "x = 1"}
	s := newTestService(t, fc, Options{})
	ctx := context.Background()
	q := Query{Language: "python", Source: []byte("a = 1\nx"), Line: 2, Column: 1}
	for i, step := range []func(){
		func() {},
		func() { q.Context = []prompt.Candidate{{Source: prompt.Clipboard, Lines: []string{"x = 2"}}} },
		func() { q.Context = []prompt.Candidate{{Source: prompt.Clipboard, Lines: []string{"x = 3"}}} },
		func() { q.NoRetrieval = true },
	} {
		step()
		c, err := s.Complete(ctx, q)
		if err != nil || c.Cached {
			t.Fatalf("step %d: cached %v, %v", i, c != nil && c.Cached, err)
		}
	}
	// The same query again, the language under another of its names.
	q.Language = "py"
	if c, _ := s.Complete(ctx, q); !c.Cached {
		t.Fatal("the same query again missed the cache")
	}
}

func TestRequestLog(t *testing.T) {
	var text, js bytes.Buffer
	tl, err := NewRequestLog(&text, LogText)
	if err != nil {
		t.Fatal(err)
	}
	jl, _ := NewRequestLog(&js, LogJSON)
	if _, err := NewRequestLog(&text, "xml"); err == nil {
		t.Fatal("format xml accepted")
	}
	c := &Completion{Text: "urn total", Path: "a b.py", Line: 3, Language: "python", Placed: OnDisk,
		Snippets: []Snippet{{Path: "x.py"}, {Path: "y.py"}},
		Blocks:   []Snippet{{Source: prompt.Declaration}, {Source: prompt.Retrieved}, {Source: prompt.Retrieved}},
		Stats:    Stats{Parse: 1500 * time.Microsecond, Coarse: 2 * time.Millisecond}}
	r := Record{Time: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC), Protocol: "http", Method: "POST /v1/completions", Status: "200", TotalMS: 4.25}
	r.Fill(c)
	bad := Record{Time: r.Time, Protocol: "http", Method: "POST /v1/completions", Status: "400", Error: `segments.prefix is required`}
	for _, l := range []*RequestLog{tl, jl} {
		l.Log(r)
		l.Log(bad)
	}
	var nilLog *RequestLog
	nilLog.Log(r) // logs nothing, does not panic

	want := `2024-01-02T03:04:05.000Z http "POST /v1/completions" status=200 path="a b.py" line=3 language=python placed=disk snippets=2 blocks=declaration:1,retrieved:2 predictor=model-free chars=9 total_ms=4.25 parse_ms=1.5 coarse_ms=2` + "\n" +
		`2024-01-02T03:04:05.000Z http "POST /v1/completions" status=400 total_ms=0 error="segments.prefix is required"` + "\n"
	if text.String() != want {
		t.Fatalf("text log:\n%s\nwant:\n%s", text.String(), want)
	}
	dec := json.NewDecoder(&js)
	var got Record
	if err := dec.Decode(&got); err != nil || got.Path != "a b.py" || got.Blocks["retrieved"] != 2 || got.Predictor != "model-free" || got.ParseMS != 1.5 {
		t.Fatalf("json record %+v, %v", got, err)
	}
	if err := dec.Decode(&got); err != nil || got.Status != "400" || got.Error != "segments.prefix is required" {
		t.Fatalf("json error record %+v, %v", got, err)
	}
}

func TestEvents(t *testing.T) {
	var e Events
	for _, k := range []string{EventView, EventView, EventView, EventView, EventSelect, EventDismiss} {
		if err := e.Add(k); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Add("click"); !IsBadRequest(err) {
		t.Fatalf("unknown kind: %v", err)
	}
	if c := e.Counts(); c.Views != 4 || c.Selects != 1 || c.Dismisses != 1 || c.AcceptRate != 0.25 {
		t.Fatalf("counts %+v", c)
	}
}
