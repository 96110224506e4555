// Package release holds the test of the release build: it runs GoReleaser
// with the repository's .goreleaser.yaml in snapshot mode (narrowed to
// linux/amd64), unpacks the .deb into a scratch root and runs the installed
// toolhub against the reference MCP server. It has no code of its own.
package release
