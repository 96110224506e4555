package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// refuseUnknownHelpTopics adds cobra's help command to root, made to
// answer "toolhub help WORD", where WORD names no command, with a usage
// error (exit 2) where it printed the root's help and exited 0.
func refuseUnknownHelpTopics(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	help := subcommand(root, "help")
	if help == nil {
		return
	}
	show := help.Run
	help.RunE = func(cmd *cobra.Command, args []string) error {
		target, rest, err := cmd.Root().Find(args)
		switch {
		case err != nil:
			return asUsage(err)
		case len(rest) > 0:
			return unknownCommand(target, rest[0])
		}
		show(cmd, args)
		return nil
	}
}

// refuseUnknownShells adds cobra's completion command to root, made to
// answer "toolhub completion WORD", where WORD names no shell, with a
// usage error (exit 2) where it printed its help and exited 0. Without a
// shell it prints its help.
func refuseUnknownShells(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	completion := subcommand(root, "completion")
	if completion == nil {
		return
	}
	completion.Args = cobra.ArbitraryArgs
	completion.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		var shells []string
		for _, c := range cmd.Commands() {
			shells = append(shells, c.Name())
		}
		return usageError("unknown shell %q (%s)", args[0], strings.Join(shells, ", "))
	}
}

// subcommand is c's subcommand called name, or nil.
func subcommand(c *cobra.Command, name string) *cobra.Command {
	for _, sub := range c.Commands() {
		if sub.Name() == name {
			return sub
		}
	}
	return nil
}
