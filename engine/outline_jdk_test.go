package engine

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/internal/realcode"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/symtab"
)

// TestClosedOutlineJDK measures the buffer outline on real code: cut
// JDK 17 sources of java.net.http, jdk.jshell and java.util.concurrent
// at rows spread over each file and compare the declarations above the
// cut (qualified name, kind, name row) with the whole file's. The
// outline of the cut source as it is loses many of them, often the
// classes around the cut; with its brackets closed it has nearly all.
// It skips without the JDK sources and reads a bounded sample.
func TestClosedOutlineJDK(t *testing.T) {
	if testing.Short() {
		t.Skip("real code")
	}
	zr, err := realcode.OpenJDKSources()
	if err != nil {
		t.Skip(err)
	}
	defer zr.Close()
	var srcs [][]byte
	for _, f := range zr.File {
		n := f.Name
		if !strings.HasSuffix(n, ".java") || !(strings.HasPrefix(n, "java.net.http/") || strings.HasPrefix(n, "jdk.jshell/") ||
			strings.HasPrefix(n, "java.base/java/util/concurrent/")) {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, b)
	}
	if len(srcs) == 0 {
		t.Skip("no java.net.http, jdk.jshell or java.util.concurrent sources in the archive")
	}
	ctx := context.Background()
	java := lang.ByName("java")
	type key struct {
		q    string
		kind lang.SymbolKind
		row  int
	}
	above := func(syms []lang.Symbol, cut int) map[key]bool {
		m := map[key]bool{}
		for i, s := range syms {
			if s.NameRow < cut {
				m[key{lang.QualifiedName(syms, i), s.Kind, s.NameRow}] = true
			}
		}
		return m
	}
	var want, asIs, closed int
	for _, src := range realcode.Sample(srcs, 60) {
		full, err := java.Parse(ctx, "A.java", src)
		if err != nil {
			t.Fatal(err)
		}
		lines := full.Lines
		for _, frac := range []int{3, 6, 9} { // cuts at 30, 60 and 90 % of the file
			cut := len(lines) * frac / 10
			if cut < 2 {
				continue
			}
			w := above(full.Symbols, cut)
			// The query parse as it is, not recovered (recover.go).
			b := &buffer{path: "A.java", lines: lines[:cut], unrecovered: true}
			f, err := b.parse(ctx, java, b.path, &state{repo: symtab.RepoNamed("r")}, true)
			if err != nil {
				t.Fatal(err)
			}
			for k := range above(f.Symbols, cut) {
				if w[k] {
					asIs++
				}
			}
			for k := range above(b.file.Symbols, cut) {
				if w[k] {
					closed++
				}
			}
			want += len(w)
		}
	}
	pct := func(n int) float64 { return 100 * float64(n) / float64(max(want, 1)) }
	t.Logf("declarations above the cut: %d; in the outline of the cut source %d (%.1f %%), with its brackets closed %d (%.1f %%)",
		want, asIs, pct(asIs), closed, pct(closed))
	if pct(closed) < 95 || closed <= asIs {
		t.Errorf("the closed outline holds %.1f %% of the declarations above the cut (the source as it is %.1f %%), want 95 %% and more",
			pct(closed), pct(asIs))
	}
}
