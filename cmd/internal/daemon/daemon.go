package daemon

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/toolhub/toolhub/cmd/internal/config"
	"github.com/toolhub/toolhub/hub"
)

// Version is the toolhub version reported to clients and downstream servers.
var Version = "0.1.0-dev"

// Options are what a Daemon is built from.
type Options struct {
	Config *config.File
	Logger *slog.Logger
	// LookupEnv resolves ${VAR} references in the config (default os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// HubOptions override the hub's defaults (tests shorten timeouts).
	HubOptions hub.Options
}

// Daemon is everything toolhub runs, built and wired.
type Daemon struct {
	hub *hub.Hub
	log *slog.Logger
}

// New builds the daemon from opts without starting anything.
func New(opts Options) (*Daemon, error) {
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
	hubOpts := opts.HubOptions
	hubOpts.Logger = opts.Logger
	if hubOpts.Version == "" {
		hubOpts.Version = Version
	}
	h, err := hub.New(specs, hubOpts)
	if err != nil {
		return nil, fmt.Errorf("build daemon: %w", err)
	}
	return &Daemon{hub: h, log: opts.Logger}, nil
}

// Start connects every downstream server in the background.
func (d *Daemon) Start(ctx context.Context) { d.hub.Start(ctx) }

// Hub is the running hub.
func (d *Daemon) Hub() *hub.Hub { return d.hub }

// Close stops everything the daemon started.
func (d *Daemon) Close() error { return d.hub.Close() }
