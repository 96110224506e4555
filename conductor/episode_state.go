package conductor

import (
	"slices"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

// State is what a policy sees during one episode. The offered tools and
// models are already filtered by the guard. A policy reads it; it acts only
// through the Actions it returns.
type State struct {
	RunID        string
	Task         string
	Mode         Mode
	Turn         int // current turn, from 1
	MaxTurns     int
	Tools        []*hub.Tool     // catalog tools offered this episode
	Models       []llm.ModelInfo // expert endpoints offered, with measured latency
	Orchestrator *llm.ModelInfo  // nil when none is configured or allowed
	// Preference is the task's preference sentence, for the orchestrator.
	Preference string

	ep *episode
}

// Steps returns the trace so far.
func (s *State) Steps() []Step {
	if s.ep == nil {
		return nil
	}
	return s.ep.run.Steps
}

// Tool returns the offered tool called name.
func (s *State) Tool(name string) (*hub.Tool, bool) {
	for _, t := range s.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// checkModel asks the guard about the endpoint and, for a call made for a
// role, whether the guard left the model that role.
func (ep *episode) checkModel(info llm.ModelInfo, role string) error {
	if ok, reason := ep.guard.AllowModel(info); !ok {
		return &GuardError{Target: "model " + info.Name, Reason: reason}
	}
	if role != "" && info.HasRole(role) && !slices.Contains(modelRoles(ep.guard, info), role) {
		return &GuardError{Target: "model " + info.Name, Reason: "not offered for the " + role + " role"}
	}
	return nil
}

// checkTool returns the catalog tool when it was offered this episode and
// the guard still allows it.
func (ep *episode) checkTool(st *State, name string) (*hub.Tool, error) {
	tool, ok := ep.tools.Snapshot().Lookup(name)
	if !ok {
		return nil, &GuardError{Target: "tool " + name, Reason: "not in the catalog"}
	}
	if allowed, reason := ep.guard.AllowTool(tool); !allowed {
		return tool, &GuardError{Target: "tool " + name, Reason: reason}
	}
	if _, offered := st.Tool(name); !offered {
		return tool, &GuardError{Target: "tool " + name, Reason: "not offered in this episode"}
	}
	return tool, nil
}
