package backend

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/graphcoder/graphcoder/db"
	"github.com/graphcoder/graphcoder/engine"
	"github.com/graphcoder/graphcoder/indexer"
	"github.com/graphcoder/graphcoder/server"
)

// graphcoderBinary builds the real graphcoder command once per test run
// and returns its path.
var graphcoderBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "graphcoder-bin-")
	if err != nil {
		return "", err
	}
	binDir = dir
	exe := filepath.Join(dir, "graphcoder")
	cmd := exec.Command("go", "build", "-o", exe, "github.com/graphcoder/graphcoder/cmd/graphcoder")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build graphcoder: %w\n%s", err, out)
	}
	return exe, nil
})

// binDir is the folder of the built command, removed after the tests.
var binDir string

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// The buffer the editor completes in: a file absent from the index, with
// the cursor after the indentation of its last line.
var nvimBuffer = []string{
	"def f(ledger):",
	"    for source, target, amount, memo in ledger.journal:",
	"        ",
}

const nvimScript = `
local ready = false
local client_id = vim.lsp.start_client({
  cmd = { %q, "serve", "--lsp", "--no-watch", "--repo", %q },
  root_dir = %q,
  on_init = function() ready = true end,
})
vim.wait(20000, function() return ready end, 20)
vim.cmd("edit " .. %q)
vim.api.nvim_buf_set_lines(0, 0, -1, false, { %s })
vim.lsp.buf_attach_client(0, client_id)
local res = vim.lsp.buf_request_sync(0, "textDocument/completion", {
  textDocument = vim.lsp.util.make_text_document_params(),
  position = { line = 2, character = 8 },
}, 20000)
local out = {}
for _, r in pairs(res or {}) do
  if r.err then table.insert(out, "error: " .. vim.inspect(r.err)) end
  if r.result then
    for _, item in ipairs(r.result.items or r.result) do table.insert(out, item.label) end
  end
end
vim.fn.writefile(out, %q)
vim.lsp.stop_client(client_id)
vim.cmd("qa!")
`

// TestNeovim runs a real editor, headless Neovim with its built-in LSP
// client, against the real command (graphcoder serve --lsp, built for the
// test) on the demo repository and checks the completion item it receives.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim not installed (Debian package neovim)")
	}
	repo := copyDemo(t)
	if _, err := indexer.Build(context.Background(), indexer.Options{Repo: repo}); err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(filepath.Join(repo, ".graphcoder"), db.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := engine.New(d, engine.Options{Root: repo})
	if err != nil {
		t.Fatal(err)
	}
	// What the same buffer gets from the service directly.
	svc, err := server.New(Engine{Engine: eng}, server.Options{Root: repo})
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Join(nvimBuffer, "\n") + "\n"
	want, err := svc.Complete(context.Background(), server.Query{Path: "ledger/new.py", Source: []byte(src), Line: 3, Column: 8})
	if err != nil || want.Text == "" {
		t.Fatalf("in-process completion: %+v, %v", want, err)
	}
	d.Close() // the editor's server opens the index itself

	exe, err := graphcoderBinary()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "items.txt")
	quoted := make([]string, len(nvimBuffer))
	for i, l := range nvimBuffer {
		quoted[i] = fmt.Sprintf("%q", l)
	}
	script := fmt.Sprintf(nvimScript, exe, repo, repo, filepath.Join(repo, "ledger", "new.py"), strings.Join(quoted, ", "), out)
	scriptPath := filepath.Join(t.TempDir(), "complete.lua")
	if err := os.WriteFile(scriptPath, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-c", "luafile "+scriptPath)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v", err)
	}
	items := strings.Split(strings.TrimSpace(string(got)), "\n")
	if len(items) != 1 || items[0] != want.Typed+want.Text {
		t.Fatalf("nvim got items %q, want [%q]", items, want.Typed+want.Text)
	}
	t.Logf("nvim completed %q", items[0])
}
