package eval

import (
	"fmt"
	"strings"

	"github.com/toolhub/toolhub/policies"
)

// Policy names of the replay environment (besides fixed:MODEL).
const (
	CheapestName    = "cheapest"
	StrongestName   = "strongest"
	RandomName      = "random"
	OracleName      = "oracle"
	PerTaskBestName = "per-task-best"
	KNNName         = "knn"
	LogRegName      = "lr"      // the logistic regression router
	BlendName       = "blend"   // lr and knn averaged
	MFName          = "mf"      // the calibrated matrix-factorisation predictor and knn averaged
	SinglesName     = "singles" // every fixed:MODEL
)

// DefaultReplayPolicies is what a replay reports when no list is given.
var DefaultReplayPolicies = []string{SinglesName, CheapestName, StrongestName, RandomName, OracleName, PerTaskBestName, KNNName, LogRegName, BlendName, MFName}

// DefaultCostWeights is the learned routers' default cost-weight sweep.
var DefaultCostWeights = []float64{0, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1.0}

// ReplayOptions configure a replay.
type ReplayOptions struct {
	Policies    []string            // names; empty: DefaultReplayPolicies
	CostWeights []float64           // the learned routers' sweep, each weight once; empty: DefaultCostWeights
	Latency     float64             // the learned routers' latency weight
	KNN         policies.KNNOptions // zero fields: the knn router's defaults
	LogReg      policies.LogRegOptions
	MF          policies.MFOptions // zero fields: the mf router's defaults
	Seed        uint64             // for random
	Base        string             // the reward's base policy; empty: cheapest
	Preference  policies.PreferenceVector
	// Parallel is how many of the operating point's folds train at once;
	// 0 is one per processor Go uses. Each holds its own router, trained
	// on four fifths of train: on large pools memory grows with it.
	Parallel int
	// Progress, when set, is told of each step of the replay
	// (ReplayProgress), from one goroutine at a time.
	Progress func(ReplayProgress)

	steps *progress // Progress's counter, shared by the copies of opts
}

// DefaultPreference weighs outcome, cost and latency equally and no tool.
var DefaultPreference = policies.PreferenceVector{Outcome: 1, Cost: 1, Latency: 1}

// BuildReplayPolicies resolves names against the set; "singles" expands to
// every fixed:MODEL and "knn" to one router per cost weight. A learned
// router predicts the set's scored (Test) rows when it is built and keeps
// only those predictions: any other question goes to the cheapest model.
func BuildReplayPolicies(set *ReplaySet, opts ReplayOptions) ([]ReplayPolicy, error) {
	names := opts.Policies
	if len(names) == 0 {
		names = DefaultReplayPolicies
	}
	names = uniqueNames(names)
	routers := 0
	for _, name := range names {
		if isRouterName(name) {
			routers++
		}
	}
	if routers > 0 {
		opts.steps.start(StageTraining, routers)
	}
	var out []ReplayPolicy
	for _, name := range names {
		switch {
		case name == SinglesName:
			for _, m := range set.Models {
				out = append(out, fixedPolicy{model: m.Name})
			}
		case isRouterName(name):
			out = append(out, routerSweep(set, opts, name)...)
			opts.steps.step(name)
		default:
			p, err := baselinePolicy(set, name, opts.Seed)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	return withoutRepeats(out), nil
}

// uniqueNames is names without repeats, in their order: a router named
// twice is trained once.
func uniqueNames(names []string) []string {
	seen := make(map[string]bool, len(names))
	out := make([]string, 0, len(names))
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// withoutRepeats drops a policy named as an earlier one ("singles" and
// "fixed:MODEL" both give fixed:MODEL): the report has a row per policy.
func withoutRepeats(ps []ReplayPolicy) []ReplayPolicy {
	seen := make(map[string]bool, len(ps))
	out := ps[:0]
	for _, p := range ps {
		if !seen[p.Name()] {
			seen[p.Name()] = true
			out = append(out, p)
		}
	}
	return out
}

func baselinePolicy(set *ReplaySet, name string, seed uint64) (ReplayPolicy, error) {
	if model, ok := strings.CutPrefix(name, "fixed:"); ok {
		if _, known := set.Model(model); !known {
			return nil, fmt.Errorf("policy %q: no such model in %s", name, set.Dir)
		}
		return fixedPolicy{model: model}, nil
	}
	switch name {
	case CheapestName:
		return namedPolicy{name: name, choose: fixedChoice(cheapestOnTrain(set.Models, set.Train))}, nil
	case StrongestName:
		return namedPolicy{name: name, choose: fixedChoice(bestMean(set.Models, set.Train))}, nil
	case RandomName:
		return randomPolicy(set.Models, seed), nil
	case OracleName:
		return oraclePolicy(set.Models), nil
	case PerTaskBestName:
		return perTaskBestPolicy(set.Models, set.Train), nil
	}
	return nil, fmt.Errorf("unknown replay policy %q (want fixed:MODEL, singles, cheapest, strongest, random, oracle, per-task-best, knn, lr, blend or mf)", name)
}

func fixedChoice(model string) func(ReplayRow) string {
	return func(ReplayRow) string { return model }
}

// Replay scores every policy on the set's clean test rows.
func Replay(set *ReplaySet, opts ReplayOptions) (*Report, error) {
	opts.steps = newProgress(opts.Progress)
	opts = withLexicon(set, opts)
	pols, err := BuildReplayPolicies(set, opts)
	if err != nil {
		return nil, err
	}
	baseName := opts.Base
	if baseName == "" {
		baseName = CheapestName
	}
	base, err := findOrBuild(set, pols, baseName, opts.Seed)
	if err != nil {
		return nil, fmt.Errorf("base policy: %w", err)
	}
	pref := opts.Preference
	if pref.Outcome == 0 && pref.Cost == 0 && pref.Latency == 0 && len(pref.Tools) == 0 {
		pref = DefaultPreference
	}
	rep := &Report{Kind: "replay", Source: set.Dir, Split: set.splitName(), Tasks: len(set.Test), Base: base.Name(),
		Preference: pref, Notes: replayNotes(set)}
	opts.steps.start(StageScoring, len(pols))
	for _, p := range pols {
		rep.Policies = append(rep.Policies, replayOne(set, p, base, pref))
		opts.steps.step(p.Name())
	}
	markFrontier(rep.Policies)
	if rep.Sweeps, err = summariseRouters(set, opts, pols, rep.Policies); err != nil {
		return nil, err
	}
	if len(rep.Sweeps) > 0 {
		rep.Notes = append(rep.Notes, AIQNote, operatingNote(set))
		rep.setChosen()
	}
	rep.finish()
	return rep, nil
}

func findOrBuild(set *ReplaySet, pols []ReplayPolicy, name string, seed uint64) (ReplayPolicy, error) {
	for _, p := range pols {
		if p.Name() == name {
			return p, nil
		}
	}
	return baselinePolicy(set, name, seed)
}

// replayOne answers each of p's choices from the record.
func replayOne(set *ReplaySet, p, base ReplayPolicy, pref policies.PreferenceVector) PolicyResult {
	res := PolicyResult{Name: p.Name(), Family: familyOf(p), Tasks: len(set.Test), Calls: map[string]float64{}}
	if k, ok := p.(knnPolicy); ok {
		w := k.weights.Cost
		res.CostWeight = &w
	}
	timed := 0
	for _, row := range set.Test {
		v, known := replayVector(set, row, p.Choose(row))
		res.Accuracy += v.Outcome
		res.CostUSD -= v.Cost
		if known {
			res.LatencyS -= v.Latency
			timed++
		}
		for m := range v.Tools {
			res.Calls[m]++
		}
		b, _ := replayVector(set, row, base.Choose(row))
		res.Reward += policies.EvalReward(v, b, pref)
	}
	n := float64(len(set.Test))
	res.Accuracy, res.CostUSD, res.Reward = res.Accuracy/n, res.CostUSD/n, res.Reward/n
	res.LatencyUnknown = len(set.Test) - timed
	if timed > 0 {
		res.LatencyS /= float64(timed)
	}
	for m := range res.Calls {
		res.Calls[m] /= n
	}
	return res
}

// replayVector is the reward vector of answering row with model; known is
// false when its latency is unknown. The reward then charges it the
// slowest latency known for the row, so that unknown never counts as
// fast, as the routers charge it (0 when no candidate's is known, for
// every policy alike).
func replayVector(set *ReplaySet, row ReplayRow, model string) (v policies.RewardVector, known bool) {
	m, _ := set.Model(model)
	cost, _ := AnswerCostUSD(m, row)
	lat, known := AnswerLatencySeconds(m, row)
	if !known {
		lat = slowestLatency(set.Models, row)
	}
	return policies.RewardVector{Tools: map[string]float64{model: 1}, Outcome: row.Scores[model],
		Cost: -cost, Latency: -lat}, known
}

// slowestLatency is the longest known latency of the candidates' answers
// to row; 0 when none is known.
func slowestLatency(models []ReplayModel, row ReplayRow) float64 {
	slowest := 0.0
	for _, m := range models {
		if lat, ok := AnswerLatencySeconds(m, row); ok {
			slowest = max(slowest, lat)
		}
	}
	return slowest
}

func familyOf(p ReplayPolicy) string {
	switch p.(type) {
	case fixedPolicy:
		return FamilySingle
	case knnPolicy:
		return FamilyRouter
	}
	return FamilyBaseline
}
