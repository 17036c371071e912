// Package lsp serves graphcoder completions to editors over the Language
// Server Protocol on a byte stream (stdio in practice).
//
// The server implements only what a completion backend needs: the
// initialize/shutdown/exit lifecycle, document synchronisation (open,
// full and incremental change, save, close) so that completions use the
// unsaved buffer, textDocument/completion, and the LSP 3.18
// textDocument/inlineCompletion that editors show as ghost text. Positions
// are converted between the negotiated encoding (UTF-16 by default, UTF-8
// or UTF-32 when the client offers them) and byte offsets in one place,
// text.go, because an off-by-one there silently corrupts every later
// incremental edit.
//
// Messages are read in order and document edits are applied on the reading
// goroutine, so a completion always sees every edit sent before it; the
// completion itself runs concurrently (see package server/jsonrpc).
package lsp
