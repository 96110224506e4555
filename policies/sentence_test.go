package policies

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

// sentenceModels are offered experts: a local one for search and answer, a
// remote one for every research role, and a remote expert for tool mode.
func sentenceModels() []llm.ModelInfo {
	ep := func(name string, loc hub.Locality, roles ...string) llm.ModelInfo {
		return llm.ModelInfo{ModelEndpoint: llm.ModelEndpoint{Name: name, Locality: loc, Roles: roles}}
	}
	return []llm.ModelInfo{
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
		mode  conductor.Mode
		prefs Preferences
	}{
		{"unrestricted", conductor.ModeResearch, base},
		{"defaults", conductor.ModeResearch, DefaultPreferences()},
		{"local_only", conductor.ModeResearch, with(func(p *Preferences) { p.Privacy = PrivacyLocalOnly })},
		{"cost_high", conductor.ModeResearch, with(func(p *Preferences) { p.CostWeight = 0.7 })},
		{"cost_and_latency_at_most", conductor.ModeResearch, with(func(p *Preferences) { p.CostWeight, p.LatencyWeight = 1, 0.6 })},
		{"latency_high", conductor.ModeResearch, with(func(p *Preferences) { p.LatencyWeight = 0.9 })},
		{"below_balanced_unsaid", conductor.ModeResearch, with(func(p *Preferences) { p.CostWeight, p.LatencyWeight = 0.4, 0.1 })},
		{"budget_and_deadline_seconds", conductor.ModeResearch, with(func(p *Preferences) {
			p.BudgetUSD, p.Deadline = 0.05, Duration(90*time.Second)
		})},
		{"deadline_minutes", conductor.ModeResearch, with(func(p *Preferences) { p.Deadline = Duration(10 * time.Minute) })},
		{"model_weights_research", conductor.ModeResearch, with(func(p *Preferences) {
			p.Models = map[string]Weight{"qwen": WeightPrefer, "gpt": WeightAvoid, "mini": WeightNeutral}
		})},
		{"model_weights_tools", conductor.ModeTools, with(func(p *Preferences) {
			p.Models = map[string]Weight{"gpt": WeightAvoid, "mini": WeightPrefer}
		})},
		{"tool_weights", conductor.ModeTools, with(func(p *Preferences) {
			p.Tools = map[string]Weight{"kv__get": WeightPrefer, "web__*": WeightAvoid, "kv__put": WeightOff}
		})},
		{"tool_weights_unsaid_in_research", conductor.ModeResearch, with(func(p *Preferences) {
			p.Tools = map[string]Weight{"kv__get": WeightPrefer, "web__*": WeightAvoid}
		})},
		{"everything", conductor.ModeTools, Preferences{Privacy: PrivacyPreferLocal, CostWeight: 0.8, LatencyWeight: 0.95,
			Tools: map[string]Weight{"web__fetch": WeightAvoid}, Models: map[string]Weight{"gpt": WeightAvoid},
			BudgetUSD: 0.25, Deadline: Duration(2 * time.Minute), MaxTurns: 10}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.prefs.Validate(); err != nil {
				t.Fatal(err)
			}
			got := Sentence(tc.prefs, tc.mode, Offer{Models: sentenceModels(), Tools: sentenceTools()})
			checkGolden(t, "sentences/"+tc.name+".golden", []byte(got+"\n"))
		})
	}
}

func TestSentenceNamesNoRealModel(t *testing.T) {
	p := Unrestricted()
	p.Models = map[string]Weight{"qwen": WeightAvoid, "gpt": WeightPrefer, "mini": WeightAvoid}
	for _, mode := range []conductor.Mode{conductor.ModeResearch, conductor.ModeTools} {
		got := Sentence(p, mode, Offer{Models: sentenceModels(), Tools: sentenceTools()})
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

// TestSentenceTrainedWordingFirst checks that every sentence is in the
// wording of protocol §5 or one of toolhub's extras, and that no extra
// comes before a trained sentence.
func TestSentenceTrainedWordingFirst(t *testing.T) {
	trained := regexp.MustCompile(`^(My data is confidential: use only local tools and models and make no external API calls\.|` +
		`Prefer local tools and models; use remote ones only when necessary\.|I want to be cost efficient if possible\.|` +
		`I need the answer quickly, so prefer faster tools\.|Prefer [\w, -]+ (for searching|for reasoning|for answering|as the expert)\.|` +
		`Avoid [\w, -]+ unless (it is|they are) really needed\.)$`)
	extra := regexp.MustCompile(`^(Prefer [\w, -]+ when (it fits|they fit)\.|Keep the total cost of this task under \$[\d.]+\.|I need the answer within \d+ \w+\.)$`)
	split := regexp.MustCompile(`\.\s`)
	cases := []struct {
		name  string
		mode  conductor.Mode
		prefs Preferences
	}{
		{"defaults", conductor.ModeResearch, DefaultPreferences()},
		{"every weight at most", conductor.ModeResearch, Preferences{Privacy: PrivacyLocalOnly, CostWeight: 1, LatencyWeight: 1}},
		{"budget and deadline only", conductor.ModeResearch, Preferences{Privacy: PrivacyAny, BudgetUSD: 1, Deadline: Duration(time.Minute)}},
		{"tool mode with everything", conductor.ModeTools, Preferences{Privacy: PrivacyPreferLocal, CostWeight: 0.9, LatencyWeight: 0.5,
			Tools:  map[string]Weight{"kv__get": WeightPrefer, "web__fetch": WeightAvoid},
			Models: map[string]Weight{"gpt": WeightAvoid, "mini": WeightPrefer}, BudgetUSD: 0.5, Deadline: Duration(time.Hour)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Sentence(tc.prefs, tc.mode, Offer{Models: sentenceModels(), Tools: sentenceTools()})
			parts := split.Split(got, -1)
			seenExtra := false
			for i, s := range parts {
				if i < len(parts)-1 {
					s += "."
				}
				switch {
				case trained.MatchString(s):
					if seenExtra {
						t.Errorf("trained sentence %q follows an extra one in %q", s, got)
					}
				case extra.MatchString(s):
					seenExtra = true
				default:
					t.Errorf("sentence %q is in neither the trained nor the extra wording", s)
				}
			}
		})
	}
}
