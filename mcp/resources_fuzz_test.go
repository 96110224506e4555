package mcp

import (
	"encoding/json"
	"testing"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// FuzzPromptResult feeds promptResult what a downstream may answer
// prompts/get with: it never panics, and what it accepts encodes again,
// an InputRequiredResult keeping the server's requestState and keys.
func FuzzPromptResult(f *testing.F) {
	for _, seed := range []string{
		`{"description":"d","messages":[{"role":"user","content":{"type":"text","text":"hi"}}]}`,
		`{"resultType":"input_required","inputRequests":{"who":{"method":"elicitation/create","params":{"message":"name?","requestedSchema":{"type":"object"}}}},"requestState":"s1"}`,
		`{"resultType":"input_required","inputRequests":{"where":{"method":"roots/list","params":{}}},"requestState":""}`,
		`{"resultType":"input_required","inputRequests":{"x":{"method":"nope"}}}`,
		`{"messages":null,"_meta":{"k":1}}`,
		`[]`, `null`, `{`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		res, err := promptResult(raw)
		if err != nil {
			return
		}
		out, err := json.Marshal(res)
		if err != nil {
			t.Fatalf("an accepted result does not encode: %v", err)
		}
		if res.ResultType != mcpgo.ResultTypeInputRequired {
			return
		}
		var back struct {
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
			RequestState  string                     `json:"requestState"`
		}
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatal(err)
		}
		if back.RequestState != res.RequestState || len(back.InputRequests) != len(res.InputRequests) {
			t.Fatalf("re-encoded %s from %+v", out, res.MultiRoundTripResult)
		}
	})
}
