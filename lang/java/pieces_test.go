package java

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
)

// genMembers writes head, n times format (given i, i, i) and tail.
func genMembers(head, format, tail string, n int) []byte {
	var b strings.Builder
	b.WriteString(head)
	for i := range n {
		fmt.Fprintf(&b, format, i, i, i)
	}
	b.WriteString(tail)
	return []byte(b.String())
}

// pieceSources are files whose container (the node whose children are
// cut) is of each kind the walks wait in: a class body, a class nested
// fifty deep, an interface, a record, a method's block, a static
// initializer, a lambda's block, an anonymous class in a field and in a
// lambda, with comments before the members; and an enum's declarations,
// which are not mapped in pieces (the file is parsed whole).
func pieceSources() map[string][]byte {
	var nest strings.Builder
	for i := range 50 {
		fmt.Fprintf(&nest, "class C%d {\n", i)
	}
	const n = 600
	return map[string][]byte{
		"methods":    genMembers("class M {\n", "  /** f%d */\n  int f%d(int a) {\n    return a + %d;\n  }\n", "}\n", n),
		"nested50":   genMembers(nest.String(), "  int f%d(int a) {\n    return a + %d;\n  } // %d\n", strings.Repeat("}\n", 50), n),
		"interface":  genMembers("interface I {\n", "  int f%d(int a);\n  int C%d = %d;\n", "}\n", n),
		"record":     genMembers("record R(int a) {\n", "  int f%d() {\n    return a + %d; // %d\n  }\n", "}\n", n),
		"enum":       genMembers("enum E {\n  A, B;\n", "  int f%d(int a) {\n    return a + %d;\n  }\n  /** %d */\n", "}\n", n),
		"block":      genMembers("class M {\n  void f() {\n", "    int x%d = %d;\n    g(x%d);\n", "  }\n}\n", n),
		"init":       genMembers("class M {\n  static {\n", "    int x%d = %d;\n    g(x%d);\n", "  }\n}\n", n),
		"lambda":     genMembers("class M {\n  void f() {\n    F r = (q) -> {\n", "      int x%d = q + %d;\n      g(x%d, q);\n", "    };\n  }\n}\n", n),
		"anon":       genMembers("class M {\n  Object o = new Object() {\n", "    int f%d() { return %d; } // %d\n", "  };\n}\n", n),
		"anonlambda": genMembers("class M {\n  void f() {\n    g(x -> new Object() {\n", "      int f%d() { return x + %d; } // %d\n", "    });\n  }\n}\n", n),
	}
}

// withPieces makes every file of more than a few lines parse in pieces
// of half a kilobyte (pieces set) or whole, for the test's length.
func withPieces(t *testing.T, pieces bool) {
	from, size := tsflat.PieceFrom, tsflat.PieceBytes
	t.Cleanup(func() { tsflat.PieceFrom, tsflat.PieceBytes = from, size })
	tsflat.PieceFrom = math.MaxInt
	if pieces {
		tsflat.PieceFrom, tsflat.PieceBytes = 0, 512
	}
}

// A file mapped piece by piece is the file mapped whole, whatever the
// container its pieces divide.
func TestPiecesAsWhole(t *testing.T) {
	p := NewParser()
	for name, src := range pieceSources() {
		t.Run(name, func(t *testing.T) {
			withPieces(t, false)
			want, err := p.Parse(context.Background(), name+".java", src)
			if err != nil {
				t.Fatal(err)
			}
			withPieces(t, true)
			joined, whole := tsflat.PieceStats()
			got, err := p.Parse(context.Background(), name+".java", src)
			if err != nil {
				t.Fatal(err)
			}
			if name == "enum" {
				joined, whole = joined-1, whole+1
			}
			if j, w := tsflat.PieceStats(); j != joined+1 || w != whole {
				t.Fatalf("not mapped in pieces: %d more mapped in pieces, %d more fell back", j-joined, w-whole)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the file mapped in pieces differs from the file mapped whole")
			}
		})
	}
}

// countdown is a context whose Err reports it cancelled from its
// left+1th call on: a parse is cancelled at each of its checks in turn.
type countdown struct {
	context.Context
	left int
	done chan struct{}
}

func (c *countdown) Err() error {
	if c.left > 0 {
		c.left--
		return nil
	}
	select {
	case <-c.done:
	default:
		close(c.done)
	}
	return context.Canceled
}

func (c *countdown) Done() <-chan struct{} { return c.done }

// goroutinesDownTo returns the number of goroutines once it is at most
// g, or after a second: a parse's cancellation watcher (tsflat.Parse)
// has closed its channel, but may not have exited, when the parse
// returns.
func goroutinesDownTo(g int) int {
	n := runtime.NumGoroutine()
	for start := time.Now(); n > g && time.Since(start) < time.Second; n = runtime.NumGoroutine() {
		time.Sleep(time.Millisecond)
	}
	return n
}

// A parse in pieces cancelled at any of its checks returns the
// cancellation, leaves no walk's goroutine behind, keeps nothing of the
// file in the pooled parser (a walk stopped in a lambda's body left its
// parameters, substrings of the whole source) and leaves the parser
// mapping the next file as before.
func TestPiecesCancelled(t *testing.T) {
	withPieces(t, true)
	for _, name := range []string{"methods", "anonlambda"} {
		t.Run(name, func(t *testing.T) {
			src := pieceSources()[name]
			p := NewParser()
			want, err := p.Parse(context.Background(), "M.java", src)
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			g0 := runtime.NumGoroutine()
			cancelled := 0
			for k := 0; ; k++ {
				_, err := p.Parse(&countdown{Context: context.Background(), left: k, done: make(chan struct{})}, "M.java", src)
				if err == nil {
					break
				}
				cancelled++
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("cancelled at check %d: %v", k, err)
				}
				if g := goroutinesDownTo(g0); g > g0 {
					t.Fatalf("cancelled at check %d: %d goroutines, %d before", k, g, g0)
				}
				if b := &p.b; b.src != "" || b.n != nil || b.inner != nil || b.shadow != nil || b.nextPiece != nil {
					t.Fatalf("cancelled at check %d: the parser keeps %d inner bodies, shadow %q", k, len(b.inner), b.shadow)
				}
			}
			if cancelled < 10 {
				t.Fatalf("only %d checks of the context", cancelled)
			}
			got, err := p.Parse(context.Background(), "M.java", src)
			if err != nil || !reflect.DeepEqual(got, want) {
				t.Fatalf("after the cancelled parses: %v, same file %v", err, reflect.DeepEqual(got, want))
			}
		})
	}
}

// A walk's own panic is not taken for the stop of a waiting walk: it
// reaches the caller of resume, and the other walk, waiting, is still
// stopped, leaving no goroutine behind.
func TestWalkerPanic(t *testing.T) {
	runtime.GC()
	g0 := runtime.NumGoroutine()
	func() {
		waiting := newWalker(func(pause func()) { pause(); pause() })
		defer waiting.stop()
		broken := newWalker(func(pause func()) { pause(); panic("broken walk") })
		defer broken.stop()
		if waiting.resume() || broken.resume() {
			t.Fatal("a walk ended before its pause")
		}
		defer func() {
			if r := recover(); r != "broken walk" {
				t.Errorf("recovered %v, want the walk's panic", r)
			}
		}()
		broken.resume()
		t.Error("the walk's panic did not reach resume")
	}()
	if g := goroutinesDownTo(g0); g > g0 {
		t.Errorf("%d goroutines, %d before", g, g0)
	}
}

// When a piece after those mapped does not fit, the walks waiting for
// the next piece are stopped, and what they made dropped, before the
// file is parsed whole: not kept beside the whole file's tree.
func TestPiecesAbandoned(t *testing.T) {
	withPieces(t, true)
	src := genMembers("class M {\n", "  /** f%d */\n  int f%d(int a) {\n    return a + %d;\n  }\n", "  void broken() {\n    int x = ;\n  }\n}\n", 600)
	p := NewParser()
	f := &lang.File{Path: "M.java", Language: "java", Lines: lang.SplitLines(string(src))}
	p.b = builder{src: string(src), container: -1}
	m := &pieceMap{ctx: context.Background(), src: src, f: f, b: &p.b}
	defer m.close()
	runtime.GC()
	g0 := runtime.NumGoroutine()
	mapped, abandoned := 0, 0
	_, pieced, _, err := tsflat.ParsePieces(context.Background(), p.ts, src, 0, cut, nil, func(pc tsflat.Piece) error {
		if !pc.Abandoned {
			mapped++
			return m.piece(pc)
		}
		abandoned++
		if g := runtime.NumGoroutine(); g < g0+2 {
			t.Errorf("%d goroutines before the abandon, want the two walks' over %d", g, g0)
		}
		err := m.piece(pc)
		if g := goroutinesDownTo(g0); g > g0 {
			t.Errorf("%d goroutines after the abandon, %d before the walks", g, g0)
		}
		if m.o.syms.Len() != 0 || p.b.inner != nil || p.b.shadow != nil || p.b.n != nil || f.Symbols != nil || f.Stmts != nil {
			t.Errorf("the abandoned pieces' symbols (%d) or statements are kept", m.o.syms.Len())
		}
		return err
	})
	if err != nil || pieced {
		t.Fatalf("pieced %v, %v: the source is not what the test needs", pieced, err)
	}
	if mapped < 2 || abandoned != 1 {
		t.Fatalf("%d pieces mapped, %d calls abandoning them; want some, then one", mapped, abandoned)
	}
}
