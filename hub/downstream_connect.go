package hub

import (
	"context"
	"errors"
	"fmt"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/toolhub/toolhub/internal/proc"
)

// sseResponseTimeout is the SSE transport's own bound on waiting for a
// response, set far beyond any call timeout.
const sseResponseTimeout = 24 * time.Hour

// connect opens a connection, performs the handshake and lists the tools,
// all within ConnectTimeout. On failure the half-open connection is returned
// too, for the caller to close. A server whose task-only tools can run
// only in 2025-11-25 (downstream_task.go) is spoken to in that revision.
func (d *downstream) connect(ctx context.Context) (*connection, []RawTool, error) {
	conn, tools, err := d.connectIn(ctx, d.probesModern() && !d.tasksNeedLegacy.Load())
	if err != nil || !conn.era.modern || !legacyTasksOnly(conn, tools) {
		return conn, tools, err
	}
	legacy, legacyTools, err := d.connectIn(ctx, false)
	if err != nil {
		legacy.close(d.opts.StopGrace)
		d.log.Warn("the server's task-only tools run only as tasks of protocol 2025-11-25, and speaking it failed; they will fail",
			"server", d.spec.Name, "err", err)
		return conn, tools, nil
	}
	if !d.tasksNeedLegacy.Swap(true) {
		d.log.Info("the server's task-only tools run only as tasks of protocol 2025-11-25; speaking that to it", "server", d.spec.Name)
	}
	conn.close(d.opts.StopGrace)
	return legacy, legacyTools, nil
}

// connectIn is connect in 2026-07-28 when modern (falling back to the
// initialize handshake when the server has not that revision), else in
// 2025-11-25.
func (d *downstream) connectIn(ctx context.Context, modern bool) (*connection, []RawTool, error) {
	conn := newConnection(d.spec.Name, d.opts.MaxResultBytes)
	if err := d.openTransport(conn, modern); err != nil {
		return conn, nil, err
	}
	opts := []mcpclient.ClientOption{mcpclient.WithClientCapabilities(d.downstreamClientCapabilities())}
	if !modern {
		opts = append(opts, mcpclient.WithProtocolVersion(mcpgo.LATEST_LEGACY_PROTOCOL_VERSION))
	}
	conn.client = mcpclient.NewClient(conn.raw, opts...)
	conn.client.OnNotification(d.notificationHandler(conn))
	conn.client.OnConnectionLost(func(err error) {
		conn.markBroken(fmt.Errorf("connection lost: %w", err))
	})
	// Start gets the long-lived ctx: mcp-go ties the transport's lifetime
	// to it.
	if err := conn.client.Start(ctx); err != nil {
		return conn, nil, d.handshakeError(conn, "start", err)
	}
	// Start installs mcp-go's typed request handler; the hub's own forwards
	// the server's requests to the calling client as raw JSON.
	if bidi, ok := conn.raw.(transport.BidirectionalInterface); ok {
		bidi.SetRequestHandler(d.serverRequestHandler())
	}

	hctx, cancel := context.WithTimeout(ctx, d.opts.ConnectTimeout)
	defer cancel()
	hctx = withResponseLimit(hctx, &responseLimit{max: d.opts.MaxResultBytes})
	if _, err := conn.client.Initialize(hctx, d.initializeRequest(modern)); err != nil {
		return conn, nil, d.handshakeError(conn, "initialize", err)
	}
	conn.era = d.negotiatedEra(conn)
	if conn.era.modern {
		// List changes come on a stream of their own.
		lctx, cancel := context.WithTimeout(ctx, listenAckTimeout)
		if _, err := d.listen(lctx, conn); err != nil {
			d.log.Warn("no list changes will be followed", "server", d.spec.Name, "err", err)
		}
		cancel()
	}
	tools, err := listTools(hctx, conn)
	if err != nil {
		return conn, nil, d.handshakeError(conn, "list tools", err)
	}
	return conn, tools, nil
}

func (d *downstream) initializeRequest(modern bool) mcpgo.InitializeRequest {
	var req mcpgo.InitializeRequest
	if !modern {
		req.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	}
	req.Params.ClientInfo = d.opts.ClientInfo
	return req
}

// openTransport builds the transport for the spec, able to speak
// 2026-07-28 when modern; for stdio it spawns the child first.
func (d *downstream) openTransport(conn *connection, modern bool) error {
	switch d.spec.Transport {
	case TransportStdio, "":
		return d.openStdio(conn)
	case TransportHTTP:
		conn.httpClient = newCappedHTTPClient(d.opts.MaxResultBytes)
		t, err := transport.NewStreamableHTTP(d.spec.URL,
			transport.WithHTTPHeaders(d.spec.Headers),
			transport.WithHTTPBasicClient(conn.httpClient),
			transport.WithContinuousListening(),
			transport.WithHTTPLogger(transportLog(d.log)),
			d.httpOAuthOption())
		if err != nil {
			return fmt.Errorf("http transport: %w", err)
		}
		conn.raw, conn.routingHeaders = t, true
		if modern {
			conn.raw = eitherEraHTTP{t}
		}
	case TransportSSE:
		conn.httpClient = newCappedHTTPClient(d.opts.MaxResultBytes)
		t, err := transport.NewSSE(d.spec.URL,
			transport.WithHeaders(d.spec.Headers),
			transport.WithHTTPClient(conn.httpClient),
			// Calls carry their own timeouts; the transport's 60s cap on
			// waiting for a response would override longer ones.
			transport.WithResponseTimeout(sseResponseTimeout),
			transport.WithSSELogger(d.log))
		if err != nil {
			return fmt.Errorf("sse transport: %w", err)
		}
		conn.raw = t
	case TransportInProcess:
		if d.spec.InProcess == nil {
			return errors.New("in-process server missing")
		}
		conn.raw = d.newInProcessTransport(d.spec.InProcess)
	default:
		return fmt.Errorf("unknown transport %q", d.spec.Transport)
	}
	return nil
}

// handshakeError explains a failed connect. When the connection broke (the
// child exited, or wrote garbage) that reason is the clearer one; a closed
// stdio transport or a write to a child that is gone always leads to one,
// once the child is reaped.
func (d *downstream) handshakeError(conn *connection, step string, err error) error {
	reason := conn.brokenReason()
	if reason == nil && conn.child != nil && (errors.Is(err, transport.ErrTransportClosed) || proc.BrokenPipe(err)) {
		reason = conn.awaitBrokenReason(stdoutEndGrace + time.Second)
	}
	if reason != nil {
		return fmt.Errorf("%s: %w (%w)", step, reason, err)
	}
	return fmt.Errorf("%s: %w", step, err)
}

// notificationHandler routes the server's notifications: tools/list_changed
// is followed here, everything else goes to OnNotification.
func (d *downstream) notificationHandler(conn *connection) func(mcpgo.JSONRPCNotification) {
	return func(n mcpgo.JSONRPCNotification) {
		switch n.Method {
		case mcpgo.MethodNotificationToolsListChanged:
			conn.toolsChanged()
			return
		case mcpgo.MethodNotificationSubscriptionsAcknowledged:
			conn.listening.acknowledged(n)
			return
		}
		if d.opts.OnNotification != nil {
			d.opts.OnNotification(d.spec.Name, n)
		}
	}
}
