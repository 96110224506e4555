package runlog

import (
	"bytes"
	"encoding/json"

	"github.com/toolhub/toolhub/conductor"
)

// Trajectory is one run, or one orchestrator turn of it, in the
// chat-messages-with-tool-calls shape RL trainers read (veRL's "messages"
// and "tools"), with the paper's reward components (Eq. 1-3).
type Trajectory struct {
	ID       string              `json:"id"`
	Task     string              `json:"task"`
	Mode     conductor.Mode      `json:"mode"`
	Policy   string              `json:"policy"`
	Status   conductor.RunStatus `json:"status"`
	Answer   string              `json:"answer"`
	ReplayOf string              `json:"replay_of,omitempty"`
	// Turn is the orchestrator turn of a per-turn trajectory (ExportTurns);
	// 0 for a whole run.
	Turn int `json:"turn,omitempty"`
	// Source says what Messages and Tools are: SourceBodies, the recorded
	// request and reply bodies (exactly what the model saw and said), or
	// SourceTrace, a run stored without bodies rebuilt from its steps.
	Source   string            `json:"source"`
	Messages []json.RawMessage `json:"messages"`
	Tools    json.RawMessage   `json:"tools,omitempty"`
	Reward   RewardComponents  `json:"reward"`
}

// Trajectory sources.
const (
	SourceBodies = "bodies"
	SourceTrace  = "trace"
)

// RewardComponents are the raw entries of the paper's vector M: calls per
// tool or alias, outcome, −cost and −latency (higher is better throughout).
// Normalisation over a rollout group happens at evaluation.
type RewardComponents struct {
	Outcome    *int           `json:"outcome"` // 1 or 0 when the expected answer is known; null otherwise
	Cost       float64        `json:"cost"`    // −USD
	Latency    float64        `json:"latency"` // −seconds of wall time
	ToolCounts map[string]int `json:"tool_counts"`
	// AliasModels names the model entry (config "models" key) each alias
	// of ToolCounts stood for in the run, where the trace records it: the
	// names the user's preferences weigh models by.
	AliasModels map[string]string `json:"alias_models,omitempty"`
}

// ExportTrajectory converts a run. With recorded bodies it is the last
// orchestrator turn exactly as sent, the request's messages and tools,
// followed by the model's reply message as received: in tool mode that is
// the whole conversation; in research mode, where every turn is a fresh
// prompt, it is the final turn (ExportTurns gives every turn). A run stored
// without bodies (run log version 1, or a policy that never asked the
// orchestrator) is rebuilt from its trace.
func ExportTrajectory(run *conductor.Run) Trajectory {
	turns := orchestratorTurns(run)
	if len(turns) == 0 {
		return traceTrajectory(run)
	}
	t := turns[len(turns)-1].trajectory(run)
	t.Turn = 0
	return t
}

// ExportTurns converts a run into one trajectory per orchestrator turn that
// got a reply, each the request as sent followed by the reply. A run without
// bodies gives its one rebuilt trajectory.
func ExportTurns(run *conductor.Run) []Trajectory {
	turns := orchestratorTurns(run)
	if len(turns) == 0 {
		return []Trajectory{traceTrajectory(run)}
	}
	out := make([]Trajectory, len(turns))
	for i, tb := range turns {
		out[i] = tb.trajectory(run)
	}
	return out
}

// turnBodies is one orchestrator request and its reply, parsed.
type turnBodies struct {
	turn     int
	messages []json.RawMessage
	tools    json.RawMessage
	reply    json.RawMessage // choices[0].message
}

func (tb turnBodies) trajectory(run *conductor.Run) Trajectory {
	t := header(run)
	t.Turn, t.Source, t.Tools = tb.turn, SourceBodies, tb.tools
	t.Messages = append(append([]json.RawMessage(nil), tb.messages...), tb.reply)
	return t
}

func header(run *conductor.Run) Trajectory {
	return Trajectory{ID: run.ID, Task: run.Task, Mode: run.Mode, Policy: run.Policy, Status: run.Status,
		Answer: run.Answer, ReplayOf: run.ReplayOf, Reward: rewardOf(run)}
}

// orchestratorTurns parses the orchestrator's recorded requests and
// replies; a step whose bodies are missing or are not a chat request and
// completion is left out.
func orchestratorTurns(run *conductor.Run) []turnBodies {
	var turns []turnBodies
	for _, s := range run.Steps {
		if s.Kind != conductor.StepModel || s.Alias != orchestratorAlias {
			continue
		}
		if tb, ok := parseTurn(s.Request, s.Reply); ok {
			tb.turn = s.Turn
			turns = append(turns, tb)
		}
	}
	return turns
}

// parseTurn reads a chat completions request body and its response body.
func parseTurn(request, reply []byte) (turnBodies, bool) {
	var req struct {
		Messages []json.RawMessage `json:"messages"`
		Tools    json.RawMessage   `json:"tools"`
	}
	var resp struct {
		Choices []struct {
			Message json.RawMessage `json:"message"`
		} `json:"choices"`
	}
	if json.Unmarshal(request, &req) != nil || len(req.Messages) == 0 || json.Unmarshal(reply, &resp) != nil || len(resp.Choices) == 0 {
		return turnBodies{}, false
	}
	for _, m := range req.Messages {
		if !isObject(m) {
			return turnBodies{}, false
		}
	}
	msg := resp.Choices[0].Message
	if !isObject(msg) {
		return turnBodies{}, false
	}
	tools := req.Tools
	if bytes.Equal(bytes.TrimSpace(tools), []byte("null")) {
		tools = nil
	}
	return turnBodies{messages: req.Messages, tools: tools, reply: msg}, true
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}
