package tsflat

import (
	"context"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/java"
)

// TestFlattenPruned: the records with a symbol's children left out are
// Flatten's records without those children (each pruned node's record
// then has no child and links to the record after its subtree), a node
// holding a syntax error keeps its children, and the count returned is
// Flatten's number of records.
func TestFlattenPruned(t *testing.T) {
	l := java.GetLanguage()
	var str uint16
	for i := range l.SymbolCount() {
		if l.SymbolName(sitter.Symbol(i)) == "string_literal" {
			str = uint16(i)
		}
	}
	prune := make([]uint8, l.SymbolCount())
	prune[str] = 1
	ts := sitter.NewParser()
	ts.SetLanguage(l)
	left := 0
	for _, src := range []string{
		"",
		"class A { String s = \"a\\u0041b\\tc\"; String t = \"\"; char c = 'x'; }\n",
		"class A { void f() { g(\"x\\ny\", \"\\u10d9\\u10d0\"); } }\n",
		"class A { String s = \"unterminated\\u0041\n; String t = \"ok\\t\"; }\n",
		"class A { Object[][] d = { {\"k\", \"\\u10d9\"}, {\"k2\", \"\\u10d0\" + \"v\"}, \n",
	} {
		tree, err := Parse(context.Background(), ts, []byte(src), 0)
		if err != nil {
			t.Fatal(err)
		}
		all, err := Flatten(tree.RootNode(), nil)
		if err != nil {
			t.Fatal(err)
		}
		got, n, err := flattenPruned(tree.RootNode(), nil, prune)
		tree.Close()
		if err != nil {
			t.Fatal(err)
		}
		if n != len(all) {
			t.Fatalf("%q: count %d, Flatten wrote %d records", src, n, len(all))
		}
		// The expected records: all's, without the subtrees' insides of
		// error-free string literals, Next renumbered.
		var want []Node
		index := make([]int32, len(all)+1) // all's record -> want's, -1 when left out
		for i := 0; i < len(all); i++ {
			index[i] = int32(len(want))
			want = append(want, all[i])
			if all[i].Sym == str && all[i].Flags&HasError == 0 && all[i].Flags&HasChild != 0 {
				want[len(want)-1].Flags &^= HasChild
				end := i + 1
				for end < len(all) && all[end].StartByte < all[i].EndByte {
					index[end] = -1
					end++
				}
				i = end - 1
			}
		}
		for k := range want {
			if nx := want[k].Next; nx >= 0 {
				want[k].Next = index[nx]
			}
		}
		left += len(all) - len(got)
		if len(got) != len(want) {
			t.Fatalf("%q: %d records pruned, want %d (of %d)", src, len(got), len(want), len(all))
		}
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("%q: record %d is %+v, want %+v", src, k, got[k], want[k])
			}
		}
	}
	if left == 0 {
		t.Fatal("no record was left out")
	}
}
