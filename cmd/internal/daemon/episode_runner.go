package daemon

import (
	"context"
	"fmt"
	"sync"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

// EpisodeRunner runs orchestration episodes over a hub with the configured
// models: the composition of hub.Episodes and the policies.
type EpisodeRunner struct {
	episodes *conductor.Episodes
	models   *config.Models
	bus      *conductor.Bus

	mu          sync.Mutex
	preferences func() policies.Preferences // nil: unrestricted
}

// LoadModels reads the models and orchestrator sections of the config file
// f came from; a config held only in memory gets the defaults.
func LoadModels(f *config.File) (*config.Models, error) {
	path, data, err := configSource(f)
	if err != nil {
		return nil, err
	}
	return config.ReadModels(path, data)
}

// NewEpisodeRunner wires episodes over h. opts may be zero.
func NewEpisodeRunner(h conductor.ToolCaller, m *config.Models, opts llm.ModelOptions) (*EpisodeRunner, error) {
	endpoints := append([]llm.ModelEndpoint{m.Orchestrator}, m.Endpoints...)
	models, err := llm.NewModels(endpoints, opts)
	if err != nil {
		return nil, fmt.Errorf("build models: %w", err)
	}
	bus := conductor.NewBus()
	eps, err := conductor.NewEpisodes(conductor.EpisodesConfig{Tools: h, Models: models, Orchestrator: m.Orchestrator.Name,
		Bus: bus, Guard: noConductorTools})
	if err != nil {
		return nil, fmt.Errorf("build episodes: %w", err)
	}
	return &EpisodeRunner{episodes: eps, models: m, bus: bus}, nil
}

// noConductorTools keeps the conductor's own tools (orchestrate, research)
// out of every episode, which would otherwise be offered a way to call
// itself. Preferences narrow this further per episode.
var noConductorTools = conductor.GuardFuncs{Tool: func(t *hub.Tool) (bool, string) {
	if isConductorTool(t) {
		return false, "the conductor's own tool"
	}
	return true, ""
}}

// Bus is where every step of every episode is published.
func (r *EpisodeRunner) Bus() *conductor.Bus { return r.bus }

// Policy builds the policy named name ("" for the configured default).
func (r *EpisodeRunner) Policy(name string) (conductor.Policy, string, error) {
	if name == "" {
		name = r.models.Policy
	}
	if name == "" {
		name = policies.PolicyOrchestrator
	}
	orch := policies.Orchestrator{Temperature: r.models.Temperature}
	if r.models.Fallback != "" && name == policies.PolicyOrchestrator {
		fb, err := policies.NewFallback(r.models.Fallback, policies.Orchestrator{Temperature: r.models.Temperature})
		if err != nil {
			return nil, name, fmt.Errorf("orchestrator.fallback: %w", err)
		}
		orch.Fallback = fb
	}
	p, err := policies.NewPolicy(name, orch)
	return p, name, err
}

// SetPreferences makes every later episode run under current(), read at
// the start of each episode (pass a Store's Current to follow the file
// live). Until it is called, episodes run unrestricted.
func (r *EpisodeRunner) SetPreferences(current func() policies.Preferences) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.preferences = current
}

// Preferences returns the preferences in force for the next episode.
func (r *EpisodeRunner) Preferences() policies.Preferences {
	r.mu.Lock()
	current := r.preferences
	r.mu.Unlock()
	if current == nil {
		return policies.Unrestricted()
	}
	return current()
}

// Run runs one episode with the named policy under the current preferences.
func (r *EpisodeRunner) Run(ctx context.Context, task conductor.Task, policyName string) (*conductor.Run, error) {
	return r.RunWith(ctx, task, policyName, policies.Override{})
}

// RunWith runs one episode with the named policy under the current
// preferences tightened by o (a per-call override can only tighten). It
// sets the task's guard, preference sentence, budget, deadline and turn
// limit; a budget, deadline or turn limit already in task is kept when it
// is lower.
func (r *EpisodeRunner) RunWith(ctx context.Context, task conductor.Task, policyName string, o policies.Override) (*conductor.Run, error) {
	p, name, err := r.Policy(policyName)
	if err != nil {
		return nil, err
	}
	task.PolicyName = name
	if task.MaxTurns == 0 {
		task.MaxTurns = r.models.MaxTurns
	}
	task = policies.PrepareTask(task, r.Preferences().Tighten(o), r.episodes)
	return r.episodes.Run(ctx, task, p)
}
