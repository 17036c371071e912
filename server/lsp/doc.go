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
// Editors differ in what they send: a client that never opens a document
// still gets completions (from the file on disk, with its edits applied),
// the languageId names the language of a file whose name does not, and a
// client that takes work-done progress is shown the initial index build
// with $/progress (created with window/workDoneProgress/create). The open
// documents are shared with the service, so that HTTP clients sending a
// part of one are answered from the whole.
//
// A completion item's detail names the best snippet and its
// documentation shows it, followed by the repository definitions the
// prompt shows (kind, qualified name, file and line, and why they were
// chosen: package defctx).
//
// Messages are read in order and document edits are applied on the reading
// goroutine, so a completion always sees every edit sent before it; the
// completion itself runs concurrently (see package server/jsonrpc).
package lsp
