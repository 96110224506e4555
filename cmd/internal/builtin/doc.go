// Package builtin holds toolhub's own tool providers. Each is an in-process
// MCP server that the hub aggregates like any downstream server, so built-in
// tools are listed, validated, measured and guarded the same way.
package builtin
