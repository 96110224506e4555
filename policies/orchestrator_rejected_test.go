package policies_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	sm "github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

// deterministicModel answers as a model at temperature 0 does: the same
// request always gets the same reply. It sends stuck until the request's
// last message is a tool message or an error in a user message, then
// recovered; both are scripted-model replies, served by scripted handlers
// that loop over their one reply.
type deterministicModel struct {
	mu       sync.Mutex
	requests [][]byte
	ts       *httptest.Server
}

func newDeterministicModel(t *testing.T, stuck, recovered sm.Reply) *deterministicModel {
	t.Helper()
	stuckH, recoveredH := sm.NewHandler(stuck), sm.NewHandler(recovered)
	stuckH.SetLoop(true)
	recoveredH.SetLoop(true)
	m := &deterministicModel{}
	m.ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		m.mu.Lock()
		m.requests = append(m.requests, body)
		m.mu.Unlock()
		var req policies.ChatRequest
		if json.Unmarshal(body, &req) == nil && len(req.Messages) > 0 && answersAnError(req.Messages[len(req.Messages)-1]) {
			recoveredH.ServeHTTP(w, r)
			return
		}
		stuckH.ServeHTTP(w, r)
	}))
	t.Cleanup(func() {
		stuckH.Shutdown()
		recoveredH.Shutdown()
		m.ts.Close()
	})
	return m
}

// answersAnError: the message is a tool result or tells of an error.
func answersAnError(m policies.Message) bool {
	return m.Role == policies.RoleTool || (m.Role == policies.RoleUser && strings.HasPrefix(m.Content, "error: "))
}

func (m *deterministicModel) request(t *testing.T, i int) policies.ChatRequest {
	t.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	if i >= len(m.requests) {
		t.Fatalf("request %d of %d", i, len(m.requests))
	}
	var req policies.ChatRequest
	if err := json.Unmarshal(m.requests[i], &req); err != nil {
		t.Fatal(err)
	}
	return req
}

// A rejected tool-mode call goes back into the history with an error as a
// tool message, as the τ² harness does: a deterministic model that first
// calls something it may not then recovers in turn 2, instead of being
// sent the same request until the turn limit.
func TestToolModeRejectedCallIsAnswered(t *testing.T) {
	cases := []struct {
		name    string
		stuck   sm.Reply
		experts bool
		tool    string
		reason  string
	}{
		{"unknown tool", sm.ToolCallReply("browse", "web_browse", `{"url":"https://example.com"}`), false,
			"web_browse", `error: unknown tool "web_browse"`},
		{"expert not offered", sm.ToolCallReply("", "call_expert", `{"expert":"expert-9"}`), true,
			"call_expert", `error: expert "expert-9" is not offered`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var kv recorder
			h := startHub(t, kvServer(&kv))
			orch := newDeterministicModel(t, tc.stuck, sm.RawTextReply("<think>ok</think><message>I cannot do that here.</message>"))
			endpoints := []llm.ModelEndpoint{orchestratorEndpoint(orch.ts.URL + "/v1")}
			if tc.experts {
				expert := scripted(t)
				endpoints = append(endpoints, expertEndpoint(expert.URL()+"/v1", policies.RoleExpert))
			}
			eps, _ := newEpisodes(t, h, "orch", endpoints...)
			run, err := eps.Run(context.Background(), conductor.Task{Text: "Open example.com.", Mode: conductor.ModeTools}, &policies.Orchestrator{})
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != conductor.RunAnswered || run.Totals.Turns != 2 || run.Answer != "I cannot do that here." {
				t.Fatalf("status %s after %d turns, answer %q\n%s", run.Status, run.Totals.Turns, run.Answer, observations(run))
			}
			msgs := orch.request(t, 1).Messages
			call, answer := msgs[len(msgs)-2], msgs[len(msgs)-1]
			if call.Role != policies.RoleAssistant || len(call.ToolCalls) != 1 || call.ToolCalls[0].Function.Name != tc.tool {
				t.Fatalf("the rejected call is not in the history: %+v", call)
			}
			if answer.ToolCallID != call.ToolCalls[0].ID || !strings.HasPrefix(answer.Content, tc.reason) {
				t.Fatalf("tool message %+v does not answer call %s with %q", answer, call.ToolCalls[0].ID, tc.reason)
			}
			if len(kv.calls()) != 0 {
				t.Fatalf("a rejected call ran: %v", kv.calls())
			}
		})
	}
}

// Tool messages follow the calls in the order the model wrote them, a
// rejected call's error among the results (Qwen3's template shows them
// without ids, so order is what pairs them).
func TestToolModeRejectedCallKeepsOrder(t *testing.T) {
	var kv recorder
	h := startHub(t, kvServer(&kv))
	orch := scripted(t,
		sm.ToolCallsReply("", sm.Call{Name: "web_browse", Args: `{}`}, sm.Call{Name: "kv__get", Args: `{"key":"a"}`}),
		sm.RawTextReply("<message>a is read.</message>"),
	)
	eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"))
	run, err := eps.Run(context.Background(), conductor.Task{Text: "Read a.", Mode: conductor.ModeTools}, &policies.Orchestrator{})
	if err != nil || run.Status != conductor.RunAnswered {
		t.Fatalf("status %s: %v", run.Status, err)
	}
	var req policies.ChatRequest
	if err := json.Unmarshal(orch.Requests()[1], &req); err != nil {
		t.Fatal(err)
	}
	tail := req.Messages[len(req.Messages)-3:]
	ids := []string{tail[0].ToolCalls[0].ID, tail[0].ToolCalls[1].ID}
	if tail[1].ToolCallID != ids[0] || !strings.HasPrefix(tail[1].Content, "error: unknown tool") ||
		tail[2].ToolCallID != ids[1] || tail[2].Content != "value-of-a" {
		t.Fatalf("history tail %+v", tail)
	}
}
