package frontend_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
	_ "github.com/graphcoder/graphcoder/lang/golang"
	"github.com/graphcoder/graphcoder/lang/internal/tsflat"
	_ "github.com/graphcoder/graphcoder/lang/java"
	_ "github.com/graphcoder/graphcoder/lang/javascript"
	_ "github.com/graphcoder/graphcoder/lang/python"
	_ "github.com/graphcoder/graphcoder/lang/typescript"
)

// ParseBlocks gives the file Parse gives, but for the symbols left in
// their blocks: in the same order, in more than one block for a file of
// more symbols than a block holds, whether the file is mapped piece by
// piece or whole (Java's: a class body's members mapped piece by piece).
func TestParseBlocksAsParse(t *testing.T) {
	from, size := tsflat.PieceFrom, tsflat.PieceBytes
	defer func() { tsflat.PieceFrom, tsflat.PieceBytes = from, size }()
	const n = 3000 // symbols; a block holds at most 1024
	gen := func(head, format, tail string) string {
		var b strings.Builder
		b.WriteString(head)
		for i := range n {
			fmt.Fprintf(&b, format, i)
		}
		b.WriteString(tail)
		return b.String()
	}
	for _, tt := range []struct {
		path, src string
		blocks    bool
	}{
		{"m.py", gen("import os\n", "def f%d(a, b):\n    return a + b\n", ""), true},
		{"m.go", gen("package m\n\nimport \"os\"\n\n", "func f%d(a, b int) int {\n\treturn a + b\n}\n", ""), true},
		{"m.ts", gen("import * as os from 'os';\n", "function f%d(a: number, b: number) {\n  return a + b;\n}\n", ""), true},
		{"m.js", gen("import os from 'os';\n", "function f%d(a, b) {\n  return a + b;\n}\n", ""), true},
		{"M.java", gen("import java.util.List;\nclass M {\n", "  int f%d(int a, int b) {\n    return a + b;\n  }\n", "}\n"), true},
	} {
		for _, pieces := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s pieces=%v", tt.path, pieces), func(t *testing.T) {
				tsflat.PieceFrom, tsflat.PieceBytes = math.MaxInt, size
				if pieces {
					tsflat.PieceFrom, tsflat.PieceBytes = 0, 512
				}
				l := lang.ForPath(tt.path)
				ctx := context.Background()
				want, err := l.Parse(ctx, tt.path, []byte(tt.src))
				if err != nil {
					t.Fatal(err)
				}
				got, err := l.ParseBlocks(ctx, tt.path, []byte(tt.src))
				if err != nil {
					t.Fatal(err)
				}
				if want.SymbolBlocks != nil || len(want.Symbols) < n {
					t.Fatalf("Parse: %d symbols, %d blocks", len(want.Symbols), len(want.SymbolBlocks))
				}
				if got.NumSymbols() != len(want.Symbols) {
					t.Fatalf("ParseBlocks: %d symbols, Parse %d", got.NumSymbols(), len(want.Symbols))
				}
				if tt.blocks && (got.Symbols != nil || len(got.SymbolBlocks) < 2) {
					t.Fatalf("ParseBlocks: %d symbols joined, %d blocks", len(got.Symbols), len(got.SymbolBlocks))
				}
				var joined []lang.Symbol
				if got.Symbols != nil {
					joined = got.Symbols
				}
				for _, b := range got.SymbolBlocks {
					joined = append(joined, b...)
				}
				got.Symbols, got.SymbolBlocks = joined, nil
				if !reflect.DeepEqual(got, want) {
					for i := range min(len(joined), len(want.Symbols)) {
						if !reflect.DeepEqual(joined[i], want.Symbols[i]) {
							t.Fatalf("symbol %d: %+v, Parse %+v", i, joined[i], want.Symbols[i])
						}
					}
					t.Fatal("ParseBlocks's file differs from Parse's")
				}
			})
		}
	}
}
