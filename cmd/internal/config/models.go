package config

import (
	"slices"

	"github.com/tailscale/hujson"

	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/policies"
)

// Orchestrator defaults (docs/orchestrator-protocol.md §1).
const (
	DefaultOrchestratorName  = "orchestrator"
	DefaultOrchestratorURL   = "http://127.0.0.1:8000/v1"
	DefaultOrchestratorModel = "nvidia/Nemotron-Orchestrator-8B"
	DefaultTemperature       = 1.0
)

// Models is the decoded "models" and "orchestrator" sections.
type Models struct {
	// Endpoints are the expert models in file order (aliases are numbered
	// in this order).
	Endpoints []hub.ModelEndpoint
	// Orchestrator is the orchestrator endpoint; always set (defaults apply).
	Orchestrator hub.ModelEndpoint
	Temperature  float64
	MaxTurns     int    // 0: the hub's limit
	Policy       string // default policy for runs; "" means orchestrator
}

var modelKeys = []string{"baseUrl", "model", "apiKeyEnv", "locality", "priceIn", "priceOut", "roles",
	"capability", "contextLength", "answerStyle", "timeout"}

var orchestratorKeys = append(slices.Clone(modelKeys), "temperature", "maxTurns", "policy")

var knownRoles = []string{policies.RoleSearch, policies.RoleReason, policies.RoleAnswer, policies.RoleExpert}

// ReadModels decodes the models and orchestrator sections of a toolhub
// configuration's source, reporting problems at their line and column.
// Prices left out come from policies.KnownPrice; locality defaults to
// local for loopback URLs and remote otherwise.
func ReadModels(filename string, data []byte) (*Models, error) {
	l := &problemList{file: filename, src: data}
	out := &Models{Orchestrator: defaultOrchestrator(), Temperature: DefaultTemperature}
	root, ok := parseTree(l, data)
	if !ok {
		return nil, l.err()
	}
	d := decoder{l}
	members, _ := d.object(&root, "")
	for _, m := range members {
		switch m.key {
		case "models":
			out.Endpoints = readModelEndpoints(d, m.value)
		case "orchestrator":
			readOrchestrator(d, m.value, out)
		}
	}
	if err := l.err(); err != nil {
		return nil, err
	}
	return out, nil
}

func defaultOrchestrator() hub.ModelEndpoint {
	ep := hub.ModelEndpoint{Name: DefaultOrchestratorName, BaseURL: DefaultOrchestratorURL,
		ModelID: DefaultOrchestratorModel, Locality: hub.LocalityLocal}
	ep.PriceIn, ep.PriceOut, _ = policies.KnownPrice(ep.ModelID)
	return ep
}

func readModelEndpoints(d decoder, v *hujson.Value) []hub.ModelEndpoint {
	members, ok := d.object(v, "models")
	if !ok {
		return nil
	}
	var out []hub.ModelEndpoint
	for _, m := range members {
		ep := hub.ModelEndpoint{Name: m.key}
		what := "models." + m.key
		if m.key == "" || m.key == DefaultOrchestratorName {
			d.at(m.keyAt, "models: %q cannot name a model", m.key)
		}
		fields, ok := d.object(m.value, what)
		if !ok {
			continue
		}
		set := readEndpointFields(d, fields, what, modelKeys, &ep)
		finishEndpoint(d, m.valueAt, what, set, &ep)
		out = append(out, ep)
	}
	return out
}

func readOrchestrator(d decoder, v *hujson.Value, out *Models) {
	fields, ok := d.object(v, "orchestrator")
	if !ok {
		return
	}
	ep := out.Orchestrator
	set := readEndpointFields(d, fields, "orchestrator", orchestratorKeys, &ep)
	for _, f := range fields {
		switch f.key {
		case "temperature":
			if t, ok := d.number(f.value, "orchestrator.temperature"); ok {
				out.Temperature = t
			}
		case "maxTurns":
			if n, ok := d.count(f.value, "orchestrator.maxTurns"); ok && (n < 1 || n > hub.MaxTurns) {
				d.at(f.valueAt, "orchestrator.maxTurns: want 1 to %d, got %d", hub.MaxTurns, n)
			} else {
				out.MaxTurns = int(n)
			}
		case "policy":
			out.Policy, _ = d.str(f.value, "orchestrator.policy")
		}
	}
	if set["model"] {
		// finishEndpoint fills prices for the configured model, not the default's.
		if !set["priceIn"] {
			ep.PriceIn = 0
		}
		if !set["priceOut"] {
			ep.PriceOut = 0
		}
	}
	finishEndpoint(d, v.StartOffset, "orchestrator", set, &ep)
	out.Orchestrator = ep
}
