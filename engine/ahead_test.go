package engine

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/lang"
)

// aheadJava is a Java file of more than aheadMinBytes: a resource bundle
// whose one method returns an array initialiser of hundreds of rows, and
// methods around it with statements, locals and a nested class.
func aheadJava() string {
	var sb strings.Builder
	sb.WriteString("package p;\n\nimport java.util.List;\n\npublic class Bundle {\n")
	sb.WriteString("    static int count(List<String> xs) {\n        int n = 0;\n        for (String x : xs) {\n            if (x != null) {\n                n += x.length();\n            }\n        }\n        return n;\n    }\n\n")
	sb.WriteString("    protected Object[][] getContents() {\n        final String a = \"alpha\";\n        return new Object[][] {\n")
	for i := range 600 {
		fmt.Fprintf(&sb, "            { \"key.number.%d\", \"value %d \\u0410\\u0431\" },\n", i, i)
	}
	sb.WriteString("        };\n    }\n\n    static class Inner {\n        String name() {\n            String s = \"n\";\n            return s + count(List.of(s));\n        }\n    }\n}\n")
	return sb.String()
}

// aheadPython is a Python module of more than aheadMinBytes.
func aheadPython() string {
	var sb strings.Builder
	sb.WriteString("import os\n\nTABLE = {\n")
	for i := range 1200 {
		fmt.Fprintf(&sb, "    'key_%d': ('value', %d, os.sep),\n", i, i)
	}
	sb.WriteString("}\n\n\nclass Store:\n    def get(self, k):\n        v = TABLE.get(k)\n        if v is None:\n            return os.sep\n        return v[0]\n\n\ndef main():\n    s = Store()\n    for k in TABLE:\n        print(s.get(k))\n")
	return sb.String()
}

// TestParseAhead: with the outline parsed beside the query (ahead.go), a
// buffer's parse is the one the two parses in a row give, at every
// cursor of a large Java file (inside the array initialiser, where the
// query is recovered, and around it) and of a Python one, for the
// indexed version and an edited one, bounded and whole-prefix.
// aheadFixture is a source large enough to be parsed ahead, at its path
// in a one-file repository.
type aheadFixture struct{ rel, src string }

func aheadFixtures() []aheadFixture {
	return []aheadFixture{{"p/Bundle.java", aheadJava()}, {"store.py", aheadPython()}}
}

// open indexes the fixture's repository and returns the state of an
// engine on it, the fixture's language and its lines as indexed.
func (c aheadFixture) open(t *testing.T) (*state, *lang.Language, []string) {
	t.Helper()
	idx := t.TempDir()
	buildIndex(t, fileRepo(t, c.rel, c.src), idx)
	e := openIndex(t, idx, Options{})
	return e.cur.Load(), lang.ForPath(c.rel), lang.SplitLines(c.src)
}

func TestParseAhead(t *testing.T) {
	ctx := context.Background()
	for _, c := range aheadFixtures() {
		t.Run(c.rel, func(t *testing.T) {
			if len(c.src) < 2*aheadMinBytes {
				t.Fatalf("fixture of %d bytes: too small to be parsed ahead", len(c.src))
			}
			st, l, indexed := c.open(t)
			edited := append([]string{"// edited"}, indexed...)
			recovered, ahead := 0, 0
			for _, lines := range [][]string{indexed, edited} {
				for line := 2; line < len(lines); line += 29 {
					for _, whole := range []bool{false, true} {
						parse := func(ahead bool) *buffer {
							b := newBuffer(c.rel, lines, line)
							b.ahead = ahead
							if _, err := b.parse(ctx, l, c.rel, st, whole); err != nil {
								t.Fatalf("line %d: %v", line, err)
							}
							return b
						}
						seq, par := parse(false), parse(true)
						if parsesAhead(linesBytes(seq.lines)) {
							ahead++
						}
						if seq.recovered {
							recovered++
						}
						for _, d := range []struct {
							what     string
							seq, par any
						}{{"parse", seq.parsed, par.parsed}, {"outline", seq.file, par.file}, {"elision", seq.elided, par.elided},
							{"recovered", seq.recovered, par.recovered}, {"blanked", seq.blanked, par.blanked}} {
							if !reflect.DeepEqual(d.seq, d.par) {
								t.Fatalf("line %d (whole prefix %v): the %s parsed ahead differs from the one parsed after", line, whole, d.what)
							}
						}
					}
				}
			}
			if ahead == 0 {
				t.Fatal("no cursor was parsed ahead")
			}
			if l.Name == "java" && recovered == 0 {
				t.Error("no Java cursor's query was recovered: the whole parse ahead was not tried")
			}
		})
	}
}

// TestAfterAhead: with the outline after the cursor parsed beside the
// retrieval (buffer.startAfter), the buffer's outline once addAfter ran
// is the one addAfter parses itself, at cursors of the large fixtures,
// in the indexed version and with the row before the cursor edited
// (where the indexed outline cannot stand for the code after the
// cursor); and a parse started and stopped unused leaves nothing
// running.
func TestAfterAhead(t *testing.T) {
	ctx := context.Background()
	for _, c := range aheadFixtures() {
		t.Run(c.rel, func(t *testing.T) {
			st, l, indexed := c.open(t)
			edited := slices.Clone(indexed)
			started := 0
			for _, lines := range [][]string{indexed, edited} {
				for line := 2; line < len(lines)-1; line += 61 {
					if &lines[0] == &edited[0] {
						lines[line-2] = indexed[line-2] + " " + l.CommentPrefix + " edited"
					}
					after := func(ahead bool) *buffer {
						b := newBuffer(c.rel, lines, line)
						b.ahead = true
						if _, err := b.parse(ctx, l, c.rel, st, false); err != nil {
							t.Fatalf("line %d: %v", line, err)
						}
						if ahead {
							b.startAfter(ctx, l, st)
							if b.afterAhead != nil {
								started++
							}
						}
						b.addAfter(ctx, l, b.path, st)
						b.afterAhead.stop()
						return b
					}
					seq, par := after(false), after(true)
					if !reflect.DeepEqual(seq.file, par.file) || !reflect.DeepEqual(seq.prefix, par.prefix) {
						t.Fatalf("line %d: the outline with the declarations after the cursor parsed ahead differs from the one parsed after", line)
					}
					lines[line-2] = indexed[line-2]
				}
			}
			if started == 0 {
				t.Fatal("no outline after the cursor was parsed ahead")
			}
			// Started, then stopped without being waited for.
			edited[len(edited)/2-2] += " " + l.CommentPrefix + " edited"
			b := newBuffer(c.rel, edited, len(edited)/2)
			b.ahead = true
			if _, err := b.parse(ctx, l, c.rel, st, false); err != nil {
				t.Fatal(err)
			}
			b.startAfter(ctx, l, st)
			b.afterAhead.stop()
			if b.afterAhead != nil {
				select {
				case <-b.afterAhead.done:
				default:
					t.Fatal("stop returned with the parse running")
				}
			}
		})
	}
}
