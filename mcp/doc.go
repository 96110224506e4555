// Package mcp is toolhub's MCP server surface: the tools, resources and
// prompts MCP clients see over stdio or Streamable HTTP, with authentication,
// progress and cancellation. It maps hub errors to MCP results in one place.
//
// A Server re-exports the hub's catalog (Exposure: every tool directly, a
// find_tools / describe_tool / call_tool search surface, or both) with each
// downstream tool's schemas and results passed through unchanged (up to
// JSON whitespace and escaping), and
// follows catalog changes with tools/list_changed. Downstream progress and
// log notifications reach only the client whose call caused them, under
// that client's own progress token (see Relay). toolhub's own tools
// (document search, orchestrate) join the catalog as in-process servers and
// need nothing here.
//
// Over stdio (ServeStdio) toolhub runs its own connection: a tools/call of a
// catalog tool goes straight to the hub, everything else through mcp-go's
// MCPServer. Over HTTP (ListenHTTP) every request passes an Origin check and
// a bearer token, answered before its body is read, a method check, a body
// read under a deadline and a cap, and the session id checks of the
// Streamable HTTP specification, all in front of mcp-go's Host check;
// legacy-era sessions are stateful. Either way a call's notifications are
// written before its result. Snippets for client configuration files come
// from StdioSnippets, HTTPSnippets and, without the token in them,
// HTTPSnippetsForTokenFile.
package mcp
