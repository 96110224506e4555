package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// Stdio is the terminal the command line talks to.
type Stdio struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
}

// globals are the flags every subcommand shares.
type globals struct {
	configPath string
	logLevel   string
	logFile    string
	logOut     *os.File // the open --log-file, closed when Main returns
	stdio      Stdio
	// openBrowser opens a sign-in URL; nil means the system's browser.
	openBrowser func(ctx context.Context, url string) error
}

// Main runs the toolhub command line with args and returns the exit status.
func Main(ctx context.Context, args []string, stdio Stdio) int {
	g := &globals{stdio: stdio}
	root := newRootCommand(g)
	// Never nil: cobra reads a nil list as "use os.Args", which in a test
	// is the test binary's own flags.
	root.SetArgs(append([]string{}, args...))
	err := root.ExecuteContext(ctx)
	if g.logOut != nil {
		_ = g.logOut.Close()
	}
	if err != nil && !alreadyShown(err) {
		fmt.Fprintln(stdio.Err, "toolhub: "+err.Error())
	}
	return exitCode(err)
}

func newRootCommand(g *globals) *cobra.Command {
	root := &cobra.Command{
		Use:   "toolhub",
		Short: "One MCP server over all your MCP servers, private documents and models",
		Long: `toolhub is a local MCP hub. MCP clients (Claude Desktop, Cursor, VS Code,
Claude Code) connect to it as one server and get every tool of the MCP servers
listed in its config, named server__tool, beside toolhub's own tools (python,
search_documents, ...), which keep their bare names; toolhub tools lists both.

The config file is Claude Desktop's "mcpServers" JSON with a few extra keys per
server. It is looked up in --config, then $TOOLHUB_CONFIG, then the user config
directory (` + "`toolhub config path`" + ` prints which). Without one, toolhub
starts with no downstream servers.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			return g.setupLogging()
		},
	}
	root.PersistentFlags().StringVar(&g.configPath, "config", "", "config file (default $TOOLHUB_CONFIG or the user config dir)")
	root.PersistentFlags().StringVar(&g.logLevel, "log-level", "warn", "log level (on stderr, or in the --log-file): debug, info, warn, error")
	root.PersistentFlags().StringVar(&g.logFile, "log-file", "", "append logs to this file instead of stderr (made if missing; moved to FILE.1 at start once past 10 MiB)")
	// Set before the completion command is added: its scripts go to the
	// output it finds then.
	root.SetIn(g.stdio.In)
	root.SetOut(g.stdio.Out)
	root.SetErr(g.stdio.Err)
	root.SetFlagErrorFunc(flagError)
	addVersionFlag(root)
	root.AddCommand(
		newServeCommand(g),
		newConfigCommand(g),
		newServersCommand(g),
		newToolsCommand(g),
		newCallCommand(g),
		newRunCommand(g),
		newRunsCommand(g),
		newModelCommand(g),
		newIndexCommand(g),
		newSearchCommand(g),
		newBenchCommand(g),
		newEvalCommand(g),
		newVersionCommand(g),
		newServiceCommand(g),
		newAuthCommand(g),
	)
	refuseUnknownHelpTopics(root)
	refuseUnknownShells(root)
	refuseUnknownSubcommands(root)
	for _, c := range root.Commands() {
		wrapArgs(c)
	}
	return root
}

// refuseUnknownSubcommands makes every command that only groups others
// (toolhub, toolhub index, ...) answer a word that names none of them with
// a usage error (exit 2) and cobra's suggestions, where cobra printed the
// help and exited 0, so that a mistyped subcommand never "succeeds" in a
// script. Without arguments such a command prints its help.
func refuseUnknownSubcommands(c *cobra.Command) {
	for _, sub := range c.Commands() {
		refuseUnknownSubcommands(sub)
	}
	if !c.HasSubCommands() || c.Runnable() {
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.SuggestionsMinimumDistance = 2 // cobra's own default, which SuggestionsFor does not apply
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return cmd.Help()
		}
		return unknownCommand(cmd, args[0])
	}
}

// unknownCommand is the usage error for a word that names no subcommand
// of cmd, with cobra's suggestions.
func unknownCommand(cmd *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q for %q", word, cmd.CommandPath())
	if s := cmd.SuggestionsFor(word); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return usageError("%s (see %s --help)", msg, cmd.CommandPath())
}

// wrapArgs turns cobra's positional-argument errors into usage errors.
func wrapArgs(c *cobra.Command) {
	if c.Args != nil {
		check := c.Args
		c.Args = func(cmd *cobra.Command, args []string) error { return asUsage(check(cmd, args)) }
	}
	for _, sub := range c.Commands() {
		wrapArgs(sub)
	}
}

func (g *globals) setupLogging() error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(g.logLevel)); err != nil {
		return usageError("--log-level %q: want debug, info, warn or error", g.logLevel)
	}
	// Logs go to stderr or the log file, never stdout: in stdio mode it
	// carries the protocol.
	out := g.stdio.Err
	if g.logFile != "" {
		f, err := openLogFile(g.logFile)
		if err != nil {
			return usageError("--log-file %s: %v", g.logFile, err)
		}
		g.logOut, out = f, f
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(out, &slog.HandlerOptions{Level: level})))
	return nil
}

func (g *globals) logger() *slog.Logger { return slog.Default() }

// isTerminal reports whether w is an interactive terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
