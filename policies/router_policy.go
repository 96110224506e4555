package policies

import (
	"strings"

	"github.com/toolhub/toolhub/conductor"
)

// Names of the blended router policy (LogReg and KNN averaged): "blend"
// trains from the default file, "blend:PATH" from PATH.
const (
	PolicyBlend       = "blend"
	PolicyBlendPrefix = "blend:"
)

// LiveWeightScale turns a preference weight (0..1, 0.5 balanced) into a
// utility weight: the default 0.5 gives 0.05, the cost weight the live knn
// router always used before preferences reached it; 1 gives 0.1 and 0
// ignores cost (or latency) altogether.
const LiveWeightScale = 0.1

// WeightsFromPreferences are the utility weights a learned router uses
// under p.
func WeightsFromPreferences(p Preferences) UtilityWeights {
	return UtilityWeights{Cost: LiveWeightScale * clamp01(p.CostWeight), Latency: LiveWeightScale * clamp01(p.LatencyWeight)}
}

func clamp01(v float64) float64 { return min(1, max(0, v)) }

// UsePreferences sets the router's cost and latency weights from the user's
// preferences; the daemon calls it before every episode.
func (k *KNNPolicy) UsePreferences(p Preferences) { k.Weights = WeightsFromPreferences(p) }

func (k *KNNPolicy) name() string {
	if k.Name == "" {
		return PolicyKNN
	}
	return k.Name
}

// NewBlendPolicy builds the policy for spec "blend" or "blend:PATH": the
// KNNPolicy flow with a router blending LogReg and KNN, both trained on
// the same recorded outcomes as knn.
func NewBlendPolicy(spec string, orch Orchestrator) (*KNNPolicy, error) {
	path := strings.TrimPrefix(spec, PolicyBlendPrefix)
	if spec == PolicyBlend || path == "" {
		p, err := DefaultKNNTrainingPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	router, err := LoadBlend(path)
	if err != nil {
		return nil, err
	}
	return &KNNPolicy{Name: PolicyBlend, Router: router, Weights: DefaultKNNWeights, Counter: orch.Counter}, nil
}

func newBlendPolicy(spec string, orch Orchestrator) (conductor.Policy, error) {
	p, err := NewBlendPolicy(spec, orch)
	if err != nil {
		return nil, err
	}
	return p, nil
}
