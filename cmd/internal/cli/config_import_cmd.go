package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/config"
)

func newConfigImportCommand(g *globals) *cobra.Command {
	var only []string
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Copy the servers of another MCP client's config into toolhub's",
		Long: `Reads a Claude Desktop, Cursor, Windsurf or Claude Code file ("mcpServers"),
or a VS Code mcp.json ("servers"), and adds its servers to toolhub's config,
keeping the config's comments and layout. Servers whose name is taken, or that
run the same command or URL as one already there, are skipped and reported.
Names toolhub cannot use are changed (and reported).

No literal secret is copied: API keys and tokens in env and headers (values
such as ghp_..., sk-..., xoxb-..., AKIA..., and the values of keys such as
*_TOKEN, *_KEY, *_SECRET, *PASSWORD*, Authorization) are moved into the secret
store (see toolhub config set-secret) and the config reads ${keychain:SERVER.KEY}
instead; "Bearer <token>" becomes "Bearer ${keychain:SERVER.KEY}". On a
terminal toolhub asks first; otherwise it moves them and says so. If the store
cannot be opened, or the answer is no, nothing is written. VS Code's
${input:ID} prompts become ${keychain:SERVER.ID}: such a server stays listed
as invalid until toolhub config set-secret SERVER ID stores its value.`,
		Example: `  toolhub config import ~/.cursor/mcp.json
  toolhub config import ~/.config/Claude/claude_desktop_config.json --only filesystem,github`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := needFile(args[0], "config import", "an MCP client's JSON config file"); err != nil {
				return err
			}
			cf, err := config.ReadClientFile(args[0])
			if err != nil {
				return asUsage(err)
			}
			only = renamedOnly(only, cf.Renamed)
			printWarnings(g.stdio.Err, cf.WarningsFor(only))
			if err := checkOnly(only, cf.Servers); err != nil {
				return err
			}
			return g.addServers(cf.Servers, only, g.newSecretMover())
		},
	}
	cmd.Flags().StringSliceVar(&only, "only", nil, "import only these servers (comma-separated names, as the file has them or as renamed)")
	return cmd
}

// addServers merges servers into the config, their literal secrets moved
// into the secret store first, and prints what happened.
func (g *globals) addServers(servers map[string]config.Server, names []string, mover *secretMover) error {
	path, _, err := g.locateConfig()
	if err != nil {
		return err
	}
	plan, err := config.PlanAdd(path, servers, names)
	if err == nil {
		if err = mover.move(plan); err == nil {
			err = plan.Write()
		}
	}
	if err != nil {
		var pe *config.ProblemsError
		if errors.As(err, &pe) {
			return g.reportProblems(err)
		}
		return err
	}
	added, skipped := plan.Added, plan.Skipped
	for _, name := range added {
		fmt.Fprintf(g.stdio.Out, "added   %s\n", name)
	}
	for _, s := range skipped {
		fmt.Fprintf(g.stdio.Out, "skipped %s\n", s)
	}
	fmt.Fprintf(g.stdio.Out, "%d added to %s, %d skipped\n", len(added), path, len(skipped))
	return nil
}

// renamedOnly gives --only names as the file has them the names they were
// given here.
func renamedOnly(only []string, renamed map[string]string) []string {
	if len(only) == 0 {
		return nil // every server
	}
	out := make([]string, len(only))
	for i, name := range only {
		out[i] = name
		if to, ok := renamed[name]; ok {
			out[i] = to
		}
	}
	return out
}

// checkOnly rejects --only names the source does not have.
func checkOnly(only []string, servers map[string]config.Server) error {
	for _, name := range only {
		if _, ok := servers[name]; !ok {
			return usageError("--only %s: no such server in the file; it has%s", name, serverList(servers))
		}
	}
	return nil
}

func printWarnings(w io.Writer, warnings []string) {
	for _, warning := range warnings {
		fmt.Fprintf(w, "warning: %s\n", warning)
	}
}
