package policies_test

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

func TestAliasLatency(t *testing.T) {
	gpt5 := llm.ModelEndpoint{ModelID: "openai/gpt-5-2025-08-07"}
	configured := gpt5
	configured.Latency = 40 * time.Second
	unknown := llm.ModelEndpoint{ModelID: "my-finetune"}
	cases := []struct {
		name string
		m    llm.ModelInfo
		role string
		want time.Duration
	}{
		{"measured for the role", llm.ModelInfo{ModelEndpoint: configured, RoleLatency: map[string]time.Duration{"search": 3 * time.Second}}, "search", 3 * time.Second},
		{"measured for another role only", llm.ModelInfo{ModelEndpoint: configured, RoleLatency: map[string]time.Duration{"search": 3 * time.Second}}, "answer", 40 * time.Second},
		{"configured", llm.ModelInfo{ModelEndpoint: configured}, "answer", 40 * time.Second},
		{"known search", llm.ModelInfo{ModelEndpoint: gpt5}, "search", 22 * time.Second},
		{"known expert", llm.ModelInfo{ModelEndpoint: gpt5}, "expert", 96 * time.Second},
		{"known model, untrained role", llm.ModelInfo{ModelEndpoint: llm.ModelEndpoint{ModelID: "Qwen/Qwen3-32B"}}, "reason", policies.DefaultLatency},
		{"unknown", llm.ModelInfo{ModelEndpoint: unknown}, "answer", policies.DefaultLatency},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := policies.AliasLatency(tc.m, tc.role); got != tc.want {
				t.Fatalf("AliasLatency = %v, want %v", got, tc.want)
			}
		})
	}
}

// expertLatencyColumn reads expert-1's latency from call_expert's table in
// an orchestrator request.
func expertLatencyColumn(t *testing.T, body []byte) string {
	t.Helper()
	var req policies.ChatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile(`\nexpert-1 \| [^|]+ \| [^|]+ \| (\d+s)`)
	for _, tool := range req.Tools {
		var params struct {
			Properties struct {
				Expert struct {
					Description string `json:"description"`
				} `json:"expert"`
			} `json:"properties"`
		}
		if tool.Function.Name != policies.ToolExperts || json.Unmarshal(tool.Function.Parameters, &params) != nil {
			continue
		}
		if m := row.FindStringSubmatch(params.Properties.Expert.Description); m != nil {
			return m[1]
		}
	}
	t.Fatalf("no expert-1 row in %s", body)
	return ""
}

// The latency column shows the trained figure of a known model before any
// call, then, in the next turn, the measured average of its calls.
func TestToolModeLatencyColumnIsMeasured(t *testing.T) {
	var kv recorder
	h := startHub(t, kvServer(&kv))
	orch := scripted(t,
		scriptedmodel.ToolCallReply("", "call_expert", `{"expert":"expert-1"}`),
		scriptedmodel.RawTextReply("<message>Done.</message>"),
	)
	expert := scripted(t, scriptedmodel.ToolCallReply("", "kv__get", `{"key":"a"}`))
	eps, _ := newEpisodes(t, h, "orch", orchestratorEndpoint(orch.URL()+"/v1"), expertEndpoint(expert.URL()+"/v1", policies.RoleExpert))
	run, err := eps.Run(context.Background(), conductor.Task{Text: "Read a.", Mode: conductor.ModeTools}, &policies.Orchestrator{})
	if err != nil || run.Status != conductor.RunAnswered {
		t.Fatalf("status %s: %v", run.Status, err)
	}
	reqs := orch.Requests()
	if got := expertLatencyColumn(t, reqs[0]); got != "96s" {
		t.Fatalf("turn 1 shows %s for gpt-5 as expert, want the trained 96s", got)
	}
	m, _ := eps.Models().Get("big")
	measured, ok := m.Info().RoleLatency[policies.RoleExpert]
	if !ok {
		t.Fatal("the expert call was not measured")
	}
	if got, want := expertLatencyColumn(t, reqs[1]), policies.FormatLatency(measured); got != want {
		t.Fatalf("turn 2 shows %s, want the measured %s", got, want)
	}
}
