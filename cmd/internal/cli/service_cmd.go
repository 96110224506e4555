package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/toolhub/toolhub/mcp"
	"github.com/toolhub/toolhub/service"
)

// serviceStopGrace is how long a stopped service run gives its command to
// exit before killing it.
const serviceStopGrace = 10 * time.Second

// newService builds the platform's service manager and serviceExecutable
// finds the binary it runs; tests replace both.
var (
	newService        = service.New
	serviceExecutable = findServiceExecutable
)

func newServiceCommand(g *globals) *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "service",
		Short: "Run the HTTP hub as a background service of this user",
		Long: `Installs "toolhub serve --http" as a service that starts when you log in and
starts again when it fails, with this config file (--config, $TOOLHUB_CONFIG or
the default location, as an absolute path) and this toolhub binary:

  Linux    a systemd user unit, $XDG_CONFIG_HOME/systemd/user/toolhub.service
           (~/.config/...); logs: journalctl --user -u toolhub
  macOS    a launchd agent, ~/Library/LaunchAgents/` + service.Label + `.plist;
           logs: ~/Library/Logs/toolhub/toolhub.log
  Windows  a scheduled task "toolhub" run at logon, with no time limit and
           also on battery power; it runs "toolhub service run", which
           starts serve again when it fails;
           logs: %LOCALAPPDATA%\toolhub\toolhub.log (--log-file)

No root rights are needed. Install again after moving the binary or the
config; uninstall keeps the config, the token and the logs.`,
		Example: `  toolhub service install
  toolhub --config ~/work/toolhub.json service install --http=127.0.0.1:9000
  toolhub service status
  toolhub service uninstall`,
	}
	install := &cobra.Command{
		Use:   "install",
		Short: "Write, enable and start the service",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.serviceInstall(cmd.Context(), addr)
		},
	}
	install.Flags().StringVar(&addr, "http", mcp.DefaultHTTPAddr, "address the service serves MCP on")
	uninstall := &cobra.Command{
		Use:   "uninstall",
		Short: "Stop, disable and remove the service",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			m, err := g.serviceManager(nil)
			if err != nil {
				return err
			}
			if err := m.Uninstall(cmd.Context()); err != nil {
				return err
			}
			_, err = fmt.Fprintln(g.stdio.Out, "toolhub service removed")
			return err
		},
	}
	var asJSON bool
	status := &cobra.Command{
		Use:   "status",
		Short: "Say whether the service is installed and running, and where its logs go",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return g.serviceStatus(cmd.Context(), asJSON)
		},
	}
	status.Flags().BoolVar(&asJSON, "json", false, "print a JSON object: installed, state, file, logs")
	run := &cobra.Command{
		Use:   "run -- TOOLHUB-ARGUMENTS...",
		Short: "Run a toolhub command and start it again whenever it fails",
		Long: `Runs this toolhub binary with the arguments after --, and starts it again
whenever it exits with a failure, after a wait that grows from 1 second to 1
minute and starts over once a run has lasted a minute. It returns when the
command exits cleanly, and stops the command when it is interrupted. Its output
goes where run's logs go (--log-file).

The Windows scheduled task runs this, since Task Scheduler does not start a
failed program again; systemd and launchd do that themselves.`,
		Example: `  toolhub --log-file hub.log service run -- --config ~/toolhub.json serve --http=127.0.0.1:8765`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return g.serviceRun(cmd.Context(), args)
		},
	}
	cmd.AddCommand(install, uninstall, status, run)
	return cmd
}

// serviceRun keeps this binary running with args (service run).
func (g *globals) serviceRun(ctx context.Context, args []string) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the toolhub binary: %w", err)
	}
	var out io.Writer = g.stdio.Err
	if g.logOut != nil {
		out = g.logOut
	}
	if service.DetachOwnConsole() {
		g.logger().Info("closed the console window opened for the service")
	}
	start := service.ProcessStarter(exe, args, out, serviceStopGrace)
	return service.Keep(ctx, start, service.KeepOptions{Log: g.logger()})
}

func (g *globals) serviceInstall(ctx context.Context, addr string) error {
	cfg, err := g.loadConfig()
	if err != nil {
		return err
	}
	args := []string{"--config", cfg.Path, "--log-level", "info", "serve", "--http=" + addr}
	m, err := g.serviceManager(args)
	if err != nil {
		return err
	}
	if err := m.Install(ctx); err != nil {
		return err
	}
	st, err := m.Status(ctx)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(g.stdio.Out, "toolhub service installed: %s on http://%s/mcp with %s\nstate: %s\nlogs: %s\n",
		orWord(st.File, "scheduled task "+service.Name), addr, cfg.Path, st.State, st.Logs)
	return err
}

func (g *globals) serviceStatus(ctx context.Context, asJSON bool) error {
	m, err := g.serviceManager(nil)
	if err != nil {
		return err
	}
	st, err := m.Status(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(g.stdio.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	_, err = fmt.Fprintf(g.stdio.Out, "installed: %v\nstate: %s\nfile: %s\nlogs: %s\n",
		st.Installed, st.State, orWord(st.File, "-"), st.Logs)
	return err
}

// serviceManager builds the manager for this user and this binary; args
// are the service's command line after the binary (only install needs
// them).
func (g *globals) serviceManager(args []string) (service.Manager, error) {
	exe, err := serviceExecutable()
	if err != nil && args != nil {
		return nil, err
	}
	if err != nil {
		// Status and uninstall do not run the binary: where it lies does not matter.
		exe = filepath.Join(os.TempDir(), service.Name)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("find the home directory: %w", err)
	}
	return newService(runtime.GOOS, service.Options{
		Executable: exe, Args: args, Home: home,
		ConfigHome:   os.Getenv("XDG_CONFIG_HOME"),
		LocalAppData: os.Getenv("LOCALAPPDATA"),
		UID:          os.Getuid(),
		User:         windowsUser(os.Getenv("USERDOMAIN"), os.Getenv("USERNAME")),
	})
}

// findServiceExecutable is this binary's real path; a `go run` build in the
// temp directory would vanish, so it is refused.
func findServiceExecutable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the toolhub binary: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	if tmp, err := filepath.EvalSymlinks(os.TempDir()); err == nil && strings.HasPrefix(exe, tmp+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is in the temp directory (go run?): install toolhub first (go install or a release)", exe)
	}
	return exe, nil
}

// windowsUser is DOMAIN\name, or "" when either is unknown.
func windowsUser(domain, name string) string {
	if domain == "" || name == "" {
		return ""
	}
	return domain + `\` + name
}

func orWord(s, word string) string {
	if s == "" {
		return word
	}
	return s
}
