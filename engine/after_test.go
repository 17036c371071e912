package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/defctx"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/prompt"
)

// afterParser calls skip before the cursor (line 8) and defines it after;
// the rest of the cursor's method holds an anonymous class, whose method
// is the statement being written, not a declaration to show.
const afterParser = `package p;

public class Parser {
    private int pos;

    public void parse() {
        skip(1);
        int n = count();
        Runnable r = new Runnable() {
            public void run() { hidden(); }
        };
    }

    /** Skips n characters. */
    private void skip(int n) {
        pos += n;
    }

    /** Counts the rest. */
    int count() {
        return pos;
    }

    private String secretField = "x";
}
`

// TestDefinitionsAfterCursor: the declarations of the buffer after the
// cursor's line are definitions too, shown by their signature rows alone:
// never the cursor's line, a doc line, a body, a field or a declaration
// inside a body; defctx.Options.NoAfter leaves them out.
func TestDefinitionsAfterCursor(t *testing.T) {
	repo := fileRepo(t, "p/Parser.java", afterParser)
	_, e := buildLive(t, repo, filepath.Join(t.TempDir(), "idx"), Options{Prompt: prompt.Options{Lead: -1}})
	lines := strings.Split(afterParser, "\n")
	const cursor = 8
	// The indexed outline stands for the buffer's after the cursor when
	// the buffer is the indexed version but for the cursor's row; an
	// edited buffer's is parsed.
	edited := slices.Clone(lines)
	edited[1] = "// edited"
	// A line typed in front of the cursor's: the indexed outline with
	// the rows from the cursor's on one down.
	inserted := slices.Insert(slices.Clone(lines), cursor-1, "        sk")
	// The file's last rows deleted: the rows after the cursor are the
	// indexed version's first ones only.
	cut := lines[:len(lines)-3]
	java := lang.ByName("java")
	st := e.cur.Load()
	for _, c := range []struct {
		name    string
		lines   []string
		indexed bool
	}{{"indexed", lines, true}, {"edited", edited, false}, {"inserted", inserted, true}, {"cut", cut, false}} {
		b := &buffer{path: "p/Parser.java", lines: c.lines[:cursor-1], after: lang.SplitLines(strings.Join(c.lines[cursor:], "\n"))}
		syms, got := st.indexedAfter(b, java)
		if got != c.indexed {
			t.Errorf("%s: the indexed outline stands for the buffer's: %v, want %v", c.name, got, c.indexed)
		}
		for _, s := range syms {
			if s.Name == "skip" && (s.NameRow < cursor || c.lines[s.NameRow] != "    private void skip(int n) {") {
				t.Errorf("%s: skip at row %d: %q", c.name, s.NameRow, c.lines[s.NameRow])
			}
		}
	}
	for _, src := range []string{"", strings.Join(edited, "\n")} {
		testDefinitionsAfterCursor(t, e, lines, []byte(src))
	}
}

func testDefinitionsAfterCursor(t *testing.T, e *Engine, lines []string, src []byte) {
	const cursor = 8
	signatures := map[int]bool{15: true, 20: true} // skip's and count's
	complete := func(o *defctx.Options) *Result {
		req := Request{Path: "p/Parser.java", Line: cursor, Definitions: o}
		if len(src) > 0 {
			req.Source = src
		}
		res, err := e.Complete(context.Background(), req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := complete(nil)
	found := false
	for _, b := range res.DefinitionBlocks {
		for i, row := range b.Rows {
			if b.Path != "p/Parser.java" || row < cursor {
				continue
			}
			if !signatures[row] || b.Lines[i] != lang.ByName("java").Signatures.Compact(lines[row-1]) {
				t.Errorf("row %d %q after the cursor is no signature of a declaration", row, b.Lines[i])
			}
			found = found || row == 15
		}
	}
	if !found {
		t.Fatalf("skip's signature, called before the cursor and declared after it, is not shown: %+v", res.DefinitionBlocks)
	}
	var skip defctx.Definition
	for _, d := range res.Definitions {
		if d.Name == "Parser.skip" {
			skip = d
		}
	}
	if skip.Line != 15 || !res.InPrompt(skip) {
		t.Errorf("Parser.skip: %+v, in the prompt %v", skip, res.InPrompt(skip))
	}
	for _, secret := range []string{"int n = count();", "Skips n", "pos += n", "run()", "secretField"} {
		for _, b := range res.DefinitionBlocks {
			if strings.Contains(strings.Join(b.Lines, "\n"), secret) {
				t.Errorf("a definition block shows %q:\n%s", secret, strings.Join(b.Lines, "\n"))
			}
		}
	}

	res = complete(&defctx.Options{NoAfter: true})
	for _, b := range res.DefinitionBlocks {
		for _, row := range b.Rows {
			if b.Path == "p/Parser.java" && row >= cursor {
				t.Errorf("NoAfter: row %d of the buffer after the cursor shown", row)
			}
		}
	}
}

// afterPy reads inner, which only a def inside the cursor's function
// after the cursor declares: the rest of the body being written, never
// shown; helper, declared after the cursor at top level, is.
const afterPy = `def outer():
    helper(inner())
    x = 1
    def inner():
        return 3
    return inner


def helper(v):
    """Doc of helper."""
    return 2
`

func TestDefinitionsAfterCursorNested(t *testing.T) {
	repo := fileRepo(t, "m.py", afterPy)
	_, e := buildLive(t, repo, filepath.Join(t.TempDir(), "idx"), Options{Prompt: prompt.Options{Lead: -1}})
	res, err := e.Complete(context.Background(), Request{Path: "m.py", Line: 3})
	if err != nil {
		t.Fatal(err)
	}
	helper := false
	for _, b := range res.DefinitionBlocks {
		for i, row := range b.Rows {
			if b.Path == "m.py" && row >= 3 {
				if row != 9 {
					t.Errorf("row %d %q after the cursor shown", row, b.Lines[i])
				}
				helper = true
			}
		}
	}
	if !helper {
		t.Errorf("helper's signature is not shown: %+v", res.DefinitionBlocks)
	}
}

// withAfter keeps the symbols before the cursor as they are and adds the
// declarations after it that are no declaration inside a body and whose
// type the outline before the cursor holds.
func TestWithAfter(t *testing.T) {
	sym := func(k lang.SymbolKind, name string, parent, start, end int) lang.Symbol {
		return lang.Symbol{Kind: k, Name: name, Parent: parent, StartRow: start, EndRow: end, SigStart: start, SigEnd: start, NameRow: start, DocRow: -1}
	}
	// Before the cursor (row 5): class A from row 0, clamped to row 4,
	// and its method f, which the cursor is in.
	have := []lang.Symbol{sym(lang.SymClass, "A", -1, 0, 4), sym(lang.SymMethod, "f", 0, 1, 4)}
	whole := []lang.Symbol{
		sym(lang.SymClass, "A", -1, 0, 30),
		sym(lang.SymMethod, "f", 0, 1, 9),
		sym(lang.SymFunction, "local", 0, 6, 8),   // inside f's body: the rest of the statement
		sym(lang.SymMethod, "g", 0, 10, 12),       // a member of A after the cursor
		sym(lang.SymClass, "B", 0, 13, 20),        // a nested type after the cursor
		sym(lang.SymMethod, "h", 4, 14, 15),       // B's member
		sym(lang.SymClass, "C", -1, 31, 40),       // a top-level type after the cursor
		sym(lang.SymMethod, "orphan", 99, 32, 33), // a malformed parent
	}
	got := withAfter(have, whole, 5)
	var names []string
	for _, s := range got {
		names = append(names, fmt.Sprintf("%s<%d", s.Name, s.Parent))
	}
	want := []string{"A<-1", "f<0", "g<0", "B<0", "h<3", "C<-1"}
	if !slices.Equal(names, want) {
		t.Errorf("withAfter = %v, want %v", names, want)
	}
	if have[0].EndRow != 4 || len(have) != 2 {
		t.Errorf("have changed: %+v", have)
	}
	if withAfter(have, whole[:2], 5) != nil {
		t.Error("nothing after the cursor: want nil")
	}
}
