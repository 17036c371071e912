package tsflat

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/python"
)

// TestFlattenMatchesCursor checks every record against what the bindings'
// per-node API says about the same node, in well-formed and broken code.
func TestFlattenMatchesCursor(t *testing.T) {
	tests := []struct {
		name string
		lang *sitter.Language
		src  string
	}{
		{"empty", python.GetLanguage(), ""},
		{"python", python.GetLanguage(), "def f(a, *b):\n    # note\n    return [x for x in b if x > a]\n"},
		{"python broken", python.GetLanguage(), "def f(:\n  x = (1,\n"},
		{"java", java.GetLanguage(), "class A {\n  int f(int x) { return x + 1; } // end\n}\n"},
		{"java broken", java.GetLanguage(), "class A { void m() { int x = ; if (x { } }"},
		{"java unicode", java.GetLanguage(), "class Ä { String s = \"żółw\"; }\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := sitter.NewParser()
			defer p.Close()
			p.SetLanguage(tt.lang)
			tree, err := p.ParseCtx(context.Background(), nil, []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()
			got, err := Flatten(tree.RootNode(), nil)
			if err != nil {
				t.Fatal(err)
			}
			want, fields, parents := viaCursor(tree.RootNode())
			if len(got) != len(want) {
				t.Fatalf("%d records, want %d", len(got), len(want))
			}
			if p := Parents(got, nil); !slices.Equal(p, parents) {
				t.Errorf("Parents = %v, want %v", p, parents)
			}
			for i := range want {
				g := got[i]
				field := ""
				if g.Field != 0 {
					field = tt.lang.FieldName(int(g.Field))
				}
				g.Field = 0
				if g != want[i] || field != fields[i] {
					t.Errorf("record %d = %+v field %q, want %+v field %q", i, g, field, want[i], fields[i])
				}
			}
		})
	}
}

// TestFlattenReusesBuffer checks that a large enough buffer is reused and a
// nil root is an error, not a crash.
func TestFlattenReusesBuffer(t *testing.T) {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(java.GetLanguage())
	tree, err := p.ParseCtx(context.Background(), nil, []byte("class A {}"))
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	buf := make([]Node, 0, 100)
	got, err := Flatten(tree.RootNode(), buf)
	if err != nil || len(got) == 0 || &got[0] != &buf[:1][0] {
		t.Errorf("Flatten did not reuse the buffer (err %v)", err)
	}
	if _, err := Flatten(nil, buf); err == nil {
		t.Error("Flatten(nil) returned no error")
	}
}

// viaCursor builds the expected records one cgo call at a time, with their
// field names and parents apart (the bindings give no field ids).
func viaCursor(root *sitter.Node) ([]Node, []string, []int32) {
	var out []Node
	var fields []string
	var parents []int32
	c := sitter.NewTreeCursor(root)
	defer c.Close()
	var stack []int32 // open ancestors
	prev := int32(-1) // the last record at the current depth
	for {
		n := c.CurrentNode()
		idx := int32(len(out))
		parent := int32(-1)
		if len(stack) > 0 {
			parent = stack[len(stack)-1]
		}
		if prev >= 0 {
			out[prev].Next = idx
		}
		sp, ep := n.StartPoint(), n.EndPoint()
		var flags uint8
		if n.IsNamed() {
			flags |= Named
		}
		if n.IsMissing() {
			flags |= Missing
		}
		if n.IsExtra() {
			flags |= Extra
		}
		if n.HasError() {
			flags |= HasError
		}
		out = append(out, Node{
			StartByte: n.StartByte(), EndByte: n.EndByte(),
			StartRow: sp.Row, EndRow: ep.Row,
			Next: -1,
			Sym:  uint16(n.Symbol()), Flags: flags,
		})
		fields = append(fields, c.CurrentFieldName())
		parents = append(parents, parent)
		if c.GoToFirstChild() {
			out[idx].Flags |= HasChild
			stack = append(stack, idx)
			prev = -1
			continue
		}
		prev = idx
		for !c.GoToNextSibling() {
			if !c.GoToParent() {
				return out, fields, parents
			}
			prev = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
	}
}

// Cancelling the context stops a parse in progress, and the parser works
// again at once: the flag tree-sitter polls is set by the context and
// cleared before Parse returns.
func TestParseCancelStopsTheParse(t *testing.T) {
	if cancelFlag(sitter.NewParser()) == nil {
		t.Fatal("the binding's parser layout changed: cancellation cannot reach tree-sitter")
	}
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(python.GetLanguage())
	big := []byte(strings.Repeat("x = f(a, b, [c, d], {e: g})\n", 50_000))
	full := time.Now()
	tree, err := Parse(context.Background(), p, big, 0)
	if err != nil {
		t.Fatal(err)
	}
	tree.Close()
	whole := time.Since(full)
	for range 3 {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(whole/20, cancel)
		start := time.Now()
		_, err := Parse(ctx, p, big, 0)
		took := time.Since(start)
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled parse: err = %v after %v", err, took)
		}
		if took > whole/2 {
			t.Errorf("a parse cancelled after %v stopped after %v (a whole parse takes %v)", whole/20, took, whole)
		}
		small, err := Parse(context.Background(), p, []byte("x = 1\n"), 0)
		if err != nil {
			t.Fatalf("parse after a cancelled one: %v", err)
		}
		small.Close()
	}
}

// maxMicros bounds a parse without any deadline in ctx (every front end,
// Java's too, passes MaxParseMicros), and the parser works afterwards.
func TestParseTimeLimit(t *testing.T) {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(python.GetLanguage())
	big := []byte(strings.Repeat("x = f(a, b, [c, d], {e: g})\n", 50_000))
	start := time.Now()
	if tree, err := Parse(context.Background(), p, big, 1000); err == nil {
		tree.Close()
		t.Skipf("parsed %d bytes within a millisecond", len(big))
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("a parse limited to 1ms stopped after %v", d)
	}
	small, err := Parse(context.Background(), p, []byte("x = 1\n"), 1000)
	if err != nil {
		t.Fatalf("parse after a timed-out one: %v", err)
	}
	small.Close()
}
