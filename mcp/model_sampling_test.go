package mcp

import (
	"context"
	"encoding/json"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/toolhub/toolhub/llm"
)

// TestBuiltinReachesTheClientsModel runs a built-in provider whose tool asks
// a sampling model endpoint, as the orchestrator's experts do: the call's
// context carries the MCP client into the in-process handler, and the
// client's own model answers.
func TestBuiltinReachesTheClientsModel(t *testing.T) {
	models, err := llm.NewModels([]llm.ModelEndpoint{{Name: "client", ModelID: "mcp-client", Sampling: true}}, llm.ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	model, _ := models.Get("client")
	builtin := mcpserver.NewMCPServer("builtin", "1", mcpserver.WithToolCapabilities(false))
	builtin.AddTool(mcpgo.NewTool("ask_model", mcpgo.WithString("question")), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		body, _ := json.Marshal(map[string]any{"messages": []any{map[string]any{"role": "user", "content": req.GetString("question", "")}}})
		reply, err := model.Complete(ctx, body)
		if err != nil {
			return mcpgo.NewToolResultError(err.Error()), nil
		}
		if !reply.CostUnknown || !reply.Estimated {
			return mcpgo.NewToolResultError("the reply's cost and tokens must be marked unknown and estimated"), nil
		}
		return mcpgo.NewToolResultText(reply.Content), nil
	})
	h := testHub(t, nil, inProcess("builtin", builtin))
	url := serveHTTP(t, testServer(t, h, Options{}), HTTPOptions{}).URL()

	alice := &answeringClient{name: "alice"}
	withSampling := connectAnswering(t, url, true, nil, mcpclient.WithSamplingHandler(alice))
	res := callTool(t, withSampling, "builtin__ask_model", map[string]any{"question": "2+2?"})
	if got := resultText(res); res.IsError || got != "sampled by alice" {
		t.Fatalf("result %q (isError %v)", got, res.IsError)
	}
	if asked := alice.questions(); len(asked) != 1 || asked[0] != "2+2?" {
		t.Fatalf("alice was asked %v", asked)
	}

	without := connectAnswering(t, url, true, nil)
	res = callTool(t, without, "builtin__ask_model", map[string]any{"question": "2+2?"})
	if got := resultText(res); !res.IsError || got != `model "client" is the MCP client's own model: the calling client does not support sampling` {
		t.Fatalf("result %q (isError %v)", got, res.IsError)
	}
}
