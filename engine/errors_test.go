package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/indexer"
)

func TestBadRequests(t *testing.T) {
	e := openRepo(t, "testdata/finestage")
	root := e.Root()
	outside := filepath.Join(filepath.Dir(root), "elsewhere.py")
	tests := []struct {
		name string
		req  Request
		want error
	}{
		{"outside absolute", Request{Path: outside, Line: 1, Source: []byte("x = 1\n")}, ErrOutsideRepo},
		{"outside relative", Request{Path: "../x.py", Line: 1, Source: []byte("x = 1\n")}, ErrOutsideRepo},
		{"line past the end", Request{Path: "shop/lexical.py", Line: 8}, ErrLine},
		{"line zero", Request{Path: "shop/lexical.py", Line: 0}, ErrLine},
		{"binary", Request{Path: "blob.py", Line: 1, Source: []byte("x = 1\x00\x01\n")}, ErrBinary},
		// A buffer over the file size limit is refused before it is parsed.
		{"buffer over the size limit", Request{Path: "big.py", Line: 1, Source: []byte(strings.Repeat("x = 1\n", indexer.DefaultMaxFileSize/6+1))}, ErrTooLarge},
		{"unsupported language", Request{Path: "notes.txt", Line: 1, Source: []byte("hello\n")}, ErrLanguage},
		{"missing file", Request{Path: "shop/none.py", Line: 1}, os.ErrNotExist},
		{"no path, no source", Request{Line: 1, Language: "python"}, ErrNoSource},
		{"no path, no language", Request{Line: 1, Source: []byte("x = 1\n")}, ErrLanguage},
		{"no path, unknown language", Request{Line: 1, Source: []byte("x = 1\n"), Language: "cobol"}, ErrLanguage},
		{"unknown extension, unknown language", Request{Path: "build.sh", Line: 1, Source: []byte("x\n"), Language: "shellscript"}, ErrLanguage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Complete(context.Background(), tt.req)
			if !errors.Is(err, tt.want) {
				t.Fatalf("error %v, want %v", err, tt.want)
			}
		})
	}
	// One past the last line is a new line at the end: allowed.
	if _, err := e.Complete(context.Background(), Request{Path: "shop/lexical.py", Line: 7}); err != nil {
		t.Fatal(err)
	}
}

// Completing inside an indexed file never shows the code at or after the
// cursor: the file's own entries that reach the line are dropped.
func TestLeakRuleInIndexedFile(t *testing.T) {
	e := openRepo(t, "testdata/finestage")
	res, err := e.Complete(context.Background(), Request{Path: "shop/structural.py", Line: 5, Mode: "fine", TopK: 100})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stats.Leaked == 0 {
		t.Fatal("no entry was dropped by the leak rule")
	}
	for _, s := range res.Snippets {
		if s.Path == "shop/structural.py" {
			t.Fatalf("snippet %s:%d-%d of the query's own file reaches line 5", s.Path, s.StartLine, s.EndLine)
		}
		if strings.Contains(s.Text, "record.settled") && s.Path == "shop/structural.py" {
			t.Fatal("the ground truth leaked")
		}
	}
}

// Many goroutines complete at once while the index is swapped.
func TestConcurrentQueries(t *testing.T) {
	e := openRepo(t, "testdata/finestage")
	states := []*state{e.cur.Load(), openRepo(t, "testdata/finestage").cur.Load()}
	stop := make(chan struct{})
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
				e.cur.Store(states[i%2])
			}
		}
	}()
	defer close(stop)
	done := make(chan error)
	for i := 0; i < 8; i++ {
		go func() {
			var err error
			for j := 0; j < 50 && err == nil; j++ {
				_, err = e.Complete(context.Background(), Request{Path: "app/new.py", Line: 6, Source: []byte(fineQuery)})
			}
			done <- err
		}()
	}
	for i := 0; i < 8; i++ {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// A request may name the buffer's language (an editor's languageId): it
// then wins over the file name, and an unknown name falls back to it.
func TestRequestLanguage(t *testing.T) {
	e := openRepo(t, "testdata/finestage")
	src := []byte("def total(xs):\n    s = 0\n")
	res, err := e.Complete(context.Background(), Request{Path: "scratch", Line: 3, Source: src, Language: "python"})
	if err != nil || res.Language != "python" {
		t.Fatalf("extensionless buffer named python: %v, %+v", err, res)
	}
	if _, err := e.Complete(context.Background(), Request{Path: "scratch", Line: 3, Source: src, Language: "cobol"}); !errors.Is(err, ErrLanguage) {
		t.Fatalf("unknown language, no extension: %v, want %v", err, ErrLanguage)
	}
	if res, err := e.Complete(context.Background(), Request{Path: "m.py", Line: 3, Source: src, Language: "cobol"}); err != nil || res.Language != "python" {
		t.Fatalf("unknown language, .py file: %v, %+v", err, res)
	}
}

// A buffer with lone carriage returns (old Mac line ends) is read line by
// line as the same text with "\n" is: the same snippets and prediction.
func TestLoneCRBuffer(t *testing.T) {
	e := openRepo(t, "testdata/finestage")
	lf := []byte(fineQuery)
	cr := []byte(strings.ReplaceAll(fineQuery, "\n", "\r"))
	a, err := e.Complete(context.Background(), Request{Path: "app/new.py", Line: 6, Source: lf})
	if err != nil {
		t.Fatal(err)
	}
	b, err := e.Complete(context.Background(), Request{Path: "app/new.py", Line: 6, Source: cr})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Snippets) == 0 || len(a.Snippets) != len(b.Snippets) || a.Prediction != b.Prediction {
		t.Fatalf("lone CR: %d snippets, prediction %q; LF: %d, %q", len(b.Snippets), b.Prediction, len(a.Snippets), a.Prediction)
	}
	for i := range a.Snippets {
		if a.Snippets[i].Path != b.Snippets[i].Path || a.Snippets[i].StartLine != b.Snippets[i].StartLine {
			t.Fatalf("snippet %d differs: %+v vs %+v", i, a.Snippets[i], b.Snippets[i])
		}
	}
	// A NUL anywhere is binary, as graphcoder build decides.
	late := append([]byte(strings.Repeat("x = 1\n", 3000)), 0, '\n')
	if _, err := e.Complete(context.Background(), Request{Path: "app/new.py", Line: 2, Source: late}); !errors.Is(err, ErrBinary) {
		t.Errorf("a NUL after 8 KiB: %v, want %v", err, ErrBinary)
	}
}
