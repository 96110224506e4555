package policies

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/toolhub/toolhub/conductor"
)

// Names of the matrix-factorisation router policy: "mf" trains from the
// default file (the knn policy's), "mf:PATH" from PATH.
const (
	PolicyMF       = "mf"
	PolicyMFPrefix = "mf:"
)

// DefaultMFOptions are the MF predictor's settings inside the mf router:
// MFOptions' defaults (an 8-wide shared embedding under a strong penalty, a
// lighter one on the linear terms, character n-grams, Platt scaling),
// chosen by five-fold cross-validation on the routing set's train split
// (docs/replay-format.md gives the figures).
var DefaultMFOptions = MFOptions{}

// DefaultTaskPriorOptions are the family prior's settings inside the mf
// router: balanced, so a family rare in training is not discounted on a
// question that may come from a different mix (five-fold cross-validation
// on the routing set's train split, families weighed equally, favoured it;
// docs/replay-format.md).
var DefaultTaskPriorOptions = TaskPriorOptions{Balanced: true}

// DefaultTaskResidualOptions are the mf router's settings when families
// are recorded: the balanced family prior with DefaultTaskCorrection's
// per-question correction.
var DefaultTaskResidualOptions = TaskResidualOptions{Prior: DefaultTaskPriorOptions}

// TrainMFRouter is the mf router trained on examples. When every example
// records its task family, it is the TaskResidual: each model's mean score
// per family, weighed by a calibrated MF classifier's probability that the
// question belongs to the family, corrected per question by a penalised
// linear term fitted against the prior's out-of-fold predictions. Otherwise it is the mean of the
// calibrated MF predictor's and KNN's predictions (K ≤ 0: KNN's default):
// the two err differently, one from words and character n-grams seen
// anywhere in training, the other from the nearest past questions.
// Cross-validation on the routing set's train split chose both
// (docs/replay-format.md).
func TrainMFRouter(examples []KNNExample, opts MFOptions, k int) Router {
	ropts := DefaultTaskResidualOptions
	ropts.Prior.Classifier.Lexicon, ropts.Correction.Lexicon = opts.Lexicon, opts.Lexicon
	if r, ok := TrainTaskResidual(examples, ropts); ok {
		return r
	}
	return &Blend{Routers: []Router{TrainMF(examples, opts), TrainKNNWith(examples, KNNOptions{K: k, Lexicon: opts.Lexicon})}}
}

// mfCache keeps trained mf routers by file, retrained when it changes.
var mfCache = struct {
	sync.Mutex
	byPath map[string]cachedMF
}{byPath: map[string]cachedMF{}}

type cachedMF struct {
	mod    time.Time
	size   int64
	router Router
}

// LoadMFRouter trains the mf router from the recorded outcomes at path
// (either shape LoadKNNTraining reads), cached while the file is unchanged.
func LoadMFRouter(path string) (Router, error) {
	knn, err := LoadKNN(path) // the same checks and messages as knn
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("mf training file: %w", err)
	}
	mfCache.Lock()
	defer mfCache.Unlock()
	if c, ok := mfCache.byPath[path]; ok && c.mod.Equal(st.ModTime()) && c.size == st.Size() {
		return c.router, nil
	}
	examples, err := LoadKNNTraining(path)
	if err != nil {
		return nil, err
	}
	var r Router
	if p, ok := TrainTaskResidual(examples, DefaultTaskResidualOptions); ok {
		r = p
	} else {
		r = &Blend{Routers: []Router{TrainMF(examples, DefaultMFOptions), knn}}
	}
	mfCache.byPath[path] = cachedMF{mod: st.ModTime(), size: st.Size(), router: r}
	return r, nil
}

// NewMFPolicy builds the policy for spec "mf" or "mf:PATH": the KNNPolicy
// flow (the user's cost and latency preferences set its weights before
// every episode, see UsePreferences) with the mf router.
func NewMFPolicy(spec string, orch Orchestrator) (*KNNPolicy, error) {
	path := strings.TrimPrefix(spec, PolicyMFPrefix)
	if spec == PolicyMF || path == "" {
		p, err := DefaultKNNTrainingPath()
		if err != nil {
			return nil, err
		}
		path = p
	}
	router, err := LoadMFRouter(path)
	if err != nil {
		return nil, err
	}
	return &KNNPolicy{Name: PolicyMF, Router: router, Weights: DefaultKNNWeights, Counter: orch.Counter}, nil
}

func newMFPolicy(spec string, orch Orchestrator) (conductor.Policy, error) {
	p, err := NewMFPolicy(spec, orch)
	if err != nil {
		return nil, err
	}
	return p, nil
}
