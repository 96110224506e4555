//go:build !windows

package proc

// hostEnv and hostLookup are the rules of the platform toolhub runs on.
var (
	hostEnv    = unixEnv
	hostLookup = lookupRules{env: unixEnv}
)
