package hub

import (
	"context"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/events"
)

// Options tune a Hub. The zero value is usable.
type Options struct {
	Logger *slog.Logger
	// Restart bounds how a crashed stdio child is restarted.
	Restart RestartPolicy
	// Retry bounds how a remote (sse or http) server that cannot be
	// reached is tried again (default: 1s doubling up to 5m, jittered).
	Retry RetryPolicy
	// Sleep waits between tries (default: a timer); tests make it instant.
	Sleep func(ctx context.Context, d time.Duration) bool
	// CallTimeout applies to calls whose server sets no timeout (default 60s).
	CallTimeout time.Duration
	// ConnectTimeout bounds initialize and the first tools/list (default 30s).
	ConnectTimeout time.Duration
	// MaxResultBytes caps one downstream result (default 16 MiB).
	MaxResultBytes int64
	// Version is reported to downstream servers in initialize.
	Version string
	// OnNotification receives every downstream notification that the hub does
	// not consume itself (progress, logging, resource updates).
	OnNotification func(server string, n mcpgo.JSONRPCNotification)
	// Credentials hold the OAuth sign-ins of http servers (tokens and
	// registered clients); nil keeps none, and a server that asks for
	// sign-in waits in needs-sign-in until restarted.
	Credentials *Credentials
	// SignInPoll is how often a server waiting for sign-in looks for one
	// stored by another process (default 2s).
	SignInPoll time.Duration
	// MaxClientSessions caps, per server, the clients that get a session of
	// their own from a server that uses its clients' roots (default 8).
	MaxClientSessions int
	// ClientSessionIdle is how long such a session may go without a call
	// before it is stopped (default 10m).
	ClientSessionIdle time.Duration
	// Events, when set, receives a ServerChanged event (subject: the server's
	// name, data: its ServerStatus) on every state change and a
	// CatalogChanged event on every new catalog.
	Events Publisher
}

// Publisher is where the hub announces its changes; *events.Bus is one.
type Publisher interface {
	Publish(t events.Type, subject string, data any) events.Event
}

// Hub is the running set of downstream servers and their merged catalog.
type Hub struct {
	opts    Options
	log     *slog.Logger
	catalog *Catalog
	extras  *extrasStore // resources, templates and prompts
	subs    subscriptions

	mu       sync.Mutex
	servers  map[string]*managedServer
	order    []string
	changed  chan struct{} // closed and replaced on every state or catalog change
	watchers map[int]func(*Snapshot)
	nextID   int
	closed   bool
	started  bool // Start has run
	// remoteHeld keeps remote servers disconnected (HoldRemote).
	remoteHeld bool
	wg         sync.WaitGroup
	applyMu    sync.Mutex // one Apply at a time
}

type managedServer struct {
	spec     ServerSpec
	ds       *downstream
	cancel   context.CancelFunc
	done     chan struct{} // closed when ds.Run has returned
	disabled bool          // stopped by SetEnabled(false)
}

// New builds a hub over specs. Nothing is started until Start.
func New(specs []ServerSpec, opts Options) (*Hub, error) {
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 60 * time.Second
	}
	h := &Hub{
		opts:     opts,
		log:      opts.Logger,
		servers:  make(map[string]*managedServer, len(specs)),
		changed:  make(chan struct{}),
		watchers: map[int]func(*Snapshot){},
	}
	h.catalog = NewCatalog(h.catalogChanged)
	h.extras = newExtrasStore()
	for _, spec := range specs {
		if spec.Name == "" {
			return nil, fmt.Errorf("new hub: a server has no name")
		}
		if _, dup := h.servers[spec.Name]; dup {
			return nil, fmt.Errorf("new hub: server %q listed twice", spec.Name)
		}
		h.servers[spec.Name] = &managedServer{spec: spec}
		h.order = append(h.order, spec.Name)
	}
	sort.Strings(h.order)
	return h, nil
}

// Start connects every server concurrently and returns at once; each server's
// tools join the catalog as soon as it is ready. Servers run until Close or
// until ctx is done.
func (h *Hub) Start(ctx context.Context) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.started = true
	for _, name := range h.order {
		if m := h.servers[name]; !h.heldLocked(m) && m.spec.Invalid == "" {
			h.startLocked(ctx, m)
		}
	}
}

func (h *Hub) startLocked(ctx context.Context, m *managedServer) {
	spec := m.spec
	runCtx, cancel := context.WithCancel(ctx)
	m.ds = newDownstream(spec, downstreamOptions{
		Logger:         h.log.With("server", spec.Name),
		Restart:        h.opts.Restart,
		Retry:          h.opts.Retry,
		Sleep:          h.opts.Sleep,
		ConnectTimeout: h.opts.ConnectTimeout,
		CallTimeout:    h.opts.CallTimeout,
		MaxResultBytes: h.opts.MaxResultBytes,
		ClientInfo:     mcpgo.Implementation{Name: "toolhub", Version: h.opts.Version},
		OnTools: func(server string, tools []RawTool) {
			h.catalog.SetServer(ServerMeta{
				Name:          spec.Name,
				Locality:      spec.Locality,
				CostPerCall:   spec.CostPerCall,
				CostPerSecond: spec.CostPerSecond,
				Unprefixed:    spec.Unprefixed,
			}, tools)
		},
		OnExtras: func(server string, extras serverExtras) {
			h.extras.set(server, spec.Unprefixed, extras)
		},
		OnState: func(st ServerStatus) {
			if st.State == StateReady {
				h.resubscribeAsync(runCtx, spec.Name)
			}
			if st.State == StateFailed || st.State == StateStopped {
				h.catalog.RemoveServer(spec.Name)
				h.extras.remove(spec.Name)
			}
			h.signal()
			h.publish(events.ServerChanged, st.Name, st)
		},
		OnNotification: h.opts.OnNotification,
		Credentials:    h.opts.Credentials,
		SignInPoll:     h.opts.SignInPoll,

		MaxClientSessions: h.opts.MaxClientSessions,
		ClientSessionIdle: h.opts.ClientSessionIdle,
	})
	m.cancel = cancel
	m.done = make(chan struct{})
	h.wg.Add(1)
	go func(ds *downstream, done chan struct{}) {
		defer h.wg.Done()
		defer close(done)
		ds.Run(runCtx)
	}(m.ds, m.done)
}

// Close stops every server, killing their process groups, and waits for them.
func (h *Hub) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	for _, m := range h.servers {
		if m.cancel != nil {
			m.cancel()
		}
		if m.ds != nil {
			m.ds.Stop()
		}
	}
	h.mu.Unlock()
	h.wg.Wait()
	return nil
}

// Snapshot is the current catalog. It never changes; later changes make a new one.
func (h *Hub) Snapshot() *Snapshot { return h.catalog.Snapshot() }

// Servers reports every configured server, sorted by name.
func (h *Hub) Servers() []ServerStatus {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := make([]ServerStatus, 0, len(h.order))
	for _, name := range h.order {
		m := h.servers[name]
		if m.ds == nil || m.disabled {
			state, reason := StateStopped, ""
			switch {
			case m.spec.Invalid != "":
				state, reason = StateInvalid, m.spec.Invalid
			case m.disabled:
				state = StateDisabled
			case h.heldLocked(m):
				state = StateLocalOnly
			}
			out = append(out, ServerStatus{
				Name: name, Transport: m.spec.Transport, Locality: m.spec.Locality, State: state,
				LastError: reason,
			})
			continue
		}
		out = append(out, m.ds.Status())
	}
	return out
}

// server returns a copy of one server's entry, taken under the lock.
func (h *Hub) server(name string) (managedServer, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	m, ok := h.servers[name]
	if !ok {
		return managedServer{}, false
	}
	return *m, true
}

// WatchCatalog calls fn with every new catalog snapshot until the returned
// function is called. fn runs on the goroutine that changed the catalog and
// must not block.
func (h *Hub) WatchCatalog(fn func(*Snapshot)) (stop func()) {
	h.mu.Lock()
	id := h.nextID
	h.nextID++
	h.watchers[id] = fn
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		delete(h.watchers, id)
		h.mu.Unlock()
	}
}

func (h *Hub) catalogChanged(s *Snapshot) {
	h.mu.Lock()
	fns := make([]func(*Snapshot), 0, len(h.watchers))
	for _, fn := range h.watchers {
		fns = append(fns, fn)
	}
	h.mu.Unlock()
	for _, fn := range fns {
		fn(s)
	}
	h.signal()
	h.publish(events.CatalogChanged, "", nil)
}

// publish announces a change on the event bus, if the hub has one.
func (h *Hub) publish(t events.Type, subject string, data any) {
	if h.opts.Events != nil {
		h.opts.Events.Publish(t, subject, data)
	}
}

// signal wakes everyone waiting in WaitTool or WaitSettled.
func (h *Hub) signal() {
	h.mu.Lock()
	close(h.changed)
	h.changed = make(chan struct{})
	h.mu.Unlock()
}

func (h *Hub) changes() <-chan struct{} {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.changed
}
