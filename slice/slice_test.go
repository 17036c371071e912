package slice

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/ccg/ccgtest"
	"github.com/graphcoder/graphcoder/lang"
)

// reference is Algorithm 1 written as plainly as possible, with maps.
func reference(g *ccg.Graph, target int32, opt Options) map[int32]bool {
	cf, all := map[int32]bool{}, map[int32]bool{}
	queued := map[int32]bool{target: true}
	type item struct{ x, d int32 }
	queue := []item{{target, 0}}
	for len(queue) > 0 {
		it := queue[0]
		queue = queue[1:]
		if int(it.d) > opt.Hops {
			break
		}
		cf[it.x], all[it.x] = true, true
		if it.x != target {
			for _, e := range g.Edges {
				if e.To == it.x && e.Type != ccg.CF {
					all[e.From] = true
				}
			}
		}
		if len(all) >= opt.MaxStatements {
			break
		}
		for _, e := range g.Edges {
			if e.To == it.x && e.Type == ccg.CF && !cf[e.From] && !queued[e.From] {
				queued[e.From] = true
				queue = append(queue, item{e.From, it.d + 1})
			}
		}
	}
	return all
}

// maxDeps is D of the size bound: the largest number of distinct DD/CD
// in-neighbours of a vertex other than target.
func maxDeps(g *ccg.Graph, target int32) int {
	d := 0
	for v := range g.Nodes {
		if int32(v) == target {
			continue
		}
		seen := map[int32]bool{}
		for _, z := range g.In(int32(v), ccg.DD) {
			seen[z] = true
		}
		for _, z := range g.In(int32(v), ccg.CD) {
			seen[z] = true
		}
		d = max(d, len(seen))
	}
	return d
}

func TestMatchesReferenceAndBound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var s Slicer
	for iter := 0; iter < 300; iter++ {
		language := "python"
		if iter%2 == 1 {
			language = "java"
		}
		g := ccg.Build(ccgtest.RandomFile(r, 5+r.IntN(60), language))
		opt := Options{Hops: r.IntN(7), MaxStatements: r.IntN(25)}
		if iter%3 == 0 {
			g.AppendTarget()
		}
		for v := range g.Nodes {
			target := int32(v)
			sl := s.Of(g, target, opt)
			want := reference(g, target, opt)
			got := map[int32]bool{}
			for _, u := range sl.Nodes {
				got[u] = true
			}
			if len(got) != len(want) || len(got) != len(sl.Nodes) {
				t.Fatalf("iter %d target %d opt %+v: got %v want %v", iter, v, opt, sl.Nodes, want)
			}
			for u := range want {
				if !got[u] {
					t.Fatalf("iter %d target %d: missing %d", iter, v, u)
				}
			}
			if sl.Nodes[sl.Target] != target {
				t.Fatalf("target index %d -> %d, want %d", sl.Target, sl.Nodes[sl.Target], target)
			}
			if bound := max(opt.MaxStatements, 1) + maxDeps(g, target); len(sl.Nodes) > bound {
				t.Fatalf("|slice| = %d > l' + D = %d", len(sl.Nodes), bound)
			}
			checkShape(t, g, sl)
		}
	}
}

// checkShape verifies sorting, induced edges and hops of a slice.
func checkShape(t *testing.T, g *ccg.Graph, sl *Slice) {
	t.Helper()
	if !slices.IsSortedFunc(sl.Nodes, func(a, b int32) int {
		if g.Nodes[a].StartRow != g.Nodes[b].StartRow {
			return g.Nodes[a].StartRow - g.Nodes[b].StartRow
		}
		return int(a - b)
	}) {
		t.Fatalf("nodes not sorted: %v", sl.Nodes)
	}
	target := sl.Nodes[sl.Target]
	want := 0
	in := map[int32]int{}
	for i, v := range sl.Nodes {
		in[v] = i
	}
	seen := map[[3]int32]bool{}
	for _, e := range g.Edges {
		_, a := in[e.From]
		_, b := in[e.To]
		k := [3]int32{e.From, e.To, int32(e.Type)}
		if a && b && (e.Type == ccg.CF || e.To != target) && !seen[k] {
			seen[k] = true
			want++
		}
	}
	if len(sl.Edges) != want {
		t.Fatalf("%d edges, want %d", len(sl.Edges), want)
	}
	for _, e := range sl.Edges {
		if e.Type != ccg.CF && int(e.To) == sl.Target {
			t.Fatalf("dependence edge into the target: %+v", e)
		}
	}
	if sl.Hop[sl.Target] != 0 {
		t.Fatalf("target hop %d", sl.Hop[sl.Target])
	}
	for i, h := range sl.Hop {
		if h == Unreachable {
			t.Fatalf("vertex %d unreachable in slice", sl.Nodes[i])
		}
	}
	// Hops are BFS distances: each edge changes the hop by at most 1 and
	// every non-target vertex has a neighbour one hop closer.
	closer := make([]bool, len(sl.Nodes))
	closer[sl.Target] = true
	for _, e := range sl.Edges {
		a, b := int(sl.Hop[e.From]), int(sl.Hop[e.To])
		if a-b > 1 || b-a > 1 {
			t.Fatalf("edge %+v joins hops %d and %d", e, a, b)
		}
		if a == b+1 {
			closer[e.From] = true
		}
		if b == a+1 {
			closer[e.To] = true
		}
	}
	for i, ok := range closer {
		if !ok {
			t.Fatalf("vertex %d (hop %d) has no closer neighbour", i, sl.Hop[i])
		}
	}
}

// TestBoundIsTight builds the case of the proof: the target's CF
// predecessor has D dependence predecessors, and l = 2 yields l + D.
func TestBoundIsTight(t *testing.T) {
	const d = 6
	f := &lang.File{Path: "t", Language: "python"}
	var uses []string
	for i := 0; i < d; i++ {
		name := string(rune('a' + i))
		f.Lines = append(f.Lines, name+" = 1")
		s := &lang.Stmt{StartRow: i, EndRow: i}
		s.SetNames([]string{name}, nil, nil)
		f.Stmts = append(f.Stmts, s)
		uses = append(uses, name)
	}
	f.Lines = append(f.Lines, "use(a..f)", "target")
	use := &lang.Stmt{StartRow: d, EndRow: d}
	use.SetNames(nil, nil, uses)
	f.Stmts = append(f.Stmts, use, &lang.Stmt{StartRow: d + 1, EndRow: d + 1})
	g := ccg.Build(f)
	sl := Of(g, d+1, Options{Hops: 5, MaxStatements: 2})
	if len(sl.Nodes) != 2+d {
		t.Fatalf("|slice| = %d, want %d: %v", len(sl.Nodes), 2+d, sl.Nodes)
	}
}

func TestHandExample(t *testing.T) {
	// x = 1; y = 2; if x: z = y; target
	f := &lang.File{Path: "t", Language: "python", Lines: []string{"x = 1", "y = 2", "if x:", "    z = y", "t = z"}}
	st := func(k lang.Kind, row int, def, use string, body ...*lang.Stmt) *lang.Stmt {
		s := &lang.Stmt{Kind: k, StartRow: row, EndRow: row, Body: body}
		var defs, uses []string
		if def != "" {
			defs = []string{def}
		}
		if use != "" {
			uses = []string{use}
		}
		s.SetNames(defs, nil, uses)
		return s
	}
	f.Stmts = []*lang.Stmt{
		st(lang.Simple, 0, "x", ""),
		st(lang.Simple, 1, "y", ""),
		st(lang.If, 2, "", "x", st(lang.Simple, 3, "z", "y")),
		st(lang.Simple, 4, "t", "z"),
	}
	g := ccg.Build(f)
	// h = 1 from the last statement: X_CF = {4, 3, 2}: 3 and 2 are its CF
	// predecessors; their DD/CD predecessors 1 (y), 0 (x) and 2 join; the
	// target's own DD in-edge (from 3, z) is ignored but 3 is a CF vertex.
	sl := Of(g, 4, Options{Hops: 1, MaxStatements: 20})
	if !slices.Equal(sl.Nodes, []int32{0, 1, 2, 3, 4}) {
		t.Fatalf("nodes %v", sl.Nodes)
	}
	if want := []uint8{2, 2, 1, 1, 0}; !slices.Equal(sl.Hop, want) {
		t.Errorf("hops %v, want %v", sl.Hop, want)
	}
	for _, e := range sl.Edges {
		if e.To == 4 && e.Type == ccg.DD {
			t.Errorf("target DD in-edge kept: %+v", e)
		}
	}
	// l = 1 stops after the target alone.
	if sl := Of(g, 4, Options{Hops: 5, MaxStatements: 1}); len(sl.Nodes) != 1 {
		t.Errorf("l=1: %v", sl.Nodes)
	}
	// h = 0 keeps only the target.
	if sl := Of(g, 4, Options{Hops: 0, MaxStatements: 20}); len(sl.Nodes) != 1 {
		t.Errorf("h=0: %v", sl.Nodes)
	}
	if sl := Of(g, 99, DefaultOptions()); sl.Target != -1 || len(sl.Nodes) != 0 {
		t.Errorf("bad target: %+v", sl)
	}
	// Negative h and l are bad input, not a reason to panic: the target
	// alone, as with h = 0 and l = 1.
	for _, o := range []Options{{Hops: -1, MaxStatements: 20}, {Hops: -100, MaxStatements: -5}, {Hops: 5, MaxStatements: -1}} {
		if sl := Of(g, 4, o); len(sl.Nodes) != 1 || sl.Nodes[0] != 4 || sl.Target != 0 {
			t.Errorf("%+v: %+v", o, sl)
		}
	}
}

func BenchmarkSlicerRandom(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	g := ccg.Build(ccgtest.RandomFile(r, 5000, "python"))
	var s Slicer
	opt := DefaultOptions()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Of(g, int32(i%len(g.Nodes)), opt)
	}
}
