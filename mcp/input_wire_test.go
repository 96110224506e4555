package mcp

import (
	"encoding/json"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

func TestWithRootsParams(t *testing.T) {
	asking, err := json.Marshal(mcpgo.JSONRPCResponse{
		JSONRPC: mcpgo.JSONRPC_VERSION, ID: mcpgo.NewRequestId(1),
		Result: &mcpgo.CallToolResult{
			Result: mcpgo.Result{ResultType: mcpgo.ResultTypeInputRequired},
			MultiRoundTripResult: mcpgo.MultiRoundTripResult{
				InputRequests: mcpgo.InputRequests{"roots/list-1": mcpgo.NewRootsInputRequest()},
				RequestState:  "s",
			},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, in, want string
	}{
		{"an input request of roots", string(asking),
			`{"jsonrpc":"2.0","id":1,"result":{"content":[],"inputRequests":{"roots/list-1":{"method":"roots/list","params":{}}},"requestState":"s","resultType":"input_required"}}`},
		{"the same in an event", "event: message\ndata: " + string(asking) + "\n\n",
			"event: message\ndata: " + `{"jsonrpc":"2.0","id":1,"result":{"content":[],"inputRequests":{"roots/list-1":{"method":"roots/list","params":{}}},"requestState":"s","resultType":"input_required"}}` + "\n\n"},
		{"a result that asks for nothing", `{"result":{"content":[],"structuredContent":{"method":"roots/list"}}}`,
			`{"result":{"content":[],"structuredContent":{"method":"roots/list"}}}`},
		{"the words inside a string", `{"result":{"resultType":"input_required","content":[{"type":"text","text":"{\"method\":\"roots/list\"}"}]}}`,
			`{"result":{"resultType":"input_required","content":[{"type":"text","text":"{\"method\":\"roots/list\"}"}]}}`},
		{"params already there", `{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list","params":{}}}}`,
			`{"resultType":"input_required","inputRequests":{"a":{"method":"roots/list","params":{}}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(withRootsParams([]byte(tc.in))); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestInputRequestWire(t *testing.T) {
	got := map[string]json.RawMessage{}
	for id, req := range map[string]mcpgo.InputRequest{
		"r": mcpgo.NewRootsInputRequest(),
		"e": mcpgo.NewElicitationInputRequest(mcpgo.ElicitationParams{Message: "name?"}),
	} {
		got[id], _ = inputRequestWire(req)
	}
	if string(got["r"]) != `{"method":"roots/list","params":{}}` {
		t.Errorf("roots/list went out as %s", got["r"])
	}
	var e struct {
		Method string `json:"method"`
		Params struct {
			Message string `json:"message"`
		} `json:"params"`
	}
	if err := json.Unmarshal(got["e"], &e); err != nil || e.Method != "elicitation/create" || e.Params.Message != "name?" {
		t.Errorf("elicitation went out as %s (%v)", got["e"], err)
	}
}
