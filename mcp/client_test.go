package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	transport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/hub"
)

// askingServer is an in-process downstream whose tools ask the calling
// client for a sample or for input and return the answer.
func askingServer() *mcpserver.MCPServer {
	srv := mcpserver.NewMCPServer("asker", "1", mcpserver.WithToolCapabilities(false))
	srv.AddTool(mcpgo.NewTool("sample", mcpgo.WithString("text")), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		res, err := srv.RequestSampling(ctx, mcpgo.CreateMessageRequest{CreateMessageParams: mcpgo.CreateMessageParams{
			Messages:  []mcpgo.SamplingMessage{{Role: mcpgo.RoleUser, Content: mcpgo.NewTextContent(req.GetString("text", ""))}},
			MaxTokens: 16,
		}})
		if err != nil {
			return mcpgo.NewToolResultError(err.Error()), nil
		}
		text, _ := res.Content.(mcpgo.TextContent)
		return mcpgo.NewToolResultText(text.Text), nil
	})
	srv.AddTool(mcpgo.NewTool("elicit", mcpgo.WithString("text")), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		res, err := srv.RequestElicitation(ctx, mcpgo.ElicitationRequest{Params: mcpgo.ElicitationParams{
			Message:         req.GetString("text", ""),
			RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}},
		}})
		if err != nil {
			return mcpgo.NewToolResultError(err.Error()), nil
		}
		content, _ := json.Marshal(res.Content)
		return mcpgo.NewToolResultText(string(content)), nil
	})
	return srv
}

// answeringClient answers sampling and elicitation with its own name. When
// gate is set, it waits for it before answering, after telling arrived.
type answeringClient struct {
	name    string
	gate    <-chan struct{}
	arrived chan<- string

	mu    sync.Mutex
	asked []string
}

func (a *answeringClient) note(ctx context.Context, what string) error {
	a.mu.Lock()
	a.asked = append(a.asked, what)
	a.mu.Unlock()
	if a.arrived != nil {
		a.arrived <- a.name
	}
	if a.gate != nil {
		select {
		case <-a.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

func (a *answeringClient) CreateMessage(ctx context.Context, req mcpgo.CreateMessageRequest) (*mcpgo.CreateMessageResult, error) {
	if err := a.note(ctx, samplingText(req.Messages[0].Content)); err != nil {
		return nil, err
	}
	return &mcpgo.CreateMessageResult{
		SamplingMessage: mcpgo.SamplingMessage{Role: mcpgo.RoleAssistant, Content: mcpgo.NewTextContent("sampled by " + a.name)},
		Model:           a.name + "-model",
	}, nil
}

func (a *answeringClient) Elicit(ctx context.Context, req mcpgo.ElicitationRequest) (*mcpgo.ElicitationResult, error) {
	if err := a.note(ctx, req.Params.Message); err != nil {
		return nil, err
	}
	return &mcpgo.ElicitationResult{ElicitationResponse: mcpgo.ElicitationResponse{
		Action: mcpgo.ElicitationResponseActionAccept, Content: map[string]any{"name": a.name},
	}}, nil
}

func (a *answeringClient) questions() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.asked...)
}

// connectAnswering connects a client that keeps a standalone stream open
// (mcp-go's server sends sampling there) with opts' handlers.
func connectAnswering(t *testing.T, url string, legacy bool, onNote func(mcpgo.JSONRPCNotification), opts ...mcpclient.ClientOption) *mcpclient.Client {
	t.Helper()
	tr, err := transport.NewStreamableHTTP(url, transport.WithContinuousListening(), transport.WithHTTPLogger(quietLogger()))
	if err != nil {
		t.Fatal(err)
	}
	c := mcpclient.NewClient(tr, opts...)
	initClient(t, c, clientOptions{legacy: legacy, onNote: onNote})
	return c
}

func TestDownstreamRequestsReachTheCallingClient(t *testing.T) {
	h := testHub(t, nil, inProcess("asker", askingServer()))
	url := serveHTTP(t, testServer(t, h, Options{}), HTTPOptions{}).URL()
	alice := &answeringClient{name: "alice"}
	cases := []struct {
		name   string
		client *mcpclient.Client
		want   string
	}{
		{"a client with sampling", connectAnswering(t, url, true, nil, mcpclient.WithSamplingHandler(alice)), "sampled by alice"},
		{"a client without sampling", connectAnswering(t, url, true, nil), "the calling client does not support sampling"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := resultText(callTool(t, tc.client, "asker__sample", map[string]any{"text": tc.name})); !strings.Contains(got, tc.want) {
				t.Fatalf("result %q, want %q", got, tc.want)
			}
		})
	}
	if asked := alice.questions(); len(asked) != 1 || asked[0] != "a client with sampling" {
		t.Fatalf("alice was asked %v", asked)
	}
}

// TestConcurrentClientsAnswerOnlyTheirOwn has two clients call a tool that
// asks for input at the same time; neither answers before both were asked.
func TestConcurrentClientsAnswerOnlyTheirOwn(t *testing.T) {
	h := testHub(t, nil, inProcess("asker", askingServer()))
	url := serveHTTP(t, testServer(t, h, Options{}), HTTPOptions{}).URL()
	gate, arrived := make(chan struct{}), make(chan string, 2)
	answering := map[string]*answeringClient{}
	clients := map[string]*mcpclient.Client{}
	for _, name := range []string{"alice", "bob"} {
		a := &answeringClient{name: name, gate: gate, arrived: arrived}
		answering[name] = a
		clients[name] = connectAnswering(t, url, true, nil, mcpclient.WithElicitationHandler(a))
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	results := map[string]string{}
	for name, c := range clients {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
			defer cancel()
			var req mcpgo.CallToolRequest
			req.Params.Name, req.Params.Arguments = "asker__elicit", map[string]any{"text": "question of " + name}
			res, err := c.CallTool(ctx, req)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				results[name] = err.Error()
				return
			}
			results[name] = resultText(res)
		})
	}
	for range 2 {
		select {
		case <-arrived:
		case <-time.After(waitLimit):
			close(gate)
			t.Fatal("fewer than two clients were asked")
		}
	}
	close(gate)
	wg.Wait()
	for name, a := range answering {
		if asked := a.questions(); len(asked) != 1 || asked[0] != "question of "+name {
			t.Errorf("%s was asked %v", name, asked)
		}
		if want := `{"name":"` + name + `"}`; results[name] != want {
			t.Errorf("%s's call returned %q, want %q", name, results[name], want)
		}
	}
}

var _ hub.ClientRequester = (*sessionClient)(nil)
