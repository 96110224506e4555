package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/mcp"
	"github.com/toolhub/toolhub/retriever"
)

// connectWait bounds how long a one-shot command waits for servers to connect.
const connectWait = 60 * time.Second

// startDaemon loads the config and starts the daemon's hub.
func (g *globals) startDaemon(ctx context.Context) (*daemon.Daemon, error) {
	d, err := g.newDaemon(mcp.Options{}, false)
	if err != nil {
		return nil, err
	}
	d.Start(ctx)
	return d, nil
}

// newDaemon loads the config and builds the daemon every command runs: the
// hub, the built-in tools, the run log, the preferences (followed live when
// long is set, for serve) and the MCP surface.
func (g *globals) newDaemon(mo mcp.Options, long bool, edits ...func(*daemon.Options)) (*daemon.Daemon, error) {
	cfg, err := g.loadServeConfig()
	if err != nil {
		return nil, err
	}
	runs, err := runLogDir()
	if err != nil {
		return nil, err
	}
	opts := daemon.Options{
		Config:    cfg,
		Logger:    g.logger(),
		RunLogDir: runs,
		MCP:       mo,
		// serve follows the preferences file live; other commands read it once.
		WatchPreferences: long,
		// serve also applies each change of the config's servers at once.
		WatchConfig: long,
		OpenIndex: func(ctx context.Context) (*retriever.Index, error) {
			return g.openIndex(ctx, cfg.Documents, true)
		},
	}
	store, creds, err := g.openCredentials()
	if err != nil {
		return nil, err
	}
	opts.Secrets, opts.HubOptions.Credentials = daemon.SecretLookup(store), creds
	for _, edit := range edits {
		edit(&opts)
	}
	d, err := daemon.New(opts)
	if err != nil {
		return nil, asUsage(err)
	}
	return d, nil
}

// startSettled starts the daemon and waits until every server has connected
// or failed; the caller closes the daemon.
func (g *globals) startSettled(ctx context.Context) (*daemon.Daemon, error) {
	return g.startSettledFor(ctx, "")
}

// startSettledFor is startSettled for a command about one server (none when
// server is ""): a name the config does not have is refused before any
// server starts.
func (g *globals) startSettledFor(ctx context.Context, server string) (*daemon.Daemon, error) {
	d, err := g.newDaemon(mcp.Options{}, false)
	if err != nil {
		return nil, err
	}
	if server != "" && !hasServer(d.Hub().Servers(), server) {
		d.Close()
		return nil, usageError("no server named %q in the config", server)
	}
	d.Start(ctx)
	if err := g.waitForServers(ctx, d.Hub()); err != nil {
		d.Close()
		return nil, err
	}
	return d, nil
}

// waitForServers waits until every server has connected or failed, showing a
// spinner with the count on a terminal.
func (g *globals) waitForServers(ctx context.Context, h *hub.Hub) error {
	ctx, cancel := context.WithTimeout(ctx, connectWait)
	defer cancel()
	stop := g.showConnecting(h)
	defer stop()
	if err := h.WaitSettled(ctx); err != nil {
		return fmt.Errorf("waiting for servers: %w", err)
	}
	return nil
}

// waitForTool waits until name is in the catalog or every server has settled.
func (g *globals) waitForTool(ctx context.Context, h *hub.Hub, name string) error {
	ctx, cancel := context.WithTimeout(ctx, connectWait)
	defer cancel()
	stop := g.showConnecting(h)
	defer stop()
	if _, err := h.WaitTool(ctx, name); err != nil {
		return fmt.Errorf("waiting for servers: %w", err)
	}
	return nil
}

// stageBar is a progress bar on stderr for one stage of total units, cleared
// when it finishes.
func (g *globals) stageBar(total int, what string) *progressbar.ProgressBar {
	return progressbar.NewOptions(total, progressbar.OptionSetWriter(g.stdio.Err), progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(), progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
}

func finishBar(bar *progressbar.ProgressBar) error {
	if bar == nil {
		return nil
	}
	return bar.Finish()
}

// showConnecting draws "connecting k/n servers" on stderr while a terminal
// watches; it returns the function that clears it.
func (g *globals) showConnecting(h *hub.Hub) func() {
	total := len(h.Servers())
	if total == 0 || !isTerminal(g.stdio.Err) {
		return func() {}
	}
	bar := g.stageBar(total, "connecting to servers")
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				_ = bar.Set(settledCount(h.Servers()))
			}
		}
	}()
	return func() {
		close(done)
		_ = bar.Finish()
	}
}

func settledCount(sts []hub.ServerStatus) int {
	n := 0
	for _, st := range sts {
		if st.State == hub.StateReady || st.State == hub.StateFailed {
			n++
		}
	}
	return n
}
