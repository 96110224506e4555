package config

import (
	"net/url"
	"slices"
	"time"

	"github.com/tailscale/hujson"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
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
	Endpoints []llm.ModelEndpoint
	// Orchestrator is the orchestrator endpoint; always set (defaults apply).
	Orchestrator llm.ModelEndpoint
	Temperature  float64
	MaxTurns     int    // 0: the hub's limit
	Policy       string // default policy for runs; "" means orchestrator
	// Fallback is the policy used when no orchestrator is reachable; ""
	// means retrieve-answer.
	Fallback string
	// Launch, when set, is how toolhub starts and supervises the
	// orchestrator's model server ("orchestrator.launch").
	Launch *Launch
	// RetryDelay and RetryMaxDelay space an episode's calls of a model
	// after failed ones ("orchestrator.retry"); 0: the engine's default.
	RetryDelay, RetryMaxDelay time.Duration
	// DropSearchWithDocuments stops offering the search tool in research
	// mode once the episode holds a document, as the paper's FRAMES
	// evaluation does ("orchestrator.dropSearchWithDocuments"); on by
	// default with the FRAMES variant.
	DropSearchWithDocuments bool
	// Variant is the research evaluation research mode follows
	// ("orchestrator.variant": "hle", the default, or "frames").
	Variant policies.Variant
	// LeftOut are the model entries ReadModelsServe left out for their
	// problems, in file order.
	LeftOut []LeftOutModel
}

// modelKeys are the keys of a model entry; "sampling" stays last, the one
// the orchestrator does not take.
var modelKeys = []string{"baseUrl", "model", "apiKeyEnv", "locality", "priceIn", "priceOut", "roles",
	"capability", "contextLength", "answerStyle", "timeout", "latency", "sampling"}

var orchestratorKeys = append(slices.Clone(modelKeys[:len(modelKeys)-1]), "temperature", "maxTurns", "policy", "fallback", "launch", "retry",
	"dropSearchWithDocuments", "variant")

var knownRoles = []string{policies.RoleSearch, policies.RoleReason, policies.RoleAnswer, policies.RoleExpert}

// ReadModels decodes the models and orchestrator sections of a toolhub
// configuration's source, reporting problems at their line and column.
// Prices left out come from policies.KnownPrice; locality defaults to
// local for loopback URLs and remote otherwise. A model with "sampling":
// true is the calling MCP client's own model: it has no URL, its locality
// defaults to remote and its prices stay unknown (see samplingEndpoint).
func ReadModels(filename string, data []byte) (*Models, error) {
	out := &Models{Orchestrator: defaultOrchestrator(), Temperature: DefaultTemperature}
	d, members, ok := readTopLevel(filename, data)
	if !ok {
		return nil, d.err()
	}
	for _, m := range members {
		switch m.key {
		case "models":
			out.Endpoints = readModelEndpoints(d, m.value)
		case "orchestrator":
			readOrchestrator(d, m.value, out)
		}
	}
	if err := d.err(); err != nil {
		return nil, err
	}
	return out, nil
}

func defaultOrchestrator() llm.ModelEndpoint {
	ep := llm.ModelEndpoint{Name: DefaultOrchestratorName, BaseURL: DefaultOrchestratorURL,
		ModelID: DefaultOrchestratorModel, Locality: hub.LocalityLocal}
	ep.PriceIn, ep.PriceOut, _ = policies.KnownPrice(ep.ModelID)
	return ep
}

func readModelEndpoints(d decoder, v *hujson.Value) []llm.ModelEndpoint {
	members, ok := d.object(v, "models")
	if !ok {
		return nil
	}
	var out []llm.ModelEndpoint
	for _, m := range members {
		ep := llm.ModelEndpoint{Name: m.key}
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
			if n, ok := d.count(f.value, "orchestrator.maxTurns"); ok && (n < 1 || n > conductor.MaxTurns) {
				d.at(f.valueAt, "orchestrator.maxTurns: want 1 to %d, got %d", conductor.MaxTurns, n)
			} else {
				out.MaxTurns = int(n)
			}
		case "policy":
			out.Policy = readPolicyName(d, f, "orchestrator.policy", false)
		case "fallback":
			out.Fallback = readPolicyName(d, f, "orchestrator.fallback", true)
		case "launch":
			out.Launch = readLaunch(d, f)
		case "retry":
			readRetry(d, f, out)
		case "dropSearchWithDocuments":
			out.DropSearchWithDocuments = d.boolean(f.value, "orchestrator.dropSearchWithDocuments")
		case "variant":
			readVariant(d, f, out)
		case "sampling":
			d.at(f.keyAt, "orchestrator: sampling applies to entries of \"models\", not to the orchestrator")
		}
	}
	finishResearch(out, set)
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
	if out.Launch != nil && out.Launch.Health == "" {
		out.Launch.Health = defaultHealthURL(ep.BaseURL)
	}
}

// readEndpointFields decodes the endpoint keys of one model object and
// reports unknown keys; it returns which keys were present.
func readEndpointFields(d decoder, fields []member, what string, known []string, ep *llm.ModelEndpoint) map[string]bool {
	set := map[string]bool{}
	for _, f := range fields {
		set[f.key] = true
		at := what + "." + f.key
		switch f.key {
		case "baseUrl":
			ep.BaseURL, _ = d.str(f.value, at)
		case "model":
			ep.ModelID, _ = d.str(f.value, at)
		case "apiKeyEnv":
			ep.APIKeyEnv, _ = d.str(f.value, at)
		case "locality":
			if s, ok := d.str(f.value, at); ok {
				readLocality(d, f.valueAt, at, s, ep)
			}
		case "priceIn":
			ep.PriceIn = readPrice(d, f, at)
		case "priceOut":
			ep.PriceOut = readPrice(d, f, at)
		case "roles":
			ep.Roles = readRoles(d, f, at)
		case "capability":
			ep.Capability, _ = d.str(f.value, at)
		case "contextLength":
			n, _ := d.count(f.value, at)
			ep.ContextLength = int(n)
		case "answerStyle":
			if s, ok := d.str(f.value, at); ok {
				if s != policies.StyleBoxed && s != policies.StyleTagged {
					d.at(f.valueAt, "%s: want %q or %q, got %q", at, policies.StyleBoxed, policies.StyleTagged, s)
				}
				ep.AnswerStyle = s
			}
		case "timeout":
			ep.Timeout = readDuration(d, f, at)
		case "latency":
			ep.Latency = readLatency(d, f, at)
		case "sampling":
			ep.Sampling = d.boolean(f.value, at)
		default:
			if !slices.Contains(known, f.key) {
				d.at(f.keyAt, "%s: unknown key %q%s", what, f.key, didYouMean(f.key, known))
			}
		}
	}
	return set
}

func readLocality(d decoder, off int, at, s string, ep *llm.ModelEndpoint) {
	switch s {
	case LocalityLocal, LocalityRemote:
		ep.Locality = hub.Locality(s)
	default:
		d.at(off, "%s: want %q or %q, got %q", at, LocalityLocal, LocalityRemote, s)
	}
}

func readPrice(d decoder, f member, at string) float64 {
	p, ok := d.number(f.value, at)
	if ok && p < 0 {
		d.at(f.valueAt, "%s: a price must not be negative", at)
	}
	return p
}

func readRoles(d decoder, f member, at string) []string {
	roles, ok := d.strList(f.value, at)
	if !ok {
		return nil
	}
	for _, r := range roles {
		if !slices.Contains(knownRoles, r) {
			d.at(f.valueAt, "%s: unknown role %q%s", at, r, didYouMean(r, knownRoles))
		}
	}
	return roles
}

// readDuration decodes a positive duration written as a string ("90s").
func readDuration(d decoder, f member, at string) time.Duration {
	s, ok := d.str(f.value, at)
	if !ok {
		return 0
	}
	t, err := time.ParseDuration(s)
	if err != nil || t <= 0 {
		d.at(f.valueAt, "%s: want a positive duration such as \"90s\", got %q", at, s)
	}
	return t
}

// maxLatency bounds a configured latency: a figure past it is a typo, and
// the orchestrator was trained on tables from 8 s to 96 s.
const maxLatency = time.Hour

// readLatency decodes "latency", the typical duration of one call shown to
// the orchestrator until calls are measured (protocol §6): a positive
// duration string up to an hour, such as "22s".
func readLatency(d decoder, f member, at string) time.Duration {
	l := readDuration(d, f, at)
	if l > maxLatency {
		d.at(f.valueAt, "%s: want at most %s, got %s", at, maxLatency, l)
	}
	return l
}

// finishEndpoint checks required fields and fills defaults: locality from
// the URL, prices from the known table, answer style boxed.
func finishEndpoint(d decoder, off int, what string, set map[string]bool, ep *llm.ModelEndpoint) {
	if ep.Sampling {
		finishSamplingEndpoint(d, off, what, set, ep)
		return
	}
	if ep.BaseURL == "" {
		d.at(off, "%s: baseUrl is required", what)
	} else if u, err := url.Parse(ep.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		d.at(off, "%s: baseUrl %q is not an http(s) URL", what, ep.BaseURL)
	}
	if ep.ModelID == "" {
		d.at(off, "%s: model is required", what)
	}
	if !set["locality"] {
		ep.Locality = hub.LocalityRemote
		if isLoopbackURL(ep.BaseURL) {
			ep.Locality = hub.LocalityLocal
		}
	}
	in, out, known := policies.KnownPrice(ep.ModelID)
	if known && !set["priceIn"] {
		ep.PriceIn = in
	}
	if known && !set["priceOut"] {
		ep.PriceOut = out
	}
	if ep.AnswerStyle == "" && slices.Contains(ep.Roles, policies.RoleAnswer) {
		ep.AnswerStyle = policies.DefaultAnswerStyle(ep.ModelID)
	}
}
