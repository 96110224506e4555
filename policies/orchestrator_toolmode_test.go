package policies_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/policies"
)

func TestToolModeEpisodeWithExpert(t *testing.T) {
	var kv recorder
	h := startHub(t, kvServer(&kv))
	orch := scripted(t,
		scriptedmodel.ToolCallsReply("two reads",
			scriptedmodel.Call{Name: "kv__get", Args: `{"key":"a"}`},
			scriptedmodel.Call{Name: "kv__get", Args: `{"key":"b"}`}).WithUsage(100, 10),
		scriptedmodel.ToolCallsReply("",
			scriptedmodel.Call{Name: "call_expert", Args: `{"expert":"expert-1"}`},
			scriptedmodel.Call{Name: "kv__get", Args: `{"key":"z"}`}).WithUsage(200, 10),
		scriptedmodel.RawTextReply("<think>done</think><message>All values fetched.</message>").WithUsage(300, 10),
	)
	expert := scripted(t, scriptedmodel.ToolCallReply("", "kv__get", `{"key":"c"}`).WithUsage(400, 5))
	eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"), expertEndpoint(expert.URL()+"/v1", policies.RoleExpert))

	run, err := eps.Run(context.Background(), conductor.Task{Text: "Fetch a, b and c.", Mode: conductor.ModeTools}, &policies.Orchestrator{PolicyText: "Use the kv tools."})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != conductor.RunAnswered || run.Answer != "All values fetched." {
		t.Fatalf("status %s answer %q\n%s", run.Status, run.Answer, observations(run))
	}
	var keys []string
	for _, a := range kv.calls() {
		keys = append(keys, a["key"].(string))
	}
	if strings.Join(keys, ",") != "a,b,c" {
		t.Fatalf("kv calls %v: call_expert must run alone", keys)
	}
	if !strings.Contains(observations(run), "call_expert runs alone") {
		t.Fatalf("the ignored domain call is not in the trace:\n%s", observations(run))
	}
	wantUSD := cost(600, 30, orchIn, orchOut) + cost(400, 5, expertIn, expertOut)
	if !approx(run.Totals.USD, wantUSD) {
		t.Fatalf("USD %.12f, want %.12f", run.Totals.USD, wantUSD)
	}
	var expertReq policies.ChatRequest
	if err := json.Unmarshal(expert.Requests()[0], &expertReq); err != nil {
		t.Fatal(err)
	}
	for _, tool := range expertReq.Tools {
		if tool.Function.Name == policies.ToolExperts {
			t.Fatal("the expert was offered call_expert")
		}
	}
	if n := len(expertReq.Messages); n != 5 { // system, user, assistant calls, two tool results
		t.Fatalf("expert saw %d messages: %+v", n, expertReq.Messages)
	}
	if got := expertReq.Messages[3].Content; got != "value-of-a" {
		t.Fatalf("first tool result in history = %q", got)
	}
	var lastReq policies.ChatRequest
	if err := json.Unmarshal(orch.Requests()[2], &lastReq); err != nil {
		t.Fatal(err)
	}
	if last := lastReq.Messages[len(lastReq.Messages)-1]; last.Role != policies.RoleTool || last.Content != "value-of-c" {
		t.Fatalf("the expert's call result is not in the orchestrator's history: %+v", last)
	}
}

func TestToolModeToolErrorIsObservation(t *testing.T) {
	var kv recorder
	h := startHub(t, kvServer(&kv))
	orch := scripted(t,
		scriptedmodel.ToolCallReply("", "kv__get", `{"wrong":1}`),
		scriptedmodel.RawTextReply("Could not read it."),
	)
	eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"))
	run, err := eps.Run(context.Background(), conductor.Task{Text: "read", Mode: conductor.ModeTools}, &policies.Orchestrator{})
	if err != nil {
		t.Fatal(err)
	}
	if run.Answer != "Could not read it." || len(kv.calls()) != 0 {
		t.Fatalf("answer %q kv calls %d", run.Answer, len(kv.calls()))
	}
	var req policies.ChatRequest
	if err := json.Unmarshal(orch.Requests()[1], &req); err != nil {
		t.Fatal(err)
	}
	if last := req.Messages[len(req.Messages)-1]; last.Role != policies.RoleTool || !strings.HasPrefix(last.Content, "error: ") {
		t.Fatalf("schema failure not returned as a tool message: %+v", last)
	}
}

// A reply with neither a message nor a tool call is no answer: the turn is
// consumed and the episode goes on, for the orchestrator and an expert.
func TestToolModeEmptyReplyIsNotAnAnswer(t *testing.T) {
	cases := []struct {
		name   string
		orch   []scriptedmodel.Reply
		expert []scriptedmodel.Reply
	}{
		{"orchestrator thinks only", []scriptedmodel.Reply{
			scriptedmodel.RawTextReply("<think>nothing to say</think>"),
			scriptedmodel.RawTextReply("<message>Done.</message>"),
		}, nil},
		{"orchestrator empty message", []scriptedmodel.Reply{
			scriptedmodel.RawTextReply("<message>  </message>"),
			scriptedmodel.RawTextReply("<message>Done.</message>"),
		}, nil},
		{"expert empty", []scriptedmodel.Reply{
			scriptedmodel.ToolCallReply("", "call_expert", `{"expert":"expert-1"}`),
			scriptedmodel.RawTextReply("<message>Done.</message>"),
		}, []scriptedmodel.Reply{scriptedmodel.RawTextReply("")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var kv recorder
			h := startHub(t, kvServer(&kv))
			orch := scripted(t, tc.orch...)
			expert := scripted(t, tc.expert...)
			eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"), expertEndpoint(expert.URL()+"/v1", policies.RoleExpert))
			run, err := eps.Run(context.Background(), conductor.Task{Text: "t", Mode: conductor.ModeTools}, &policies.Orchestrator{})
			if err != nil {
				t.Fatal(err)
			}
			if run.Status != conductor.RunAnswered || run.Answer != "Done." || run.Totals.Turns != 2 {
				t.Fatalf("status %s answer %q after %d turns", run.Status, run.Answer, run.Totals.Turns)
			}
			if !strings.Contains(observations(run), "empty reply") {
				t.Fatalf("the empty reply is not in the trace:\n%s", observations(run))
			}
		})
	}
}
