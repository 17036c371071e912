package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/lang"
	"github.com/graphcoder/graphcoder/prompt"
	"github.com/graphcoder/graphcoder/retrieve"
	"github.com/graphcoder/graphcoder/symtab"
)

const defsModels = `class Account:
    """A ledger account."""

    def __init__(self, name):
        self.name = name

    def withdraw(self, amount):
        """Take amount from the balance."""

    def %s(self, amount):
        """Add amount to the balance."""
`

// defsApp calls later_helper, defined after the cursor (line 8).
const defsApp = `from ledger.models import Account


def transfer(a, b, amount):
    src = Account(a)
    dst = Account(b)
    src.withdraw(amount)
    dst.deposit(amount)
    later_helper()


def later_helper():
    """Defined after the cursor."""
`

// definitionsAt completes line 8 of app.py and returns the definitions'
// names and the prompt.
func definitionsAt(t *testing.T, e *Engine) (map[string]bool, *Result) {
	t.Helper()
	res, err := e.Complete(context.Background(), Request{Path: "app.py", Line: 8})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, d := range res.Definitions {
		names[d.Name] = true
		if d.Path == "app.py" && d.Line >= 8 {
			t.Errorf("definition %+v of the buffer at or after the cursor", d)
		}
	}
	return names, res
}

// TestDefinitions: the prompt of a completion shows the repository
// definitions the code before the cursor reads (through a declared local),
// nothing of the buffer past the cursor, and an edited file's new
// definitions once Update made it visible.
func TestDefinitions(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	idx := filepath.Join(t.TempDir(), "idx")
	write := func(name, text string) {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ledger/__init__.py", "")
	write("ledger/models.py", strings.Replace(defsModels, "%s", "deposit", 1))
	write("app.py", defsApp)
	// No retrieved block ahead of the definitions: the best one is a
	// window of ledger/models.py, which would show the class already.
	d, e := buildLive(t, repo, idx, Options{Prompt: prompt.Options{Lead: -1}})

	names, res := definitionsAt(t, e)
	if !names["Account"] || !names["Account.withdraw"] {
		t.Fatalf("definitions %+v", res.Definitions)
	}
	if names["later_helper"] {
		t.Error("later_helper, defined after the cursor, was offered")
	}
	shown := false
	for _, b := range res.Context.Blocks {
		if b.Source == prompt.Definition && b.Path == "ledger/models.py" {
			shown = true
		}
	}
	if !shown || !strings.Contains(res.Context.Text(), "#     def withdraw(self, amount):") {
		t.Fatalf("the prompt shows no definition block of ledger/models.py:\n%s", res.Context.Text())
	}
	for _, d := range res.Definitions {
		if d.Name == "Account.withdraw" && !res.InPrompt(d) {
			t.Errorf("%+v is not in the prompt", d)
		}
	}

	// An edit renames deposit: after Update the class lists the new name.
	write("ledger/models.py", strings.Replace(defsModels, "%s", "credit", 1))
	s, err := indexer.Update(ctx, d, indexer.NewRules(repo, idx, 0), []string{"ledger/models.py"})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Update(s.Paths()); err != nil {
		t.Fatal(err)
	}
	_, res = definitionsAt(t, e)
	if text := res.Context.Text(); !strings.Contains(text, "def credit(self, amount):") || strings.Contains(text, "def deposit(self, amount):") {
		t.Fatalf("after the update the prompt shows:\n%s", text)
	}

	// Without definitions there are none.
	res, err = e.Complete(ctx, Request{Path: "app.py", Line: 8, NoDefinitions: true})
	if err != nil || len(res.Definitions) != 0 {
		t.Fatalf("NoDefinitions: %v, %+v", err, res.Definitions)
	}
}

// TestBoosted: the import-graph boost lifts a candidate of an imported
// file over a better-scored one of an unrelated file, keeps the first k
// within the r best by boosted coarse score in coarse2fine, and changes
// nothing with relations all zero.
func TestBoosted(t *testing.T) {
	py := lang.ByName("python")
	b := symtab.NewBuilder("r", true)
	b.Add(symtab.NewFile("lib.py", py, symtab.RepoNamed("r"), "", nil, nil))
	b.Add(symtab.NewFile("far.py", py, symtab.RepoNamed("r"), "", nil, nil))
	v := symtab.NewView(b.Finish())
	q := symtab.NewFile("q.py", py, symtab.RepoNamed("r"), "", nil, []lang.Import{{Module: "lib", Name: "f"}})
	rel := v.Relations(q)
	cands := []retrieve.Candidate{
		{Entry: 1, Path: "far.py", Score: 0.9, Coarse: 0.5},
		{Entry: 2, Path: "lib.py", Score: 0.8, Coarse: 0.4},
		{Entry: 3, Path: "far.py", Score: 0.7, Coarse: 0.3},
	}
	order := func(cs []retrieve.Candidate) (out []int) {
		for _, c := range cs {
			out = append(out, c.Entry)
		}
		return out
	}
	if got := order(boosted(slices.Clone(cands), 2, 2, retrieve.Fine, rel, 0.5)); !slices.Equal(got, []int{2, 1, 3}) {
		t.Errorf("boosted order %v, want [2 1 3]", got)
	}
	if got := order(boosted(slices.Clone(cands), 2, 2, retrieve.Fine, rel, 0.1)); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("a small boost reordered: %v", got)
	}
	// coarse2fine with r = 1: only the best by boosted coarse (lib.py:
	// 0.4 x 1.5 = 0.6 > 0.5) may be in the top 1.
	if got := order(boosted(slices.Clone(cands), 1, 1, retrieve.CoarseToFine, rel, 0.5)); got[0] != 2 {
		t.Errorf("coarse2fine top %v", got)
	}
	none := symtab.NewView(symtab.NewBuilder("r", true).Finish()).Relations(symtab.NewFile("x.py", py, symtab.RepoNamed("r"), "", nil, nil))
	if got := order(boosted(slices.Clone(cands), 2, 3, retrieve.Fine, none, 1)); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("without relations the order changed: %v", got)
	}
}

// TestClosedOutline: the outline of a Java buffer cut off inside a method
// of a nested class has the classes enclosing the cursor and their
// members above it, as the whole file's outline has them, with rows
// within the buffer; a Python buffer's is its parse's own.
func TestClosedOutline(t *testing.T) {
	ctx := context.Background()
	whole := `package p;

class Outer {
    void helper(int a) {
    }

    private class Inner {
        void report(String key, Object... args) {
        }

        boolean run() {
            class Local {
                void go() {
                    report("x",
                            1);
                }
            }
            return true;
        }
    }
}
`
	java := lang.ByName("java")
	lines := strings.Split(whole, "\n")
	cut := 14 // the cursor's row: inside go(), in a call continued on the next row
	b := &buffer{path: "p/Outer.java", lines: lines[:cut]}
	f, err := b.parse(ctx, java, b.path, &state{repo: symtab.RepoNamed("r")}, true)
	if err != nil {
		t.Fatal(err)
	}
	full, err := java.Parse(ctx, b.path, []byte(whole))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{}
	for i, s := range full.Symbols {
		if s.NameRow < cut {
			want[full.Qualified(i)] = true
		}
	}
	got := map[string]bool{}
	for i, s := range b.file.Symbols {
		got[lang.QualifiedName(b.file.Symbols, i)] = true
		if s.StartRow >= cut || s.EndRow >= cut || s.SigEnd >= cut || s.NameRow >= cut {
			t.Errorf("symbol %s has rows past the buffer: %+v", s.Name, s)
		}
	}
	for q := range want {
		if !got[q] {
			t.Errorf("the buffer's outline lacks %s: %v", q, got)
		}
	}
	if len(f.Stmts) == 0 {
		t.Error("the query's parse has no statements")
	}
	if in := b.file.Enclosing(cut - 1); in < 0 || b.file.Symbols[in].Name != "Inner" {
		t.Errorf("the cursor's class is %d, want Inner (a class local to a method is no member)", in)
	}

	py := lang.ByName("python")
	pb := &buffer{path: "m.py", lines: []string{"class A:", "    def f(self,", "          a,"}}
	pf, err := pb.parse(ctx, py, pb.path, &state{repo: symtab.RepoNamed("r")}, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(pb.file.Symbols) != len(pf.Symbols) {
		t.Errorf("the Python buffer's outline has %d symbols, its parse %d", len(pb.file.Symbols), len(pf.Symbols))
	}
}
