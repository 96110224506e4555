package config

import (
	_ "embed"
	"slices"
)

//go:embed starter.jsonc
var starter []byte

// Starter returns a commented configuration to start from: every key is
// explained in comments and the example servers are commented out, so it
// parses cleanly and starts no server.
func Starter() []byte {
	return slices.Clone(starter)
}
