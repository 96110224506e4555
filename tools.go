//go:build tools

// This file pins build-time tools in go.mod so that `go build` can make them
// from the module cache: the MCP conformance fixture server that the
// conformance tests run toolhub against.
package toolhub

import _ "github.com/mark3labs/mcp-go/examples/conformance"
