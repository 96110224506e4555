package runlog

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
)

// toolModeRun is a two-turn tool-mode run with bodies: the second request
// carries the first reply with its <think> text sent as "".
func toolModeRun() *conductor.Run {
	run := &conductor.Run{ID: "t", Task: "change my flight", Mode: conductor.ModeTools, Policy: "orchestrator", Status: conductor.RunAnswered, Answer: "done"}
	tools := `[{"type":"function","function":{"name":"travel__get_booking"}}]`
	sys := `{"role":"system","content":"<instructions>x</instructions>"}`
	user := `{"role":"user","content":"change my flight\nI want to be cost efficient if possible."}`
	call := `{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"travel__get_booking","arguments":"{}"}}]}`
	run.Add(conductor.Step{Turn: 1, Kind: conductor.StepModel, Alias: "orchestrator",
		Request: []byte(`{"model":"o","messages":[` + sys + `,` + user + `],"tools":` + tools + `}`),
		Reply:   []byte(`{"choices":[{"message":{"role":"assistant","content":"<think>look it up</think>","tool_calls":[{"id":"c1","type":"function","function":{"name":"travel__get_booking","arguments":"{}"}}]}}]}`)})
	run.Add(conductor.Step{Turn: 1, Kind: conductor.StepTool, Tool: "travel__get_booking", Response: "X1"})
	run.Add(conductor.Step{Turn: 2, Kind: conductor.StepModel, Alias: "orchestrator",
		Request: []byte(`{"model":"o","messages":[` + sys + `,` + user + `,` + call + `,{"role":"tool","tool_call_id":"c1","content":"X1"}],"tools":` + tools + `}`),
		Reply:   []byte(`{"choices":[{"message":{"role":"assistant","content":"done"}}]}`)})
	run.Add(conductor.Step{Turn: 2, Kind: conductor.StepAnswer, Text: "done"})
	return run
}

func roles(t *testing.T, msgs []json.RawMessage) string {
	t.Helper()
	var out []string
	for _, m := range decodeMessages(t, msgs) {
		out = append(out, m.Role)
	}
	return strings.Join(out, " ")
}

func TestExportTrajectoryFromBodies(t *testing.T) {
	run := toolModeRun()
	tr := ExportTrajectory(run)
	if tr.Source != SourceBodies || tr.Turn != 0 {
		t.Fatalf("source %q turn %d", tr.Source, tr.Turn)
	}
	if got := roles(t, tr.Messages); got != "system user assistant tool assistant" {
		t.Fatalf("roles %q", got)
	}
	msgs := decodeMessages(t, tr.Messages)
	if msgs[0].Content != "<instructions>x</instructions>" || !strings.Contains(msgs[1].Content, "cost efficient") {
		t.Fatalf("system or user turn not as sent: %+v", msgs[:2])
	}
	if msgs[2].Content != "" || len(msgs[2].ToolCalls) == 0 {
		t.Fatalf("history turn not as sent (its think text was sent as \"\"): %+v", msgs[2])
	}
	if msgs[4].Content != "done" || !strings.Contains(string(tr.Tools), "travel__get_booking") {
		t.Fatalf("reply %+v tools %s", msgs[4], tr.Tools)
	}
	if tr.Reward.ToolCounts["travel__get_booking"] != 1 {
		t.Fatalf("reward %+v", tr.Reward)
	}
	line, err := json.Marshal(tr)
	if err != nil || !strings.Contains(string(line), `"tools":[{"type":"function"`) {
		t.Fatalf("line %s: %v", line, err)
	}
}

func TestExportTurns(t *testing.T) {
	turns := ExportTurns(toolModeRun())
	if len(turns) != 2 || turns[0].Turn != 1 || turns[1].Turn != 2 {
		t.Fatalf("%d turns", len(turns))
	}
	if got := roles(t, turns[0].Messages); got != "system user assistant" {
		t.Fatalf("turn 1 roles %q", got)
	}
	first := decodeMessages(t, turns[0].Messages)[2]
	if first.Content != "<think>look it up</think>" {
		t.Fatalf("turn 1 reply is not the model's own text: %+v", first)
	}
	if got := ExportTurns(sampleRun("r", "4")); len(got) != 1 || got[0].Source != SourceTrace {
		t.Fatalf("a run without bodies: %+v", got)
	}
}

func TestExportSkipsBodiesThatAreNotChat(t *testing.T) {
	cases := []struct {
		name, request, reply string
	}{
		{"request not json", `{"messages":`, `{"choices":[{"message":{}}]}`},
		{"no messages", `{"model":"o"}`, `{"choices":[{"message":{}}]}`},
		{"message not an object", `{"messages":["hi"]}`, `{"choices":[{"message":{}}]}`},
		{"error reply", `{"messages":[{}]}`, `{"error":{"message":"overloaded"}}`},
		{"reply message null", `{"messages":[{}]}`, `{"choices":[{"message":null}]}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			run := sampleRun("r", "4")
			run.Steps[0].Request, run.Steps[0].Reply = []byte(tc.request), []byte(tc.reply)
			tr := ExportTrajectory(run)
			if tr.Source != SourceTrace {
				t.Fatalf("source %q", tr.Source)
			}
			if _, err := json.Marshal(tr); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestRewardCountsTheCallsMade(t *testing.T) {
	run := toolModeRun()
	run.Add(conductor.Step{Turn: 2, Kind: conductor.StepTool, Tool: "travel__cancel", Refused: true, Error: "not allowed"})
	run.Add(conductor.Step{Turn: 2, Kind: conductor.StepTool, Tool: "travel__get_booking", Error: "the server failed"})
	r := ExportTrajectory(run).Reward
	if r.ToolCounts["travel__get_booking"] != 2 || r.ToolCounts["travel__cancel"] != 0 {
		t.Errorf("tool counts %v: want the failed call counted and the refused one not", r.ToolCounts)
	}
	line, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(line), "-0") {
		t.Errorf("a free, instant run reads %s: want 0, not -0", line)
	}
}
