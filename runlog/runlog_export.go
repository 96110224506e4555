package runlog

import (
	"encoding/json"
	"strings"

	"github.com/toolhub/toolhub/conductor"
)

// Trajectory is one run in chat-messages-with-tool-calls form, the shape RL
// training reads, with the paper's reward components (Eq. 1-3).
type Trajectory struct {
	ID       string              `json:"id"`
	Task     string              `json:"task"`
	Mode     conductor.Mode      `json:"mode"`
	Policy   string              `json:"policy"`
	Status   conductor.RunStatus `json:"status"`
	Answer   string              `json:"answer"`
	Messages []TrajectoryMessage `json:"messages"`
	Reward   RewardComponents    `json:"reward"`
}

// TrajectoryMessage is one OpenAI-style chat message.
type TrajectoryMessage struct {
	Role       string          `json:"role"`
	Content    string          `json:"content"`
	ToolCalls  json.RawMessage `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	Name       string          `json:"name,omitempty"`
}

// RewardComponents are the raw entries of the paper's vector M: calls per
// tool or alias, outcome, −cost and −latency (higher is better throughout).
// Normalisation over a rollout group happens at evaluation.
type RewardComponents struct {
	Outcome    *int           `json:"outcome"` // 1 or 0 when the expected answer is known; null otherwise
	Cost       float64        `json:"cost"`    // −USD
	Latency    float64        `json:"latency"` // −seconds of wall time
	ToolCounts map[string]int `json:"tool_counts"`
}

// ExportTrajectory converts a run. The orchestrator's replies become
// assistant messages with their tool calls; every expert, tool and
// observation step after one becomes a tool message answering its first call.
func ExportTrajectory(run *conductor.Run) Trajectory {
	t := Trajectory{ID: run.ID, Task: run.Task, Mode: run.Mode, Policy: run.Policy, Status: run.Status, Answer: run.Answer,
		Messages: []TrajectoryMessage{{Role: "user", Content: run.Task}}, Reward: rewardOf(run)}
	callID := ""
	for _, s := range run.Steps {
		switch {
		case s.Kind == conductor.StepModel && s.Alias == orchestratorAlias:
			t.Messages = append(t.Messages, TrajectoryMessage{Role: "assistant", Content: s.Response, ToolCalls: s.ToolCalls})
			callID = firstCallID(s.ToolCalls)
		case s.Kind == conductor.StepAnswer:
			t.Messages = append(t.Messages, TrajectoryMessage{Role: "assistant", Content: s.Text})
		default:
			t.Messages = append(t.Messages, TrajectoryMessage{Role: "tool", ToolCallID: callID, Name: stepName(s), Content: stepContent(s)})
		}
	}
	return t
}

// orchestratorAlias is how policies label the orchestrator's own calls.
const orchestratorAlias = "orchestrator"

func stepName(s conductor.Step) string {
	switch {
	case s.Kind == conductor.StepTool:
		return s.Tool
	case s.Kind == conductor.StepObservation:
		return "observation"
	default:
		return s.Alias
	}
}

func stepContent(s conductor.Step) string {
	text := s.Response
	if s.Kind == conductor.StepObservation {
		text = s.Text
	}
	if s.Error != "" {
		return strings.TrimSpace("error: " + s.Error + "\n" + text)
	}
	return text
}

func firstCallID(calls json.RawMessage) string {
	var parsed []struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(calls, &parsed) != nil || len(parsed) == 0 {
		return ""
	}
	return parsed[0].ID
}

func rewardOf(run *conductor.Run) RewardComponents {
	r := RewardComponents{Cost: -run.Totals.USD, Latency: -run.Totals.Wall.Seconds(), ToolCounts: map[string]int{}}
	for _, s := range run.Steps {
		switch {
		case s.Kind == conductor.StepTool:
			r.ToolCounts[s.Tool]++
		case s.Kind == conductor.StepModel && s.Alias != orchestratorAlias && s.Alias != "":
			r.ToolCounts[s.Alias]++
		}
	}
	if run.Expected != "" {
		outcome := 0
		if run.Status == conductor.RunAnswered && strings.EqualFold(strings.TrimSpace(run.Answer), strings.TrimSpace(run.Expected)) {
			outcome = 1
		}
		r.Outcome = &outcome
	}
	return r
}
