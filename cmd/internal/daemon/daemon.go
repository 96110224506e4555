package daemon

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"sync/atomic"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/mcp"
	"github.com/toolhub/toolhub/modelhost"
	"github.com/toolhub/toolhub/policies"
	"github.com/toolhub/toolhub/runlog"
	"github.com/toolhub/toolhub/tools"
)

// Version is the toolhub version reported to clients and downstream servers.
var Version = buildVersion()

// Options are what a Daemon is built from.
type Options struct {
	Config *config.File
	Logger *slog.Logger
	// LookupEnv resolves ${VAR} references in the config (default os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// Secrets resolves ${keychain:NAME} references (default: the store
	// beside the config file, OpenSecrets).
	Secrets config.Secrets
	// HubOptions override the hub's defaults (tests shorten timeouts).
	HubOptions hub.Options
	// MCP configures the MCP surface clients see (exposure, result cap).
	MCP mcp.Options
	// OpenIndex opens the document index for the built-in search_documents
	// tool; nil leaves the documents provider out.
	OpenIndex tools.IndexOpener
	// ModelOptions tune the model clients (tests shorten timeouts).
	ModelOptions llm.ModelOptions
	// RunLogDir is where every finished episode (the orchestrate and
	// research tools, the desktop, toolhub run) is stored; empty keeps none.
	RunLogDir string
	// WatchPreferences follows the preferences file live (serve and the
	// desktop); other commands read it once.
	WatchPreferences bool
	// WatchConfig applies every change of the config file's servers to the
	// running hub (Reload) as soon as the file is saved (serve and the
	// desktop); other commands read it once.
	WatchConfig bool
	// NoConductor leaves the orchestrate and research tools out.
	NoConductor bool
	// EditOrchestrator, when set, changes the configured orchestrator
	// endpoint before anything is built from it (toolhub runs replay points
	// it at another server).
	EditOrchestrator func(*llm.ModelEndpoint)
}

// Daemon is everything toolhub runs, built and wired.
type Daemon struct {
	hub     *hub.Hub
	mcp     *mcp.Server
	docs    *tools.Documents
	bus     *events.Bus
	engine  *conductor.Engine
	planner *policies.Planner
	prefs   *policies.Store  // nil for a config held only in memory
	host    *modelhost.Host  // nil unless the config says how to launch the orchestrator
	runs    *runlog.Recorder // nil without a run log directory
	log     *slog.Logger

	followMu     sync.Mutex
	stopFollowed func() // ends the subscription to the store episodes follow
	holds        remoteHolds

	reloadMu sync.Mutex // one Reload at a time
	servers  *servers
	models   atomic.Pointer[config.Models] // the models and orchestrator last applied
	watch    *configWatch                  // nil unless Options.WatchConfig
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
	// A server entry that cannot be used is listed as invalid with its
	// problems; the others start (toolhub config check still fails on it).
	opts = withSecrets(opts)
	lookup := config.Lookup{Env: opts.LookupEnv, Secrets: opts.Secrets}
	specs := opts.Config.WithOAuth(opts.Config.ServeSpecsFrom(lookup), lookup)
	configured := len(specs)
	for _, spec := range specs {
		if spec.Invalid != "" {
			opts.Logger.Warn("server entry cannot be used; the others start", "server", spec.Name, "problem", spec.Invalid)
		}
	}
	logLeftOut(opts.Logger, opts.Config.LeftOut)
	prefs, err := openPreferences(opts.Config, opts.WatchPreferences, opts.Logger)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	defer func() {
		if d == nil && prefs != nil {
			_ = prefs.Close()
		}
	}()
	var docs *tools.Documents
	bus := events.New(events.Options{})
	if opts.OpenIndex != nil {
		docs = tools.NewDocuments(opts.OpenIndex, documentsOptions(opts.Config.Documents, bus, opts.Logger))
		if specs, err = withBuiltin(specs, documentsSpec(docs)); err != nil {
			return nil, fmt.Errorf("build daemon: %w", err)
		}
	}
	builtins, err := builtinToolSpecs(opts.Config, opts.LookupEnv, opts.Logger)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	for _, spec := range builtins {
		if specs, err = withBuiltin(specs, spec); err != nil {
			return nil, fmt.Errorf("build daemon: %w", err)
		}
	}
	models, err := LoadModelsServe(opts.Config, opts.Logger)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	if opts.EditOrchestrator != nil {
		opts.EditOrchestrator(&models.Orchestrator)
	}
	host, err := NewModelHost(models, lookup, opts.Logger)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	relay := mcp.NewRelay()
	hubOpts := opts.HubOptions
	hubOpts.Logger = opts.Logger
	if hubOpts.Version == "" {
		hubOpts.Version = Version
	}
	hubOpts.OnNotification = fanOut(hubOpts.OnNotification, relay.OnNotification)
	hubOpts.Events = bus
	h, err := hub.New(specs, hubOpts)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	engine, planner, err := newEngine(h, models, bus, opts.ModelOptions, opts.Logger)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	mo := opts.MCP
	mo.Version, mo.Relay, mo.Logger, mo.WaitReady = Version, relay, opts.Logger, h.WaitSettled
	mo.Clients = h
	if !opts.NoConductor {
		mo.Conductor, mo.Events = engine, bus
	}
	srv, err := mcp.NewServer(h, mo)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	d = &Daemon{hub: h, mcp: srv, docs: docs, bus: bus, engine: engine, planner: planner, host: host,
		prefs: prefs, log: opts.Logger,
		servers: &servers{cfg: opts.Config, lookup: lookup, builtins: slices.Clone(specs[configured:])}}
	d.models.Store(models)
	if opts.RunLogDir != "" {
		d.runs = runlog.NewRecorder(opts.RunLogDir, bus, runlog.RecorderOptions{Logger: opts.Logger})
	}
	if prefs != nil {
		d.FollowPreferences(prefs)
	}
	if opts.WatchConfig && opts.Config.Path != "" {
		reload := func(ctx context.Context) error { _, err := d.Reload(ctx); return err }
		w, werr := watchConfig(opts.Config.Path, reload, opts.Logger)
		if werr != nil {
			opts.Logger.Warn("config changes apply only after a restart", "err", werr)
			w = nil
		}
		d.watch = w
	}
	return d, nil
}

// FollowPreferences makes every episode follow store from now on, and
// announces each change of it on the bus; the store followed before is
// let go.
func (d *Daemon) FollowPreferences(store *policies.Store) {
	d.followMu.Lock()
	defer d.followMu.Unlock()
	if d.stopFollowed != nil {
		d.stopFollowed()
	}
	d.planner.SetPreferences(store.Current)
	d.stopFollowed = store.Subscribe(func(p policies.Preferences) {
		d.holdRemote(p)
		d.bus.Publish(events.PreferencesChanged, "", nil)
	})
	d.holdRemote(store.Current())
	d.bus.Publish(events.PreferencesChanged, "", nil)
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

// Start connects every downstream server in the background; while the
// preferences say local-only, remote servers are not contacted at all.
func (d *Daemon) Start(ctx context.Context) {
	d.holdRemote(d.planner.Preferences())
	d.holds.Wait()
	d.hub.Start(ctx)
}

// StartModelHost launches the orchestrator's model server when the config
// says how; only long-running commands (serve, the desktop) call it.
func (d *Daemon) StartModelHost(ctx context.Context) {
	if d.host != nil {
		d.host.Start(ctx)
	}
}

// ModelHost supervises the orchestrator's model server; nil when toolhub
// does not launch it.
func (d *Daemon) ModelHost() *modelhost.Host { return d.host }

// Hub is the running hub.
func (d *Daemon) Hub() *hub.Hub { return d.hub }

// Engine runs orchestration episodes over the hub with the configured
// models and preferences.
func (d *Daemon) Engine() *conductor.Engine { return d.engine }

// Planner decides the policy and the preferences each episode runs under.
func (d *Daemon) Planner() *policies.Planner { return d.planner }

// RunLog is the recorder that owns the run log: every finished episode is
// stored by it, and the process reads runs through it. nil without a run
// log directory.
func (d *Daemon) RunLog() *runlog.Recorder { return d.runs }

// Bus is the daemon's event bus: every episode's steps, among others.
func (d *Daemon) Bus() *events.Bus { return d.bus }

// Documents is the documents provider (search, ingest, status); nil when
// the daemon was built without an index.
func (d *Daemon) Documents() *tools.Documents { return d.docs }

// Preferences is the preferences store, nil when the config has no file
// (episodes then run unrestricted).
func (d *Daemon) Preferences() *policies.Store { return d.prefs }

// MCP is the MCP surface, ready to serve over stdio or HTTP.
func (d *Daemon) MCP() *mcp.Server { return d.mcp }

// Close stops everything the daemon started.
func (d *Daemon) Close() error {
	_ = d.watch.close()
	d.holds.close()
	d.mcp.Close()
	if d.host != nil {
		d.host.Stop()
	}
	err := d.hub.Close()
	if d.runs != nil {
		err = errors.Join(err, d.runs.Close())
	}
	if d.docs != nil {
		err = errors.Join(err, d.docs.Close())
	}
	if d.prefs != nil {
		err = errors.Join(err, d.prefs.Close())
	}
	return err
}
