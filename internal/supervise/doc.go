// Package supervise holds the restart rule every supervisor of a child
// shares (a downstream MCP server, the orchestrator's model server): a
// jittered, exponentially growing delay after each failure, and giving up
// once too many failures fall within a window.
package supervise
