package runlog

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/toolhub/toolhub/conductor"
)

func sampleRun(id, answer string) *conductor.Run {
	run := &conductor.Run{ID: id, Task: "2+2?", Mode: conductor.ModeResearch, Policy: "orchestrator", Status: conductor.RunAnswered, Answer: answer, Expected: "4"}
	run.Add(conductor.Step{Kind: conductor.StepModel, Alias: "orchestrator", Response: "<think>x</think>",
		ToolCalls: json.RawMessage(`[{"id":"c1","type":"function","function":{"name":"answer","arguments":"{\"model\":\"answer-1\"}"}}]`), USD: 0.001})
	run.Add(conductor.Step{Kind: conductor.StepModel, Alias: "answer-1", Response: `\boxed{4}`, USD: 0.002})
	run.Add(conductor.Step{Kind: conductor.StepTool, Tool: "search_documents", Response: "doc"})
	run.Add(conductor.Step{Kind: conductor.StepAnswer, Text: answer})
	run.Totals.Wall = 1500 * time.Millisecond
	return run
}

func TestRunLogStoresAndLists(t *testing.T) {
	log, err := OpenRunLog(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	for _, id := range []string{"20260101T000000-aa", "20260102T000000-bb", "20260103T000000-cc"} {
		if err := log.Put(sampleRun(id, "4")); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := log.List(2)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].ID != "20260103T000000-cc" || runs[1].ID != "20260102T000000-bb" {
		t.Fatalf("list newest first: %v", runs)
	}
	got, err := log.Get("20260101T000000-aa")
	if err != nil || len(got.Steps) != 4 || got.Totals.USD != 0.003 {
		t.Fatalf("get: %v %+v", err, got)
	}
	if _, err := log.Get("nope"); !errors.Is(err, ErrRunNotFound) {
		t.Fatalf("missing run: %v", err)
	}
}

func decodeMessages(t *testing.T, raws []json.RawMessage) []traceMessage {
	t.Helper()
	out := make([]traceMessage, len(raws))
	for i, raw := range raws {
		if err := json.Unmarshal(raw, &out[i]); err != nil {
			t.Fatalf("message %d: %v: %s", i, err, raw)
		}
	}
	return out
}

func TestExportTrajectoryFromTrace(t *testing.T) {
	cases := []struct {
		name    string
		answer  string
		outcome int
	}{
		{"correct", "4", 1},
		{"wrong", "5", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := ExportTrajectory(sampleRun("r", tc.answer))
			if tr.Reward.Outcome == nil || *tr.Reward.Outcome != tc.outcome {
				t.Fatalf("outcome %v", tr.Reward.Outcome)
			}
			if tr.Reward.Cost != -0.003 || tr.Reward.Latency != -1.5 ||
				tr.Reward.ToolCounts["answer-1"] != 1 || tr.Reward.ToolCounts["search_documents"] != 1 || len(tr.Reward.ToolCounts) != 2 {
				t.Fatalf("reward %+v", tr.Reward)
			}
			msgs := decodeMessages(t, tr.Messages)
			roles := ""
			for _, m := range msgs {
				roles += m.Role + " "
			}
			if tr.Source != SourceTrace || roles != "user assistant tool tool assistant " || msgs[2].ToolCallID != "c1" || msgs[2].Name != "answer-1" {
				t.Fatalf("source %s, messages %+v", tr.Source, msgs)
			}
		})
	}
	if tr := ExportTrajectory(&conductor.Run{ID: "x"}); tr.Reward.Outcome != nil {
		t.Fatal("outcome without an expected answer")
	}
}
