// Package desktopmain is the command-line glue of toolhub-desktop: its
// flags, the daemon it runs in-process with the MCP HTTP endpoint, and the
// window shown over the daemon's backend.
package desktopmain
