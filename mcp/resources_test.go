package mcp

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// libServer offers text and binary resources, a template and a prompt whose
// messages carry text, an image and an embedded resource.
func libServer() *mcpserver.MCPServer {
	s := mcpserver.NewMCPServer("lib", "1", mcpserver.WithResourceCapabilities(false, true), mcpserver.WithPromptCapabilities(true))
	s.AddResource(mcpgo.NewResource("lib://notes", "notes", mcpgo.WithMIMEType("text/plain")),
		func(_ context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "some notes"}}, nil
		})
	s.AddResource(mcpgo.NewResource("lib://logo", "logo", mcpgo.WithMIMEType("image/png")),
		func(_ context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.BlobResourceContents{URI: req.Params.URI, MIMEType: "image/png", Blob: "iVBORw0K"}}, nil
		})
	s.AddResourceTemplate(mcpgo.NewResourceTemplate("lib://books/{id}", "book"),
		func(_ context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, Text: "book " + req.Params.URI}}, nil
		})
	s.AddPrompt(mcpgo.NewPrompt("review", mcpgo.WithArgument("topic", mcpgo.RequiredArgument())),
		func(_ context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
			return mcpgo.NewGetPromptResult("a review", []mcpgo.PromptMessage{
				mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent("review "+req.Params.Arguments["topic"])),
				mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewImageContent("iVBORw0K", "image/png")),
				mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewEmbeddedResource(
					mcpgo.TextResourceContents{URI: "lib://notes", MIMEType: "text/plain", Text: "some notes"})),
			}), nil
		})
	return s
}

// resourceClient is a client of toolhub serving lib, with the
// notifications it received; listen keeps a stream open for them.
func resourceClient(t *testing.T, lib *mcpserver.MCPServer, listen bool) (*mcpclient.Client, *notes) {
	t.Helper()
	h := testHub(t, nil, inProcess("lib", lib))
	waitFor(t, "lib's resources in the hub", func() bool { return len(h.Resources()) == 2 })
	srv := testServer(t, h, Options{Expose: ExposeDirect})
	endpoint := serveHTTP(t, srv, HTTPOptions{})
	n := &notes{}
	return connectHTTP(t, endpoint.URL(), clientOptions{legacy: true, listen: listen, onNote: n.add}), n
}

func TestClientSeesDownstreamResourcesAndPrompts(t *testing.T) {
	c, _ := resourceClient(t, libServer(), false)
	ctx := t.Context()

	resources, err := c.ListResources(ctx, mcpgo.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range resources.Resources {
		uris = append(uris, r.URI)
	}
	slices.Sort(uris)
	if want := []string{"lib://logo", "lib://notes"}; !slices.Equal(uris, want) {
		t.Errorf("resources = %v, want %v", uris, want)
	}
	templates, err := c.ListResourceTemplates(ctx, mcpgo.ListResourceTemplatesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate.Raw() != "lib://books/{id}" {
		t.Errorf("templates = %+v", templates.ResourceTemplates)
	}
	prompts, err := c.ListPrompts(ctx, mcpgo.ListPromptsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(prompts.Prompts) != 1 || prompts.Prompts[0].Name != "lib__review" || len(prompts.Prompts[0].Arguments) != 1 {
		t.Errorf("prompts = %+v", prompts.Prompts)
	}
}

func TestClientReadsResourcesThroughToolhub(t *testing.T) {
	c, _ := resourceClient(t, libServer(), false)
	tests := []struct {
		name, uri, want string
	}{
		{name: "text", uri: "lib://notes", want: `"text":"some notes"`},
		{name: "blob", uri: "lib://logo", want: `"blob":"iVBORw0K"`},
		{name: "template", uri: "lib://books/7", want: `"text":"book lib://books/7"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var req mcpgo.ReadResourceRequest
			req.Params.URI = tt.uri
			res, err := c.ReadResource(t.Context(), req)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(res.Contents)
			if !strings.Contains(string(data), tt.want) || !strings.Contains(string(data), tt.uri) {
				t.Errorf("contents %s lack %s", data, tt.want)
			}
		})
	}
}

func TestClientGetsPromptWithEveryContentKind(t *testing.T) {
	c, _ := resourceClient(t, libServer(), false)
	var req mcpgo.GetPromptRequest
	req.Params.Name = "lib__review"
	req.Params.Arguments = map[string]string{"topic": "maps"}
	res, err := c.GetPrompt(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Description != "a review" || len(res.Messages) != 3 {
		t.Fatalf("result = %+v", res)
	}
	if text, ok := res.Messages[0].Content.(mcpgo.TextContent); !ok || text.Text != "review maps" {
		t.Errorf("first message = %#v", res.Messages[0].Content)
	}
	if img, ok := res.Messages[1].Content.(mcpgo.ImageContent); !ok || img.Data != "iVBORw0K" || img.MIMEType != "image/png" {
		t.Errorf("second message = %#v", res.Messages[1].Content)
	}
	if emb, ok := res.Messages[2].Content.(mcpgo.EmbeddedResource); !ok || emb.Resource == nil {
		t.Errorf("third message = %#v", res.Messages[2].Content)
	}
}

func TestResourceListChangedReachesTheClient(t *testing.T) {
	lib := libServer()
	c, n := resourceClient(t, lib, true)
	before := len(n.of(mcpgo.MethodNotificationResourcesListChanged))
	lib.AddResource(mcpgo.NewResource("lib://added", "added"),
		func(_ context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, Text: "new"}}, nil
		})
	waitFor(t, "resources/list_changed", func() bool {
		return len(n.of(mcpgo.MethodNotificationResourcesListChanged)) > before
	})
	waitFor(t, "lib://added listed", func() bool {
		res, err := c.ListResources(t.Context(), mcpgo.ListResourcesRequest{})
		return err == nil && slices.ContainsFunc(res.Resources, func(r mcpgo.Resource) bool { return r.URI == "lib://added" })
	})
}

func TestRawPassThroughKeepsUnmodelledFields(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		get  func(json.RawMessage) (any, error)
		want string
	}{
		{
			name: "resource contents",
			raw:  `{"contents":[{"uri":"a://b","text":"t","x-extra":{"k":1}}]}`,
			get:  func(r json.RawMessage) (any, error) { return resourceContents(r) },
			want: `[{"uri":"a://b","text":"t","x-extra":{"k":1}}]`,
		},
		{
			name: "prompt content",
			raw:  `{"messages":[{"role":"user","content":{"type":"audio","data":"AA==","mimeType":"audio/wav"}}]}`,
			get:  func(r json.RawMessage) (any, error) { return promptResult(r) },
			want: `{"messages":[{"role":"user","content":{"type":"audio","data":"AA==","mimeType":"audio/wav"}}]}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := tt.get(json.RawMessage(tt.raw))
			if err != nil {
				t.Fatal(err)
			}
			got, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// A client that lists or reads resources as soon as toolhub is up (an MCP
// Apps host fetching its ui:// page) waits for the servers still
// connecting, as tools/list does, instead of finding nothing.
func TestFirstResourceListWaitsForConnectingServers(t *testing.T) {
	cases := []struct {
		name string
		call func(context.Context, *mcpclient.Client) (string, error)
		want string
	}{
		{"list", func(ctx context.Context, c *mcpclient.Client) (string, error) {
			res, err := c.ListResources(ctx, mcpgo.ListResourcesRequest{})
			data, _ := json.Marshal(res)
			return string(data), err
		}, "lib://notes"},
		{"read", func(ctx context.Context, c *mcpclient.Client) (string, error) {
			var req mcpgo.ReadResourceRequest
			req.Params.URI = "lib://notes"
			res, err := c.ReadResource(ctx, req)
			data, _ := json.Marshal(res)
			return string(data), err
		}, "some notes"},
		{"prompts", func(ctx context.Context, c *mcpclient.Client) (string, error) {
			res, err := c.ListPrompts(ctx, mcpgo.ListPromptsRequest{})
			data, _ := json.Marshal(res)
			return string(data), err
		}, "review"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			gate, waiting := make(chan struct{}), make(chan struct{})
			lib := mcpserver.NewStreamableHTTPServer(libServer())
			var once sync.Once
			down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				<-gate // the server is still starting
				lib.ServeHTTP(w, r)
			}))
			t.Cleanup(down.Close)
			h, err := hub.New([]hub.ServerSpec{{Name: "lib", Transport: hub.TransportHTTP, URL: down.URL, Locality: hub.LocalityLocal}},
				hub.Options{Logger: quietLogger(), CallTimeout: waitLimit, ConnectTimeout: waitLimit})
			if err != nil {
				t.Fatal(err)
			}
			h.Start(t.Context())
			t.Cleanup(func() { _ = h.Close() })
			srv := testServer(t, h, Options{Expose: ExposeDirect, ReadyTimeout: waitLimit,
				WaitReady: func(ctx context.Context) error {
					once.Do(func() { close(waiting) })
					return h.WaitSettled(ctx)
				}})
			c := connectHTTP(t, serveHTTP(t, srv, HTTPOptions{}).URL(), clientOptions{legacy: true})
			type answer struct {
				text string
				err  error
			}
			got := make(chan answer, 1)
			go func() {
				text, err := tc.call(t.Context(), c)
				got <- answer{text, err}
			}()
			select {
			case <-waiting:
			case a := <-got:
				close(gate)
				t.Fatalf("answered before the servers settled: %s %v", a.text, a.err)
			}
			close(gate)
			a := <-got
			if a.err != nil || !strings.Contains(a.text, tc.want) {
				t.Fatalf("got %s %v, want %q", a.text, a.err, tc.want)
			}
		})
	}
}

// A resources/read of a URI no server has is refused as the specification
// says, with the URI in the error's data: resource not found before
// 2026-07-28, invalid params since; over HTTP and stdio alike.
func TestReadingAURINoServerHas(t *testing.T) {
	h := testHub(t, nil, inProcess("lib", libServer()))
	waitFor(t, "lib's resources in the hub", func() bool { return len(h.Resources()) == 2 })
	const uri = "lib://nowhere"
	for _, tr := range taskTransports[1:] {
		t.Run("2025-11-25 over "+tr.name, func(t *testing.T) {
			c := tr.connect(t, testServer(t, h, Options{}))
			resp, err := c.GetTransport().SendRequest(t.Context(), transport.JSONRPCRequest{
				JSONRPC: mcpgo.JSONRPC_VERSION, ID: mcpgo.NewRequestId("read"), Method: string(mcpgo.MethodResourcesRead),
				Params: map[string]any{"uri": uri},
			})
			if err != nil {
				t.Fatal(err)
			}
			checkNotFound(t, resp.Error, mcpgo.RESOURCE_NOT_FOUND, uri)
		})
	}
	for _, tr := range taskPeers {
		t.Run("2026-07-28 over "+tr.name, func(t *testing.T) {
			p := tr.connect(t, testServer(t, h, Options{}))
			status, reply := p.send(t, string(mcpgo.MethodResourcesRead), modernParams(map[string]any{"uri": uri}, false))
			if status != http.StatusOK && status != http.StatusBadRequest {
				t.Errorf("status %d", status)
			}
			checkNotFound(t, reply.Error, mcpgo.INVALID_PARAMS, uri)
		})
	}
}

func checkNotFound(t *testing.T, e *mcpgo.JSONRPCErrorDetails, code int, uri string) {
	t.Helper()
	if e == nil || e.Code != code {
		t.Fatalf("error %+v, want code %d", e, code)
	}
	data, _ := json.Marshal(e.Data)
	if string(data) != `{"uri":"`+uri+`"}` {
		t.Fatalf("error data %s, want the URI", data)
	}
}
