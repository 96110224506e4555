package policies

import (
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/hub"
)

// sentenceModels are offered experts: a local one for search and answer, a
// remote one for every research role, and a remote expert for tool mode.
func sentenceModels() []hub.ModelInfo {
	ep := func(name string, loc hub.Locality, roles ...string) hub.ModelInfo {
		return hub.ModelInfo{ModelEndpoint: hub.ModelEndpoint{Name: name, Locality: loc, Roles: roles}}
	}
	return []hub.ModelInfo{
		ep("qwen", hub.LocalityLocal, RoleSearch, RoleAnswer),
		ep("gpt", hub.LocalityRemote, RoleSearch, RoleReason, RoleAnswer, RoleExpert),
		ep("mini", hub.LocalityRemote, RoleAnswer, RoleExpert),
	}
}

func sentenceTools() []*hub.Tool {
	tool := func(server, name string) *hub.Tool {
		return &hub.Tool{Name: server + "__" + name, Server: server, RawTool: hub.RawTool{Name: name}}
	}
	return []*hub.Tool{tool("kv", "get"), tool("kv", "put"), tool("web", "fetch"), tool("web", "search")}
}

func TestSentenceGolden(t *testing.T) {
	base := Unrestricted()
	with := func(f func(*Preferences)) Preferences {
		p := base.clone()
		f(&p)
		return p
	}
	cases := []struct {
		name  string
		mode  hub.Mode
		prefs Preferences
	}{
		{"unrestricted", hub.ModeResearch, base},
		{"defaults", hub.ModeResearch, DefaultPreferences()},
		{"local_only", hub.ModeResearch, with(func(p *Preferences) { p.Privacy = PrivacyLocalOnly })},
		{"cost_mild", hub.ModeResearch, with(func(p *Preferences) { p.CostWeight = 0.7 })},
		{"cost_strict_latency_mild", hub.ModeResearch, with(func(p *Preferences) { p.CostWeight, p.LatencyWeight = 1, 0.6 })},
		{"latency_strict", hub.ModeResearch, with(func(p *Preferences) { p.LatencyWeight = 0.9 })},
		{"budget_and_deadline_seconds", hub.ModeResearch, with(func(p *Preferences) {
			p.BudgetUSD, p.Deadline = 0.05, Duration(90*time.Second)
		})},
		{"deadline_minutes", hub.ModeResearch, with(func(p *Preferences) { p.Deadline = Duration(10 * time.Minute) })},
		{"model_weights_research", hub.ModeResearch, with(func(p *Preferences) {
			p.Models = map[string]Weight{"qwen": WeightPrefer, "gpt": WeightAvoid, "mini": WeightNeutral}
		})},
		{"model_weights_tools", hub.ModeTools, with(func(p *Preferences) {
			p.Models = map[string]Weight{"gpt": WeightAvoid, "mini": WeightPrefer}
		})},
		{"tool_weights", hub.ModeTools, with(func(p *Preferences) {
			p.Tools = map[string]Weight{"kv__get": WeightPrefer, "web__*": WeightAvoid, "kv__put": WeightOff}
		})},
		{"tool_weights_unsaid_in_research", hub.ModeResearch, with(func(p *Preferences) {
			p.Tools = map[string]Weight{"kv__get": WeightPrefer, "web__*": WeightAvoid}
		})},
		{"everything", hub.ModeTools, Preferences{Privacy: PrivacyPreferLocal, CostWeight: 0.8, LatencyWeight: 0.95,
			Tools: map[string]Weight{"web__fetch": WeightAvoid}, Models: map[string]Weight{"gpt": WeightAvoid},
			BudgetUSD: 0.25, Deadline: Duration(2 * time.Minute), MaxTurns: 10}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.prefs.Validate(); err != nil {
				t.Fatal(err)
			}
			got := Sentence(tc.prefs, tc.mode, sentenceModels(), sentenceTools())
			checkGolden(t, "sentences/"+tc.name+".golden", []byte(got+"\n"))
		})
	}
}

func TestSentenceNamesNoRealModel(t *testing.T) {
	p := Unrestricted()
	p.Models = map[string]Weight{"qwen": WeightAvoid, "gpt": WeightPrefer, "mini": WeightAvoid}
	for _, mode := range []hub.Mode{hub.ModeResearch, hub.ModeTools} {
		got := Sentence(p, mode, sentenceModels(), sentenceTools())
		for _, name := range []string{"qwen", "gpt", "mini"} {
			if strings.Contains(got, name) {
				t.Errorf("%s sentence names endpoint %q: %s", mode, name, got)
			}
		}
		if got == "" {
			t.Errorf("%s: no sentence for model weights", mode)
		}
	}
}

func TestSpokenDuration(t *testing.T) {
	cases := map[time.Duration]string{
		time.Second: "1 second", 90 * time.Second: "90 seconds", time.Minute: "1 minute",
		10 * time.Minute: "10 minutes", 2 * time.Hour: "2 hours", 90 * time.Minute: "90 minutes",
		time.Millisecond: "1 second",
	}
	for d, want := range cases {
		if got := spokenDuration(d); got != want {
			t.Errorf("spokenDuration(%s) = %q, want %q", d, got, want)
		}
	}
}
