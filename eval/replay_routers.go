package eval

import (
	"slices"

	"github.com/toolhub/toolhub/policies"
)

// trainRouter fits the named learned router on the set's train split.
func trainRouter(set *ReplaySet, opts ReplayOptions, name string) policies.Router {
	examples := TrainExamples(set.Train)
	switch name {
	case LogRegName:
		return policies.TrainLogReg(examples, opts.LogReg)
	case MFName:
		return policies.TrainMFRouter(examples, opts.MF, opts.KNN.K)
	case BlendName:
		return &policies.Blend{Routers: []policies.Router{policies.TrainLogReg(examples, opts.LogReg), policies.TrainKNNWith(examples, opts.KNN)}}
	}
	return policies.TrainKNNWith(examples, opts.KNN)
}

// RouterNames are the learned routers a replay trains and sweeps.
var RouterNames = []string{KNNName, LogRegName, BlendName, MFName}

func isRouterName(name string) bool { return slices.Contains(RouterNames, name) }

// routerSweep trains the named router once and returns it at every cost
// weight of the sweep.
func routerSweep(set *ReplaySet, opts ReplayOptions, name string) []ReplayPolicy {
	cache := newPredictionCache(trainRouter(set, opts, name), set)
	weights := sweepWeights(opts.CostWeights)
	out := make([]ReplayPolicy, len(weights))
	scale := costScale(set)
	for i, w := range weights {
		out[i] = knnPolicy{router: name, models: set.Models, cache: cache,
			weights: routerWeights(w, opts.Latency, scale)}
	}
	return out
}

// sweepWeights are the cost weights a router is swept over: the given ones
// in their order, each once (a weight given twice would report the same
// policy twice), else DefaultCostWeights.
func sweepWeights(given []float64) []float64 {
	if len(given) == 0 {
		return DefaultCostWeights
	}
	out := make([]float64, 0, len(given))
	for _, w := range given {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// routerWeights are a replay router's utility weights: cost weight w
// against cost divided by scale (costScale of the train rows), latency
// against the slowest candidate's.
func routerWeights(w, latency, scale float64) policies.UtilityWeights {
	return policies.UtilityWeights{Cost: w, Latency: latency, CostScale: scale}
}

// withLexicon gives the learned routers one tokenisation of every question
// of the set, shared by the sweep's router and the operating point's
// folds, when opts name a router that cuts questions into character
// n-grams too (all but knn, which alone would not repay the n-grams) and
// set none.
func withLexicon(set *ReplaySet, opts ReplayOptions) ReplayOptions {
	names := opts.Policies
	if len(names) == 0 {
		names = DefaultReplayPolicies
	}
	if !slices.ContainsFunc(names, func(n string) bool { return isRouterName(n) && n != KNNName }) ||
		opts.LogReg.Lexicon != nil || opts.MF.Lexicon != nil || opts.KNN.Lexicon != nil {
		return opts
	}
	texts := make([]string, 0, len(set.Train)+len(set.Test))
	for _, rows := range [][]ReplayRow{set.Train, set.Test} {
		for _, r := range rows {
			texts = append(texts, r.RouteText())
		}
	}
	lex := policies.NewLexicon(texts)
	opts.LogReg.Lexicon, opts.MF.Lexicon, opts.KNN.Lexicon = lex, lex, lex
	return opts
}
