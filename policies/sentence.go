package policies

import (
	"strconv"
	"strings"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

// Preference sentences, in the style of the paper's "I want to be cost
// efficient if possible." (protocol §5). Models are named only by alias.
const (
	sentenceLocalOnly   = "My data is confidential: use only local tools and models and make no external API calls."
	sentencePreferLocal = "Prefer local tools and models; use remote ones only when necessary."
	sentenceCost        = "I want to be cost efficient if possible."
	sentenceCostStrict  = "Keep the cost as low as possible: use expensive models only when nothing cheaper can do the job."
	sentenceLatency     = "I need the answer quickly, so prefer faster tools."
	sentenceLatencyFast = "Speed matters most: choose the fastest tools and models that can do the job."
)

// Weight bands of the cost and latency sentences: at or below 0.5 nothing
// is said; above it the mild sentence; from 0.9 the strict one.
const (
	weightMild   = 0.5
	weightStrict = 0.9
)

// roleUse names what an alias of each role is preferred for.
var roleUse = map[string]string{RoleSearch: "for searching", RoleReason: "for reasoning",
	RoleAnswer: "for answering", RoleExpert: "as the expert"}

// Sentence renders p as the preference sentences appended to the task:
// privacy, cost, latency, budget, deadline, then the preferred and avoided
// aliases and tools. models and tools are what the episode offers
// (hub.Episodes.Offered): aliases are numbered from models exactly as the
// orchestrator policy numbers them, and tools are named only in tool mode,
// where the model sees them. Off and forbidden ones are never mentioned:
// they are not offered at all. Empty when p asks for nothing.
func Sentence(p Preferences, mode conductor.Mode, models []llm.ModelInfo, tools []*hub.Tool) string {
	var out []string
	add := func(s string) {
		if s != "" {
			out = append(out, s)
		}
	}
	add(map[Privacy]string{PrivacyLocalOnly: sentenceLocalOnly, PrivacyPreferLocal: sentencePreferLocal}[p.Privacy])
	add(bandSentence(p.CostWeight, sentenceCost, sentenceCostStrict))
	add(bandSentence(p.LatencyWeight, sentenceLatency, sentenceLatencyFast))
	if p.BudgetUSD > 0 {
		add("Keep the total cost of this task under " + FormatPrice(p.BudgetUSD) + ".")
	}
	if p.Deadline > 0 {
		add("I need the answer within " + spokenDuration(time.Duration(p.Deadline)) + ".")
	}
	aliases := sentenceAliases(mode, models)
	for _, role := range []string{RoleSearch, RoleReason, RoleAnswer, RoleExpert} {
		if names := weighted(aliases, p, WeightPrefer, role); len(names) > 0 {
			add("Prefer " + spokenList(names) + " " + roleUse[role] + ".")
		}
	}
	var toolNames []string
	if mode == conductor.ModeTools {
		toolNames = weightedTools(tools, p, WeightPrefer)
		if len(toolNames) > 0 {
			add("Prefer " + spokenList(toolNames) + " when " + pronoun(toolNames, "it fits", "they fit") + ".")
		}
		toolNames = weightedTools(tools, p, WeightAvoid)
	}
	avoided := append(weighted(aliases, p, WeightAvoid, ""), toolNames...)
	if len(avoided) > 0 {
		add("Avoid " + spokenList(avoided) + " unless " + pronoun(avoided, "it is", "they are") + " really needed.")
	}
	return strings.Join(out, " ")
}

func bandSentence(w float64, mild, strict string) string {
	switch {
	case w >= weightStrict:
		return strict
	case w > weightMild:
		return mild
	}
	return ""
}

// sentenceAliases numbers the offered models as the orchestrator does in
// mode, remembering each alias's endpoint.
func sentenceAliases(mode conductor.Mode, models []llm.ModelInfo) aliasTable {
	if mode == conductor.ModeTools {
		return aliasesFor(models, RoleExpert)
	}
	return aliasesFor(models, RoleSearch, RoleReason, RoleAnswer)
}

// weighted lists, in alias order, the aliases of role ("" for any) whose
// endpoint has weight w.
func weighted(t aliasTable, p Preferences, w Weight, role string) []string {
	var names []string
	for _, a := range t.aliases {
		if (role == "" || a.Role == role) && p.ModelWeight(t.endpoint[a.Name]) == w {
			names = append(names, a.Name)
		}
	}
	return names
}

func weightedTools(tools []*hub.Tool, p Preferences, w Weight) []string {
	var names []string
	for _, t := range tools {
		if p.ToolWeight(t) == w {
			names = append(names, t.Name)
		}
	}
	return names
}

// spokenList joins names as a sentence does: "a", "a and b", "a, b and c".
func spokenList(names []string) string {
	if len(names) <= 1 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func pronoun(names []string, one, many string) string {
	if len(names) == 1 {
		return one
	}
	return many
}

// spokenDuration renders a deadline as people say it: "2 minutes",
// "1 hour"; a time that is not whole minutes in seconds ("90 seconds").
func spokenDuration(d time.Duration) string {
	unit := func(n int64, name string) string {
		if n == 1 {
			return "1 " + name
		}
		return strconv.FormatInt(n, 10) + " " + name + "s"
	}
	switch {
	case d >= time.Hour && d%time.Hour == 0:
		return unit(int64(d/time.Hour), "hour")
	case d >= time.Minute && d%time.Minute == 0:
		return unit(int64(d/time.Minute), "minute")
	case d >= time.Second:
		return unit(int64(d.Round(time.Second)/time.Second), "second")
	}
	return "1 second"
}
