package policies

import (
	"slices"
	"strconv"

	"github.com/toolhub/toolhub/llm"
)

// rolePrefix gives the alias prefix of each role, as in the paper.
var rolePrefix = map[string]string{RoleSearch: "search", RoleReason: "reasoner", RoleAnswer: "answer", RoleExpert: "expert"}

// aliasTable maps endpoints to aliases: role prefix plus a 1-based number in
// configuration order; never real model names (protocol §3.2).
type aliasTable struct {
	aliases  []Alias
	endpoint map[string]string // alias → endpoint name
	// withheld gives, for each alias of a model the preferences withhold,
	// why; such an alias is never shown, and a call of it is refused
	// saying so (protocol §10, "trace says which rule").
	withheld map[string]string
}

// aliasesFor numbers, per role, every model of roster that has the role
// and keeps the aliases of the offered models, so that an alias names the
// same model whatever the preferences withhold; why names the guard's
// reason per withheld model. A nil roster numbers the offered models.
func aliasesFor(roster, offered []llm.ModelInfo, why map[string]string, roles ...string) aliasTable {
	if roster == nil {
		roster = offered
	}
	t := aliasTable{endpoint: map[string]string{}, withheld: map[string]string{}}
	for _, role := range roles {
		n := 0
		for _, listed := range roster {
			if !listed.HasRole(role) {
				continue
			}
			n++
			name := rolePrefix[role] + "-" + strconv.Itoa(n)
			m, ok := offeredModel(offered, listed.Name)
			switch {
			case !ok:
				t.withheld[name] = why[listed.Name]
				continue
			case !m.HasRole(role):
				t.withheld[name] = reasonRoleWithheld
				continue
			}
			a := Alias{Name: name, Role: role, Capability: withoutLeadingName(m.Capability, m.Name, m.ModelID),
				PriceIn: m.PriceIn, PriceOut: m.PriceOut, Latency: AliasLatency(m, role), AnswerStyle: m.AnswerStyle,
				ContextLength: m.ContextLength, Locality: m.Locality}
			if a.AnswerStyle == "" {
				a.AnswerStyle = DefaultAnswerStyle(m.ModelID)
			}
			t.aliases = append(t.aliases, a)
			t.endpoint[a.Name] = m.Name
		}
	}
	return t
}

// offeredModel finds the offered model called name.
func offeredModel(offered []llm.ModelInfo, name string) (llm.ModelInfo, bool) {
	for _, m := range offered {
		if m.Name == name {
			return m, true
		}
	}
	return llm.ModelInfo{}, false
}

// explain adds to each rejection of a withheld alias why it is withheld.
func (t aliasTable) explain(rejected []Rejection) []Rejection {
	for i, r := range rejected {
		if why, ok := t.withheld[r.Alias]; ok && r.Alias != "" {
			if why == "" {
				why = "the preferences withhold its model"
			}
			rejected[i].Reason += ": " + why
		}
	}
	return rejected
}

// withoutRole is t without the aliases of role: a tool none of whose
// aliases is left is not offered, and a call of it is refused as such.
func (t aliasTable) withoutRole(role string) aliasTable {
	t.aliases = slices.DeleteFunc(slices.Clone(t.aliases), func(a Alias) bool { return a.Role == role })
	return t
}
