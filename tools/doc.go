// Package tools holds toolhub's own tools: document search and indexing over
// the local retriever, a sandboxed python interpreter and web search. Each is
// an in-process MCP server that the hub aggregates like any downstream
// server, so built-in tools are listed, validated, measured and guarded the
// same way.
package tools
