package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

func samplingModel(t *testing.T) *Model {
	t.Helper()
	models, err := NewModels([]ModelEndpoint{{Name: "client", ModelID: "mcp-client", Sampling: true, Roles: []string{"answer"}}}, ModelOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := models.Get("client")
	return m
}

func TestSamplingEndpointAsksTheCallingClient(t *testing.T) {
	body := []byte(`{"model":"mcp-client","max_tokens":64,"temperature":0.2,"stop":"END",
		"messages":[{"role":"system","content":"Be brief."},
		{"role":"user","content":[{"type":"text","text":"What is 2+2?"}]},
		{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"calc","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"c1","content":"4"}],
		"tools":[{"type":"function","function":{"name":"calc"}}]}`)
	alice := newFakeClient("alice", allCapabilities())
	reply, err := samplingModel(t).Complete(hub.WithClient(t.Context(), alice), body)
	if err != nil {
		t.Fatal(err)
	}
	if reply.Content != "sampled by alice" || len(reply.ToolCalls) != 0 {
		t.Errorf("reply content %q, tool calls %s", reply.Content, reply.ToolCalls)
	}
	if !reply.Estimated || !reply.CostUnknown || reply.TokensIn == 0 || reply.TokensOut == 0 {
		t.Errorf("accounting: %+v", reply)
	}
	asked := alice.requests()
	if len(asked) != 1 {
		t.Fatalf("the client was asked %d times", len(asked))
	}
	var params struct {
		Messages []struct {
			Role    string `json:"role"`
			Content struct{ Text string }
		}
		SystemPrompt  string
		MaxTokens     int
		Temperature   float64
		StopSequences []string
	}
	if err := json.Unmarshal([]byte(strings.TrimPrefix(asked[0], "sampling/createMessage ")), &params); err != nil {
		t.Fatal(err)
	}
	if params.SystemPrompt != "Be brief." || params.MaxTokens != 64 || params.Temperature != 0.2 ||
		len(params.StopSequences) != 1 || len(params.Messages) != 3 {
		t.Fatalf("sampling params %+v", params)
	}
	if m := params.Messages[0]; m.Role != "user" || m.Content.Text != "What is 2+2?" {
		t.Errorf("first message %+v", m)
	}
	if m := params.Messages[2]; m.Role != "user" || !strings.Contains(m.Content.Text, "Result of tool call c1:\n4") {
		t.Errorf("tool result message %+v", m)
	}
}

func TestSamplingEndpointRefusals(t *testing.T) {
	body := []byte(`{"messages":[{"role":"user","content":"hi"}]}`)
	cases := []struct {
		name   string
		client hub.ClientRequester
		body   []byte
		want   string
	}{
		{"no client behind the call", nil, body, "no MCP client"},
		{"a client without sampling", newFakeClient("bob", hub.ClientCapabilities{Elicitation: true}), body,
			"the calling client does not support sampling"},
		{"nothing to sample from", newFakeClient("alice", allCapabilities()),
			[]byte(`{"messages":[{"role":"system","content":"x"}]}`), "no user or assistant message"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.client != nil {
				ctx = hub.WithClient(ctx, tc.client)
			}
			_, err := samplingModel(t).Complete(ctx, tc.body)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}
