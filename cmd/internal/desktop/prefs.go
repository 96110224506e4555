package desktop

import (
	"context"
	"errors"
	"maps"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
	"github.com/toolhub/toolhub/policies"
	"github.com/toolhub/toolhub/ui"
)

var errNoStore = errors.New("no preferences file: start the desktop with a config file")

// Preferences implements ui.PreferencesBackend.
func (b *Backend) Preferences(context.Context) (ui.Preferences, error) {
	if b.opts.Store == nil {
		return ui.Preferences{}, errNoStore
	}
	p := toUIPreferences(b.opts.Store.Current())
	if err := b.opts.Store.Err(); err != nil {
		b.log.Warn("the preferences file on disk is not in force", "err", err)
		p.Problem = err.Error()
	}
	return p, nil
}

// SavePreferences implements ui.PreferencesBackend: it writes the file
// atomically, keeping the settings the desktop does not edit (deadline,
// turn limit), and the daemon's episodes use it from the next one on.
func (b *Backend) SavePreferences(_ context.Context, p ui.Preferences) error {
	if b.opts.Store == nil {
		return errNoStore
	}
	return b.opts.Store.Save(fromUIPreferences(b.opts.Store.Current(), p))
}

// Preview implements ui.PreferencesBackend with the hub's own guard and
// sentence over the current catalog and models.
func (b *Backend) Preview(_ context.Context, up ui.Preferences) (ui.PreferencesPreview, error) {
	base := policies.DefaultPreferences()
	if b.opts.Store != nil {
		base = b.opts.Store.Current()
	}
	p := fromUIPreferences(base, up)
	if err := p.Validate(); err != nil {
		return ui.PreferencesPreview{}, err
	}
	tools, models := b.offerable()
	guard := policies.NewGuard(p, policies.GuardScope{Tools: tools, Models: models, Orchestrator: b.orchestratorName()})
	var pv ui.PreferencesPreview
	var okTools []*hub.Tool
	var okModels []llm.ModelInfo
	for _, t := range tools {
		pv.AllTools = append(pv.AllTools, t.Name)
		if ok, _ := guard.AllowTool(t); ok {
			okTools = append(okTools, t)
			pv.AllowedTools = append(pv.AllowedTools, t.Name)
		}
	}
	var roster []llm.ModelInfo // the expert models, which aliases are numbered over
	for _, m := range models {
		if m.Name != b.orchestratorName() {
			roster = append(roster, m)
		}
		pv.AllModels = append(pv.AllModels, m.Name)
		if ok, _ := guard.AllowModel(m); ok {
			okModels = append(okModels, m)
			pv.AllowedModels = append(pv.AllowedModels, m.Name)
		}
	}
	pv.Sentence = policies.Sentence(p, conductor.ModeTools, policies.Offer{Roster: roster, Models: okModels, Tools: okTools})
	if pv.Sentence == "" {
		pv.Sentence = "(nothing: these preferences ask for nothing beyond the task)"
	}
	return pv, nil
}

// offerable is every catalog tool an episode may be offered and every
// configured model, the orchestrator first.
func (b *Backend) offerable() ([]*hub.Tool, []llm.ModelInfo) {
	tools := b.opts.Daemon.Hub().Snapshot().Tools()
	var models []llm.ModelInfo
	if m := b.currentModels(); m != nil {
		models = append(models, llm.ModelInfo{ModelEndpoint: m.Orchestrator})
		for _, ep := range m.Endpoints {
			models = append(models, llm.ModelInfo{ModelEndpoint: ep})
		}
	}
	return tools, models
}

func (b *Backend) orchestratorName() string {
	if b.currentModels() == nil {
		return ""
	}
	return b.currentModels().Orchestrator.Name
}

func toUIPreferences(p policies.Preferences) ui.Preferences {
	out := ui.Preferences{Privacy: ui.Privacy(p.Privacy), CostWeight: p.CostWeight, LatencyWeight: p.LatencyWeight,
		BudgetUSD: p.BudgetUSD, Tools: map[string]ui.Weight{}, Models: map[string]ui.Weight{}}
	for k, w := range p.Tools {
		out.Tools[k] = ui.Weight(w)
	}
	for k, w := range p.Models {
		out.Models[k] = ui.Weight(w)
	}
	return out
}

// fromUIPreferences puts the desktop's settings over base.
func fromUIPreferences(base policies.Preferences, p ui.Preferences) policies.Preferences {
	out := base
	out.Privacy = policies.Privacy(p.Privacy)
	out.CostWeight, out.LatencyWeight, out.BudgetUSD = p.CostWeight, p.LatencyWeight, p.BudgetUSD
	out.Tools = convertWeights(p.Tools)
	out.Models = convertWeights(p.Models)
	return out
}

func convertWeights(in map[string]ui.Weight) map[string]policies.Weight {
	if len(in) == 0 {
		return nil
	}
	out := make(map[string]policies.Weight, len(in))
	for k, w := range maps.All(in) {
		out[k] = policies.Weight(w)
	}
	return out
}
