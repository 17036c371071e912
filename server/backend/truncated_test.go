package backend

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/server"
	"github.com/graphcoder/graphcoder/server/httpapi"
)

// invoiceFile is a long function: the definitions at its start lie more
// than 20 lines above the cursor on its last line.
func invoiceFile(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "from decimal import Decimal\n\n\ndef %s(order, customer):\n", name)
	b.WriteString("    rate = customer.tax_rate\n    discount = customer.discount\n    subtotal = Decimal(\"0\")\n")
	for i := 0; i < 22; i++ {
		fmt.Fprintf(&b, "    note_%d = order.notes.get(%q, \"\")\n", i, fmt.Sprint("n", i))
	}
	b.WriteString("    for item in order.items:\n        subtotal += item.price * item.quantity\n")
	b.WriteString("    subtotal -= subtotal * discount\n    tax = subtotal * rate\n    return subtotal + tax\n")
	return b.String()
}

// Tabby's clients send the 20 lines before the cursor: placed in the file
// on disk they give the snippets and the text of the full prefix; the same
// lines alone give others.
func TestTruncatedPrefixSameAsFull(t *testing.T) {
	repo := t.TempDir()
	for name, text := range map[string]string{
		"billing/invoice.py": invoiceFile("invoice_total"),
		"billing/quote.py":   invoiceFile("quote_total"),
		"billing/refund.py":  strings.ReplaceAll(invoiceFile("refund_total"), "tax = subtotal * rate", "tax = Decimal(\"0\")"),
	} {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	indexDir := filepath.Join(t.TempDir(), "index")
	if _, err := indexer.Build(ctx, indexer.Options{Repo: repo, IndexDir: indexDir}); err != nil {
		t.Fatal(err)
	}
	eng, err := engine.Open(indexDir, engine.Options{Root: repo})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	svc, err := server.New(Engine{Engine: eng}, server.Options{Root: repo, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.New(svc, httpapi.Options{}))
	defer srv.Close()

	lines := strings.SplitAfter(invoiceFile("invoice_total"), "\n")
	cur := len(lines) - 3 // 0-based: "    tax = subtotal * rate"
	typed := "    tax = "
	prefix := strings.Join(lines[:cur], "") + typed
	suffix := strings.TrimPrefix(lines[cur], typed) + strings.Join(lines[cur+1:], "")
	last20 := strings.Join(lines[cur-20:cur], "") + typed

	ask := func(filepath, prefix string) (snippets, text string) {
		t.Helper()
		v := askGraphcoder(t, srv.URL, map[string]any{
			"language":      "python",
			"segments":      map[string]string{"prefix": prefix, "suffix": suffix, "filepath": filepath},
			"debug_options": map[string]bool{"return_snippets": true},
		})
		if len(v.Choices) > 0 {
			text = v.Choices[0].Text
		}
		b, _ := json.Marshal(v.DebugData.Snippets)
		return string(b), text
	}
	full, fullText := ask("billing/invoice.py", prefix)
	part, partText := ask("billing/invoice.py", last20)
	if full == "null" || full == "[]" {
		t.Fatal("no snippets for the full prefix")
	}
	if part != full || partText != fullText {
		t.Fatalf("20-line prefix:\n%s %q\nfull prefix:\n%s %q", part, partText, full, fullText)
	}
	// The guard: the 20 lines alone are another query.
	if alone, _ := ask("", last20); alone == full {
		t.Fatalf("the 20 lines alone give the full prefix's snippets; the test shows nothing:\n%s", alone)
	}
	// Unsaved edits above the cursor: the fragment is used alone.
	edited := strings.Replace(last20, "note_5", "note_five", 1)
	if got, _ := ask("billing/invoice.py", edited); got == full {
		t.Fatal("a fragment the file does not hold was placed in it")
	}
}
