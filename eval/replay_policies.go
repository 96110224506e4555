package eval

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"

	"github.com/toolhub/toolhub/policies"
)

// ReplayPolicy picks one candidate model for a recorded task; the replay
// environment answers with that model's recorded score and cost.
type ReplayPolicy interface {
	Name() string
	Choose(row ReplayRow) string
}

// Policy families, for grouping in reports and charts.
const (
	FamilySingle   = "single"
	FamilyBaseline = "baseline"
	FamilyRouter   = "router"
)

// fixedPolicy always picks one model.
type fixedPolicy struct{ model string }

func (p fixedPolicy) Name() string            { return "fixed:" + p.model }
func (p fixedPolicy) Choose(ReplayRow) string { return p.model }

// cheapestOnTrain is the model of least mean cost over the train rows (what
// each answer recorded, else its tokens or the proxy at the model's prices:
// AnswerCostUSD), ties to the lower price, then the smaller, then the name.
// On a set that records no costs that is the lowest-priced model; on one
// that does, the one that cost least, whatever its prices say.
func cheapestOnTrain(models []ReplayModel, train []ReplayRow) string {
	means := make(map[string]float64, len(models))
	for _, m := range models {
		sum := 0.0
		for _, r := range train {
			c, _ := AnswerCostUSD(m, r)
			sum += c
		}
		means[m.Name] = sum / float64(max(1, len(train)))
	}
	return slices.MinFunc(models, func(a, b ReplayModel) int {
		if c := cmpFloat(means[a.Name], means[b.Name]); c != 0 {
			return c
		}
		if c := comparePrice(a, b); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	}).Name
}

func comparePrice(a, b ReplayModel) int {
	pa, pb := a.PriceIn+a.PriceOut, b.PriceIn+b.PriceOut
	switch {
	case pa != pb:
		return cmpFloat(pa, pb)
	default:
		return cmpFloat(a.SizeB, b.SizeB)
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// namedPolicy wraps a choice function with a name.
type namedPolicy struct {
	name   string
	choose func(ReplayRow) string
}

func (p namedPolicy) Name() string                { return p.name }
func (p namedPolicy) Choose(row ReplayRow) string { return p.choose(row) }

// randomPolicy picks uniformly, seeded by the question so a replay is
// reproducible and independent of row order.
func randomPolicy(models []ReplayModel, seed uint64) ReplayPolicy {
	return namedPolicy{name: "random", choose: func(row ReplayRow) string {
		h := fnv.New64a()
		fmt.Fprintf(h, "%d\x00%s", seed, row.Question)
		return models[h.Sum64()%uint64(len(models))].Name
	}}
}

// oraclePolicy picks the best recorded score, ties to the cheapest.
func oraclePolicy(models []ReplayModel) ReplayPolicy {
	return namedPolicy{name: "oracle", choose: func(row ReplayRow) string {
		best, bestScore, bestCost := "", math.Inf(-1), 0.0
		for _, m := range models {
			s := row.Scores[m.Name]
			cost, _ := AnswerCostUSD(m, row)
			if s > bestScore || (s == bestScore && cost < bestCost) {
				best, bestScore, bestCost = m.Name, s, cost
			}
		}
		return best
	}}
}

// perTaskBestPolicy picks, per task family, the model with the best mean
// score on train (ties to the cheaper: compareTied); unknown families get the best model
// overall.
func perTaskBestPolicy(models []ReplayModel, train []ReplayRow) ReplayPolicy {
	byTask := map[string][]ReplayRow{}
	for _, r := range train {
		byTask[r.Task] = append(byTask[r.Task], r)
	}
	choice := map[string]string{}
	for task, rows := range byTask {
		choice[task] = bestMean(models, rows)
	}
	overall := bestMean(models, train)
	return namedPolicy{name: "per-task-best", choose: func(row ReplayRow) string {
		if c, ok := choice[row.Task]; ok {
			return c
		}
		return overall
	}}
}

// compareTied orders two models of equal mean score: by price, but a
// model without prices (Unpriced) has none to compare, so a pair with one
// is ordered by the mean cost of their answers on rows (AnswerCostUSD).
func compareTied(a, b ReplayModel, rows []ReplayRow) int {
	if !a.Unpriced && !b.Unpriced {
		return comparePrice(a, b)
	}
	mean := func(m ReplayModel) float64 {
		sum := 0.0
		for _, r := range rows {
			c, _ := AnswerCostUSD(m, r)
			sum += c
		}
		return sum / float64(max(1, len(rows)))
	}
	if c := cmpFloat(mean(a), mean(b)); c != 0 {
		return c
	}
	return comparePrice(a, b)
}

func bestMean(models []ReplayModel, rows []ReplayRow) string {
	best, bestMean := "", math.Inf(-1)
	var bestModel ReplayModel
	for _, m := range models {
		sum := 0.0
		for _, r := range rows {
			sum += r.Scores[m.Name]
		}
		mean := sum / float64(len(rows))
		if mean > bestMean || (mean == bestMean && compareTied(m, bestModel, rows) < 0) {
			best, bestMean, bestModel = m.Name, mean, m
		}
	}
	return best
}

// knnPolicy routes with a learned router (knn, or lr: the logistic
// regression router) trained on the replay set's train split.
type knnPolicy struct {
	router  string // policy name prefix: knn or lr
	models  []ReplayModel
	weights policies.UtilityWeights
	cache   *predictionCache // shared across the sweep
}

// predictionCache is what a router trained on set's train rows knows
// before answering a scored question: its predictions, made once per
// question so that a sweep over cost weights shares them, and the
// estimated cost and latency of each model's answer (answerEstimates).
// The router itself is not kept: on a pool of tens of thousands of
// questions each router holds hundreds of megabytes, and the operating
// point's folds train theirs while the sweep's caches are still in use.
type predictionCache struct {
	byText   map[string]map[string]float64
	answers  *answerEstimates
	cheapest string // what a question no prediction covers goes to
}

// newPredictionCache predicts every scored row of set (its Test rows) with
// model.
func newPredictionCache(model policies.Router, set *ReplaySet) *predictionCache {
	names := make([]string, len(set.Models))
	for i, m := range set.Models {
		names[i] = m.Name
	}
	byText := make(map[string]map[string]float64, len(set.Test))
	for _, row := range set.Test {
		text := row.RouteText()
		if _, ok := byText[text]; !ok {
			byText[text] = model.Predict(text, names)
		}
	}
	return &predictionCache{byText: byText, answers: set.answerEstimates(),
		cheapest: cheapestOnTrain(set.Models, set.Train)}
}

// predict is the router's prediction for a scored row; nil, which sends
// it to the cheapest model, for any other.
func (c *predictionCache) predict(row ReplayRow) map[string]float64 {
	return c.byText[row.RouteText()]
}

func (p knnPolicy) Name() string { return routerPolicyName(p.router, p.weights.Cost) }

// KNNPolicyName names the knn router at a cost weight.
func KNNPolicyName(costWeight float64) string {
	return routerPolicyName(KNNName, costWeight)
}

func routerPolicyName(router string, costWeight float64) string {
	return fmt.Sprintf("%s@%g", router, costWeight)
}

func (p knnPolicy) Choose(row ReplayRow) string {
	c, ok := policies.ChooseByUtility(p.cache.predict(row), p.cache.answers.candidates(p.models, row), p.weights)
	if !ok {
		return p.cache.cheapest
	}
	return c.Name
}

// TrainExamples turns replay rows into KNN training examples, each
// question as a router reads it (RouteText).
func TrainExamples(rows []ReplayRow) []policies.KNNExample {
	out := make([]policies.KNNExample, len(rows))
	for i, r := range rows {
		out[i] = policies.KNNExample{Question: r.RouteText(), Scores: r.Scores, Task: r.Task}
	}
	return out
}
