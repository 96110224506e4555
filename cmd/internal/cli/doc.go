// Package cli is the toolhub command line: one cobra command per subcommand,
// the exit-status rules and every piece of user-facing terminal output.
package cli
