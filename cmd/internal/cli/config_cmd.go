package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/config"
)

func newConfigCommand(g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Find, create, check and fill toolhub's config file",
		Long: `The config file lists the MCP servers toolhub aggregates, in Claude Desktop's
"mcpServers" JSON shape plus a few toolhub keys, and may contain comments.
It is looked up in --config, then $TOOLHUB_CONFIG, then toolhub/config.json in
the user config directory.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(
		newConfigPathCommand(g),
		newConfigInitCommand(g),
		newConfigCheckCommand(g),
		newConfigImportCommand(g),
		newConfigDiscoverCommand(g),
	)
	return cmd
}

// loadConfig finds and reads the config; any problem is a usage error.
func (g *globals) loadConfig() (*config.File, error) {
	return g.loadConfigWith(config.Load)
}

// loadServeConfig is loadConfig for the commands that run the hub: a
// server entry with problems is listed as invalid and the rest start.
func (g *globals) loadServeConfig() (*config.File, error) {
	return g.loadConfigWith(config.LoadServe)
}

func (g *globals) loadConfigWith(load func(path, source string) (*config.File, error)) (*config.File, error) {
	path, source, err := config.Locate(g.configPath)
	if err != nil {
		return nil, asUsage(err)
	}
	f, err := load(path, source)
	if err != nil {
		return nil, asUsage(err)
	}
	return f, nil
}

func newConfigPathCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "path",
		Short: "Print where the config file is",
		Long: `Prints the config file's path on stdout, and on stderr where the path came
from (--config, $TOOLHUB_CONFIG or the default location) and whether the file
exists, so that "$EDITOR $(toolhub config path)" works.`,
		Example: "  toolhub config path\n  toolhub --config ./dev.json config path",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			path, source, err := config.Locate(g.configPath)
			if err != nil {
				return asUsage(err)
			}
			state := "exists"
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				state = "does not exist yet"
			}
			fmt.Fprintln(g.stdio.Out, path)
			fmt.Fprintf(g.stdio.Err, "%s; %s\n", config.DescribeSource(source), state)
			return nil
		},
	}
}

func newConfigInitCommand(g *globals) *cobra.Command {
	var force bool
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Write a commented starter config",
		Long: `Writes a starter config to the config path: every key is explained in
comments and the example servers are commented out. An existing file is kept
unless --force is given.`,
		Example: "  toolhub config init\n  toolhub --config ./dev.json config init --force",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			path, _, err := config.Locate(g.configPath)
			if err != nil {
				return asUsage(err)
			}
			if _, err := os.Stat(path); err == nil && !force {
				return usageError("%s already exists; --force overwrites it", path)
			}
			if err := config.WriteFileAtomic(path, config.Starter(), 0o600); err != nil {
				return err
			}
			fmt.Fprintf(g.stdio.Out, "wrote %s\n", path)
			return nil
		},
	}
	cmd.Flags().BoolVar(&force, "force", false, "overwrite an existing config")
	return cmd
}

func newConfigCheckCommand(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "Validate the config file",
		Long: `Reads the config and prints every problem as file:line:column: message (exit
status 2), including ${VAR} references in env and headers whose variable is
not set. Values of variables are never printed. Prints "ok: N servers (names)"
when there is nothing to fix.`,
		Example: "  toolhub config check\n  toolhub --config ./dev.json config check",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			path, source, err := config.Locate(g.configPath)
			if err != nil {
				return asUsage(err)
			}
			f, err := config.Load(path, source)
			if err == nil {
				_, err = f.Specs(os.LookupEnv)
			}
			if err != nil {
				return g.reportProblems(err)
			}
			fmt.Fprintf(g.stdio.Out, "ok: %d servers%s\n", len(f.MCPServers), serverList(f.MCPServers))
			if len(f.MCPServers) == 0 {
				fmt.Fprintln(g.stdio.Err, "add servers with `toolhub config discover`, `toolhub config import FILE` or an editor")
			}
			return nil
		},
	}
}

// reportProblems prints a config's problems on stdout, one per line.
func (g *globals) reportProblems(err error) error {
	var pe *config.ProblemsError
	if !errors.As(err, &pe) {
		return asUsage(err)
	}
	fmt.Fprintln(g.stdio.Out, pe.Error())
	return usageError("%d problem(s) in the config", len(pe.Problems))
}

// serverList prints " (a, b, c [disabled])" for a listing, or "".
func serverList(servers map[string]config.Server) string {
	if len(servers) == 0 {
		return ""
	}
	return " (" + config.NameList(servers) + ")"
}

func newConfigImportCommand(g *globals) *cobra.Command {
	var only []string
	cmd := &cobra.Command{
		Use:   "import FILE",
		Short: "Copy the servers of another MCP client's config into toolhub's",
		Long: `Reads a Claude Desktop, Cursor, Windsurf or Claude Code file ("mcpServers"),
or a VS Code mcp.json ("servers"), and adds its servers to toolhub's config,
keeping the config's comments and layout. Servers whose name is taken, or that
run the same command or URL as one already there, are skipped and reported.
Names toolhub cannot use are changed (and reported). VS Code's ${input:...}
prompts are copied as written: replace them with ${VAR} references before use.`,
		Example: `  toolhub config import ~/.cursor/mcp.json
  toolhub config import ~/.config/Claude/claude_desktop_config.json --only filesystem,github`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			cf, err := config.ReadClientFile(args[0])
			if err != nil {
				return asUsage(err)
			}
			printWarnings(g.stdio.Err, cf.Warnings)
			if err := checkOnly(only, cf.Servers); err != nil {
				return err
			}
			return g.addServers(cf.Servers, only)
		},
	}
	cmd.Flags().StringSliceVar(&only, "only", nil, "import only these servers (comma-separated names)")
	return cmd
}

// addServers merges servers into the config and prints what happened.
func (g *globals) addServers(servers map[string]config.Server, names []string) error {
	path, _, err := config.Locate(g.configPath)
	if err != nil {
		return asUsage(err)
	}
	added, skipped, err := config.AddServers(path, servers, names)
	if err != nil {
		var pe *config.ProblemsError
		if errors.As(err, &pe) {
			return g.reportProblems(err)
		}
		return err
	}
	for _, name := range added {
		fmt.Fprintf(g.stdio.Out, "added   %s\n", name)
	}
	for _, s := range skipped {
		fmt.Fprintf(g.stdio.Out, "skipped %s\n", s)
	}
	fmt.Fprintf(g.stdio.Out, "%d added to %s, %d skipped\n", len(added), path, len(skipped))
	return nil
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
command or URL, are skipped.`,
		Example: `  toolhub config discover
  toolhub config discover --json
  toolhub config discover --all
  toolhub config discover --only cursor,claude-desktop:filesystem`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			found := config.Discover(config.HostDiscoverEnv())
			if !all && only == nil {
				if asJSON {
					return writeJSON(g.stdio.Out, found)
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
			for _, f := range picked {
				fmt.Fprintf(g.stdio.Out, "from %s (%s):\n", f.Client, f.Path)
				printWarnings(g.stdio.Err, f.Warnings)
				if err := g.addServers(f.Servers, nil); err != nil {
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
