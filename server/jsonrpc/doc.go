// Package jsonrpc is a small JSON-RPC 2.0 endpoint over a byte stream with
// the Language Server Protocol's Content-Length framing.
//
// It is written here rather than taken from go.lsp.dev/jsonrpc2 because the
// server speaks a handful of messages and needs exact control over three
// things a general library decides for us: handlers run in two phases (a
// cheap one in arrival order, so a completion sees every edit sent before
// it, then the expensive one concurrently under a parallelism bound), each
// request's context is cancelled by $/cancelRequest, and a malformed,
// oversized or panicking message is answered with an error without ending
// the connection. That is a few hundred lines with no dependency to track.
package jsonrpc
