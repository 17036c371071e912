// Package backend connects the completion service of package server to
// graphcoder's own packages: the retrieval engine (package engine) as a
// [server.Completer], a model backend (package llm) as a
// [server.Generator], and an incremental re-index of the repository into
// the open index (package db) for the live index.
//
// The server packages depend on their own narrow interfaces (and on the
// indexer's file rules, which every command shares) so that their protocol
// tests run with fakes; this package is the one place that knows both
// sides.
package backend
