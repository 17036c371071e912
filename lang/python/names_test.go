package python

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
)

// TestDefsUses checks the defs and uses of the first statement (in
// lang.Walk order) whose rows hold line `line` of each snippet (line 1 when
// zero).
func TestDefsUses(t *testing.T) {
	tests := []struct {
		name, src  string
		defs, uses string // comma-separated, sorted
		line       int
		params     string // comma-separated, sorted
	}{
		{"plain", "x = y", "x", "y", 1, ""},
		{"chained", "a = b = c", "a,b", "c", 1, ""},
		{"unpack", "a, (b, *c) = d", "a,b,c", "d", 1, ""},
		{"annotated", "a: T = v", "a", "T,v", 1, ""},
		{"augmented", "a += b", "a", "a,b", 1, ""},
		{"attribute target", "self.x = v", "self.x", "self,v", 1, ""},
		{"deep attribute target", "a.b.c = v", "a.b.c", "a,a.b,v", 1, ""},
		{"subscript target", "a[i] = v", "a", "a,i,v", 1, ""},
		{"nested subscript target", "a.b[i][j] = v", "a.b", "a,a.b,i,j,v", 1, ""},
		{"attribute of element", "a[i].x = v", "a", "a,i,v", 1, ""},
		{"computed target", "f()[i] = v", "", "f,i,v", 1, ""},
		{"attribute read", "print(self.x.y)", "", "print,self,self.x,self.x.y", 1, ""},
		{"method call", "obj.m(a)", "", "a,obj,obj.m", 1, ""},
		{"call result attribute", "f().x", "", "f", 1, ""},
		{"index in path", "a[i.j].k", "", "a,i,i.j", 1, ""},
		{"keyword argument", "f(key=val)", "", "f,val", 1, ""},
		{"f-string", "s = f'{a.b!r:{w}}'", "s", "a,a.b,w", 1, ""},
		{"lambda", "g = lambda x, y=d: x + y + z", "g", "d,z", 1, ""},
		{"lambda walrus", "g = lambda: (n := 1) + n", "g", "", 1, ""},
		{"comprehension", "r = [x + k for x in xs if x]", "r", "k,xs", 1, ""},
		{"comprehension outer iterable", "r = [x for x in x]", "r", "x", 1, ""},
		{"nested comprehension", "r = {a: b for a in s for b in a}", "r", "s", 1, ""},
		{"comprehension walrus", "r = [y for x in s if (y := x)]", "r,y", "s,y", 1, ""},
		{"del name", "del x", "x", "x", 1, ""},
		{"del subscript", "del a[k]", "a", "a,k", 1, ""},
		{"global", "global a, b", "a,b", "", 1, ""},
		{"import dotted", "import a.b.c", "a", "", 1, ""},
		{"import alias", "import a.b as c", "c", "", 1, ""},
		{"from import", "from m import x, y as z", "x,z", "", 1, ""},
		{"star import", "from m import *", "", "", 1, ""},
		{"return", "return a.b", "", "a,a.b", 1, ""},
		{"raise from", "raise E(x) from err", "", "E,err,x", 1, ""},
		{"for header", "for k, v in d.items():\n    pass", "k,v", "d,d.items", 1, ""},
		{"with header", "with open(p) as f, lock:\n    pass", "f", "lock,open,p", 1, ""},
		{"except legacy", "try:\n    pass\nexcept E, e:\n    pass", "e", "E", 3, ""},
		{"def header", "@dec\ndef f(a, b: T = d, *c, e, **k) -> R:\n    pass", "f", "R,T,d,dec", 1, "a,b,c,e,k"},
		{"def default walrus", "def f(x=(y := 1)):\n    pass", "f,y", "", 1, "x"},
		{"def named like a parameter", "def f(f):\n    pass", "f", "", 1, "f"},
		{"def type parameters", "def f[T](x: T) -> T:\n    pass", "f", "T", 1, "T,x"},
		{"class type parameters", "class C[T](B[T]):\n    pass", "C", "B,T", 1, "T"},
		{"lambda parameters", "g = lambda x: x", "g", "", 1, ""},
		{"class header", "class C(B, metaclass=M):\n    pass", "C", "B,M", 1, ""},
		{"case captures", "match s:\n    case P(a, k=b) | [*c] as d if d:\n        pass", "a,b,c,d", "P,d", 2, ""},
		{"case mapping", "match s:\n    case {K.x: v, **rest}:\n        pass", "rest,v", "K,K.x", 2, ""},
		{"type alias", "type Pair[T] = tuple[T, T]", "Pair", "T,tuple", 1, ""},
	}
	p := NewParser()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := p.Parse(context.Background(), "t.py", []byte(tt.src))
			if err != nil {
				t.Fatal(err)
			}
			if f.Errors != 0 && tt.name != "except legacy" {
				t.Fatalf("syntax errors in %q:\n%s", tt.src, dump(f))
			}
			row := max(tt.line, 1) - 1
			var got *lang.Stmt
			lang.Walk(f.Stmts, func(s *lang.Stmt) {
				if got == nil && s.StartRow <= row && row <= s.EndRow {
					got = s
				}
			})
			if got == nil {
				t.Fatalf("no statement on row %d:\n%s", row+1, dump(f))
			}
			if d := strings.Join(got.Defs(), ","); d != tt.defs {
				t.Errorf("%q: defs = %q, want %q", tt.src, d, tt.defs)
			}
			if u := strings.Join(got.Uses(), ","); u != tt.uses {
				t.Errorf("%q: uses = %q, want %q", tt.src, u, tt.uses)
			}
			if p := strings.Join(got.Params(), ","); p != tt.params {
				t.Errorf("%q: params = %q, want %q", tt.src, p, tt.params)
			}
			if !slices.IsSorted(got.Defs()) || !slices.IsSorted(got.Uses()) || !slices.IsSorted(got.Params()) {
				t.Errorf("not sorted: %v %v %v", got.Defs(), got.Uses(), got.Params())
			}
		})
	}
}
