package db

import (
	"bytes"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
)

// The outline section of symbols in blocks is the section of the same
// symbols joined, however they are split (rows are written as
// differences from the symbol before, across the blocks).
func TestOutlineBlocks(t *testing.T) {
	syms := []lang.Symbol{
		{Kind: lang.SymClass, Name: "A", Parent: -1, StartRow: 2, EndRow: 9, SigStart: 2, SigEnd: 2, NameRow: 2, DocRow: 3, Bases: []string{"B"}},
		{Kind: lang.SymMethod, Name: "m", Parent: 0, StartRow: 4, EndRow: 6, SigStart: 4, SigEnd: 5, NameRow: 4, DocRow: -1, Type: "int"},
		{Kind: lang.SymFunction, Name: "f", Parent: -1, StartRow: 11, EndRow: 12, SigStart: 11, SigEnd: 11, NameRow: 11, DocRow: -1},
		{Kind: lang.SymVariable, Name: "x", Parent: -1, StartRow: 14, EndRow: 14, SigStart: 14, SigEnd: 14, NameRow: 14, DocRow: -1},
	}
	imports := []lang.Import{{Row: 0, Module: "os"}}
	want := appendOutline(nil, "p", syms, imports)
	for _, blocks := range [][][]lang.Symbol{
		{syms},
		{syms[:1], syms[1:]},
		{syms[:2], nil, syms[2:3], syms[3:]},
		{syms[:1], syms[1:2], syms[2:3], syms[3:]},
	} {
		if got := appendOutlineBlocks(nil, "p", blocks, imports); !bytes.Equal(got, want) {
			t.Errorf("%d blocks: %x, joined %x", len(blocks), got, want)
		}
	}
}
