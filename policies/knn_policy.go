package policies

import (
	"fmt"
	"strings"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/llm"
)

// Names of the learned router policy: "knn" trains from the default file,
// "knn:PATH" from PATH.
const (
	PolicyKNN       = "knn"
	PolicyKNNPrefix = "knn:"
)

// DefaultKNNWeights are the live knn policy's utility weights until the
// user's preferences are applied (UsePreferences).
var DefaultKNNWeights = WeightsFromPreferences(DefaultPreferences())

// KNNPolicy picks the answering model with a KNN router trained on recorded
// outcomes, then searches and answers like RetrieveAnswer with that model
// alone. It only ever considers the models the episode offers, so privacy
// and "off" hold as for every policy. With no usable prediction it answers
// with the cheapest allowed model and says so in the trace. It needs no
// orchestrator model, so it also serves as a fallback.
type KNNPolicy struct {
	Name    string // policy name in traces; "" is knn
	Router  Router
	Weights UtilityWeights
	Counter TokenCounter
}

// NewKNNPolicy builds the policy for spec "knn" or "knn:PATH".
func NewKNNPolicy(spec string, orch Orchestrator) (*KNNPolicy, error) {
	path := strings.TrimPrefix(spec, PolicyKNNPrefix)
	if spec == PolicyKNN || path == "" {
		p, err := DefaultKNNTrainingPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	router, err := LoadKNN(path)
	if err != nil {
		return nil, err
	}
	return &KNNPolicy{Router: router, Weights: DefaultKNNWeights, Counter: orch.Counter}, nil
}

// Begin starts an episode's decisions.
func (k *KNNPolicy) Begin(st *conductor.State) conductor.Decider { return conductor.Begin(k, st) }

// Start picks the answering model; the episode then runs as RetrieveAnswer
// with that model alone.
func (k *KNNPolicy) Start(st *conductor.State) RetrieveMemory {
	mem := k.retrieve().Start(st)
	models := answerModels(st.Models)
	choice, ok := k.pick(st.Task, models)
	if !ok {
		cheapest, found := Cheapest(models)
		if !found {
			return mem
		}
		mem.Notes = append(mem.Notes, k.name()+": no recorded outcome for any allowed model; answering with the cheapest")
		choice = cheapest
	}
	mem.Model = choice.Name
	return mem
}

// Decide searches, then answers with the chosen model in one turn.
func (k *KNNPolicy) Decide(st *conductor.State, mem RetrieveMemory, last *conductor.Outcome) (conductor.Action, RetrieveMemory) {
	return k.retrieve().Decide(st, mem, last)
}

func (k *KNNPolicy) retrieve() *RetrieveAnswer {
	return &RetrieveAnswer{Name: k.name(), Counter: k.Counter}
}

// pick scores the allowed models; a model is known to the router by its
// endpoint name or its model id.
func (k *KNNPolicy) pick(task string, models []llm.ModelInfo) (llm.ModelInfo, bool) {
	known := map[string]bool{}
	for _, c := range k.Router.Candidates() {
		known[c] = true
	}
	byKey := map[string]llm.ModelInfo{}
	var cands []KNNCandidate
	for _, m := range models {
		key := m.Name
		if !known[key] {
			key = m.ModelID
		}
		if !known[key] {
			continue
		}
		byKey[key] = m
		cands = append(cands, KNNCandidate{Name: key, Cost: price(m), Latency: m.Latency.Seconds()})
	}
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.Name
	}
	c, ok := ChooseByUtility(k.Router.Predict(task, names), cands, k.Weights)
	if !ok {
		return llm.ModelInfo{}, false
	}
	return byKey[c.Name], true
}

// String describes the policy for logs.
func (k *KNNPolicy) String() string {
	return fmt.Sprintf("%s(cost %.3f, latency %.3f, %d examples)", k.name(), k.Weights.Cost, k.Weights.Latency, k.Router.Len())
}

// newKNNPolicy is NewKNNPolicy as NewPolicy returns it.
func newKNNPolicy(spec string, orch Orchestrator) (conductor.Policy, error) {
	p, err := NewKNNPolicy(spec, orch)
	if err != nil {
		return nil, err
	}
	return p, nil
}
