package cli

import (
	"fmt"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/hub"
)

func newServersCommand(g *globals) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "servers",
		Short: "Show the downstream servers and their state",
		Long: `Connects to every enabled server in the config, waits until each is ready or
has failed, and prints one line per server: name, transport, locality, state,
tool count and the last error. A server whose config entry cannot be used is
listed as invalid, with its problem (file:line:col) in full below the table; a
remote server that cannot be reached is retrying, with the wait before its next
try; one that asks for OAuth sign-in is needs-sign-in until toolhub auth login
NAME is run. A failed server's stderr tail is shown below the table (and in full with
--json).`,
		Example: "  toolhub servers\n  toolhub servers --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			d, err := g.startSettled(cmd.Context())
			if err != nil {
				return err
			}
			defer d.Close()
			sts := d.Hub().Servers()
			if asJSON {
				return writeJSON(g.stdio.Out, sts)
			}
			if len(sts) == 0 {
				fmt.Fprintln(g.stdio.Out, "no servers configured (toolhub config path shows where the config lives)")
				return nil
			}
			t := newTable(g.stdio.Out, "NAME", "TRANSPORT", "LOCALITY", "STATE", "TOOLS", "LAST ERROR")
			for _, st := range sts {
				t.row(st.Name, orWord(string(st.Transport), "-"), orWord(string(st.Locality), "-"), string(st.State),
					strconv.Itoa(st.Tools), oneLine(st.Detail(), 70))
			}
			if err := t.flush(); err != nil {
				return err
			}
			for _, st := range sts {
				if st.State == hub.StateInvalid {
					fmt.Fprintf(g.stdio.Out, "\n%s is invalid: %s\n", st.Name, st.LastError)
				}
				if st.StderrTail != "" && st.LastError != "" {
					fmt.Fprintf(g.stdio.Out, "\n%s stderr (last lines):\n%s\n", st.Name, st.StderrTail)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
