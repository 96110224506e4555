// Package hub is toolhub's environment: it supervises the downstream MCP
// servers, keeps the merged tool catalog, validates and routes calls, and
// measures what every call costs in time and failures.
//
// hub imports none of toolhub's other packages; everything it needs arrives
// through its constructor's options.
package hub
