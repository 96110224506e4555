package runlog

import (
	"encoding/json"
	"strings"

	"github.com/toolhub/toolhub/conductor"
)

// traceMessage is one OpenAI-style chat message rebuilt from a trace.
type traceMessage struct {
	Role       string          `json:"role"`
	Content    string          `json:"content"`
	ToolCalls  json.RawMessage `json:"tool_calls,omitempty"`
	ToolCallID string          `json:"tool_call_id,omitempty"`
	Name       string          `json:"name,omitempty"`
}

// traceTrajectory rebuilds a run stored without bodies from its steps: the
// task as the user turn, the orchestrator's replies as assistant messages
// with their tool calls, and every expert, tool and observation step after
// one as a tool message answering its first call. It is not what the model
// saw (no system prompt, no offered tools, no preference sentence), so it
// is marked SourceTrace.
func traceTrajectory(run *conductor.Run) Trajectory {
	t := header(run)
	t.Source = SourceTrace
	msgs := []traceMessage{{Role: "user", Content: run.Task}}
	callID := ""
	for _, s := range run.Steps {
		switch {
		case s.Kind == conductor.StepModel && s.Alias == orchestratorAlias:
			msgs = append(msgs, traceMessage{Role: "assistant", Content: s.Response, ToolCalls: validJSON(s.ToolCalls)})
			callID = firstCallID(s.ToolCalls)
		case s.Kind == conductor.StepAnswer:
			msgs = append(msgs, traceMessage{Role: "assistant", Content: s.Text})
		default:
			msgs = append(msgs, traceMessage{Role: "tool", ToolCallID: callID, Name: stepName(s), Content: stepContent(s)})
		}
	}
	for _, m := range msgs {
		raw, _ := json.Marshal(m) // cannot fail: strings and checked JSON
		t.Messages = append(t.Messages, raw)
	}
	return t
}

// validJSON drops stored tool calls that are not JSON, so the line encodes.
func validJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || !json.Valid(raw) {
		return nil
	}
	return raw
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
	// 0 − x, not −x: a free, instant run is 0, not −0, in the JSON.
	r := RewardComponents{Cost: 0 - run.Totals.USD, Latency: 0 - run.Totals.Wall.Seconds(), ToolCounts: map[string]int{}}
	for _, s := range run.Steps {
		switch {
		case s.Refused: // never sent: not a call of the tool
			continue
		case s.Kind == conductor.StepTool:
			r.ToolCounts[s.Tool]++
		case s.Kind == conductor.StepModel && s.Alias != orchestratorAlias && s.Alias != "":
			r.ToolCounts[s.Alias]++
			if s.Endpoint != "" {
				if r.AliasModels == nil {
					r.AliasModels = map[string]string{}
				}
				r.AliasModels[s.Alias] = s.Endpoint
			}
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
