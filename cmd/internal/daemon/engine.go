package daemon

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/config"
	"github.com/toolhub/toolhub/events"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
)

// LoadModels reads the models and orchestrator sections of the config file
// f came from; a config held only in memory gets the defaults.
func LoadModels(f *config.File) (*config.Models, error) {
	path, data, err := configSource(f)
	if err != nil {
		return nil, err
	}
	return config.ReadModels(path, data)
}

// LoadModelsServe is LoadModels for running the hub: a model entry or
// orchestrator key with a problem is left out and the rest used
// (config.ReadModelsServe), each problem logged.
func LoadModelsServe(f *config.File, log *slog.Logger) (*config.Models, error) {
	path, data, err := configSource(f)
	if err != nil {
		return nil, err
	}
	m, problems, err := config.ReadModelsServe(path, data)
	logLeftOut(log, problems)
	return m, err
}

// logLeftOut says where each part of the config left out stands and what
// is wrong with it.
func logLeftOut(log *slog.Logger, problems []config.Problem) {
	for _, p := range problems {
		log.Warn("config: this part has a problem and is left out; the rest runs", "problem", p.String())
	}
}

// newEngine builds the conductor over h's tools and the configured models:
// episodes publish on bus, and the planner runs them under the preferences,
// cutting prompts by the orchestrator server's own token counts.
func newEngine(h *hub.Hub, m *config.Models, bus *events.Bus, opts llm.ModelOptions, log *slog.Logger) (*conductor.Engine, *policies.Planner, error) {
	endpoints := append([]llm.ModelEndpoint{m.Orchestrator}, m.Endpoints...)
	models, err := llm.NewModels(endpoints, opts)
	if err != nil {
		return nil, nil, fmt.Errorf("build models: %w", err)
	}
	// Every request and reply body is kept: the run log stores them (once
	// each, by digest) for export and replay.
	eps, err := conductor.NewEpisodes(conductor.EpisodesConfig{Tools: h, Models: models,
		Orchestrator: m.Orchestrator.Name, Bus: bus, KeepRequests: true,
		RetryDelay: m.RetryDelay, RetryMaxDelay: m.RetryMaxDelay})
	if err != nil {
		return nil, nil, fmt.Errorf("build episodes: %w", err)
	}
	tokens := llm.NewTokenizer(models, m.Orchestrator.Name, llm.TokenizerOptions{
		Estimate: policies.EstimateCounter{}.Count, Logger: log})
	planner := policies.NewPlanner(policies.PlannerOptions{Policy: m.Policy, Fallback: m.Fallback,
		Temperature: m.Temperature, MaxTurns: m.MaxTurns, Counter: tokens,
		DropSearchWithDocuments: m.DropSearchWithDocuments, Variant: m.Variant}, nil)
	engine, err := conductor.NewEngine(eps, planner, conductor.EngineOptions{Ready: h.WaitSettled})
	if err != nil {
		return nil, nil, err
	}
	return engine, planner, nil
}

// RunEpisode runs one episode the way every surface does (the MCP tools,
// the desktop, `toolhub run`): see conductor.Engine.Run. Its steps are on
// the daemon's bus, and the run is stored in the run log from there.
func (d *Daemon) RunEpisode(ctx context.Context, req conductor.Request) (*conductor.Run, error) {
	return d.engine.Run(ctx, req)
}
