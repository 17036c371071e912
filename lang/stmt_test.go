package lang

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"unsafe"
)

// A large file's statements are all live at once while its tree is built:
// a Stmt stays within an 80-byte allocation.
func TestStmtSize(t *testing.T) {
	if n := unsafe.Sizeof(Stmt{}); n > 80 {
		t.Errorf("a Stmt takes %d bytes, want at most 80", n)
	}
}

func TestStmtNames(t *testing.T) {
	for _, tt := range []struct {
		name               string
		defs, params, uses []string
	}{
		{"none", nil, nil, nil},
		{"defs", []string{"a", "b"}, nil, nil},
		{"params", nil, []string{"p"}, nil},
		{"uses", nil, nil, []string{"u", "v"}},
		{"all", []string{"f"}, []string{"x", "y"}, []string{"g", "h.i"}},
		{"many defs", names("d", 70000), []string{"p"}, []string{"u"}},
		{"many params", []string{"d"}, names("p", 65535), names("u", 3)},
		// The first lengths the 16-bit counts cannot hold: 65,535 defs
		// would read as the mark of the long cuts, 65,536 params as none.
		{"65535 defs", names("d", 65535), []string{"p"}, []string{"u"}},
		{"65536 params", []string{"d"}, names("p", 65536), []string{"u"}},
		{"65534 defs and params", names("d", 65534), names("p", 65534), []string{"u"}},
		{"many uses", names("d", 65534), names("p", 65534), names("u", 70000)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			scratch := slices.Concat(tt.defs, tt.params, tt.uses)
			d, p := scratch[:len(tt.defs)], scratch[len(tt.defs):len(tt.defs)+len(tt.params)]
			var s Stmt
			s.SetNames(d, p, scratch[len(d)+len(p):])
			clear(scratch) // the statement keeps a copy
			if !slices.Equal(s.Defs(), tt.defs) || !slices.Equal(s.Params(), tt.params) || !slices.Equal(s.Uses(), tt.uses) {
				t.Fatalf("defs %d params %d uses %d (or other names), want %d %d %d", len(s.Defs()), len(s.Params()), len(s.Uses()), len(tt.defs), len(tt.params), len(tt.uses))
			}
			// Setting them again, from long cuts to short ones or back,
			// keeps only the new lists.
			for _, again := range [][3][]string{{nil, []string{"q"}, nil}, {tt.defs, tt.params, tt.uses}} {
				s.SetNames(again[0], again[1], again[2])
				if !slices.Equal(s.Defs(), again[0]) || !slices.Equal(s.Params(), again[1]) || !slices.Equal(s.Uses(), again[2]) {
					t.Fatalf("set again: defs %d params %d uses %d, want %d %d %d", len(s.Defs()), len(s.Params()), len(s.Uses()), len(again[0]), len(again[1]), len(again[2]))
				}
			}
			// Appending to one list must not write over the next.
			_ = append(s.Defs(), "z")
			_ = append(s.Params(), "z")
			if !slices.Equal(s.Params(), tt.params) || !slices.Equal(s.Uses(), tt.uses) {
				t.Fatalf("after appends: params %d uses %d (or other names), want %d %d", len(s.Params()), len(s.Uses()), len(tt.params), len(tt.uses))
			}
		})
	}
}

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%06d", prefix, i)
	}
	return out
}

// Types are interned by front ends parsing files at once.
func TestStmtType(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				typ := fmt.Sprintf("test_type_%d", (i+g*50)%300)
				s := NewStmt(Simple, typ, 1, 2)
				if s.Type() != typ || s.StartRow != 1 || s.EndRow != 2 {
					t.Errorf("Type %q rows %d-%d, want %q 1-2", s.Type(), s.StartRow, s.EndRow, typ)
					return
				}
			}
		}()
	}
	wg.Wait()
	if got := (&Stmt{}).Type(); got != "" {
		t.Errorf("zero Stmt has type %q", got)
	}
}
