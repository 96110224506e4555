package policies

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/toolhub/toolhub/hub"
)

func TestParseOverride(t *testing.T) {
	cases := []struct {
		name    string
		raw     string
		want    func(Override) bool
		wantErr bool
	}{
		{"absent", ``, func(o Override) bool { return o.Privacy == "" && o.CostWeight == nil }, false},
		{"null", `null`, func(o Override) bool { return o.Privacy == "" }, false},
		{"local-only", `"local-only"`, func(o Override) bool { return o.Privacy == PrivacyLocalOnly }, false},
		{"cheap and fast", `"cheap, fast"`, func(o Override) bool {
			return *o.CostWeight == 1 && *o.LatencyWeight == 1
		}, false},
		{"any asks nothing", `"any"`, func(o Override) bool { return o.Privacy == "" }, false},
		{"object", `{"privacy":"prefer-local","budget_usd":0.02,"deadline":"30s","tools":{"web__*":"off"}}`, func(o Override) bool {
			return o.Privacy == PrivacyPreferLocal && o.BudgetUSD == 0.02 && o.Deadline == Duration(30*time.Second) && o.Tools["web__*"] == WeightOff
		}, false},
		{"unknown shorthand", `"free"`, nil, true},
		{"unknown key", `{"privacy":"any","turbo":true}`, nil, true},
		{"invalid value", `{"max_turns":70}`, nil, true},
		{"not a string or object", `[1]`, nil, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o, err := ParseOverride(json.RawMessage(tc.raw))
			if tc.wantErr {
				if err == nil {
					t.Fatalf("want an error, got %+v", o)
				}
				return
			}
			if err != nil || !tc.want(o) {
				t.Fatalf("got %+v, %v", o, err)
			}
		})
	}
}

func TestTightenNeverLoosens(t *testing.T) {
	saved := Preferences{Privacy: PrivacyPreferLocal, CostWeight: 0.6, LatencyWeight: 0.4,
		Tools:  map[string]Weight{"web__*": WeightOff, "kv__get": WeightAvoid},
		Models: map[string]Weight{"gpt": WeightAvoid}, BudgetUSD: 0.10, Deadline: Duration(time.Minute), MaxTurns: 20}
	cases := []struct {
		name  string
		raw   string
		check func(Preferences) bool
	}{
		{"looser privacy is ignored", `{"privacy":"any"}`, func(p Preferences) bool { return p.Privacy == PrivacyPreferLocal }},
		{"stricter privacy applies", `"local-only"`, func(p Preferences) bool { return p.Privacy == PrivacyLocalOnly }},
		{"higher budget is ignored", `{"budget_usd":5}`, func(p Preferences) bool { return p.BudgetUSD == 0.10 }},
		{"lower budget applies", `{"budget_usd":0.03}`, func(p Preferences) bool { return p.BudgetUSD == 0.03 }},
		{"longer deadline is ignored", `{"deadline":"1h"}`, func(p Preferences) bool { return p.Deadline == Duration(time.Minute) }},
		{"more turns are ignored", `{"max_turns":50}`, func(p Preferences) bool { return p.MaxTurns == 20 }},
		{"fewer turns apply", `{"max_turns":5}`, func(p Preferences) bool { return p.MaxTurns == 5 }},
		{"lower cost weight is ignored", `{"cost_weight":0}`, func(p Preferences) bool { return p.CostWeight == 0.6 }},
		{"cheap raises the cost weight", `"cheap"`, func(p Preferences) bool { return p.CostWeight == 1 }},
		{"prefer cannot undo a server's off", `{"tools":{"web__fetch":"prefer"}}`, func(p Preferences) bool {
			return p.ToolWeight(&hub.Tool{Name: "web__fetch", Server: "web"}) == WeightOff
		}},
		{"a server's off reaches its listed tools", `{"tools":{"kv__*":"off"}}`, func(p Preferences) bool {
			return p.Tools["kv__get"] == WeightOff && p.ToolWeight(&hub.Tool{Name: "kv__put", Server: "kv"}) == WeightOff
		}},
		{"neutral cannot undo avoid", `{"models":{"gpt":"neutral","qwen":"off"}}`, func(p Preferences) bool {
			return p.Models["gpt"] == WeightAvoid && p.Models["qwen"] == WeightOff
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o, err := ParseOverride(json.RawMessage(tc.raw))
			if err != nil {
				t.Fatal(err)
			}
			got := saved.Tighten(o)
			if !tc.check(got) {
				t.Fatalf("tightened to %+v", got)
			}
			if why := loosened(saved, got); why != "" {
				t.Fatalf("loosened: %s", why)
			}
			if saved.Tools["kv__get"] != WeightAvoid || saved.BudgetUSD != 0.10 {
				t.Fatal("Tighten changed the saved preferences")
			}
		})
	}
}

func TestWithBudget(t *testing.T) {
	o := Override{}.WithBudget(0.5).WithBudget(0.2).WithBudget(0.9).WithBudget(0)
	if o.BudgetUSD != 0.2 {
		t.Fatalf("budget %v, want the lowest, 0.2", o.BudgetUSD)
	}
}

// loosened names a setting in which got allows more than saved.
func loosened(saved, got Preferences) string {
	limit := func(a, b float64) bool { return a > 0 && (b <= 0 || b > a) }
	switch {
	case strictness[got.Privacy] < strictness[saved.Privacy]:
		return "privacy"
	case got.CostWeight < saved.CostWeight || got.LatencyWeight < saved.LatencyWeight:
		return "cost or latency weight"
	case limit(saved.BudgetUSD, got.BudgetUSD):
		return "budget"
	case limit(float64(saved.Deadline), float64(got.Deadline)):
		return "deadline"
	case got.Turns() > saved.Turns():
		return "turns"
	}
	probes := []*hub.Tool{{Name: "web__fetch", Server: "web"}, {Name: "kv__get", Server: "kv"}, {Name: "kv__put", Server: "kv"}, {Name: "x", Server: "x"}}
	for _, tool := range probes {
		if weightRank[got.ToolWeight(tool)] < weightRank[saved.ToolWeight(tool)] {
			return "tool " + tool.Name
		}
	}
	for _, m := range append(sortedKeys(saved.Models), sortedKeys(got.Models)...) {
		if weightRank[got.ModelWeight(m)] < weightRank[saved.ModelWeight(m)] {
			return "model " + m
		}
	}
	return ""
}

func FuzzParseOverride(f *testing.F) {
	for _, seed := range []string{`"local-only"`, `"cheap fast"`, `{"privacy":"any","budget_usd":9}`,
		`{"tools":{"web__*":"prefer","kv__get":"off"},"models":{"gpt":"prefer"},"max_turns":3}`, `null`, `{"deadline":"1h"}`} {
		f.Add([]byte(seed))
	}
	saved := Preferences{Privacy: PrivacyLocalOnly, CostWeight: 0.5, Tools: map[string]Weight{"web__*": WeightOff},
		Models: map[string]Weight{"gpt": WeightOff}, BudgetUSD: 1, Deadline: Duration(time.Minute), MaxTurns: 10}
	f.Fuzz(func(t *testing.T, raw []byte) {
		o, err := ParseOverride(raw)
		if err != nil {
			return
		}
		got := saved.Tighten(o)
		if why := loosened(saved, got); why != "" {
			t.Fatalf("override %s loosened %s: %+v", raw, why, got)
		}
		if err := got.Validate(); err != nil {
			t.Fatalf("tightened preferences are invalid: %v", err)
		}
	})
}
