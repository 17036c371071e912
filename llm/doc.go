// Package llm sends a completion request, built from the code around the
// cursor and the code graphcoder retrieved from the repository, to a language
// model served over HTTP, and turns the answer into text ready to insert.
//
// Retrieval is graphcoder's job; generation is the model's. This package is
// the narrow seam between the two, so that the command line, the editor
// server and the benchmark share one way of asking a model and one
// configuration that says which model to ask.
//
// # Backends
//
// Three wire formats cover the servers people run locally:
//
//   - "openai": POST /v1/completions with prompt and suffix (vLLM, llama.cpp,
//     LocalAI, and OpenAI-compatible hosted services).
//   - "llamacpp": POST /infill of the llama.cpp server, which knows the model's
//     own fill-in-the-middle tokens and takes the retrieved snippets as
//     input_extra files; with a template it uses POST /completion instead.
//   - "ollama": POST /api/generate, with suffix so that the model's own
//     template arranges the fill-in-the-middle tokens, or raw with a template.
//
// Kind "none" (or no kind) configures no model: its Complete fails with
// ErrNoBackend, and callers fall back to the model-free prediction.
//
// # Templates
//
// A server that only continues text needs the fill-in-the-middle prompt
// spelled out in the model's special tokens. Template renders a Request for
// StarCoder, CodeLlama, DeepSeek-Coder and Qwen2.5-Coder, the last also in
// its repository layout, where each retrieved snippet becomes a file of the
// repository named before the file being edited. The special tokens are
// exact strings; a wrong character silently turns them into ordinary text,
// which is why they are spelled once, here, and tested byte for byte.
//
// # Post-processing
//
// Models rarely stop where an editor wants them to. Every backend cuts the
// answer at the first fill-in-the-middle end token and at the request's stop
// strings, then either at the end of the line (line mode) or where the
// indentation returns below the cursor's line (block mode): the completion
// finishes the statement or block the cursor is in, not the file. Line mode
// also sends the newline as a stop string, so that the server stops
// generating where the answer would be cut anyway.
//
// # Configuration
//
// Config is read from a JSON file (LoadConfig), from flags (AddFlags, which
// also takes --llm-config and lets flags override the file), or built in
// code. The API key is never stored: the configuration names the
// environment variable that holds it.
//
//	{"kind": "llamacpp", "url": "http://127.0.0.1:8080", "timeout": "2s", "stop_at_line_end": true}
//
// # Failures
//
// Completion sits on the editor's critical path, so every call is bounded by
// a timeout carried in its context, and every error says why: the HTTP
// status and an excerpt of the body (HTTPError), the deadline that passed
// (wrapping context.DeadlineExceeded), or the JSON that would not decode.
// The package never retries; whether to wait longer or fall back is the
// caller's decision.
package llm
