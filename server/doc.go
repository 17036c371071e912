// Package server turns a graphcoder index into a completion backend for
// editors: the protocol-neutral core shared by the LSP (package server/lsp)
// and HTTP (package server/httpapi) front ends.
//
// An editor asks for a completion on every pause in typing, so the core is
// built around the facts of that workload:
//
//   - Most requests repeat: the cursor sits on the same line while the user
//     types, and retrieval depends only on the lines before that line and
//     the rest of the file. [Service] therefore caches results in an LRU
//     keyed by (index generation, path, line, hash of the buffer without the
//     line being typed), and derives the text to insert from the cached
//     prediction and what has been typed so far.
//
//   - Latency matters more than the last bit of ranking quality. A retrieval
//     budget (default 100 ms) travels with every request to the [Completer],
//     which answers with the best result found when it runs out. This is
//     distinct from cancellation: a cancelled request is abandoned and gets
//     no answer, a request over budget gets a good-enough one.
//
//   - The repository changes under the server. [Live] debounces change
//     notifications (from a file watcher and from the editor's saves),
//     re-indexes just the changed paths through an injected function and
//     then hands the paths whose entries changed to [Service.Update], which
//     asks an [Updater] completer to layer them over its loaded index (a
//     whole-index reload takes seconds; this takes milliseconds); queries
//     keep using the old snapshot meanwhile, and the cache is invalidated by
//     the generation bump. The watcher takes its folder rules from the
//     caller, so that it leaves out exactly what the indexer does.
//
//   - Clients send what they have. Tabby's send the lines around the cursor
//     and sometimes no path; a [Query] says so (Partial) and the service
//     places the fragment in the buffer open in the editor (shared by the
//     LSP front end) or the file on disk, so that retrieval sees the whole
//     file above it ([Place]), or completes it alone when neither holds it.
//     What the client gathered (declarations, snippets, the clipboard)
//     travels with the query to the context assembler.
//
//   - The servers start before the index is ready: [Later] answers
//     [ErrNotReady] until the index is loaded, and [Progress] tells LSP
//     clients how the build goes.
//
//   - Every request is one line of the [RequestLog] (text or JSON): what
//     was asked, what it cost per stage, what answered it, and why a
//     request failed.
//
// A model backend is optional: with a [Generator] configured the service asks
// it for the completion text, and when it is absent, fails or is slow the
// answer falls back to the model-free prediction and the reason is logged.
package server
