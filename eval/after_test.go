package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/eval/tasks"
	"github.com/graphcoder/graphcoder/lang"
)

// afterRepo writes Java classes whose methods call helpers declared
// further down the same file, each line ending in a token unique in the
// repository.
func afterRepo(t *testing.T) string {
	dir := t.TempDir()
	for f := 0; f < 3; f++ {
		var b strings.Builder
		fmt.Fprintf(&b, "package p;\n\npublic class C%d {\n", f)
		for m := 0; m < 6; m++ {
			fmt.Fprintf(&b, "    /** Step %d of C%d. */\n", m, f)
			fmt.Fprintf(&b, "    int step%d(int x) {\n", m)
			fmt.Fprintf(&b, "        int a = step%d(x) + u%d_%d;\n", (m+1)%6, f, m)
			fmt.Fprintf(&b, "        int b = helper%d(a) - u%d_%d;\n", m, f, 10+m)
			fmt.Fprintf(&b, "        return a + b;\n    }\n\n")
		}
		for m := 0; m < 6; m++ {
			fmt.Fprintf(&b, "    /** Helper %d, body secret. */\n    int helper%d(int y) {\n        return y * w%d_%d;\n    }\n\n", m, m, f, m)
		}
		b.WriteString("}\n")
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("C%d.java", f)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDefinitionsAfterHole: the graph methods' definition blocks show the
// declarations after the hole in its own file by their signature rows
// alone: never the hole's line, a doc line or a body row; and they do show
// some (the helpers the targets call).
func TestDefinitionsAfterHole(t *testing.T) {
	dir := afterRepo(t)
	sigs := map[string]map[int]bool{} // file -> 1-based signature rows of callables and types
	java := lang.ByName("java")
	for f := 0; f < 3; f++ {
		name := fmt.Sprintf("C%d.java", f)
		src, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		o, err := java.Outline(context.Background(), name, src)
		if err != nil {
			t.Fatal(err)
		}
		sigs[name] = map[int]bool{}
		for _, s := range o.Symbols {
			if s.Kind.IsCallable() || s.Kind.IsType() {
				for r := s.SigStart; r <= s.SigEnd; r++ {
					sigs[name][r+1] = true
				}
			}
		}
	}
	after := 0
	_, err := Run(context.Background(), Options{
		Repo: dir, Lang: "java", Level: tasks.API, Tasks: 40, Seed: 1, Methods: []string{GraphCoder},
		Observe: func(o Observation) {
			hole := o.Task.Line + 1
			for _, b := range o.Definitions {
				for i, row := range b.Rows {
					if b.Path != o.Task.Path || row < hole {
						continue
					}
					if row == hole || !sigs[b.Path][row] {
						t.Errorf("task %s (%s:%d): definition row %d %q at or after the hole is no signature", o.Task.ID, o.Task.Path, hole, row, b.Lines[i])
					}
					if strings.Contains(b.Lines[i], strings.TrimSpace(o.Task.GroundTruth)) {
						t.Errorf("task %s: the target line is shown", o.Task.ID)
					}
					after++
				}
			}
		},
	})
	skipIfNoGraphIndex(t, err)
	if err != nil {
		t.Fatal(err)
	}
	if after == 0 {
		t.Error("no declaration after the hole was shown")
	}
}
