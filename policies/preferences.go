package policies

import (
	"fmt"
	"maps"
	"math"
	"sort"
	"strings"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
)

// Privacy says where an episode's data may go.
type Privacy string

// Privacy settings.
const (
	// PrivacyLocalOnly allows only local tools and models; an episode whose
	// orchestrator is remote does not start.
	PrivacyLocalOnly Privacy = "local-only"
	// PrivacyPreferLocal offers a remote model only for a role no allowed
	// local model has, and a remote tool only when no local tool does the
	// same job (see NewGuard).
	PrivacyPreferLocal Privacy = "prefer-local"
	// PrivacyAny allows every configured tool and model.
	PrivacyAny Privacy = "any"
)

// strictness orders privacy settings: higher is stricter.
var strictness = map[Privacy]int{PrivacyAny: 0, PrivacyPreferLocal: 1, PrivacyLocalOnly: 2}

// Weight is how much a tool or model should be used.
type Weight string

// Weights, from most to least welcome.
const (
	WeightPrefer  Weight = "prefer"
	WeightNeutral Weight = "neutral"
	WeightAvoid   Weight = "avoid"
	WeightOff     Weight = "off" // never offered, refused at call time
)

// weightRank orders weights: higher is stricter.
var weightRank = map[Weight]int{WeightPrefer: 0, WeightNeutral: 1, WeightAvoid: 2, WeightOff: 3}

// stricterWeight returns whichever of a and b is closer to off; an empty
// weight counts as neutral.
func stricterWeight(a, b Weight) Weight {
	if a == "" {
		a = WeightNeutral
	}
	if b == "" {
		b = WeightNeutral
	}
	if weightRank[b] > weightRank[a] {
		return b
	}
	return a
}

// Preferences are what the user wants of every episode: stated to the
// orchestrator as a sentence (Sentence) and enforced by the hub (NewGuard,
// the budget, the deadline and the turn limit).
type Preferences struct {
	Privacy       Privacy           `json:"privacy"`
	CostWeight    float64           `json:"cost_weight"`          // 0..1; from 0.5 the cost sentence is stated
	LatencyWeight float64           `json:"latency_weight"`       // 0..1; from 0.5 the latency sentence is stated
	Tools         map[string]Weight `json:"tools,omitempty"`      // catalog tool name ("server__tool") or "server__*"
	Models        map[string]Weight `json:"models,omitempty"`     // model endpoint name
	BudgetUSD     float64           `json:"budget_usd,omitempty"` // per task; 0 = none
	Deadline      Duration          `json:"deadline,omitempty"`   // per task; JSON "90s", "10m"; 0 = none
	MaxTurns      int               `json:"max_turns,omitempty"`  // 0 = hub.MaxTurns (50)
}

// DefaultPreferences are used when no preferences file exists: prefer-local
// (a remote model or tool is offered only when no local one can do its job,
// so data stays on this machine whenever it can), cost and latency weights
// 0.5 (balanced: the cost and latency sentences are stated, as the model
// was trained to weigh both), no per-tool or per-model
// weights, no budget, no deadline, the hub's 50-turn limit.
func DefaultPreferences() Preferences {
	return Preferences{Privacy: PrivacyPreferLocal, CostWeight: 0.5, LatencyWeight: 0.5}
}

// Unrestricted allows everything and states nothing: what an episode runs
// under when no preferences are configured at all.
func Unrestricted() Preferences { return Preferences{Privacy: PrivacyAny} }

// Problem is one invalid setting: its JSON path and what is wrong.
type Problem struct {
	Path    string // e.g. `tools["web__fetch"]`
	Message string
}

// ValidationError lists every invalid setting of a preferences document.
type ValidationError struct {
	File     string // "" when not read from a file
	Problems []Problem
}

func (e *ValidationError) Error() string {
	prefix := "preferences"
	if e.File != "" {
		prefix = e.File
	}
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = prefix + ": " + p.Path + ": " + p.Message
	}
	return strings.Join(lines, "\n")
}

// Validate reports every invalid setting at once, each with its JSON path.
func (p Preferences) Validate() error {
	var probs []Problem
	add := func(path, format string, args ...any) {
		probs = append(probs, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
	}
	if _, ok := strictness[p.Privacy]; !ok {
		add("privacy", "%q is not one of local-only, prefer-local, any", p.Privacy)
	}
	checkUnit(add, "cost_weight", p.CostWeight)
	checkUnit(add, "latency_weight", p.LatencyWeight)
	for _, key := range sortedKeys(p.Tools) {
		checkWeight(add, fmt.Sprintf("tools[%q]", key), p.Tools[key])
		if msg := toolKeyProblem(key); msg != "" {
			add(fmt.Sprintf("tools[%q]", key), "%s", msg)
		}
	}
	for _, key := range sortedKeys(p.Models) {
		checkWeight(add, fmt.Sprintf("models[%q]", key), p.Models[key])
		if strings.TrimSpace(key) == "" {
			add(fmt.Sprintf("models[%q]", key), "the model name is empty")
		}
	}
	if p.BudgetUSD < 0 || math.IsNaN(p.BudgetUSD) || math.IsInf(p.BudgetUSD, 0) {
		add("budget_usd", "%v is not a non-negative amount", p.BudgetUSD)
	}
	if p.Deadline < 0 {
		add("deadline", "%s is negative", p.Deadline)
	}
	if p.MaxTurns < 0 || p.MaxTurns > conductor.MaxTurns {
		add("max_turns", "%d is outside 0..%d", p.MaxTurns, conductor.MaxTurns)
	}
	if len(probs) == 0 {
		return nil
	}
	return &ValidationError{Problems: probs}
}

func checkUnit(add func(string, string, ...any), path string, v float64) {
	if math.IsNaN(v) || v < 0 || v > 1 {
		add(path, "%v is outside 0..1", v)
	}
}

func checkWeight(add func(string, string, ...any), path string, w Weight) {
	if _, ok := weightRank[w]; !ok {
		add(path, "%q is not one of prefer, neutral, avoid, off", w)
	}
}

// toolKeyProblem checks a tools key: a catalog tool name, or "server__*"
// for every tool of a server. A "*" anywhere else is refused.
func toolKeyProblem(key string) string {
	switch {
	case strings.TrimSpace(key) == "":
		return "the tool name is empty"
	case strings.ContainsAny(key, " \t\n"):
		return "a tool name has no spaces"
	case strings.Contains(strings.TrimSuffix(key, "__*"), "*"), key == "__*":
		return `"*" is allowed only as "server__*"`
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ToolWeight is the weight of a catalog tool: its own entry, else its
// server's "server__*" entry, else neutral.
func (p Preferences) ToolWeight(t *hub.Tool) Weight {
	if w, ok := p.Tools[t.Name]; ok {
		return w
	}
	if w, ok := p.Tools[t.Server+"__*"]; ok {
		return w
	}
	return WeightNeutral
}

// ModelWeight is the weight of a model endpoint, neutral when unset.
func (p Preferences) ModelWeight(endpoint string) Weight {
	if w, ok := p.Models[endpoint]; ok {
		return w
	}
	return WeightNeutral
}

// Turns is the turn limit the preferences allow.
func (p Preferences) Turns() int {
	if p.MaxTurns <= 0 || p.MaxTurns > conductor.MaxTurns {
		return conductor.MaxTurns
	}
	return p.MaxTurns
}

// clone copies the maps so that a tightened copy never shares them.
func (p Preferences) clone() Preferences {
	c := p
	c.Tools = cloneWeights(p.Tools)
	c.Models = cloneWeights(p.Models)
	return c
}

func cloneWeights(m map[string]Weight) map[string]Weight {
	if m == nil {
		return nil
	}
	return maps.Clone(m)
}

// equal reports whether two preferences are the same settings.
func (p Preferences) equal(o Preferences) bool {
	return p.Privacy == o.Privacy && p.CostWeight == o.CostWeight && p.LatencyWeight == o.LatencyWeight &&
		p.BudgetUSD == o.BudgetUSD && p.Deadline == o.Deadline && p.MaxTurns == o.MaxTurns &&
		maps.Equal(p.Tools, o.Tools) && maps.Equal(p.Models, o.Models)
}
