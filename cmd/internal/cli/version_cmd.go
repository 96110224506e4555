package cli

import (
	"fmt"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
)

func newVersionCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the toolhub version",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprintf(g.stdio.Out, "toolhub %s (%s, %s/%s)\n",
				daemon.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return err
		},
	}
}
