// Package providers is reflect's boundary to language models: the clients
// that implement the pipeline's llm.Client (scripted and replay here; real
// vendors, the call cache and the budget in their own files; the keyless
// local extractor in providers/local).
package providers
