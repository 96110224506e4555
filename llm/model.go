package llm

import (
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/toolhub/toolhub/hub"
)

// ModelEndpoint is one OpenAI-compatible chat model the hub may call: an
// expert (search, reason, answer, expert roles) or the orchestrator itself.
type ModelEndpoint struct {
	Name          string // unique name in the config, never shown to a model
	BaseURL       string // e.g. http://127.0.0.1:8000/v1
	ModelID       string // the "model" field of requests
	APIKeyEnv     string // environment variable holding the API key; empty for none
	Locality      hub.Locality
	PriceIn       float64 // USD per 1M input tokens
	PriceOut      float64 // USD per 1M output tokens
	Roles         []string
	Capability    string // one sentence shown to the orchestrator
	ContextLength int    // tokens; 0 = unknown
	AnswerStyle   string // boxed | tagged; answer role only
	Timeout       time.Duration
	// Latency is the typical duration of one call, shown to the
	// orchestrator until calls of the endpoint are measured ("latency" in
	// the config); 0: not configured (see policies.AliasLatency).
	Latency time.Duration
	// Sampling serves the endpoint through the calling MCP client's own
	// model (MCP sampling) instead of BaseURL; no API key is needed.
	Sampling bool
}

// HasRole reports whether the endpoint serves role.
func (e ModelEndpoint) HasRole(role string) bool { return slices.Contains(e.Roles, role) }

// Validate checks the fields a call needs.
func (e ModelEndpoint) Validate() error {
	if e.Name == "" {
		return errors.New("model endpoint has no name")
	}
	if e.ModelID == "" {
		return fmt.Errorf("model %q: no model id", e.Name)
	}
	if e.PriceIn < 0 || e.PriceOut < 0 {
		return fmt.Errorf("model %q: prices must not be negative", e.Name)
	}
	if e.Latency < 0 {
		return fmt.Errorf("model %q: latency must not be negative", e.Name)
	}
	if e.Sampling {
		return nil // reached through the calling client, not a URL
	}
	u, err := url.Parse(e.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("model %q: base URL %q is not an http(s) URL", e.Name, e.BaseURL)
	}
	return nil
}

// CostUSD prices one call from its token counts. For a Sampling endpoint
// the price is unknown, not zero: see ModelReply.CostUnknown.
func (e ModelEndpoint) CostUSD(tokensIn, tokensOut int) float64 {
	return float64(tokensIn)*e.PriceIn/1e6 + float64(tokensOut)*e.PriceOut/1e6
}

// ModelInfo is what a policy sees of an endpoint: its configuration and the
// measured moving-average latencies (protocol §6).
type ModelInfo struct {
	ModelEndpoint
	// Measured is the moving average of all call durations, failed calls
	// included; 0 before the first call.
	Measured time.Duration
	Calls    int64
	// RoleLatency is the moving average of the successful calls made for
	// each role (CompleteAs); a role without one is absent.
	RoleLatency map[string]time.Duration
}

// Models is the registry of configured endpoints. Safe for concurrent use.
type Models struct {
	mu     sync.RWMutex
	byName map[string]*Model
	order  []string
	opts   ModelOptions
}

// NewModels builds the registry; every endpoint must be valid and names unique.
func NewModels(endpoints []ModelEndpoint, opts ModelOptions) (*Models, error) {
	r := &Models{opts: opts}
	if err := r.Replace(endpoints); err != nil {
		return nil, err
	}
	return r, nil
}

// Replace makes endpoints the registry's models, at once for every later
// Get: an endpoint configured exactly as before keeps its model and its
// measured latencies; a changed or new one starts afresh; one left out is
// gone. Calls already made go on with the model they got. Nothing changes
// when an endpoint is invalid or a name is used twice.
func (r *Models) Replace(endpoints []ModelEndpoint) error {
	byName := make(map[string]*Model, len(endpoints))
	order := make([]string, 0, len(endpoints))
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, ep := range endpoints {
		if err := ep.Validate(); err != nil {
			return err
		}
		if _, dup := byName[ep.Name]; dup {
			return fmt.Errorf("model %q is configured twice", ep.Name)
		}
		if old, ok := r.byName[ep.Name]; ok && reflect.DeepEqual(old.endpoint, ep) {
			byName[ep.Name] = old
		} else {
			byName[ep.Name] = newModel(ep, r.opts)
		}
		order = append(order, ep.Name)
	}
	r.byName, r.order = byName, order
	return nil
}

// Get returns the endpoint called name.
func (r *Models) Get(name string) (*Model, bool) {
	if r == nil {
		return nil, false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	m, ok := r.byName[name]
	return m, ok
}

// List returns every endpoint's info in configuration order.
func (r *Models) List() []ModelInfo {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]ModelInfo, 0, len(r.order))
	for _, name := range r.order {
		out = append(out, r.byName[name].Info())
	}
	return out
}
