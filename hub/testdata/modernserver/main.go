// Command modernserver is an MCP server built on mcp-go, which
// speaks protocol 2026-07-28 (server/discover, no initialize) as well as
// the older ones, over stdio or (with -http ADDR) Streamable HTTP. The hub's
// tests run it as a downstream of the current era, and with -older as an HTTP
// server of the older one.
//
// Tools:
//
//	echo     returns its "text" argument
//	locate   returns its "region" argument, which over HTTP must also come in
//	         the Mcp-Param-Region header
//	confirm  asks the client for a name with an InputRequiredResult, then for
//	         a sample, and returns both (one round each)
//	roots    asks the client for its roots with an InputRequiredResult and
//	         returns their URIs, one per line
//	grow     adds the tool "grown" a moment after answering, which a client
//	         learns of by list_changed
//	touch    sends resources/updated for modern://note to every client
//	         subscribed to it, and says to how many
//
// With -tasks it also offers the Tasks extension of 2026-07-28
// (tasks.go) and has the tool "report", which runs only as such a task.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
)

// growDelay is how long after answering grow the tool grown appears.
const growDelay = 200 * time.Millisecond

func main() {
	flags, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "modernserver:", err)
		os.Exit(2)
	}
	watchers := &watchers{}
	hooks := &mcpserver.Hooks{}
	hooks.AddBeforeAny(watchers.seen)
	opts := []mcpserver.ServerOption{mcpserver.WithToolCapabilities(true),
		mcpserver.WithResourceCapabilities(true, true), mcpserver.WithHooks(hooks)}
	var tasks *taskLayer
	if flags.tasks {
		tasks = newTaskLayer()
		opts = append(opts, mcpserver.WithExtensions(map[string]any{tasksExtension: map[string]any{}}))
	}
	srv := mcpserver.NewMCPServer("modernserver", "1", opts...)
	srv.AddResource(mcpgo.NewResource(noteURI, "note"), func(context.Context, mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
		return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: noteURI, Text: "a note"}}, nil
	})
	srv.AddTool(mcpgo.NewTool("touch"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText(fmt.Sprintf("notified %d", watchers.notify(noteURI))), nil
	})
	srv.AddTool(mcpgo.NewTool("echo", mcpgo.WithString("text")), func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultText("echo: " + req.GetString("text", "")), nil
	})
	srv.AddTool(mcpgo.NewToolWithRawSchema("locate", "", json.RawMessage(
		`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`)),
		func(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
			return mcpgo.NewToolResultText("region " + req.GetString("region", "")), nil
		})
	srv.AddTool(mcpgo.NewTool("roots"), roots)
	srv.AddTool(mcpgo.NewTool("confirm"), confirm)
	srv.AddTool(mcpgo.NewTool("survey"), survey)
	srv.AddPrompt(mcpgo.NewPrompt("greeting"), greeting)
	srv.AddTool(mcpgo.NewTool("caps"), caps)
	srv.AddTool(mcpgo.NewTool("grow"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		// Later, so that the change reaches the client outside the call's
		// own response stream.
		time.AfterFunc(growDelay, func() {
			srv.AddTool(mcpgo.NewTool("grown"), func(context.Context, mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
				return mcpgo.NewToolResultText("grown"), nil
			})
		})
		return mcpgo.NewToolResultText("grew"), nil
	})
	if tasks != nil {
		tasks.addTools(srv)
	}
	if err := serve(srv, flags, tasks); err != nil {
		fmt.Fprintln(os.Stderr, "modernserver:", err)
		os.Exit(1)
	}
}

type options struct {
	addr                      string
	older, stateless, lenient bool
	tasks                     bool
}

func parseFlags(args []string) (options, error) {
	var o options
	flags := flag.NewFlagSet("modernserver", flag.ContinueOnError)
	flags.StringVar(&o.addr, "http", "", "serve Streamable HTTP on this address")
	flags.BoolVar(&o.older, "older", false, "over HTTP, answer server/discover as a server of 2025-11-25 does, with method not found")
	flags.BoolVar(&o.stateless, "stateless", false, "over HTTP, keep no sessions")
	flags.BoolVar(&o.lenient, "lenient", false, "over HTTP, answer server/discover with an empty result, as servers that answer every unknown method so do")
	flags.BoolVar(&o.tasks, "tasks", false, "offer the Tasks extension and the task-only tool report")
	return o, flags.Parse(args)
}

// serve serves over stdio, or with "-http ADDR" over Streamable HTTP at
// http://ADDR/mcp, whose URL (the port chosen when ADDR's is 0) is the
// first line on stdout.
func serve(srv *mcpserver.MCPServer, o options, tasks *taskLayer) error {
	if o.addr == "" {
		if tasks != nil {
			return tasks.serveStdio(srv)
		}
		return mcpserver.ServeStdio(srv)
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return err
	}
	fmt.Printf("http://%s/mcp\n", ln.Addr())
	var handler http.Handler = mcpserver.NewStreamableHTTPServer(srv, mcpserver.WithStateLess(o.stateless))
	if o.older || o.lenient {
		handler = withoutDiscover(handler, o.lenient)
	}
	if tasks != nil {
		handler = tasks.wrap(handler)
	}
	return http.Serve(ln, handler)
}

// withoutDiscover answers server/discover with method not found, or with
// an empty result when lenient, and passes every other request on.
func withoutDiscover(next http.Handler, lenient bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal(body, &req) == nil && req.Method == string(mcpgo.MethodServerDiscover) {
			w.Header().Set("Content-Type", "application/json")
			if lenient {
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":{}}`, req.ID)
				return
			}
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}`, req.ID)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// confirm asks for a name first, then for a sample, in two rounds; the
// requestState names the round.
func confirm(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	responses := req.Params.InputResponses
	switch req.Params.RequestState {
	case "":
		return mcpserver.NewInputRequestBuilder("asked-name").Elicit("name", mcpgo.ElicitationParams{
			Message:         "your name?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		}).ToolResult(), nil
	case "asked-name":
		answer := mcpserver.ElicitationResponse(responses, "name")
		if answer == nil {
			return mcpgo.NewToolResultError("no name in the answer"), nil
		}
		name, _ := answer.Content.(map[string]any)["name"].(string)
		return mcpserver.NewInputRequestBuilder("asked-sample:"+name).Sample("sample", mcpgo.CreateMessageParams{
			Messages:  []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent("a word for " + name)}},
			MaxTokens: 8,
		}).ToolResult(), nil
	}
	name, ok := strings.CutPrefix(req.Params.RequestState, "asked-sample:")
	sample := mcpserver.SamplingResponse(responses, "sample")
	if !ok || sample == nil {
		return mcpgo.NewToolResultError("unexpected state " + req.Params.RequestState), nil
	}
	text := ""
	if content, err := mcpgo.ParseSamplingContent(sample.Content); err == nil {
		if tc, ok := content.(mcpgo.TextContent); ok {
			text = tc.Text
		}
	}
	return mcpgo.NewToolResultText("confirmed " + name + " with " + text), nil
}

// roots asks for the client's roots and lists them.
func roots(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	answer := mcpserver.RootsResponse(req.Params.InputResponses, "roots")
	if answer == nil {
		return mcpserver.NewInputRequestBuilder("asked-roots").Roots("roots").ToolResult(), nil
	}
	uris := make([]string, 0, len(answer.Roots))
	for _, r := range answer.Roots {
		uris = append(uris, r.URI)
	}
	return mcpgo.NewToolResultText(strings.Join(uris, "\n")), nil
}

// survey asks for a name and the client's roots in one round, under keys
// of its own, and answers with both.
func survey(_ context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	name := mcpserver.ElicitationResponse(req.Params.InputResponses, "who")
	where := mcpserver.RootsResponse(req.Params.InputResponses, "where")
	if name == nil || where == nil {
		return mcpserver.NewInputRequestBuilder("surveying").Elicit("who", mcpgo.ElicitationParams{
			Message:         "your name?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		}).Roots("where").ToolResult(), nil
	}
	who, _ := name.Content.(map[string]any)["name"].(string)
	uris := make([]string, 0, len(where.Roots))
	for _, r := range where.Roots {
		uris = append(uris, r.URI)
	}
	return mcpgo.NewToolResultText(who + " at " + strings.Join(uris, " ")), nil
}

// caps lists the client capabilities the request declared.
func caps(ctx context.Context, _ mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	var declared []string
	if info := mcpserver.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientCapabilities != nil {
		c := info.ClientCapabilities
		for _, capability := range []struct {
			name string
			set  bool
		}{{"elicitation", c.Elicitation != nil}, {"roots", c.Roots != nil}, {"sampling", c.Sampling != nil}} {
			if capability.set {
				declared = append(declared, capability.name)
			}
		}
	}
	return mcpgo.NewToolResultText("declared: " + strings.Join(declared, " ")), nil
}

// greeting is a prompt that asks for the client's name first.
func greeting(_ context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
	answer := mcpserver.ElicitationResponse(req.Params.InputResponses, "who")
	if answer == nil {
		return mcpserver.NewInputRequestBuilder("greeting").Elicit("who", mcpgo.ElicitationParams{
			Message:         "your name?",
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		}).PromptResult(), nil
	}
	if req.Params.RequestState != "greeting" {
		return nil, fmt.Errorf("unexpected requestState %q", req.Params.RequestState)
	}
	who, _ := answer.Content.(map[string]any)["name"].(string)
	return mcpgo.NewGetPromptResult("a greeting", []mcpgo.PromptMessage{
		mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent("hello "+who)),
	}), nil
}
