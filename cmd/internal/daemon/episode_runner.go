package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/toolhub/toolhub/cmd/internal/config"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/policies"
)

// EpisodeRunner runs orchestration episodes over a hub with the configured
// models: the composition of hub.Episodes and the policies.
type EpisodeRunner struct {
	episodes *hub.Episodes
	models   *config.Models
	bus      *hub.Bus
}

// LoadModels reads the models and orchestrator sections of the config file
// f came from; a config held only in memory gets the defaults.
func LoadModels(f *config.File) (*config.Models, error) {
	if f == nil || f.Path == "" {
		return config.ReadModels("", []byte(`{}`))
	}
	data, err := os.ReadFile(f.Path)
	if errors.Is(err, fs.ErrNotExist) {
		return config.ReadModels(f.Path, []byte(`{}`))
	}
	if err != nil {
		return nil, fmt.Errorf("read models: %w", err)
	}
	return config.ReadModels(f.Path, data)
}

// NewEpisodeRunner wires episodes over h. opts may be zero.
func NewEpisodeRunner(h hub.ToolCaller, m *config.Models, opts hub.ModelOptions) (*EpisodeRunner, error) {
	endpoints := append([]hub.ModelEndpoint{m.Orchestrator}, m.Endpoints...)
	models, err := hub.NewModels(endpoints, opts)
	if err != nil {
		return nil, fmt.Errorf("build models: %w", err)
	}
	bus := hub.NewBus()
	eps, err := hub.NewEpisodes(hub.EpisodesConfig{Tools: h, Models: models, Orchestrator: m.Orchestrator.Name, Bus: bus})
	if err != nil {
		return nil, fmt.Errorf("build episodes: %w", err)
	}
	return &EpisodeRunner{episodes: eps, models: m, bus: bus}, nil
}

// Bus is where every step of every episode is published.
func (r *EpisodeRunner) Bus() *hub.Bus { return r.bus }

// Policy builds the policy named name ("" for the configured default).
func (r *EpisodeRunner) Policy(name string) (hub.Policy, string, error) {
	if name == "" {
		name = r.models.Policy
	}
	if name == "" {
		name = policies.PolicyOrchestrator
	}
	p, err := policies.NewPolicy(name, policies.Orchestrator{Temperature: r.models.Temperature})
	return p, name, err
}

// Run runs one episode with the named policy.
func (r *EpisodeRunner) Run(ctx context.Context, task hub.Task, policyName string) (*hub.Run, error) {
	p, name, err := r.Policy(policyName)
	if err != nil {
		return nil, err
	}
	task.PolicyName = name
	if task.MaxTurns == 0 {
		task.MaxTurns = r.models.MaxTurns
	}
	return r.episodes.Run(ctx, task, p)
}
