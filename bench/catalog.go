package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// CatalogOptions size the catalog benchmark.
type CatalogOptions struct {
	Servers        int // default 100
	ToolsPerServer int // default 50
	Lookups        int // name lookups measured (default 100,000)
	Listings       int // full listings measured (default 1,000)
	Logger         *slog.Logger
}

// CatalogReport is what the catalog benchmark measured.
type CatalogReport struct {
	Servers      int           `json:"servers"`
	Tools        int           `json:"tools"`
	Build        time.Duration `json:"build"` // start of the hub until every tool is in the catalog
	Listing      Percentiles   `json:"listing"`
	Lookup       Percentiles   `json:"lookup"`
	Suggest      Percentiles   `json:"suggest"`      // an unknown name answered with the closest ones
	ListingBytes int           `json:"listingBytes"` // size of one encoded listing
}

// RunCatalog starts a hub over in-process MCP servers, each with its own
// tools and schemas, waits until all are in the catalog, then times listing
// the whole catalog and looking names up.
func RunCatalog(ctx context.Context, opts CatalogOptions) (*CatalogReport, error) {
	opts = catalogDefaults(opts)
	specs := make([]hub.ServerSpec, 0, opts.Servers)
	for s := 0; s < opts.Servers; s++ {
		specs = append(specs, hub.ServerSpec{
			Name:      fmt.Sprintf("srv%03d", s),
			Transport: hub.TransportInProcess,
			InProcess: fakeServer(s, opts.ToolsPerServer),
			Locality:  hub.LocalityLocal,
		})
	}
	h, err := hub.New(specs, hub.Options{Logger: opts.Logger})
	if err != nil {
		return nil, fmt.Errorf("catalog bench: %w", err)
	}
	defer h.Close()
	start := time.Now()
	h.Start(ctx)
	if err := h.WaitSettled(ctx); err != nil {
		return nil, fmt.Errorf("catalog bench: %w", err)
	}
	rep := &CatalogReport{Servers: opts.Servers, Build: time.Since(start)}
	snap := h.Snapshot()
	rep.Tools = snap.Len()
	if want := opts.Servers * opts.ToolsPerServer; rep.Tools != want {
		return nil, fmt.Errorf("catalog bench: catalog holds %d tools, want %d", rep.Tools, want)
	}
	rep.Listing = timeListing(h, opts.Listings)
	var buf bytes.Buffer
	if err := encodeListing(&buf, snap.Tools()); err != nil {
		return nil, fmt.Errorf("catalog bench: %w", err)
	}
	rep.ListingBytes = buf.Len()
	rep.Lookup = timeLookups(h, snap, opts.Lookups)
	rep.Suggest = timeSuggest(h, 200)
	return rep, nil
}

func catalogDefaults(o CatalogOptions) CatalogOptions {
	if o.Servers <= 0 {
		o.Servers = 100
	}
	if o.ToolsPerServer <= 0 {
		o.ToolsPerServer = 50
	}
	if o.Lookups <= 0 {
		o.Lookups = 100_000
	}
	if o.Listings <= 0 {
		o.Listings = 1_000
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// timeListing measures what serving tools/list costs: taking the current
// snapshot and encoding every tool's exposed name, description and raw
// schemas as the JSON a client receives.
func timeListing(h *hub.Hub, n int) Percentiles {
	samples := make([]time.Duration, n)
	var buf bytes.Buffer
	for i := range samples {
		buf.Reset()
		t0 := time.Now()
		if err := encodeListing(&buf, h.Snapshot().Tools()); err != nil {
			panic("catalog bench: " + err.Error())
		}
		samples[i] = time.Since(t0)
	}
	return summarize(samples)
}

type listedTool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"inputSchema"`
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
}

func encodeListing(w io.Writer, tools []*hub.Tool) error {
	out := make([]listedTool, len(tools))
	for i, t := range tools {
		out[i] = listedTool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema, OutputSchema: t.OutputSchema}
	}
	return json.NewEncoder(w).Encode(map[string]any{"tools": out})
}

func timeLookups(h *hub.Hub, snap *hub.Snapshot, n int) Percentiles {
	tools := snap.Tools()
	rng := rand.New(rand.NewPCG(1, 2))
	samples := make([]time.Duration, n)
	for i := range samples {
		name := tools[rng.IntN(len(tools))].Name
		t0 := time.Now()
		_, ok := h.Snapshot().Lookup(name)
		samples[i] = time.Since(t0)
		if !ok {
			panic("catalog bench: a listed tool cannot be looked up: " + name)
		}
	}
	return summarize(samples)
}

func timeSuggest(h *hub.Hub, n int) Percentiles {
	samples := make([]time.Duration, n)
	for i := range samples {
		name := fmt.Sprintf("srv%03d__tool_%02dx", i%100, i%50) // a near miss
		t0 := time.Now()
		_ = h.Snapshot().Suggest(name, 3)
		samples[i] = time.Since(t0)
	}
	return summarize(samples)
}

// fakeServer is an in-process MCP server with n tools, each with a small
// schema of its own.
func fakeServer(id, n int) *mcpserver.MCPServer {
	s := mcpserver.NewMCPServer(fmt.Sprintf("fake-%d", id), "1.0.0", mcpserver.WithToolCapabilities(true))
	for t := 0; t < n; t++ {
		tool := mcpgo.NewTool(fmt.Sprintf("tool_%02d", t),
			mcpgo.WithDescription(fmt.Sprintf("Fake tool %d of server %d: echoes its query back.", t, id)),
			mcpgo.WithString("query", mcpgo.Required(), mcpgo.Description("text to echo")),
			mcpgo.WithNumber("limit", mcpgo.Description("how many results")),
		)
		s.AddTool(tool, func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText(req.GetString("query", "")), nil
		})
	}
	return s
}
