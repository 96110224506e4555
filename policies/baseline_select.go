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
	switch policyFamily(spec) {
	case PolicyOrchestrator:
		o := orch
		return &o, nil
	case PolicyOrchestratorPrefix:
		return orchestratorIn(strings.TrimPrefix(spec, PolicyOrchestratorPrefix), orch)
	case PolicyCheapest:
		return base(spec, Cheapest), nil
	case PolicyStrongest:
		return base(spec, Strongest), nil
	case PolicyKNN:
		return newKNNPolicy(spec, orch)
	case PolicyBlend:
		return newBlendPolicy(spec, orch)
	case PolicyMF:
		return newMFPolicy(spec, orch)
	case PolicyFixedPrefix:
		name := strings.TrimPrefix(spec, PolicyFixedPrefix)
		p := &RetrieveAnswer{Name: spec, Pick: Fixed(name), Model: name, Counter: orch.Counter}
		return p, nil
	}
	return nil, unknownPolicy(spec)
}

// policyFamily is the family of policies spec names, the case NewPolicy
// builds it in; "" when it names none.
func policyFamily(spec string) string {
	switch {
	case spec == "" || spec == PolicyOrchestrator:
		return PolicyOrchestrator
	case strings.HasPrefix(spec, PolicyOrchestratorPrefix):
		return PolicyOrchestratorPrefix
	case spec == PolicyCheapest:
		return PolicyCheapest
	case spec == PolicyStrongest, spec == PolicyRetrieveAnswer:
		return PolicyStrongest
	case spec == PolicyKNN || strings.HasPrefix(spec, PolicyKNNPrefix):
		return PolicyKNN
	case spec == PolicyBlend || strings.HasPrefix(spec, PolicyBlendPrefix):
		return PolicyBlend
	case spec == PolicyMF || strings.HasPrefix(spec, PolicyMFPrefix):
		return PolicyMF
	case strings.HasPrefix(spec, PolicyFixedPrefix) && len(spec) > len(PolicyFixedPrefix):
		return PolicyFixedPrefix
	}
	return ""
}

func unknownPolicy(spec string) error {
	return fmt.Errorf("unknown policy %q (want orchestrator[:hle|:frames], fixed:MODEL, cheapest, strongest, retrieve-answer, knn[:PATH], blend[:PATH] or mf[:PATH])", spec)
}

// CheckPolicyName reports what is wrong with spec as the name of a policy
// NewPolicy builds, without building it (a router reads its file only
// then); nil when nothing is. asFallback also refuses the orchestrator's
// own names, which NewFallback refuses.
func CheckPolicyName(spec string, asFallback bool) error {
	switch policyFamily(spec) {
	case "":
		return unknownPolicy(spec)
	case PolicyOrchestrator, PolicyOrchestratorPrefix:
		if asFallback {
			return fmt.Errorf("policy %q needs the orchestrator and cannot be its fallback", spec)
		}
		if variant, ok := strings.CutPrefix(spec, PolicyOrchestratorPrefix); ok {
			_, err := orchestratorIn(variant, Orchestrator{})
			return err
		}
	}
	return nil
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
