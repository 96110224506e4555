package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/toolhub/toolhub/conductor"
)

// instantConductor answers every episode at once.
type instantConductor struct{}

func (instantConductor) Run(_ context.Context, req conductor.Request) (*conductor.Run, error) {
	return &conductor.Run{ID: req.RunID, Task: req.Task, Mode: req.Mode, Status: conductor.RunAnswered, Answer: "ok"}, nil
}

// FuzzModernTaskReply feeds the Tasks extension's front door any message:
// it never panics, and what it answers is one JSON-RPC response to the
// message's id with a status the protocol gives it.
func FuzzModernTaskReply(f *testing.F) {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
		`"io.modelcontextprotocol/clientCapabilities":{"extensions":{"io.modelcontextprotocol/tasks":{}}}}`
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"orchestrate","arguments":{"task":"x"},` + meta + `}}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"research","arguments":{"question":""},` + meta + `}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"taskId":"task-00",` + meta + `}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tasks/update","params":{"taskId":"t","inputResponses":[1],` + meta + `}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tasks/cancel","params":{` + meta + `}}`,
		`{"jsonrpc":"2.0","method":"tasks/get","params":{` + meta + `}}`,
		`{"id":null,"method":"tasks/get"}`,
		`[{"method":"tasks/get"}]`,
	} {
		f.Add([]byte(seed))
	}
	s := testServer(f, newFakeCatalog(), Options{Conductor: instantConductor{}})
	f.Fuzz(func(t *testing.T, body []byte) {
		reply, status, ok := s.modernTaskReply(t.Context(), nil, body)
		if !ok {
			return
		}
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  json.RawMessage `json:"result"`
			Error   json.RawMessage `json:"error"`
		}
		if err := json.Unmarshal(reply, &msg); err != nil || msg.JSONRPC != "2.0" || (msg.Result == nil) == (msg.Error == nil) {
			t.Fatalf("reply %s to %s is not one JSON-RPC response", reply, body)
		}
		var in struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(body, &in)
		if !requestID(msg.ID) || compact(t, msg.ID) != compact(t, in.ID) {
			t.Fatalf("reply id %s, request id %s", msg.ID, in.ID)
		}
		if status != http.StatusOK && status != http.StatusBadRequest {
			t.Fatalf("status %d", status)
		}
	})
}

func compact(t *testing.T, raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		t.Fatalf("compact %s: %v", raw, err)
	}
	return buf.String()
}
