package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/config"
)

func newConfigDiscoverCommand(g *globals) *cobra.Command {
	var all, asJSON bool
	var only []string
	cmd := &cobra.Command{
		Use:   "discover",
		Short: "Find the MCP servers other clients already use, and import them",
		Long: `Looks for the MCP config files of Claude Desktop, Cursor, VS Code, Claude Code
and Windsurf, user-wide and in the current directory, and lists their servers
(env and header values are never shown). --all imports every server found;
--only imports some: "client" for all of one client's servers, or
"client:name". Servers already in toolhub's config, by name or by the same
command or URL, are skipped. Literal secrets are moved into the secret store
and VS Code inputs become ${keychain:...} references, as with toolhub config
import; on a terminal toolhub asks once for the whole run.`,
		Example: `  toolhub config discover
  toolhub config discover --json
  toolhub config discover --all
  toolhub config discover --only cursor,claude-desktop:filesystem`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			found := config.Discover(config.HostDiscoverEnv())
			if !all && only == nil {
				if asJSON {
					return writeJSONList(g.stdio.Out, found)
				}
				g.printFound(found)
				return nil
			}
			if asJSON {
				return usageError("--json only lists; leave it out to import with --all or --only")
			}
			picked, err := config.SelectFound(found, only)
			if err != nil {
				return asUsage(err)
			}
			if len(picked) == 0 {
				fmt.Fprintln(g.stdio.Out, "nothing to import: no MCP config of Claude Desktop, Cursor, VS Code, Claude Code or Windsurf found")
				return nil
			}
			mover := g.newSecretMover()
			for _, f := range picked {
				fmt.Fprintf(g.stdio.Out, "from %s (%s):\n", f.Client, f.Path)
				printWarnings(g.stdio.Err, f.Warnings)
				if err := g.addServers(f.Servers, nil, mover); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&all, "all", false, "import every server found")
	cmd.Flags().StringSliceVar(&only, "only", nil, "import these: client or client:name, comma-separated")
	cmd.Flags().BoolVar(&asJSON, "json", false, "list as JSON")
	return cmd
}

// printFound lists discovered files and their servers.
func (g *globals) printFound(found []config.Found) {
	out := g.stdio.Out
	if len(found) == 0 {
		fmt.Fprintln(out, "no MCP config of Claude Desktop, Cursor, VS Code, Claude Code or Windsurf found")
		return
	}
	for _, f := range found {
		fmt.Fprintf(out, "%s  %s\n", f.Client, f.Path)
		if f.Err != nil {
			fmt.Fprintf(out, "    error: %s\n", oneLine(f.Err.Error(), 200))
		}
		for _, s := range config.SummarizeAll(f.Servers) {
			what := s.URL
			if s.Command != "" {
				what = strings.Join(append([]string{s.Command}, s.Args...), " ")
			}
			fmt.Fprintf(out, "    %-28s %s\n", f.Client+":"+s.Name, oneLine(what, 70))
		}
		for _, w := range f.Warnings {
			fmt.Fprintf(out, "    warning: %s\n", w)
		}
	}
	fmt.Fprintln(g.stdio.Err, "import with: toolhub config discover --all, or --only client:name,...")
}
