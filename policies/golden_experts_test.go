package policies

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

// TestGoldenExpertRequests renders the research experts' request bodies
// (protocol §3.7) for models of the reference table: the same evidence,
// each expert's own document cut, suffix, temperature and completion cap,
// in the HLE variant and, for the frames_ cases, the FRAMES one
// (eval_frames.py: documents in full for every expert, its own search
// instruction, the problem after the context without "Problem:").
func TestGoldenExpertRequests(t *testing.T) {
	var evidence ResearchState
	evidence.AddDocs([]string{
		"Travel policy\nThe per diem for business travel is 42 euros a day. " + strings.Repeat("Trains are preferred for short trips. ", 30) + "Paid monthly.",
		"Expenses\nReceipts are kept for seven years.",
	})
	evidence.AddCode("print(42 * 30)", "1260\n")
	cases := []struct {
		name, modelID, role, style string
		locality                   hub.Locality
		variant                    Variant
	}{
		{"answer_qwen3_boxed", "Qwen/Qwen3-32B", RoleAnswer, StyleBoxed, hub.LocalityLocal, ""},
		{"answer_gpt5_tagged", "gpt-5", RoleAnswer, StyleTagged, hub.LocalityRemote, ""},
		{"answer_llama_tagged", "meta-llama/Llama-3.3-70B-Instruct", RoleAnswer, StyleTagged, hub.LocalityRemote, ""},
		{"reason_coder", "Qwen/Qwen2.5-Coder-32B-Instruct", RoleReason, "", hub.LocalityLocal, ""},
		{"search_gpt5_mini", "gpt-5-mini", RoleSearch, "", hub.LocalityRemote, ""},
		{"frames_answer_qwen3_boxed", "Qwen/Qwen3-32B", RoleAnswer, StyleBoxed, hub.LocalityLocal, VariantFRAMES},
		{"frames_answer_gpt5_tagged", "gpt-5", RoleAnswer, StyleTagged, hub.LocalityRemote, VariantFRAMES},
		{"frames_search_qwen3", "Qwen/Qwen3-32B", RoleSearch, "", hub.LocalityLocal, VariantFRAMES},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := &conductor.State{Task: "What is the monthly per diem for 30 days?", Models: []llm.ModelInfo{
				{ModelEndpoint: llm.ModelEndpoint{Name: "ep", ModelID: tc.modelID, Locality: tc.locality}}}}
			x := researchExpert{st: st, state: evidence, endpoint: "ep", counter: DefaultCounter(), variant: tc.variant,
				alias: Alias{Name: tc.role + "-1", Role: tc.role, AnswerStyle: tc.style, Locality: tc.locality}}
			var msgs []Message
			switch tc.role {
			case RoleAnswer:
				msgs = AnswerPrompt(x.input(), tc.style)
			case RoleReason:
				msgs = ReasonPrompt(x.input())
			default:
				msgs = SearchPrompt(x.input())
			}
			a := x.ask(tc.role, msgs)
			if a.Kind != conductor.ActModel {
				t.Fatalf("action %+v", a)
			}
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, a.Model.Body, "", "  "); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "experts/"+tc.name+".golden.json", append(pretty.Bytes(), '\n'))
		})
	}
}
