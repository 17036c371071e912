package llm_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/graphcoder/graphcoder/llm"
)

func Example() {
	// A stand-in for an Ollama server whose model runs past the block and
	// into an end token, as models do.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"model":"qwen2.5-coder:1.5b-base","response":"total += x\n    return total\n<|endoftext|>","done":true}`)
	}))
	defer srv.Close()

	b, err := llm.New(llm.Config{
		Kind:    llm.KindOllama,
		URL:     srv.URL,
		Model:   "qwen2.5-coder:1.5b-base",
		Timeout: 2 * time.Second,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	resp, err := b.Complete(context.Background(), llm.Request{
		Prefix: "def total(xs):\n    total = 0\n    for x in xs:\n        ",
		Suffix: "\n",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %q\n", b.Name(), resp.Text)
	// Output: ollama:qwen2.5-coder:1.5b-base "total += x"
}

func ExampleTemplate_Render() {
	t, _ := llm.TemplateByName("qwen-repo")
	fmt.Println(t.Render(llm.Request{
		RepoName: "acme/shop",
		Path:     "shop/cart.py",
		Snippets: []llm.Snippet{{Path: "shop/price.py", Text: "def price(item):\n    return item.cost * item.qty\n"}},
		Prefix:   "def cart_total(items):\n    return sum(",
		Suffix:   ")\n",
	}))
	// Output:
	// <|repo_name|>acme/shop
	// <|file_sep|>shop/price.py
	// def price(item):
	//     return item.cost * item.qty
	// <|file_sep|>shop/cart.py
	// <|fim_prefix|>def cart_total(items):
	//     return sum(<|fim_suffix|>)
	// <|fim_middle|>
}
