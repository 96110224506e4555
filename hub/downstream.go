package hub

import (
	"context"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/internal/mcpwire"
	"github.com/toolhub/toolhub/internal/supervise"
)

// stderrTailBytes is how much of a stdio child's stderr a status carries.
const stderrTailBytes = 2 << 10

// downstreamOptions tune one supervised downstream server. Zero values get
// defaults.
type downstreamOptions struct {
	Logger  *slog.Logger
	Restart RestartPolicy
	// Retry bounds how a remote (sse or http) server is tried again.
	Retry RetryPolicy
	// Sleep waits d or until ctx ends and reports whether d passed
	// (default supervise.Sleep; tests make the waits instant).
	Sleep func(ctx context.Context, d time.Duration) bool
	// ConnectTimeout bounds initialize plus the first tools/list (default 30s).
	ConnectTimeout time.Duration
	// CallTimeout applies when the spec sets no Timeout (default 60s).
	CallTimeout time.Duration
	// MaxResultBytes caps one message from the server (default 16 MiB).
	MaxResultBytes int64
	// StopGrace is how long a stdio child gets after stdin is closed, and
	// again after SIGTERM, before SIGKILL (default 3s).
	StopGrace time.Duration
	// ListChangedQuiet is how long tools/list_changed must stay quiet before
	// the tools are listed again; a storm of notifications costs one re-list
	// per quiet period (default 100ms).
	ListChangedQuiet time.Duration

	// OnTools receives the tool list after every (re)load.
	OnTools func(server string, tools []RawTool)
	// OnExtras receives the resources, templates and prompts after every
	// (re)load.
	OnExtras func(server string, extras serverExtras)
	// OnState receives the status on every state change.
	OnState func(ServerStatus)
	// OnNotification receives every other notification the server sends
	// (progress, logging, resource updates). It runs on the transport's read
	// loop: it must not block or call back into the server.
	OnNotification func(server string, n mcpgo.JSONRPCNotification)
	// ClientInfo is sent in initialize.
	ClientInfo mcpgo.Implementation
	// Credentials hold the OAuth sign-ins of http servers; nil keeps none.
	Credentials *Credentials
	// SignInPoll is how often a server waiting for sign-in looks for one
	// made by another process (default 2s).
	SignInPoll time.Duration
	// MaxClientSessions caps the sessions of clients' own a server that
	// uses roots runs at once (default 8).
	MaxClientSessions int
	// ClientSessionIdle is how long a client's own session may go without
	// a call before it is stopped (default 10m).
	ClientSessionIdle time.Duration
}

func (o downstreamOptions) withDefaults() downstreamOptions {
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	o.Restart = o.Restart.WithDefaults()
	o.Retry = o.Retry.WithDefaults()
	if o.Sleep == nil {
		o.Sleep = supervise.Sleep
	}
	o.ConnectTimeout = orDefault(o.ConnectTimeout, 30*time.Second)
	o.CallTimeout = orDefault(o.CallTimeout, 60*time.Second)
	o.StopGrace = orDefault(o.StopGrace, 3*time.Second)
	o.ListChangedQuiet = orDefault(o.ListChangedQuiet, 100*time.Millisecond)
	o.SignInPoll = orDefault(o.SignInPoll, defaultSignInPoll)
	o.ClientSessionIdle = orDefault(o.ClientSessionIdle, defaultClientSessionIdle)
	if o.MaxClientSessions <= 0 {
		o.MaxClientSessions = defaultMaxClientSessions
	}
	if o.MaxResultBytes <= 0 {
		o.MaxResultBytes = 16 << 20
	}
	if o.ClientInfo.Name == "" {
		o.ClientInfo = mcpgo.Implementation{Name: "toolhub", Version: "dev"}
	}
	return o
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// downstream supervises one downstream MCP server: it connects, lists the
// tools, follows list changes, forwards calls, and restarts the connection
// when it breaks, until it gives up or is stopped.
type downstream struct {
	spec     ServerSpec
	opts     downstreamOptions
	log      *slog.Logger
	stderr   *mcpwire.Tail
	failures *supervise.FailureLog
	retry    *supervise.Retry // remote servers: tried again without end
	disabled map[string]bool
	calls    activeCalls // calls in flight, for the server's own requests
	// taskOnly are the tools that run only as tasks (downstream_task.go),
	// read on every call without the lock; nil when none does.
	taskOnly atomic.Pointer[map[string]bool]
	// tasksNeedLegacy is set once the server turned out to run its
	// task-only tools only in 2025-11-25: it is connected so from then on.
	tasksNeedLegacy atomic.Bool
	// toldToPin is set once the log said that the server asks with the
	// older protocol's requests on a 2026-07-28 connection.
	toldToPin atomic.Bool
	// roots is what the shared session did with roots; clients are the
	// sessions of clients' own, once it asked for them (nil for an
	// in-process server, and on a client's own session).
	roots   rootsUse
	clients *clientSessions
	// owner is the one client a client's own session answers to; nil on
	// the shared session.
	owner *sessionOwner

	stopOnce sync.Once
	stopped  chan struct{} // closed by Stop

	mu      sync.Mutex
	status  ServerStatus
	tools   []RawTool
	conn    *connection // set while ready
	running bool        // Run was called
	// signInSeen is the stored sign-in when the last http connect began.
	signInSeen string
}

func newDownstream(spec ServerSpec, opts downstreamOptions) *downstream {
	opts = opts.withDefaults()
	disabled := make(map[string]bool, len(spec.DisabledTools))
	for _, name := range spec.DisabledTools {
		disabled[name] = true
	}
	d := &downstream{
		spec:     spec,
		opts:     opts,
		log:      opts.Logger,
		stderr:   mcpwire.NewTail(stderrTailBytes),
		failures: supervise.NewFailureLog(opts.Restart),
		retry:    supervise.NewRetry(opts.Retry),
		disabled: disabled,
		stopped:  make(chan struct{}),
		status: ServerStatus{
			Name:      spec.Name,
			Transport: spec.Transport,
			Locality:  spec.Locality,
			State:     StateStarting,
			Since:     time.Now(),
		},
	}
	d.roots.asked = spec.ClientRoots
	if spec.Transport != TransportInProcess {
		d.clients = newClientSessions(d)
	}
	return d
}

// Stop asks Run to stop, like cancelling Run's ctx: Run closes the client,
// kills the process group, reaps it and returns. Stop does not wait for that
// and calls no callback, so it is safe under the caller's locks.
func (d *downstream) Stop() {
	d.stopOnce.Do(func() { close(d.stopped) })
}

func (d *downstream) stopRequested() bool {
	select {
	case <-d.stopped:
		return true
	default:
		return false
	}
}

// Status is the server's current status, stderr tail included.
func (d *downstream) Status() ServerStatus {
	d.mu.Lock()
	st := d.status
	running := d.running
	d.mu.Unlock()
	if !running && d.stopRequested() {
		st.State = StateStopped // stopped before Run ever ran
	}
	st.StderrTail = d.stderr.String()
	st.ClientSessions = d.clients.count()
	return st
}

// Tools is the server's last tool list, without its disabled tools.
func (d *downstream) Tools() []RawTool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.tools)
}

// setState moves to state and reports it. reason replaces LastError unless
// it is empty and the new state is not ready (a stopped server keeps the
// reason it failed with).
func (d *downstream) setState(state ServerState, reason string) {
	d.mu.Lock()
	if d.status.State == state && reason == "" {
		d.mu.Unlock()
		return
	}
	if state == StateRestarting {
		d.status.Restarts++
	}
	d.status.State = state
	d.status.Since = time.Now()
	d.status.NextRetry = time.Time{}
	if reason != "" || state == StateReady {
		d.status.LastError = reason
	}
	st := d.status
	d.mu.Unlock()
	d.report(st)
}

// setRetrying moves to retrying until next, for reason.
func (d *downstream) setRetrying(reason string, next time.Time) {
	d.mu.Lock()
	d.status.Restarts++
	d.status.State = StateRetrying
	d.status.Since = time.Now()
	d.status.NextRetry = next
	d.status.LastError = reason
	st := d.status
	d.mu.Unlock()
	d.report(st)
}

// report hands a status to OnState.
func (d *downstream) report(st ServerStatus) {
	if d.opts.OnState != nil {
		st.StderrTail = d.stderr.String()
		d.opts.OnState(st)
	}
}

// setTools stores a fresh tool list from conn, unless conn is no longer the
// current connection, and reports it.
func (d *downstream) setTools(conn *connection, tools []RawTool) {
	kept := make([]RawTool, 0, len(tools))
	for _, t := range tools {
		if t.Name != "" && !d.disabled[t.Name] {
			kept = append(kept, t)
		}
	}
	d.mu.Lock()
	if d.conn != conn {
		d.mu.Unlock()
		return
	}
	d.tools = kept
	d.taskOnly.Store(taskTools(kept))
	d.status.Tools = len(kept)
	d.mu.Unlock()
	if d.opts.OnTools != nil {
		d.opts.OnTools(d.spec.Name, slices.Clone(kept))
	}
}

// currentConn returns the connection calls go to, or nil with the status
// that explains why there is none.
func (d *downstream) currentConn() (*connection, ServerStatus) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn != nil && d.status.State == StateReady {
		return d.conn, d.status
	}
	st := d.status
	if !d.running && d.stopRequested() {
		st.State = StateStopped
	}
	return nil, st
}
