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
	// MCP configures the MCP surface clients see (exposure, result cap).
	MCP mcp.Options
	// OpenIndex opens the document index for the built-in search_documents
	// tool; nil leaves the documents provider out.
	OpenIndex builtin.IndexOpener
}

// Daemon is everything toolhub runs, built and wired.
type Daemon struct {
	hub  *hub.Hub
	mcp  *mcp.Server
	docs *builtin.Documents
	log  *slog.Logger
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
	var docs *builtin.Documents
	if opts.OpenIndex != nil {
		docs = builtin.NewDocuments(opts.OpenIndex, documentsOptions(opts.Config.Documents, opts.Logger))
		if specs, err = withBuiltin(specs, documentsSpec(docs)); err != nil {
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
	return &Daemon{hub: h, mcp: srv, docs: docs, log: opts.Logger}, nil
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

// Hub is the running hub.
func (d *Daemon) Hub() *hub.Hub { return d.hub }

// MCP is the MCP surface, ready to serve over stdio or HTTP.
func (d *Daemon) MCP() *mcp.Server { return d.mcp }

// Close stops everything the daemon started.
func (d *Daemon) Close() error {
	d.mcp.Close()
	err := d.hub.Close()
	if d.docs != nil {
		err = errors.Join(err, d.docs.Close())
	}
	return err
}
