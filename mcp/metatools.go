package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// Names of toolhub's search surface.
const (
	FindToolsName    = "find_tools"
	DescribeToolName = "describe_tool"
	CallToolName     = "call_tool"
)

// Bounds of find_tools' limit.
const (
	defaultFindLimit = 10
	maxFindLimit     = 50
)

// findToolsTool is find_tools. Its description names the next step the
// surface offers: with every tool listed (ExposeBoth) a match is called
// by its name; with the search surface, describe_tool and call_tool.
func (s *Server) findToolsTool(e Exposure) mcpserver.ServerTool {
	next := " Every tool it names is listed under that name with its full input schema: call it directly."
	if e == ExposeSearch {
		next = " Use describe_tool for a tool's full input schema and call_tool to call it."
	}
	tool := mcpgo.NewTool(FindToolsName,
		mcpgo.WithDescription("Search the tools of every MCP server behind toolhub by what they do. "+
			"Returns the best matches with their server, whether they run locally, measured latency, "+
			"cost per call and a one-line description."+next),
		mcpgo.WithString("query", mcpgo.Required(),
			mcpgo.Description(`what you want to do, in a few words, e.g. "read a file" or "create an issue"`)),
		mcpgo.WithInteger("limit", mcpgo.Min(1), mcpgo.Max(maxFindLimit),
			mcpgo.Description(fmt.Sprintf("how many tools to return (default %d)", defaultFindLimit))),
		readOnlyAnnotations(),
	)
	return mcpserver.ServerTool{Tool: tool, Handler: s.handleFindTools}
}

func (s *Server) describeToolTool() mcpserver.ServerTool {
	tool := mcpgo.NewTool(DescribeToolName,
		mcpgo.WithDescription("Show one tool's full definition: its input schema (the arguments call_tool "+
			"needs), output schema, annotations, server, locality and cost."),
		mcpgo.WithString("name", mcpgo.Required(), mcpgo.Description("the tool's name as find_tools gave it")),
		readOnlyAnnotations(),
	)
	return mcpserver.ServerTool{Tool: tool, Handler: s.handleDescribeTool}
}

func (s *Server) callToolTool() mcpserver.ServerTool {
	tool := mcpgo.NewTool(CallToolName,
		mcpgo.WithDescription("Call any tool found with find_tools. The arguments must match the tool's "+
			"input schema (see describe_tool); the tool's own result is returned unchanged."),
		mcpgo.WithString("name", mcpgo.Required(), mcpgo.Description("the tool's name as find_tools gave it")),
		mcpgo.WithObject("arguments", mcpgo.Description("the tool's arguments, as an object")),
	)
	return mcpserver.ServerTool{Tool: tool, Handler: s.handleCallTool}
}

func readOnlyAnnotations() mcpgo.ToolOption {
	return mcpgo.WithToolAnnotation(mcpgo.ToolAnnotation{
		ReadOnlyHint:    mcpgo.ToBoolPtr(true),
		DestructiveHint: mcpgo.ToBoolPtr(false),
		IdempotentHint:  mcpgo.ToBoolPtr(true),
		OpenWorldHint:   mcpgo.ToBoolPtr(false),
	})
}

func (s *Server) handleFindTools(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	var args struct {
		Query string `json:"query"`
		Limit int    `json:"limit"`
	}
	if err := req.BindArguments(&args); err != nil || args.Query == "" {
		return mcpgo.NewToolResultError(`find_tools needs a "query": what you want to do, in a few words`), nil
	}
	limit := args.Limit
	if limit <= 0 {
		limit = defaultFindLimit
	}
	limit = min(limit, maxFindLimit)
	snap := s.cat.Snapshot()
	hits := s.index.get(snap).search(args.Query, limit)
	return findToolsResult(args.Query, hits, snap.Len(), s.opts.Expose, downServers(s.cat)), nil
}

func (s *Server) handleDescribeTool(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	name := req.GetString("name", "")
	snap := s.cat.Snapshot()
	t, ok := snap.Lookup(name)
	if !ok {
		return errorResult(name, &hub.UnknownToolError{Name: name, Suggestions: snap.Suggest(name, 3)}), nil
	}
	body, err := json.MarshalIndent(describe(t), "", "  ")
	if err != nil {
		return errorResult(name, err), nil
	}
	return mcpgo.NewToolResultText(string(body)), nil
}

// callToolArgs are call_tool's arguments: the catalog tool and its own.
type callToolArgs struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

func (s *Server) handleCallTool(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	var args callToolArgs
	if err := req.BindArguments(&args); err != nil || args.Name == "" {
		return mcpgo.NewToolResultError(`call_tool needs the "name" of a tool (find one with find_tools) and its "arguments"`), nil
	}
	if modernRequest(ctx) {
		return s.forwardModern(ctx, args.Name, args.Arguments, req)
	}
	return s.forward(ctx, args.Name, args.Arguments, progressToken(req)), nil
}

// maxSummaryRunes bounds the one-line description of a find_tools hit.
const maxSummaryRunes = 160

// foundTool is one find_tools hit in the structured result.
type foundTool struct {
	Name        string       `json:"name"`
	Server      string       `json:"server"`
	Locality    hub.Locality `json:"locality,omitempty"`
	LatencyMs   float64      `json:"latencyMs"` // 0 when never measured
	CostPerCall float64      `json:"costPerCallUSD"`
	// CostPerSecond is USD per second of a call's wall time, on top of
	// CostPerCall (the python sandbox is billed so).
	CostPerSecond float64 `json:"costPerSecondUSD,omitempty"`
	Summary       string  `json:"description"`
	Score         float64 `json:"score"`
}

// findToolsResult lists the hits as text for the model and as structured
// content for programs.
func findToolsResult(query string, hits []searchHit, catalogSize int, expose Exposure, down []downServer) *mcpgo.CallToolResult {
	found := make([]foundTool, 0, len(hits))
	var b strings.Builder
	if len(hits) == 0 {
		fmt.Fprintf(&b, "No tool matches %q among the %d tools toolhub offers; try other words.", query, catalogSize)
	} else {
		fmt.Fprintf(&b, "%d tools for %q, best first (%s):\n", len(hits), query, howToCall(expose))
	}
	for i, h := range hits {
		f := foundTool{
			Name:          h.Tool.Name,
			Server:        h.Tool.Server,
			Locality:      h.Tool.Locality,
			LatencyMs:     latencyMs(h.Tool),
			CostPerCall:   h.Tool.CostPerCall,
			CostPerSecond: h.Tool.CostPerSecond,
			Summary:       oneLine(h.Tool.Description, maxSummaryRunes),
			Score:         roundScore(h.Score),
		}
		found = append(found, f)
		fmt.Fprintf(&b, "%d. %s (server %s, %s, %s, %s): %s\n", i+1, f.Name, f.Server,
			localityText(f.Locality), latencyText(f.LatencyMs), costText(f.CostPerCall, f.CostPerSecond), f.Summary)
	}
	writeDown(&b, down)
	structured := map[string]any{"tools": found}
	if len(down) > 0 {
		structured["down"] = down
	}
	return mcpgo.NewToolResultStructured(structured, strings.TrimRight(b.String(), "\n"))
}

func howToCall(expose Exposure) string {
	if expose == ExposeSearch {
		return "run one with call_tool"
	}
	return "call one by its name"
}

func localityText(l hub.Locality) string {
	if l == "" {
		return "locality unknown"
	}
	return string(l)
}

func latencyText(ms float64) string {
	if ms <= 0 {
		return "latency not measured yet"
	}
	return strconv.FormatFloat(ms, 'f', 1, 64) + " ms"
}

// costText is a tool's price as find_tools says it: per call, per second
// of the call's wall time, both, or free.
func costText(perCall, perSecond float64) string {
	return hub.PriceText(perCall, perSecond, " per call", " per second")
}

func roundScore(s float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(s, 'f', 3, 64), 64)
	return v
}

// oneLine collapses whitespace and keeps the first sentence-ish line of at
// most n runes.
func oneLine(s string, n int) string {
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s = s[:i]
	}
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) > n {
		return strings.TrimSpace(string(r[:n-1])) + "…"
	}
	return s
}
