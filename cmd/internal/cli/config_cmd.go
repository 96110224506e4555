package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
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
		newConfigSetSecretCommand(g),
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
	path, source, err := g.locateConfig()
	if err != nil {
		return nil, err
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
			path, _, err := g.locateConfig()
			if err != nil {
				return err
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
status 2). That covers the server entries, including ${VAR} references in env
and headers whose variable is not set and ${keychain:NAME} references whose
secret is not set (with the toolhub config set-secret command that sets it),
and the models, orchestrator, python and webSearch sections. Values are never
printed. serve runs with the rest: it leaves out a server entry, a model
entry, an orchestrator key, or a python, webSearch or documents section with
a problem, and a top-level key it does not know, and logs why.
Prints "ok: N servers (names)" when there is nothing to fix, and warns on
stderr of each stdio server whose command is on no PATH entry (toolhub's
PATH, or the PATH in the server's env) or is an absolute path where there is
no file.`,
		Example: "  toolhub config check\n  toolhub --config ./dev.json config check",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			path, source, err := g.locateConfig()
			if err != nil {
				return err
			}
			f, specs, err := g.checkConfig(path, source)
			if err != nil {
				return g.reportProblems(err)
			}
			fmt.Fprintf(g.stdio.Out, "ok: %s%s\n", conductor.Count(len(f.MCPServers), "server"), serverList(f.MCPServers))
			g.warnMissingCommands(specs)
			if len(f.MCPServers) == 0 {
				fmt.Fprintln(g.stdio.Err, "add servers with `toolhub config discover`, `toolhub config import FILE` or an editor")
			}
			return nil
		},
	}
}

// checkConfig reads the config as serve does, keeping bad server entries
// aside, so that the problems of every entry come out together with the
// ${VAR} and ${keychain:NAME} references of the others that cannot be
// expanded. A file serve would refuse as a whole is read again strictly,
// for every problem of its structure.
func (g *globals) checkConfig(path, source string) (*config.File, []hub.ServerSpec, error) {
	f, err := config.LoadServe(path, source)
	if err != nil {
		if _, strict := config.Load(path, source); strict != nil {
			err = strict
		}
		return nil, nil, config.MergeProblems(err, checkSections(f, path))
	}
	specs, err := f.SpecsFrom(config.Lookup{Env: os.LookupEnv, Secrets: g.configSecrets()})
	var leftOut error // what serve leaves out of the file: config check reports it
	if len(f.LeftOut) > 0 {
		leftOut = &config.ProblemsError{Problems: f.LeftOut}
	}
	return f, specs, config.MergeProblems(err, leftOut, checkSections(f, path))
}

// checkSections reports the problems of the models, orchestrator, python
// and webSearch sections, which serve leaves out; nil when the file cannot
// be read (its own error says why).
func checkSections(f *config.File, path string) error {
	if f != nil {
		path = f.Path
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return config.CheckSections(path, data)
}

// warnMissingCommands warns on stderr of each stdio server whose command
// is on no PATH entry here, or is no program at the path given. It is a
// warning, not a problem: a program that starts toolhub (an MCP client, a
// service manager) may give it another PATH, or install the program later.
func (g *globals) warnMissingCommands(specs []hub.ServerSpec) {
	for _, spec := range specs {
		if problem, hint := hub.CommandProblem(spec); problem != "" {
			fmt.Fprintf(g.stdio.Err, "warning: server %q: %s, so it would fail to start; %s\n", spec.Name, problem, hint)
		}
	}
}

// reportProblems prints a config's problems on stdout, one per line.
func (g *globals) reportProblems(err error) error {
	var pe *config.ProblemsError
	if !errors.As(err, &pe) {
		return asUsage(err)
	}
	fmt.Fprintln(g.stdio.Out, pe.Error())
	return usageError("%s in the config", conductor.Count(len(pe.Problems), "problem"))
}

// serverList prints " (a, b, c [disabled])" for a listing, or "".
func serverList(servers map[string]config.Server) string {
	if len(servers) == 0 {
		return ""
	}
	return " (" + config.NameList(servers) + ")"
}
