package policies

import (
	"strconv"
	"strings"
	"time"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/hub"
	"github.com/toolhub/toolhub/llm"
)

// Preference sentences in the wording of protocol §5: the paper's "I want
// to be cost efficient if possible." (Fig. 2) and toolhub's sentences of the
// same style. Models are named only by alias.
const (
	sentenceLocalOnly   = "My data is confidential: use only local tools and models and make no external API calls."
	sentencePreferLocal = "Prefer local tools and models; use remote ones only when necessary."
	sentenceCost        = "I want to be cost efficient if possible."
	sentenceLatency     = "I need the answer quickly, so prefer faster tools."
)

// weightStated is the cost or latency weight from which its sentence is
// stated. The paper's preference instructions are all-or-nothing (one
// sentence per wish, no degrees), and its reward weighs cost and latency
// whenever their entry of P is set, so any weight from the balanced
// default up states the one trained sentence; only a weight below it, a
// user who does not care, says nothing. How strongly the user cares is for
// P (rewards and the learned routers), not for the wording.
const weightStated = 0.5

// roleUse names what an alias of each role is preferred for.
var roleUse = map[string]string{RoleSearch: "for searching", RoleReason: "for reasoning",
	RoleAnswer: "for answering", RoleExpert: "as the expert"}

// Sentence renders p as the preference sentences appended to the task
// (protocol §5). The sentences in the trained wording come first, in this
// order: privacy, cost, latency, the preferred aliases per role, the
// avoided aliases and tools. toolhub's extra sentences, which have no
// trained wording, follow them and never take a trained sentence's place:
// the preferred tools of tool mode, the budget and the deadline. A budget
// also states the cost sentence and a deadline the latency sentence, so
// the model reads its trained form of the wish before the figure.
//
// offer is what the episode offers (conductor.Episodes.Offered): aliases
// are numbered over its roster exactly as the orchestrator policy numbers
// them, and tools are named only in tool mode, where the model sees them.
// Off and forbidden ones are never mentioned: they are not offered at
// all. Empty when p asks for nothing.
func Sentence(p Preferences, mode conductor.Mode, offer Offer) string {
	var out []string
	add := func(s string) {
		if s != "" {
			out = append(out, s)
		}
	}
	add(map[Privacy]string{PrivacyLocalOnly: sentenceLocalOnly, PrivacyPreferLocal: sentencePreferLocal}[p.Privacy])
	if p.CostWeight >= weightStated || p.BudgetUSD > 0 {
		add(sentenceCost)
	}
	if p.LatencyWeight >= weightStated || p.Deadline > 0 {
		add(sentenceLatency)
	}
	aliases := sentenceAliases(mode, offer.Roster, offer.Models)
	for _, role := range []string{RoleSearch, RoleReason, RoleAnswer, RoleExpert} {
		if names := weighted(aliases, p, WeightPrefer, role); len(names) > 0 {
			add("Prefer " + spokenList(names) + " " + roleUse[role] + ".")
		}
	}
	var preferredTools, avoidedTools []string
	if mode == conductor.ModeTools {
		preferredTools = weightedTools(offer.Tools, p, WeightPrefer)
		avoidedTools = weightedTools(offer.Tools, p, WeightAvoid)
	}
	avoided := append(weighted(aliases, p, WeightAvoid, ""), avoidedTools...)
	if len(avoided) > 0 {
		add("Avoid " + spokenList(avoided) + " unless " + pronoun(avoided, "it is", "they are") + " really needed.")
	}
	// toolhub's own sentences, after every trained one.
	if len(preferredTools) > 0 {
		add("Prefer " + spokenList(preferredTools) + " when " + pronoun(preferredTools, "it fits", "they fit") + ".")
	}
	if p.BudgetUSD > 0 {
		add("Keep the total cost of this task under " + FormatPrice(p.BudgetUSD) + ".")
	}
	if p.Deadline > 0 {
		add("I need the answer within " + spokenDuration(time.Duration(p.Deadline)) + ".")
	}
	return strings.Join(out, " ")
}

// Offer is what an episode offers (conductor.Episodes.Offered): the
// models and tools the guard allows, and the roster of every expert model
// the aliases are numbered over (nil: the offered models).
type Offer struct {
	Roster, Models []llm.ModelInfo
	Tools          []*hub.Tool
}

// sentenceAliases numbers the offered models as the orchestrator does in
// mode, remembering each alias's endpoint.
func sentenceAliases(mode conductor.Mode, roster, models []llm.ModelInfo) aliasTable {
	if mode == conductor.ModeTools {
		return aliasesFor(roster, models, nil, RoleExpert)
	}
	return aliasesFor(roster, models, nil, RoleSearch, RoleReason, RoleAnswer)
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
