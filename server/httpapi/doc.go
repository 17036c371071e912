// Package httpapi serves graphcoder completions over HTTP in the shape of
// Tabby's completion API, so editor plugins written for Tabby can talk to
// graphcoder unchanged:
//
//	POST /v1/completions  {"language", "segments": {"prefix", "suffix", "filepath"},
//	                       "debug_options": {"return_snippets", "return_prompt"}}
//	                   -> {"id", "choices": [{"index", "text"}],
//	                       "debug_data": {"snippets", "prompt"}}
//	GET  /v1/health    -> {"status", "root", "generation", "reindexing", ...}
//
// The cursor is where prefix ends; the buffer is prefix+suffix, so
// completions see unsaved text. The server is meant for loopback: it
// limits request size, refuses paths outside the repository, bounds every
// request in time and recovers from a panic in one request without
// affecting the others.
package httpapi
