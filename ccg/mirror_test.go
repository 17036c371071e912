package ccg_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/ccg"
	"github.com/graphcoder/graphcoder/lang"
)

// mirrorStats counts, over query contexts cut from real files, how often
// the target AppendTarget places has the CF predecessors the statement
// written there has in the whole file's graph (the index's view), split by
// whether the context ends in lines that only close blocks.
type mirrorStats struct {
	closed, closedSame int // contexts ending in closing braces
	other, otherSame   int
}

func (m mirrorStats) String() string {
	pct := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return 100 * float64(a) / float64(b)
	}
	return fmt.Sprintf("after closing braces %d/%d (%.1f %%), other %d/%d (%.1f %%)",
		m.closedSame, m.closed, pct(m.closedSame, m.closed), m.otherSame, m.other, pct(m.otherSame, m.other))
}

// closesOnly reports whether the rows after row hold only closing
// brackets, ';', ',', blanks and // or /* */ comments, and at least one
// '}' (a rough test for the split; AppendTarget lexes properly).
func closesOnly(lines []string, row int) bool {
	brace := false
	inComment := false
	for _, l := range lines[row+1:] {
		t := strings.TrimSpace(l)
		if inComment {
			if i := strings.Index(t, "*/"); i >= 0 {
				inComment = false
				t = strings.TrimSpace(t[i+2:])
			} else {
				continue
			}
		}
		if i := strings.Index(t, "//"); i >= 0 {
			t = strings.TrimSpace(t[:i])
		}
		if strings.HasPrefix(t, "/*") {
			if i := strings.Index(t, "*/"); i >= 0 {
				t = strings.TrimSpace(t[i+2:])
			} else {
				inComment = true
				continue
			}
		}
		if strings.Trim(t, "})]);,") != "" {
			return false
		}
		brace = brace || strings.Contains(t, "}")
	}
	return brace
}

// mirror cuts up to per contexts from each file (the lines before a
// statement that starts its row), places the target in each and compares
// its CF predecessors with the statement's in the file's graph, by row
// and kind. Predecessors at or after the statement's row (loop back
// edges) cannot be in a context and are left out.
func mirror(t *testing.T, srcs []source, per int) mirrorStats {
	var m mirrorStats
	if len(srcs) == 0 {
		return m
	}
	p := lang.ForPath(srcs[0].name).NewParser() // the sources are of one language
	for _, s := range srcs {
		f, err := p.Parse(t.Context(), s.name, s.src)
		if err != nil || f.Errors > 0 {
			continue
		}
		g := ccg.Build(f)
		var targets []int32
		for v := range g.Nodes {
			if r := g.Nodes[v].StartRow; r > 0 && g.NodeAt(r) == int32(v) {
				targets = append(targets, int32(v))
			}
		}
		for _, i := range sample(len(targets), per) {
			v := targets[i]
			row := g.Nodes[v].StartRow
			type key struct {
				row  int
				kind lang.Kind
			}
			var want []key
			for _, u := range g.In(v, ccg.CF) {
				if n := g.Nodes[u]; n.StartRow < row {
					want = append(want, key{n.StartRow, n.Kind})
				}
			}
			prefix := strings.Join(f.Lines[:row], "\n") + "\n"
			qf, err := p.Parse(t.Context(), s.name, []byte(prefix))
			if err != nil {
				continue
			}
			q := ccg.Build(qf)
			id := q.AppendTarget()
			var got []key
			for _, u := range q.In(id, ccg.CF) {
				n := q.Nodes[u]
				got = append(got, key{n.StartRow, n.Kind})
			}
			cmpKey := func(a, b key) int {
				if a.row != b.row {
					return a.row - b.row
				}
				return int(a.kind) - int(b.kind)
			}
			slices.SortFunc(want, cmpKey)
			slices.SortFunc(got, cmpKey)
			want, got = slices.Compact(want), slices.Compact(got)
			same := slices.Equal(want, got)
			last := -1
			for i := range q.Nodes {
				if !q.Nodes[i].Dummy {
					last = max(last, q.Nodes[i].EndRow)
				}
			}
			if last >= 0 && last < len(qf.Lines) && closesOnly(qf.Lines, last) {
				m.closed++
				if same {
					m.closedSame++
				}
			} else {
				m.other++
				if same {
					m.otherSame++
				}
			}
		}
	}
	return m
}

// A context that ends in closing braces gets a target with the CF
// predecessors its statement has in the index (the whole file's graph) in
// nearly every case: the exceptions are contexts the parser reads
// differently from the whole file (a clause such as `} else {` as the
// target, an error region). Other contexts are logged for comparison:
// there the prefix's parse (error statements) decides.
func TestTargetMirrorsIndex(t *testing.T) {
	files, per := 40, 10
	if testing.Short() {
		files, per = 20, 8
	}
	for _, tc := range []struct {
		name string
		srcs func(testing.TB, int) []source
	}{{"java", javaSources}, {"go", goSources}, {"javascript", javascriptSources}, {"typescript", typescriptSources}} {
		t.Run(tc.name, func(t *testing.T) {
			m := mirror(t, tc.srcs(t, files), per)
			t.Logf("%s: %v", tc.name, m)
			if m.closed < 10 {
				t.Skipf("only %d contexts end in closing braces", m.closed)
			}
			if m.closedSame*10 < m.closed*9 {
				t.Errorf("%d of %d contexts ending in closing braces place the target as the index has it, want at least 90 %%", m.closedSame, m.closed)
			}
		})
	}
}
