package policies

import (
	"fmt"
	"strings"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/llm"
)

// Policy names accepted by NewPolicy.
const (
	PolicyOrchestrator = "orchestrator"
	// PolicyOrchestratorPrefix names the orchestrator in one research
	// variant: orchestrator:hle or orchestrator:frames.
	PolicyOrchestratorPrefix = "orchestrator:"
	PolicyCheapest           = "cheapest"
	PolicyStrongest          = "strongest"
	PolicyRetrieveAnswer     = "retrieve-answer"
	PolicyFixedPrefix        = "fixed:"
)

// NewPolicy builds the policy named spec: orchestrator, fixed:MODEL,
// cheapest, strongest or retrieve-answer. orch supplies the orchestrator's
// settings and the baselines' temperature. orchestrator:VARIANT is the
// orchestrator following that research variant's script as it is
// (orchestratorIn), whatever orch's variant.
func NewPolicy(spec string, orch Orchestrator) (conductor.Policy, error) {
	base := func(name string, pick func([]llm.ModelInfo) (llm.ModelInfo, bool)) conductor.Policy {
		return &RetrieveAnswer{Name: name, Pick: pick, Counter: orch.Counter}
	}
	switch {
	case spec == "" || spec == PolicyOrchestrator:
		o := orch
		return &o, nil
	case strings.HasPrefix(spec, PolicyOrchestratorPrefix):
		return orchestratorIn(strings.TrimPrefix(spec, PolicyOrchestratorPrefix), orch)
	case spec == PolicyCheapest:
		return base(spec, Cheapest), nil
	case spec == PolicyStrongest, spec == PolicyRetrieveAnswer:
		return base(spec, Strongest), nil
	case spec == PolicyKNN || strings.HasPrefix(spec, PolicyKNNPrefix):
		return newKNNPolicy(spec, orch)
	case spec == PolicyBlend || strings.HasPrefix(spec, PolicyBlendPrefix):
		return newBlendPolicy(spec, orch)
	case spec == PolicyMF || strings.HasPrefix(spec, PolicyMFPrefix):
		return newMFPolicy(spec, orch)
	case strings.HasPrefix(spec, PolicyFixedPrefix) && len(spec) > len(PolicyFixedPrefix):
		name := strings.TrimPrefix(spec, PolicyFixedPrefix)
		p := &RetrieveAnswer{Name: spec, Pick: Fixed(name), Model: name, Counter: orch.Counter}
		return p, nil
	}
	return nil, fmt.Errorf("unknown policy %q (want orchestrator[:hle|:frames], fixed:MODEL, cheapest, strongest, retrieve-answer, knn[:PATH], blend[:PATH] or mf[:PATH])", spec)
}

// orchestratorIn is the orchestrator in the research variant named
// variant, with that script's own dropping of search (FRAMES drops it once
// documents exist, HLE never), so that both can run side by side in one
// eval whatever the config says.
func orchestratorIn(variant string, orch Orchestrator) (conductor.Policy, error) {
	v, err := ParseVariant(variant)
	if err != nil || variant == "" {
		return nil, fmt.Errorf("policy orchestrator:%s: want orchestrator:%s or orchestrator:%s", variant, VariantHLE, VariantFRAMES)
	}
	o := orch
	o.Variant, o.DropSearchWithDocuments = v, v == VariantFRAMES
	return &o, nil
}

// NewFallback builds the no-orchestrator policy named spec, for
// Orchestrator.Fallback: any policy NewPolicy builds but the orchestrator.
func NewFallback(spec string, orch Orchestrator) (Fallback, error) {
	p, err := NewPolicy(spec, orch)
	if err != nil {
		return nil, err
	}
	fb, ok := p.(Fallback)
	if !ok {
		return nil, fmt.Errorf("policy %q needs the orchestrator and cannot be its fallback", spec)
	}
	return fb, nil
}
