// Package llm holds the model endpoints toolhub calls: the registry of
// configured OpenAI-compatible chat endpoints (the orchestrator and the
// experts), their clients, prices and measured latency, and the endpoint
// served through the calling MCP client's own model (MCP sampling).
package llm
