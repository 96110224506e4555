package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// richInputSchema has what mcpgo.ToolArgumentsSchema would drop: $schema,
// a top-level description and anyOf.
const richInputSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",` +
	`"description":"Either a path or a URL.","properties":{"path":{"type":"string"},` +
	`"url":{"$ref":"#/$defs/url"}},"anyOf":[{"required":["path"]},{"required":["url"]}],` +
	`"$defs":{"url":{"type":"string","format":"uri"}},"additionalProperties":false}`

const richOutputSchema = `{"type":"object","description":"What was read.",` +
	`"properties":{"size":{"type":"integer"}},"required":["size"]}`

// richResult is returned by the rich tool: structured content, annotated
// content with _meta, a content type mcp-go does not know, a field mcp-go
// does not model, and result _meta.
var richResultContent = []string{
	`{"type":"text","text":"three bytes","annotations":{"audience":["user"],"priority":0.5},"_meta":{"k":"v"}}`,
	`{"type":"resource_link","uri":"file:///tmp/x","name":"x"}`,
	`{"type":"x-future","payload":{"n":1}}`,
	`{"type":"text","text":"extra","x-unmodelled":true}`,
}

// fixture is an in-process downstream MCP server with tools that exercise
// every path of the surface.
type fixture struct {
	srv       *mcpserver.MCPServer
	started   chan string // label of each slow call, when it starts
	cancelled chan string // label of each slow call whose context ended early
}

func newFixture() *fixture {
	f := &fixture{
		srv: mcpserver.NewMCPServer("fixture", "1.0.0",
			mcpserver.WithToolCapabilities(true), mcpserver.WithLogging()),
		started:   make(chan string, 16),
		cancelled: make(chan string, 16),
	}
	f.srv.AddTool(mcpgo.NewTool("echo", mcpgo.WithDescription("Echo a message back."),
		mcpgo.WithString("message", mcpgo.Required())), f.echo)
	rich := mcpgo.NewToolWithRawSchema("rich", "Read a file or a URL.", json.RawMessage(richInputSchema))
	rich.Title = "Rich tool"
	rich.RawOutputSchema = json.RawMessage(richOutputSchema)
	rich.Annotations = mcpgo.ToolAnnotation{Title: "Rich", ReadOnlyHint: mcpgo.ToBoolPtr(true)}
	rich.Meta = &mcpgo.Meta{AdditionalFields: map[string]any{"vendor/x": 1}}
	f.srv.AddTool(rich, f.rich)
	f.srv.AddTool(mcpgo.NewTool("annotated", mcpgo.WithDescription("Annotated text and structured content.")),
		f.annotated)
	f.srv.AddTool(mcpgo.NewTool("slow", mcpgo.WithDescription("Count steps slowly, reporting progress."),
		mcpgo.WithNumber("steps"), mcpgo.WithNumber("delay_ms"), mcpgo.WithString("label")), f.slow)
	f.srv.AddTool(mcpgo.NewTool("big", mcpgo.WithDescription("Return a text of the given size."),
		mcpgo.WithNumber("bytes", mcpgo.Required())), f.big)
	f.srv.AddTool(mcpgo.NewTool("fail", mcpgo.WithDescription("Always reports an error.")),
		func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultError("it broke"), nil
		})
	f.srv.AddTool(mcpgo.NewTool("logs", mcpgo.WithDescription("Log at debug, info and error."),
		mcpgo.WithString("label")), f.logs)
	f.srv.AddTool(mcpgo.NewToolWithRawSchema("typed", "Needs a positive count.",
		json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer","minimum":1},`+
			`"name":{"type":"string"}},"required":["count","name"]}`)), f.echo)
	return f
}

func (f *fixture) echo(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	return mcpgo.NewToolResultText("echo: " + req.GetString("message", "")), nil
}

func (f *fixture) rich(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	res := &mcpgo.CallToolResult{RawStructuredContent: json.RawMessage(`{"size":3}`)}
	for _, c := range richResultContent {
		res.Content = append(res.Content, rawContent{raw: json.RawMessage(c)})
	}
	res.Meta = &mcpgo.Meta{AdditionalFields: map[string]any{"trace": "abc"}}
	return res, nil
}

// annotated returns only content types every client knows.
func (f *fixture) annotated(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	return &mcpgo.CallToolResult{
		Content:              []mcpgo.Content{rawContent{raw: json.RawMessage(richResultContent[0])}},
		RawStructuredContent: json.RawMessage(`{"size":3}`),
	}, nil
}

// slow reports one progress notification per step, waiting delay_ms
// between steps, and notes when its context ends before it is done.
func (f *fixture) slow(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	steps := int(req.GetFloat("steps", 3))
	delay := time.Duration(req.GetFloat("delay_ms", 10)) * time.Millisecond
	label := req.GetString("label", "")
	f.started <- label
	var token mcpgo.ProgressToken
	if req.Params.Meta != nil {
		token = req.Params.Meta.ProgressToken
	}
	for i := 1; i <= steps; i++ {
		if token != nil {
			_ = f.srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
				"progressToken": token, "progress": i, "total": steps, "message": fmt.Sprintf("%s %d", label, i),
			})
		}
		select {
		case <-ctx.Done():
			f.cancelled <- label
			return nil, ctx.Err()
		case <-time.After(delay):
		}
	}
	return mcpgo.NewToolResultText(label + " done"), nil
}

func (f *fixture) big(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	return mcpgo.NewToolResultText(strings.Repeat("x", int(req.GetFloat("bytes", 0)))), nil
}

func (f *fixture) logs(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	label := req.GetString("label", "")
	for _, level := range []string{"debug", "info", "error"} {
		_ = f.srv.SendNotificationToClient(ctx, "notifications/message", map[string]any{
			"level": level, "logger": "fixture", "data": label + " " + level,
		})
	}
	return mcpgo.NewToolResultText("logged"), nil
}

// drainStarts reads the fixture's start notes until the test ends, for a
// test that calls slow tools many times without waiting on their starts.
func (f *fixture) drainStarts(t *testing.T) {
	done := make(chan struct{})
	t.Cleanup(func() { close(done) })
	go func() {
		for {
			select {
			case <-f.started:
			case <-done:
				return
			}
		}
	}()
}
