package policies

import (
	"context"
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
	Name        string // policy name in traces; "" is knn
	Router      Router
	Weights     UtilityWeights
	Temperature float64
	Counter     TokenCounter
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
	return &KNNPolicy{Router: router, Weights: DefaultKNNWeights, Temperature: orch.Temperature, Counter: orch.Counter}, nil
}

// Decide picks a model, then answers with it in one turn.
func (k *KNNPolicy) Decide(ctx context.Context, st *conductor.State) (conductor.Decision, error) {
	models := answerModels(st.Models)
	choice, ok := k.pick(st.Task, models)
	if !ok {
		cheapest, found := Cheapest(models)
		if !found {
			return (&RetrieveAnswer{Name: k.name(), Temperature: k.Temperature, Counter: k.Counter}).Decide(ctx, st)
		}
		st.Observe(k.name() + ": no recorded outcome for any allowed model; answering with the cheapest")
		choice = cheapest
	}
	answer := &RetrieveAnswer{Name: k.name(), Pick: Fixed(choice.Name), Model: choice.Name, Temperature: k.Temperature, Counter: k.Counter}
	return answer.Decide(ctx, st)
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
