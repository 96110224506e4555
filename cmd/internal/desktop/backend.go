package desktop

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolhub/toolhub/cmd/internal/daemon"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/policies"
	"github.com/toolhub/toolhub/ui"
)

// Options are what a Backend is built from.
type Options struct {
	Daemon *daemon.Daemon
	// Config is the configuration the daemon was built from; its Path is
	// where added and imported servers are written.
	Config *config.File
	// Models are the config's model sections (daemon.LoadModels).
	Models *config.Models
	// Store holds the preferences file; every episode follows it.
	Store *policies.Store
	// RunLogDir is the run log the daemon writes runs to (daemon.RunEpisode).
	RunLogDir string
	// Endpoint describes the MCP endpoint the app serves.
	Endpoint ui.Endpoint
	Logger   *slog.Logger
	// Discover finds other clients' config files (default: config.Discover
	// on this machine).
	Discover func() []config.Found
	// ModelProbeEvery is how often the model endpoints' health is asked
	// for the Servers tab while none is loading (default 30s).
	ModelProbeEvery time.Duration
}

// Backend implements ui.Backend over a running daemon.
type Backend struct {
	opts Options
	log  *slog.Logger
	runs *runLog

	mu       sync.Mutex
	endpoint ui.Endpoint
	// models are opts.Models, for a backend without a daemon
	// (currentModels).
	models atomic.Pointer[config.Models]
	// watch holds the model endpoints' health for their rows.
	watch *modelWatch
}

var _ ui.Backend = (*Backend)(nil)

// New wires the backend and makes the daemon's episodes follow the
// preferences store (announcing its changes on the daemon's bus).
func New(opts Options) *Backend {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Config == nil {
		opts.Config = &config.File{}
	}
	if opts.Store != nil {
		opts.Daemon.FollowPreferences(opts.Store)
	}
	if opts.ModelProbeEvery <= 0 {
		opts.ModelProbeEvery = defaultModelProbeEvery
	}
	b := &Backend{opts: opts, log: opts.Logger, runs: &runLog{rec: opts.Daemon.RunLog()}, endpoint: opts.Endpoint,
		watch: newModelWatch()}
	b.models.Store(opts.Models)
	return b
}

// currentModels are the models in use: the daemon's, which follow the
// config file when it is read again and the guide's saves, else
// opts.Models; nil when none were configured.
func (b *Backend) currentModels() *config.Models {
	if d := b.opts.Daemon; d != nil {
		if m := d.Models(); m != nil {
			return m
		}
	}
	return b.models.Load()
}

// Close waits for a run-log read or write in progress and refuses later
// ones; call it after the window has closed, before the daemon.
func (b *Backend) Close() { b.runs.close() }

// SetEndpoint replaces the endpoint shown in the header.
func (b *Backend) SetEndpoint(e ui.Endpoint) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.endpoint = e
}

// Endpoint implements ui.HeaderBackend.
func (b *Backend) Endpoint() ui.Endpoint {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.endpoint
}
