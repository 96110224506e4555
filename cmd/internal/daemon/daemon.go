package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/cmd/internal/builtin"
	"github.com/toolhub/toolhub/cmd/internal/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/mcp"
	"github.com/toolhub/toolhub/policies"
)

// Version is the toolhub version reported to clients and downstream servers.
var Version = buildVersion()

// Options are what a Daemon is built from.
type Options struct {
	Config *config.File
	Logger *slog.Logger
	// LookupEnv resolves ${VAR} references in the config (default os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// HubOptions override the hub's defaults (tests shorten timeouts).
	HubOptions hub.Options
	// MCP configures the MCP surface clients see (exposure, result cap).
	MCP mcp.Options
	// OpenIndex opens the document index for the built-in search_documents
	// tool; nil leaves the documents provider out.
	OpenIndex builtin.IndexOpener
	// ModelOptions tune the model clients (tests shorten timeouts).
	ModelOptions hub.ModelOptions
	// RunLogDir is where RunEpisode (the orchestrate and research tools,
	// the desktop) stores runs; empty keeps none.
	RunLogDir string
	// WatchPreferences follows the preferences file live (serve and the
	// desktop); other commands read it once.
	WatchPreferences bool
	// NoConductor leaves the orchestrate and research tools out.
	NoConductor bool
}

// Daemon is everything toolhub runs, built and wired.
type Daemon struct {
	hub   *hub.Hub
	mcp   *mcp.Server
	docs  *builtin.Documents
	eps   *EpisodeRunner
	prefs *policies.Store // nil for a config held only in memory
	host  *hub.ModelHost  // nil unless the config says how to launch the orchestrator
	runs  *runStore
	log   *slog.Logger
}

// New builds the daemon from opts without starting anything.
func New(opts Options) (d *Daemon, err error) {
	if opts.Config == nil {
		opts.Config = &config.File{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.LookupEnv == nil {
		opts.LookupEnv = os.LookupEnv
	}
	specs, err := opts.Config.Specs(opts.LookupEnv)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	prefs, err := openPreferences(opts.Config, opts.WatchPreferences, opts.Logger)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	defer func() {
		if d == nil && prefs != nil {
			_ = prefs.Close()
		}
	}()
	var docs *builtin.Documents
	if opts.OpenIndex != nil {
		docs = builtin.NewDocuments(opts.OpenIndex, documentsOptions(opts.Config.Documents, opts.Logger))
		if specs, err = withBuiltin(specs, documentsSpec(docs)); err != nil {
			return nil, fmt.Errorf("build daemon: %w", err)
		}
	}
	tools, err := builtinToolSpecs(opts.Config, opts.LookupEnv, opts.Logger)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	for _, spec := range tools {
		if specs, err = withBuiltin(specs, spec); err != nil {
			return nil, fmt.Errorf("build daemon: %w", err)
		}
	}
	models, err := LoadModels(opts.Config)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	host, err := NewModelHost(models, opts.LookupEnv, opts.Logger)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	var conductor *conductorRunner
	if !opts.NoConductor {
		conductor = &conductorRunner{}
		c := builtin.NewConductor(conductor, builtin.ConductorOptions{Logger: opts.Logger})
		if specs, err = withBuiltin(specs, conductorSpec(c)); err != nil {
			return nil, fmt.Errorf("build daemon: %w", err)
		}
	}
	relay := mcp.NewRelay()
	hubOpts := opts.HubOptions
	hubOpts.Logger = opts.Logger
	if hubOpts.Version == "" {
		hubOpts.Version = Version
	}
	hubOpts.OnNotification = fanOut(hubOpts.OnNotification, relay.OnNotification)
	h, err := hub.New(specs, hubOpts)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	mo := opts.MCP
	mo.Version, mo.Relay, mo.Logger, mo.WaitReady = Version, relay, opts.Logger, h.WaitSettled
	srv, err := mcp.NewServer(h, mo)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	eps, err := NewEpisodeRunner(h, models, opts.ModelOptions)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	d = &Daemon{hub: h, mcp: srv, docs: docs, eps: eps, host: host, runs: &runStore{dir: opts.RunLogDir}, log: opts.Logger}
	d.prefs = prefs
	if d.prefs != nil {
		d.eps.SetPreferences(d.prefs.Current)
	}
	if conductor != nil {
		conductor.set(d)
	}
	return d, nil
}

// fanOut delivers downstream notifications to every non-nil receiver.
func fanOut(receivers ...func(string, mcpgo.JSONRPCNotification)) func(string, mcpgo.JSONRPCNotification) {
	var live []func(string, mcpgo.JSONRPCNotification)
	for _, r := range receivers {
		if r != nil {
			live = append(live, r)
		}
	}
	return func(server string, n mcpgo.JSONRPCNotification) {
		for _, r := range live {
			r(server, n)
		}
	}
}

// Start connects every downstream server in the background.
func (d *Daemon) Start(ctx context.Context) { d.hub.Start(ctx) }

// StartModelHost launches the orchestrator's model server when the config
// says how; only long-running commands (serve, the desktop) call it.
func (d *Daemon) StartModelHost(ctx context.Context) {
	if d.host != nil {
		d.host.Start(ctx)
	}
}

// ModelHost supervises the orchestrator's model server; nil when toolhub
// does not launch it.
func (d *Daemon) ModelHost() *hub.ModelHost { return d.host }

// Hub is the running hub.
func (d *Daemon) Hub() *hub.Hub { return d.hub }

// Episodes runs orchestration episodes over the hub with the configured
// models and preferences.
func (d *Daemon) Episodes() *EpisodeRunner { return d.eps }

// Documents is the documents provider (search, ingest, status); nil when
// the daemon was built without an index.
func (d *Daemon) Documents() *builtin.Documents { return d.docs }

// Preferences is the preferences store, nil when the config has no file
// (episodes then run unrestricted).
func (d *Daemon) Preferences() *policies.Store { return d.prefs }

// MCP is the MCP surface, ready to serve over stdio or HTTP.
func (d *Daemon) MCP() *mcp.Server { return d.mcp }

// Close stops everything the daemon started.
func (d *Daemon) Close() error {
	d.mcp.Close()
	if d.host != nil {
		d.host.Stop()
	}
	err := d.hub.Close()
	if d.docs != nil {
		err = errors.Join(err, d.docs.Close())
	}
	if d.prefs != nil {
		err = errors.Join(err, d.prefs.Close())
	}
	return err
}
