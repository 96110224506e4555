package hub

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/internal/testenv"
)

// docsServer offers a text resource, a page template and a greet prompt.
func docsServer() *mcpserver.MCPServer {
	s := mcpserver.NewMCPServer("docs", "1", mcpserver.WithResourceCapabilities(false, true), mcpserver.WithPromptCapabilities(true))
	s.AddResource(mcpgo.NewResource("docs://readme", "readme", mcpgo.WithMIMEType("text/plain")),
		func(_ context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, MIMEType: "text/plain", Text: "read me"}}, nil
		})
	s.AddResourceTemplate(mcpgo.NewResourceTemplate("docs://pages/{page}", "page"),
		func(_ context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, Text: "page " + req.Params.URI}}, nil
		})
	s.AddPrompt(mcpgo.NewPrompt("greet", mcpgo.WithArgument("who", mcpgo.RequiredArgument())),
		func(_ context.Context, req mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
			return mcpgo.NewGetPromptResult("docs greeting", []mcpgo.PromptMessage{
				mcpgo.NewPromptMessage(mcpgo.RoleUser, mcpgo.NewTextContent("hello "+req.Params.Arguments["who"])),
			}), nil
		})
	return s
}

// filesServer offers a binary resource and a prompt of the same name as
// docs' one.
func filesServer() *mcpserver.MCPServer {
	s := mcpserver.NewMCPServer("files", "1", mcpserver.WithResourceCapabilities(false, true), mcpserver.WithPromptCapabilities(true))
	s.AddResource(mcpgo.NewResource("file:///a.bin", "a.bin"),
		func(_ context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.BlobResourceContents{URI: req.Params.URI, MIMEType: "application/octet-stream", Blob: "AAEC"}}, nil
		})
	s.AddPrompt(mcpgo.NewPrompt("greet"),
		func(context.Context, mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
			return mcpgo.NewGetPromptResult("files greeting", []mcpgo.PromptMessage{
				mcpgo.NewPromptMessage(mcpgo.RoleAssistant, mcpgo.NewTextContent("files here")),
			}), nil
		})
	return s
}

// startTestHub runs a hub over specs until every server settled.
func startTestHub(t *testing.T, specs ...ServerSpec) *Hub {
	t.Helper()
	h, err := New(specs, Options{Logger: slog.New(slog.DiscardHandler), CallTimeout: waitLimit, ConnectTimeout: waitLimit})
	if err != nil {
		t.Fatal(err)
	}
	h.Start(t.Context())
	t.Cleanup(func() { _ = h.Close() })
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	if err := h.WaitSettled(ctx); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "resources listed", func() bool { return len(h.Resources()) > 0 }, func() string { return "none" })
	return h
}

func inProcessSpec(name string, s *mcpserver.MCPServer) ServerSpec {
	return ServerSpec{Name: name, Transport: TransportInProcess, InProcess: s}
}

func TestHubListsResourcesTemplatesAndPrompts(t *testing.T) {
	h := startTestHub(t, inProcessSpec("docs", docsServer()), inProcessSpec("files", filesServer()))
	waitUntil(t, "both servers listed", func() bool { return len(h.Resources()) == 2 }, func() string { return "fewer" })

	var uris []string
	for _, r := range h.Resources() {
		uris = append(uris, r.Server+" "+r.URI)
	}
	if want := []string{"docs docs://readme", "files file:///a.bin"}; !slices.Equal(uris, want) {
		t.Errorf("resources = %v, want %v", uris, want)
	}
	templates := h.ResourceTemplates()
	if len(templates) != 1 || templates[0].URITemplate != "docs://pages/{page}" || templates[0].Server != "docs" {
		t.Errorf("templates = %+v", templates)
	}
	var names []string
	for _, p := range h.Prompts() {
		names = append(names, p.Name+"="+p.Server+"/"+p.Original)
	}
	if want := []string{"docs__greet=docs/greet", "files__greet=files/greet"}; !slices.Equal(names, want) {
		t.Errorf("prompts = %v, want %v", names, want)
	}
}

func TestHubReadResourceRoutesByURI(t *testing.T) {
	h := startTestHub(t, inProcessSpec("docs", docsServer()), inProcessSpec("files", filesServer()))
	waitUntil(t, "both servers listed", func() bool { return len(h.Resources()) == 2 }, func() string { return "fewer" })
	tests := []struct {
		name    string
		uri     string
		want    string // a fragment of the result
		wantErr string
	}{
		{name: "listed text resource", uri: "docs://readme", want: `"text":"read me"`},
		{name: "listed blob resource", uri: "file:///a.bin", want: `"blob":"AAEC"`},
		{name: "template match", uri: "docs://pages/intro", want: `"text":"page docs://pages/intro"`},
		{name: "no owner among several", uri: "other://x", wantErr: "servers docs, files offer resources"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := h.ReadResource(t.Context(), tt.uri)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want it to mention %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(raw), tt.want) {
				t.Errorf("result %s lacks %s", raw, tt.want)
			}
		})
	}
}

func TestHubGetPromptNamespacedWithArguments(t *testing.T) {
	h := startTestHub(t, inProcessSpec("docs", docsServer()), inProcessSpec("files", filesServer()))
	waitUntil(t, "both servers listed", func() bool { return len(h.Prompts()) == 2 }, func() string { return "fewer" })
	tests := []struct {
		name, prompt string
		args         map[string]string
		want         string
	}{
		{name: "docs with argument", prompt: "docs__greet", args: map[string]string{"who": "ada"}, want: `"text":"hello ada"`},
		{name: "files without arguments", prompt: "files__greet", want: `"text":"files here"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := h.GetPrompt(t.Context(), tt.prompt, tt.args, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(raw), tt.want) {
				t.Errorf("result %s lacks %s", raw, tt.want)
			}
		})
	}
	if _, err := h.GetPrompt(t.Context(), "greet", nil, nil); err == nil {
		t.Error("the unprefixed name of a prefixed server's prompt was accepted")
	}
}

func TestHubFollowsResourceAndPromptListChanged(t *testing.T) {
	docs := docsServer()
	h := startTestHub(t, inProcessSpec("docs", docs))
	changes := make(chan struct{}, 16)
	stop := h.WatchResources(func() { changes <- struct{}{} })
	defer stop()

	docs.AddResource(mcpgo.NewResource("docs://changelog", "changelog"),
		func(_ context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, Text: "v2"}}, nil
		})
	docs.AddPrompt(mcpgo.NewPrompt("summarise"), func(context.Context, mcpgo.GetPromptRequest) (*mcpgo.GetPromptResult, error) {
		return mcpgo.NewGetPromptResult("", nil), nil
	})
	waitUntil(t, "new resource and prompt listed", func() bool {
		return len(h.Resources()) == 2 && len(h.Prompts()) == 2
	}, func() string { return "still the old lists" })
	select {
	case <-changes:
	default:
		t.Error("WatchResources was not called")
	}
	raw, err := h.ReadResource(t.Context(), "docs://changelog")
	if err != nil || !strings.Contains(string(raw), `"v2"`) {
		t.Errorf("read new resource: %s, %v", raw, err)
	}
}

func TestResourceOwnerFallsBackToTheOnlyServer(t *testing.T) {
	store := newExtrasStore()
	store.set("docs", false, serverExtras{resources: []json.RawMessage{json.RawMessage(`{"uri":"docs://a","name":"a"}`)}})
	if owner, _ := store.resourceOwner("docs://unlisted"); owner != "docs" {
		t.Errorf("owner = %q, want docs", owner)
	}
	store.remove("docs")
	if owner, candidates := store.resourceOwner("docs://a"); owner != "" || candidates != nil {
		t.Errorf("after removal: owner %q, candidates %v", owner, candidates)
	}
}

func FuzzParseExtras(f *testing.F) {
	f.Add([]byte(`{"uri":"a://b","name":"b"}`), []byte(`{"uriTemplate":"a://{x}","name":"x"}`), []byte(`{"name":"p"}`))
	f.Add([]byte(`null`), []byte(`{"uriTemplate":"{"}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, resource, template, prompt []byte) {
		extras := serverExtras{
			resources: []json.RawMessage{resource},
			templates: []json.RawMessage{template},
			prompts:   []json.RawMessage{prompt},
		}
		store := newExtrasStore()
		store.set("s", false, extras)
		for _, r := range store.resources() {
			if r.URI == "" {
				t.Errorf("resource without URI kept: %s", r.Raw)
			}
		}
		for _, p := range store.allPrompts() {
			if p.Original == "" || len(p.Name) > MaxToolNameLen {
				t.Errorf("bad prompt %+v", p)
			}
		}
		store.resourceOwner("a://b")
	})
}

// TestStoppingWhileListingResourcesWarnsOfNothing: a hub that stops while a
// server is still listing its resources has no failure to report.
func TestStoppingWhileListingResourcesWarnsOfNothing(t *testing.T) {
	entered, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	hooks := &mcpserver.Hooks{}
	hooks.AddBeforeListResources(func(ctx context.Context, _ any, _ *mcpgo.ListResourcesRequest) {
		select {
		case entered <- struct{}{}:
		default:
		}
		select {
		case <-ctx.Done():
		case <-release:
		}
	})
	s := mcpserver.NewMCPServer("slow", "1", mcpserver.WithResourceCapabilities(false, true), mcpserver.WithHooks(hooks))
	var logs testenv.Buffer
	h, err := New([]ServerSpec{inProcessSpec("slow", s)}, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil)), CallTimeout: waitLimit, ConnectTimeout: waitLimit})
	if err != nil {
		t.Fatal(err)
	}
	h.Start(t.Context())
	select {
	case <-entered:
	case <-time.After(waitLimit):
		t.Fatal("the server was never asked for its resources")
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), "level=WARN") {
		t.Errorf("stopping warned:\n%s", logs.String())
	}
}
