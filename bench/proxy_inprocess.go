package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/mcp"
)

// InProcessReport is the throughput of an echo tool served in-process,
// called through the hub and through the whole MCP surface.
type InProcessReport struct {
	Cores   int `json:"cores"` // GOMAXPROCS
	Workers int `json:"workers"`
	Calls   int `json:"calls"`
	// Hub: hub.Call on the in-process server.
	HubCallsPerSec float64     `json:"hubCallsPerSec"`
	HubLatency     Percentiles `json:"hubLatency"`
	// Surface: an in-process MCP client per worker → toolhub's MCP server →
	// the hub → the in-process server.
	SurfaceCallsPerSec float64     `json:"surfaceCallsPerSec"`
	SurfaceLatency     Percentiles `json:"surfaceLatency"`
}

const echoTool = "echo__echo"

var echoArgs = json.RawMessage(`{"message":"hello"}`)

// RunInProcessEcho measures calls/s of an in-process echo tool through the
// hub, with workers calling concurrently.
func RunInProcessEcho(ctx context.Context, calls, workers int) (InProcessReport, error) {
	rep := InProcessReport{Cores: runtime.GOMAXPROCS(0), Workers: workers, Calls: calls}
	quiet := slog.New(slog.DiscardHandler)
	h, err := hub.New([]hub.ServerSpec{{
		Name: "echo", Transport: hub.TransportInProcess, InProcess: echoServer(), Locality: hub.LocalityLocal,
	}}, hub.Options{Logger: quiet})
	if err != nil {
		return rep, fmt.Errorf("in-process bench: %w", err)
	}
	defer h.Close()
	h.Start(ctx)
	if ok, err := h.WaitTool(ctx, echoTool); err != nil || !ok {
		return rep, fmt.Errorf("in-process bench: the echo tool never appeared: %w", err)
	}
	rep.HubCallsPerSec, rep.HubLatency, err = hammer(ctx, calls, workers, func(int) func(context.Context) error {
		return func(ctx context.Context) error {
			res, err := h.Call(ctx, echoTool, echoArgs, hub.CallOptions{})
			if err == nil && res.IsError {
				err = errors.New("echo reported an error")
			}
			return err
		}
	})
	if err != nil {
		return rep, fmt.Errorf("in-process bench: %w", err)
	}
	srv, err := mcp.NewServer(h, mcp.Options{Expose: mcp.ExposeDirect, Logger: quiet})
	if err != nil {
		return rep, fmt.Errorf("in-process bench: %w", err)
	}
	defer srv.Close()
	clients, err := surfaceClients(ctx, srv, workers)
	if err != nil {
		return rep, fmt.Errorf("in-process bench: %w", err)
	}
	rep.SurfaceCallsPerSec, rep.SurfaceLatency, err = hammer(ctx, calls, workers, func(w int) func(context.Context) error {
		return func(ctx context.Context) error {
			var req mcpgo.CallToolRequest
			req.Params.Name = echoTool
			req.Params.Arguments = echoArgs
			_, err := clients[w].CallTool(ctx, req)
			return err
		}
	})
	return rep, err
}

// surfaceClients connects one in-process client per worker.
func surfaceClients(ctx context.Context, srv *mcp.Server, n int) ([]*mcpclient.Client, error) {
	clients := make([]*mcpclient.Client, n)
	for i := range clients {
		// mcp-go names an in-process session by the wall clock in
		// nanoseconds, which Windows advances in ticks: two clients made
		// within one tick would share a session id, and the second be
		// refused. Wait for the clock to move first.
		for t0 := time.Now().UnixNano(); time.Now().UnixNano() == t0; {
		}
		c, err := mcpclient.NewInProcessClient(srv.MCPServer())
		if err != nil {
			return nil, err
		}
		if err := c.Start(ctx); err != nil {
			return nil, err
		}
		var req mcpgo.InitializeRequest
		req.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
		if _, err := c.Initialize(ctx, req); err != nil {
			return nil, err
		}
		clients[i] = c
	}
	return clients, nil
}

// hammer makes calls calls from workers goroutines (worker w runs the
// function newCall(w) returns) and reports calls/s and latencies.
func hammer(ctx context.Context, calls, workers int, newCall func(w int) func(context.Context) error) (float64, Percentiles, error) {
	var next atomic.Int64
	var firstErr atomic.Pointer[error]
	perWorker := make([][]time.Duration, workers)
	var wg sync.WaitGroup
	start := time.Now()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			call := newCall(w)
			for next.Add(1) <= int64(calls) && firstErr.Load() == nil {
				t0 := time.Now()
				if err := call(ctx); err != nil {
					firstErr.CompareAndSwap(nil, &err)
					return
				}
				perWorker[w] = append(perWorker[w], time.Since(t0))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if errp := firstErr.Load(); errp != nil {
		return 0, Percentiles{}, *errp
	}
	var all []time.Duration
	for _, s := range perWorker {
		all = append(all, s...)
	}
	return float64(len(all)) / elapsed.Seconds(), summarize(all), nil
}

// echoServer is an in-process MCP server with one echo tool.
func echoServer() *mcpserver.MCPServer {
	s := mcpserver.NewMCPServer("echo", "1.0.0", mcpserver.WithToolCapabilities(false))
	s.AddTool(mcpgo.NewTool("echo", mcpgo.WithString("message", mcpgo.Required())),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(req.GetString("message", "")), nil
		})
	return s
}
