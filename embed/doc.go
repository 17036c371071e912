// Package embed holds what dense retrieval shares between the build, the
// index and the query (spec section 9): the Embedder a model server
// answers through, the 8-bit Vector form embeddings are stored and
// compared in, and the text of a slice that is embedded.
//
// An entry's embedding is of its context sequence slice: the texts of the
// slice's statements other than the target, in slice order, one per line
// (SliceText); a query's is of the same text of its own slice, so both
// sides of an inner product see the same kind of input. The model servers
// (OpenAI-compatible, Ollama, llama.cpp) are reached through package llm;
// the vectors are stored by package db and searched by package retrieve.
package embed
