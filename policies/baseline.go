package policies

import (
	"fmt"
	"strings"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/llm"
)

// RetrieveAnswer is the baseline and no-orchestrator fallback: search the
// task text on search_documents (and web_search when offered), then answer
// in one call with a model chosen by Pick among the allowed models of the
// answer role. With no such model it returns the passages found and says
// so: a model of other roles never answers. It runs the same way in both
// modes and ends on its first turn, unless the answer call fails: that
// consumes the turn, and the next turn asks again.
type RetrieveAnswer struct {
	Name    string // how the run log names it; "retrieve-answer" when empty
	Pick    func([]llm.ModelInfo) (llm.ModelInfo, bool)
	Model   string // when set, only this endpoint may answer (fixed:MODEL)
	Counter TokenCounter
}

// RetrieveMemory is where a RetrieveAnswer episode stands.
type RetrieveMemory struct {
	// Model, when set, overrides the policy's Model and Pick (KNNPolicy's
	// choice); Notes go before the first action.
	Model     string
	Notes     []string
	search    search
	started   bool
	answering bool // the answer call is out
	retry     bool // the answer call failed: the next turn sends it again
	expert    researchExpert
}

// Begin starts an episode's decisions.
func (r *RetrieveAnswer) Begin(st *conductor.State) conductor.Decider { return conductor.Begin(r, st) }

// Start returns the memory of a new episode: searching the task text.
func (r *RetrieveAnswer) Start(st *conductor.State) RetrieveMemory {
	return RetrieveMemory{search: search{query: firstRunes(strings.TrimSpace(st.Task), maxQueryChars)}}
}

// Decide searches, then answers.
func (r *RetrieveAnswer) Decide(st *conductor.State, mem RetrieveMemory, last *conductor.Outcome) (conductor.Action, RetrieveMemory) {
	a := r.decide(st, &mem, last)
	a.Notes = append(mem.Notes, a.Notes...)
	mem.Notes = nil
	return a, mem
}

func (r *RetrieveAnswer) decide(st *conductor.State, mem *RetrieveMemory, last *conductor.Outcome) conductor.Action {
	only, pick := r.Model, r.Pick
	if mem.Model != "" {
		only, pick = mem.Model, Fixed(mem.Model)
	}
	if !mem.started {
		mem.started = true
		if err := checkOnly(st.Models, only); err != nil {
			return fail(err)
		}
	}
	if mem.answering {
		return mem.answer(last)
	}
	if mem.retry {
		mem.retry, mem.answering = false, true
		return mem.expert.ask("answer", AnswerPrompt(mem.expert.input(), mem.expert.alias.AnswerStyle))
	}
	if a, done := mem.search.step(st, last); !done {
		return a
	}
	mem.Notes = append(mem.Notes, mem.search.notes()...)
	var evidence ResearchState
	evidence.AddDocs(mem.search.hits)
	if pick == nil {
		pick = Strongest
	}
	model, ok := pick(answerModels(st.Models))
	if !ok {
		if len(st.Models) > 0 {
			mem.Notes = append(mem.Notes, `no allowed model has the "answer" role; give one "roles": ["answer"] for answers`)
		}
		return conductor.Action{Kind: conductor.ActAnswer, Answer: passagesOnly(evidence.Docs)}
	}
	alias := aliasesFor(nil, []llm.ModelInfo{model}, nil, RoleAnswer).aliases[0]
	x := researchExpert{st: st, state: evidence, alias: alias, endpoint: model.Name, counter: r.Counter}
	if x.counter == nil {
		x.counter = DefaultCounter()
	}
	mem.expert, mem.answering = x, true
	return x.ask("answer", AnswerPrompt(x.input(), x.alias.AnswerStyle))
}

// answer ends the episode with the expert's answer, or, when its call
// failed, consumes the turn (protocol §3.6 step 1) for the next to retry.
func (mem *RetrieveMemory) answer(last *conductor.Outcome) conductor.Action {
	answer, err := mem.expert.answerFrom(last)
	if err != nil {
		mem.answering, mem.retry = false, true
		mem.Notes = append(mem.Notes, err.Error()+"; no answer this turn")
		return endTurn()
	}
	return conductor.Action{Kind: conductor.ActAnswer, Answer: answer}
}

// checkOnly refuses a fixed model that is not offered or may not answer:
// a model never answers under a role it was not given (protocol §5).
func checkOnly(models []llm.ModelInfo, only string) error {
	if only == "" {
		return nil
	}
	for _, m := range models {
		if m.Name != only {
			continue
		}
		if !m.HasRole(RoleAnswer) {
			return fmt.Errorf(`model %q does not have the "answer" role (or the preferences took it away); give it "roles": ["answer"] to answer with it`, only)
		}
		return nil
	}
	return fmt.Errorf("model %q is not configured or not allowed", only)
}

// answerModels returns the models with the answer role.
func answerModels(models []llm.ModelInfo) []llm.ModelInfo {
	var out []llm.ModelInfo
	for _, m := range models {
		if m.HasRole(RoleAnswer) {
			out = append(out, m)
		}
	}
	return out
}

func passagesOnly(docs []string) string {
	if len(docs) == 0 {
		return "No model is available to answer, and the local search found no passages."
	}
	var b strings.Builder
	b.WriteString("No model is available to answer; these are the passages the local search found:\n")
	// Docs are stored worst first (best last); show best first.
	for i := len(docs) - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "\n[%d] %s\n", len(docs)-i, docs[i])
	}
	return b.String()
}

// price is a model's price for ordering: input plus output per 1M tokens.
func price(m llm.ModelInfo) float64 { return m.PriceIn + m.PriceOut }

// Cheapest picks the lowest-priced model, the first on ties.
func Cheapest(models []llm.ModelInfo) (llm.ModelInfo, bool) {
	return pickBy(models, func(a, b llm.ModelInfo) bool { return price(a) < price(b) })
}

// Strongest picks the highest-priced model (price stands in for strength),
// the first on ties.
func Strongest(models []llm.ModelInfo) (llm.ModelInfo, bool) {
	return pickBy(models, func(a, b llm.ModelInfo) bool { return price(a) > price(b) })
}

// Fixed picks the model with endpoint name.
func Fixed(name string) func([]llm.ModelInfo) (llm.ModelInfo, bool) {
	return func(models []llm.ModelInfo) (llm.ModelInfo, bool) {
		return pickBy(models, func(a, _ llm.ModelInfo) bool { return false }, name)
	}
}

func pickBy(models []llm.ModelInfo, better func(a, b llm.ModelInfo) bool, only ...string) (llm.ModelInfo, bool) {
	var best llm.ModelInfo
	found := false
	for _, m := range models {
		if len(only) > 0 && m.Name != only[0] {
			continue
		}
		if !found || better(m, best) {
			best, found = m, true
		}
	}
	return best, found
}
