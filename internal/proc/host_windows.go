//go:build windows

package proc

// host is the rules of the platform toolhub runs on: its environment and
// how a command is found in it.
var host = lookupRules{env: windowsEnv, windows: true}
