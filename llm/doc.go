// Package llm holds the model endpoints toolhub calls: the registry of
// configured OpenAI-compatible chat endpoints (the orchestrator and the
// experts), their clients, prices and measured latency, the endpoint
// served through the calling MCP client's own model (MCP sampling), and the
// token counts of an endpoint's own tokenizer (/tokenize) for prompt cuts.
package llm
