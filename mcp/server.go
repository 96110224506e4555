package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// Catalog is what the MCP surface needs from the hub: the merged tool
// catalog, a way to call its tools, and word of every change. *hub.Hub
// satisfies it; tests use fakes.
type Catalog interface {
	// Snapshot is the current catalog; it never changes once returned.
	Snapshot() *hub.Snapshot
	// Call forwards one tool call to the server that owns the tool.
	Call(ctx context.Context, name string, args json.RawMessage, opts hub.CallOptions) (*hub.CallResult, error)
	// WatchCatalog calls fn with every new snapshot until stop is called. fn
	// must not block.
	WatchCatalog(fn func(*hub.Snapshot)) (stop func())
}

// Defaults of Options.
const (
	DefaultMaxResultBytes = 8 << 20
	DefaultReadyTimeout   = 20 * time.Second
)

// instructions tell a client's model what toolhub is.
const instructions = `toolhub gathers the tools of several MCP servers behind one endpoint. ` +
	`Tool names are server__tool. find_tools searches them all by what they do.`

// Options configure a Server. The zero value is usable.
type Options struct {
	Name    string // reported to clients; default "toolhub"
	Version string
	// Expose chooses the tool surface; default ExposeBoth.
	Expose Exposure
	// MaxResultBytes caps one forwarded result; larger results become an
	// isError result saying so. Default DefaultMaxResultBytes.
	MaxResultBytes int64
	// MaxMessageBytes caps one message from a stdio client; a longer one is
	// answered with an error. Default DefaultMaxBodyBytes.
	MaxMessageBytes int64
	// WaitReady, when set, holds the first tools/list until it returns or
	// ReadyTimeout passes, so that clients which list tools once, right after
	// connecting, see every server's tools (hub.Hub.WaitSettled fits).
	WaitReady    func(ctx context.Context) error
	ReadyTimeout time.Duration
	// Relay, when set, delivers downstream notifications (progress, log
	// messages) to this server; give relay.OnNotification to the hub.
	Relay *Relay
	// Clients, when set, is told of each client's roots/list_changed and of
	// the end of its session (*hub.Hub fits).
	Clients hub.ClientEvents
	// Conductor, when set, serves the orchestrate and research tools;
	// Events is where their progress is read from.
	Conductor Conductor
	Events    Events
	// MaxTaskBytes caps one task's text (default DefaultMaxTaskBytes).
	MaxTaskBytes int
	// TaskTTL is how long a task of the 2026-07-28 Tasks extension and its
	// result are kept (default DefaultModernTaskTTL).
	TaskTTL time.Duration
	// BridgeIdle is how long a call of a 2026-07-28 client that waits for
	// the client's input (an InputRequiredResult) is kept for its retry
	// (default DefaultBridgeIdle).
	BridgeIdle time.Duration
	Logger     *slog.Logger
}

// Server is toolhub's MCP server: the catalog's tools as the client sees
// them, kept in step with the catalog. Serve it with ServeStdio or
// ListenHTTP.
type Server struct {
	cat     Catalog
	opts    Options
	log     *slog.Logger
	mcp     *mcpserver.MCPServer
	calls   *inflight
	bridges *bridges
	levels  *logLevels
	subs    clientSubscriptions
	// listenSubs are the resource subscriptions of 2026-07-28 listen
	// streams.
	listenSubs listenSubscriptions
	listens    *listenStreams // the GET streams of HTTP sessions
	index      indexCache
	tasks      *taskBoard

	sessions  *liveSessions // for shortHTTPCalls
	asks      *clientAsks
	httpCalls httpCalls
	metas     metaCache // for shortCallOf
	// rootsChanges counts the roots/list_changed clients sent
	// (rootsMemory, forgetRoots).
	rootsChanges atomic.Uint64

	serverInfo json.RawMessage // implementation(), encoded once for stampModern

	modernTasks *modernTasks
	taskRuns    sync.WaitGroup // the episodes of modernTasks

	surface   surfaceState
	resources resourceSurface
	readyOnce sync.Once

	stopWatch func()
	kick      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup
}

// NewServer builds the MCP surface over cat and starts following its
// changes until Close.
func NewServer(cat Catalog, opts Options) (*Server, error) {
	opts, err := withDefaults(opts)
	if err != nil {
		return nil, fmt.Errorf("new mcp server: %w", err)
	}
	s := &Server{
		cat:      cat,
		opts:     opts,
		log:      opts.Logger,
		calls:    newInflight(),
		bridges:  newBridges(opts.BridgeIdle),
		levels:   newLogLevels(),
		sessions: newLiveSessions(),
		asks:     &clientAsks{},
		kick:     make(chan struct{}, 1),
		done:     make(chan struct{}),
		tasks:    newTaskBoard(),

		modernTasks: newModernTasks(opts.TaskTTL),
	}
	s.listens = newListenStreams(s.queueForSession)
	if s.serverInfo, err = json.Marshal(s.implementation()); err != nil {
		return nil, fmt.Errorf("new mcp server: encode its identity: %w", err)
	}
	hooks := &mcpserver.Hooks{}
	s.levels.register(hooks)
	s.holdFirstLists(hooks)
	s.sessions.register(hooks)
	s.mcp = mcpserver.NewMCPServer(opts.Name, opts.Version, s.serverOptions(cat, hooks)...)
	s.syncSurface()
	s.stopWatch = cat.WatchCatalog(func(*hub.Snapshot) {
		select {
		case s.kick <- struct{}{}:
		default: // a sync is already pending; it will read the newest snapshot
		}
	})
	s.wg.Add(1)
	go s.follow()
	if src, ok := cat.(ResourceSource); ok {
		s.serveResources(src)
	}
	if opts.Relay != nil {
		opts.Relay.attach(s)
	}
	return s, nil
}

// serverOptions are mcp-go's options for the surface cat can serve: resource
// subscriptions and completions only when cat forwards them.
func (s *Server) serverOptions(cat Catalog, hooks *mcpserver.Hooks) []mcpserver.ServerOption {
	sub, subscribes := cat.(Subscriber)
	if subscribes {
		s.serveSubscriptions(hooks, sub)
	}
	options := []mcpserver.ServerOption{
		mcpserver.WithToolCapabilities(true),
		mcpserver.WithResourceCapabilities(subscribes, true),
		mcpserver.WithPromptCapabilities(true),
		mcpserver.WithLogging(),
		mcpserver.WithHooks(hooks),
		mcpserver.WithRecovery(),
		mcpserver.WithInstructions(instructions),
		mcpserver.WithToolHandlerMiddleware(s.refuseToolCalls(s.opts.Conductor != nil)),
	}
	hooks.AddOnError(noteUnparsable)
	if completer, ok := cat.(Completer); ok {
		options = append(options, s.completionOptions(completer)...)
	}
	options = append(options, s.clientEventOptions(hooks)...)
	options = append(options, s.taskOptions(hooks)...)
	return options
}

func withDefaults(o Options) (Options, error) {
	if o.Name == "" {
		o.Name = "toolhub"
	}
	if o.Expose == "" {
		o.Expose = ExposeBoth
	}
	if _, err := ParseExposure(string(o.Expose)); err != nil {
		return o, err
	}
	if o.MaxResultBytes <= 0 {
		o.MaxResultBytes = DefaultMaxResultBytes
	}
	if o.MaxMessageBytes <= 0 {
		o.MaxMessageBytes = DefaultMaxBodyBytes
	}
	if o.ReadyTimeout <= 0 {
		o.ReadyTimeout = DefaultReadyTimeout
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o, nil
}

// MCPServer is the underlying mcp-go server, for embedding in another
// transport.
func (s *Server) MCPServer() *mcpserver.MCPServer { return s.mcp }

// Close stops following the catalog and detaches from the relay. Serving
// stops with the contexts given to ServeStdio or HTTPServer.Serve.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		if s.opts.Relay != nil {
			s.opts.Relay.detach(s)
		}
		s.stopWatch()
		s.bridges.closeAll()
		s.modernTasks.closeAll()
		s.taskRuns.Wait()
		close(s.done)
		s.wg.Wait()
	})
}

// follow re-syncs the tool surface after every catalog change.
func (s *Server) follow() {
	defer s.wg.Done()
	for {
		select {
		case <-s.done:
			return
		case <-s.kick:
			s.syncSurface()
		}
	}
}

// holdFirstLists makes the first list or read of anything downstream
// servers offer (tools, resources and their templates, prompts) wait for
// the servers still connecting: a client that starts toolhub and reads a
// resource at once (an MCP Apps ui:// page) finds it, as it finds the
// tools.
func (s *Server) holdFirstLists(hooks *mcpserver.Hooks) {
	hooks.AddBeforeListTools(func(ctx context.Context, _ any, _ *mcpgo.ListToolsRequest) { s.awaitReady(ctx) })
	hooks.AddBeforeListResources(func(ctx context.Context, _ any, _ *mcpgo.ListResourcesRequest) { s.awaitReady(ctx) })
	hooks.AddBeforeListResourceTemplates(func(ctx context.Context, _ any, _ *mcpgo.ListResourceTemplatesRequest) {
		s.awaitReady(ctx)
	})
	hooks.AddBeforeReadResource(func(ctx context.Context, _ any, _ *mcpgo.ReadResourceRequest) { s.awaitReady(ctx) })
	hooks.AddBeforeListPrompts(func(ctx context.Context, _ any, _ *mcpgo.ListPromptsRequest) { s.awaitReady(ctx) })
	hooks.AddBeforeGetPrompt(func(ctx context.Context, _ any, _ *mcpgo.GetPromptRequest) { s.awaitReady(ctx) })
}

// awaitReady holds the first list until the hub's servers have connected
// (or failed), then brings the surface up to date.
func (s *Server) awaitReady(ctx context.Context) {
	if s.opts.WaitReady == nil {
		return
	}
	s.readyOnce.Do(func() {
		ctx, cancel := context.WithTimeout(ctx, s.opts.ReadyTimeout)
		defer cancel()
		if err := s.opts.WaitReady(ctx); err != nil {
			s.log.Warn("listing tools before every server is ready", "err", err)
		}
		s.syncSurface()
		s.syncResources()
	})
}
