// Package httpapi serves graphcoder completions over HTTP in the shape of
// Tabby's server API, so that Tabby's editor plugins and its agent talk to
// graphcoder unchanged:
//
//	POST /v1/completions      Tabby's CompletionRequest, every field:
//	                          {"language", "segments": {"prefix", "suffix", "filepath", "git_url",
//	                           "declarations", "relevant_snippets_from_changed_files",
//	                           "relevant_snippets_from_recently_opened_files", "clipboard"},
//	                           "user", "temperature", "seed", "mode",
//	                           "debug_options": {"raw_prompt", "return_snippets", "return_prompt",
//	                           "disable_retrieval_augmented_code_completion"}}
//	                       -> {"id": "cmpl-<uuid>", "choices": [{"index", "text"}],
//	                           "debug_data": {"snippets", "definitions", "prompt"}}
//	POST /v1/events           {"type": "view"|"select"|"dismiss", "completion_id", "choice_index"}
//	GET  /v1/health           Tabby's fields (model, device, arch, cpu_info, cpu_count,
//	                          cuda_devices, version) and graphcoder's (root, generation,
//	                          events and their acceptance rate, reindexing, ...)
//	GET  /v1beta/server_setting {"disable_client_side_telemetry": true}
//
// Why each rule:
//
//   - Tabby's clients send what they know, which is often little: the
//     agent in LSP mode sends the language and the last 20 lines before
//     the cursor and the first 20 after it, no file path. So filepath is
//     optional (the code is then parsed alone, in the language named), and
//     when it is given, the fragment is placed in the file it was cut from
//     (the buffer open in graphcoder's LSP server, or the file on disk) so
//     that retrieval sees the whole file above the cursor, as it would
//     from a full prefix; a fragment with unsaved edits is used alone.
//   - What the client gathered (declarations, snippets of changed and
//     recently opened files, the clipboard) competes with retrieval for
//     one token budget in the context assembler (package prompt),
//     declarations first.
//   - graphcoder adds what it finds itself: the retrieved snippets and the
//     repository definitions of the APIs the code reads or probably calls
//     (package defctx); debug_data.definitions lists the definitions, each
//     with its path, line, name, kind, origin, reason and whether the
//     prompt shows it.
//   - A client that writes CRLF gets CRLF back; the text is handled with
//     LF in between.
//   - Every request, good or bad, is one line of the request log, with the
//     reason a client got a 4xx; every bad request gets a 4xx and the
//     reason in the body, and the server keeps serving.
//   - The health answer carries a version.git_describe (see
//     [TabbyAPIVersion]) by which Tabby's clients decide to ask
//     /v1beta/server_setting, which tells them to send no usage data.
//
// The server is meant for loopback: it limits request size, refuses paths
// outside the repository, bounds every request in time and recovers from a
// panic in one request without affecting the others.
package httpapi
