package policies

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Override narrows the saved preferences for one call: the MCP tools'
// `preference` argument (ParseOverride) and `budget_usd` (WithBudget). It
// can only tighten: see Preferences.Tighten. The zero value changes nothing.
type Override struct {
	Privacy       Privacy           `json:"privacy,omitempty"`
	CostWeight    *float64          `json:"cost_weight,omitempty"`
	LatencyWeight *float64          `json:"latency_weight,omitempty"`
	Tools         map[string]Weight `json:"tools,omitempty"`
	Models        map[string]Weight `json:"models,omitempty"`
	BudgetUSD     float64           `json:"budget_usd,omitempty"`
	Deadline      Duration          `json:"deadline,omitempty"`
	MaxTurns      int               `json:"max_turns,omitempty"`
}

// Shorthands a `preference` string may use, several separated by commas or
// spaces ("local-only, cheap").
var shorthands = map[string]func(*Override){
	string(PrivacyLocalOnly):   func(o *Override) { o.Privacy = PrivacyLocalOnly },
	string(PrivacyPreferLocal): func(o *Override) { o.Privacy = PrivacyPreferLocal },
	string(PrivacyAny):         func(*Override) {}, // asks for nothing stricter
	"cheap":                    func(o *Override) { o.CostWeight = float64Ptr(1) },
	"fast":                     func(o *Override) { o.LatencyWeight = float64Ptr(1) },
}

// ParseOverride reads the MCP `preference` argument: absent or null (no
// override), a shorthand string ("local-only", "prefer-local", "any",
// "cheap", "fast", or several: "local-only cheap") or a partial
// preferences object with the keys of Preferences.
func ParseOverride(raw json.RawMessage) (Override, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return Override{}, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return Override{}, fmt.Errorf("preference: %w", err)
		}
		return parseShorthand(s)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var o Override
	if err := dec.Decode(&o); err != nil {
		return Override{}, fmt.Errorf("preference: want a shorthand string or a preferences object: %w", err)
	}
	if err := o.validate(); err != nil {
		return Override{}, err
	}
	return o, nil
}

func parseShorthand(s string) (Override, error) {
	var o Override
	words := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	for _, w := range words {
		apply, ok := shorthands[strings.ToLower(w)]
		if !ok {
			return Override{}, fmt.Errorf("preference %q: want local-only, prefer-local, any, cheap or fast", w)
		}
		apply(&o)
	}
	return o, nil
}

// validate checks the override's settings with the preferences' rules.
func (o Override) validate() error {
	p := Preferences{Privacy: o.Privacy, Tools: o.Tools, Models: o.Models, BudgetUSD: o.BudgetUSD,
		Deadline: o.Deadline, MaxTurns: o.MaxTurns}
	if p.Privacy == "" {
		p.Privacy = PrivacyAny
	}
	if o.CostWeight != nil {
		p.CostWeight = *o.CostWeight
	}
	if o.LatencyWeight != nil {
		p.LatencyWeight = *o.LatencyWeight
	}
	return p.Validate()
}

// WithBudget narrows the override's budget to usd (the MCP `budget_usd`
// argument); 0 or less leaves it unchanged.
func (o Override) WithBudget(usd float64) Override {
	o.BudgetUSD = lowerLimit(o.BudgetUSD, usd)
	return o
}

// Tighten applies an override and never loosens: privacy only gets
// stricter, the budget, deadline and turn limit only lower (0 means none, so
// any limit is lower), cost and latency weights only rise (ask for cheaper
// or faster, never for less care), and tool and model weights only move
// toward off. A tool override for "server__*" also tightens the saved
// entries of that server's tools, and a tool entry is tightened against its
// effective saved weight, so an exact key cannot undo a server's "off".
func (p Preferences) Tighten(o Override) Preferences {
	t := p.clone()
	if strictness[o.Privacy] > strictness[t.Privacy] {
		t.Privacy = o.Privacy
	}
	if o.CostWeight != nil && *o.CostWeight > t.CostWeight {
		t.CostWeight = *o.CostWeight
	}
	if o.LatencyWeight != nil && *o.LatencyWeight > t.LatencyWeight {
		t.LatencyWeight = *o.LatencyWeight
	}
	for _, key := range sortedKeys(o.Tools) {
		t.Tools = tightenTool(t.Tools, key, o.Tools[key])
	}
	for _, key := range sortedKeys(o.Models) {
		if t.Models == nil {
			t.Models = map[string]Weight{}
		}
		t.Models[key] = stricterWeight(t.Models[key], o.Models[key])
	}
	t.BudgetUSD = lowerLimit(t.BudgetUSD, o.BudgetUSD)
	t.Deadline = Duration(lowerLimit(float64(t.Deadline), float64(o.Deadline)))
	t.MaxTurns = int(lowerLimit(float64(t.MaxTurns), float64(o.MaxTurns)))
	return t
}

// tightenTool sets key to the stricter of its effective weight and w.
func tightenTool(tools map[string]Weight, key string, w Weight) map[string]Weight {
	if tools == nil {
		tools = map[string]Weight{}
	}
	effective := tools[key]
	if server, ok := strings.CutSuffix(key, "__*"); ok {
		for name := range tools {
			if strings.HasPrefix(name, server+"__") && name != key {
				tools[name] = stricterWeight(tools[name], w)
			}
		}
	} else if server, _, found := strings.Cut(key, "__"); found && effective == "" {
		effective = tools[server+"__*"]
	}
	tools[key] = stricterWeight(effective, w)
	return tools
}

// lowerLimit returns the lower of two limits where 0 means "no limit".
func lowerLimit(saved, asked float64) float64 {
	switch {
	case asked <= 0:
		return saved
	case saved <= 0 || asked < saved:
		return asked
	}
	return saved
}
