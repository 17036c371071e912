package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/prompt"
)

// The code before the cursor of shop/structural.py's last line.
const structuralPrefix = "def grand_total(batches):\n    total = 0\n    for record in batches:\n        total += record.amount\n        record.settled = True\n"

// A request without a path completes the code it carries, in the language
// it names: the fragment is parsed alone and searched without the leak
// rule, so the file's own entries are candidates.
func TestFragmentWithoutPath(t *testing.T) {
	e := openRepo(t, "testdata/finestage")
	ctx := context.Background()
	withPath, err := e.Complete(ctx, Request{Path: "shop/structural.py", Line: 6, Source: []byte(structuralPrefix), Mode: "fine", TopK: 100})
	if err != nil {
		t.Fatal(err)
	}
	if withPath.Stats.Leaked == 0 {
		t.Fatal("the leak rule dropped nothing for the indexed file")
	}
	for _, lang := range []string{"python", "Python", "py"} {
		res, err := e.Complete(ctx, Request{Language: lang, Line: 6, Source: []byte(structuralPrefix), Mode: "fine", TopK: 100})
		if err != nil {
			t.Fatalf("language %q: %v", lang, err)
		}
		if res.Path != "" || res.Language != "python" || res.Stats.Leaked != 0 {
			t.Fatalf("language %q: path %q language %q leaked %d", lang, res.Path, res.Language, res.Stats.Leaked)
		}
		if len(res.Snippets) <= len(withPath.Snippets) {
			t.Fatalf("language %q: %d snippets, with the leak rule %d", lang, len(res.Snippets), len(withPath.Snippets))
		}
		if res.Context == nil || !strings.Contains(res.Context.Text(), "Complete the next line of the code below:\n") {
			t.Fatalf("prompt without a file name: %q", res.Context.Text())
		}
	}
	// A fragment of a known file: the path names the language and the
	// prompt's file, but the leak rule is off.
	res, err := e.Complete(ctx, Request{Path: "shop/structural.py", Fragment: true, Line: 6, Source: []byte(structuralPrefix), Mode: "fine", TopK: 100})
	if err != nil {
		t.Fatal(err)
	}
	if res.Path != "shop/structural.py" || res.Stats.Leaked != 0 {
		t.Fatalf("fragment: path %q leaked %d", res.Path, res.Stats.Leaked)
	}
	// A path of no known extension takes the language named.
	res, err = e.Complete(ctx, Request{Path: "scripts/grand_total", Language: "python", Line: 6, Source: []byte(structuralPrefix)})
	if err != nil || res.Language != "python" || len(res.Snippets) == 0 {
		t.Fatalf("extensionless path: %+v, %v", res, err)
	}
}

// Client-sent candidates share the assembler's budget with the retrieved
// ones: declarations first, then the retrieved top k, then the others.
func TestClientContext(t *testing.T) {
	e := openRepo(t, "testdata/finestage")
	ctx := context.Background()
	client := []prompt.Candidate{
		{Source: prompt.RecentFile, Path: "docs/usage.py", Lines: []string{"report = grand_total(load())"}},
		{Source: prompt.Declaration, Path: "shop/record.py", Lines: []string{"class Record:", "    amount: int", "    settled: bool"}},
		{Source: prompt.Clipboard, Lines: []string{"audit(record.amount)"}},
	}
	res, err := e.Complete(ctx, Request{Path: "app/new.py", Line: 6, Source: []byte(structuralPrefix), Context: client})
	if err != nil {
		t.Fatal(err)
	}
	var sources []prompt.Source
	for _, b := range res.Context.Blocks {
		if b.Source != prompt.Definition { // the definition context's own order is the assembler's
			sources = append(sources, b.Source)
		}
	}
	// Blocks are written best last: the declaration is the last client
	// block, the retrieved ones come before it, the other client blocks
	// earlier.
	if n := len(sources); n < 4 || sources[n-1] != prompt.Declaration || sources[n-2] != prompt.Retrieved {
		t.Fatalf("block sources in prompt order: %v", sources)
	}
	for _, want := range []prompt.Source{prompt.RecentFile, prompt.Clipboard} {
		i := slices.Index(sources, want)
		if i < 0 || i > slices.Index(sources, prompt.Retrieved) {
			t.Fatalf("%s not before the retrieved blocks: %v", want, sources)
		}
	}
	text := res.Context.Text()
	for _, want := range []string{"class Record:", "audit(record.amount)", "report = grand_total(load())"} {
		if !strings.Contains(text, want) {
			t.Fatalf("prompt lacks %q:\n%s", want, text)
		}
	}

	// Without retrieval the context is the client's and the file's own,
	// and there is no model-free prediction.
	res, err = e.Complete(ctx, Request{Path: "app/new.py", Line: 6, Source: []byte(structuralPrefix), Context: client, NoRetrieval: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Snippets) != 0 || res.Prediction != "" || len(res.Context.Blocks) != 3 {
		t.Fatalf("without retrieval: %d snippets, prediction %q, %d blocks", len(res.Snippets), res.Prediction, len(res.Context.Blocks))
	}
}
