package policies_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/policies"
)

func TestKNNNearestSharesRareWords(t *testing.T) {
	m := policies.TrainKNN([]policies.KNNExample{
		{Question: "the apple and the banana", Scores: map[string]float64{"a": 1}},
		{Question: "the apple and the cherry", Scores: map[string]float64{"a": 1}},
		{Question: "a dog and a cat", Scores: map[string]float64{"a": 1}},
	}, 2)
	nbs := m.Nearest("banana split with the apple", 2)
	if len(nbs) != 2 || nbs[0].Index != 0 || nbs[1].Index != 1 {
		t.Fatalf("neighbours %+v, want example 0 then 1", nbs)
	}
	if nbs[0].Similarity <= nbs[1].Similarity || nbs[0].Similarity > 1+1e-9 {
		t.Fatalf("similarities %+v", nbs)
	}
	if got := m.Nearest("zebra", 2); len(got) != 0 {
		t.Fatalf("no shared word, yet neighbours %+v", got)
	}
}

func TestKNNPredictIsSimilarityWeightedMean(t *testing.T) {
	m := policies.TrainKNN([]policies.KNNExample{
		{Question: "prime numbers below ten", Scores: map[string]float64{"small": 1, "large": 1}},
		{Question: "prime numbers below ten", Scores: map[string]float64{"small": 0, "large": 1}},
		{Question: "translate this poem", Scores: map[string]float64{"small": 1}},
	}, 2)
	got := m.Predict("prime numbers below ten", []string{"small", "large", "unknown"})
	// The two identical neighbours weigh the same: small (1+0)/2, large 1.
	if !near(got["small"], 0.5) || !near(got["large"], 1) {
		t.Fatalf("predictions %v", got)
	}
	if _, ok := got["unknown"]; ok {
		t.Fatalf("a candidate with no scores got a prediction: %v", got)
	}
}

func TestKNNPredictSkipsNeighboursWithoutAScore(t *testing.T) {
	m := policies.TrainKNN([]policies.KNNExample{
		{Question: "prime numbers below ten", Scores: map[string]float64{"small": 1, "large": 0}},
		{Question: "prime numbers below twenty", Scores: map[string]float64{"large": 1}},
		{Question: "translate this poem", Scores: map[string]float64{"small": 0}},
	}, 3)
	if got := m.Candidates(); strings.Join(got, ",") != "large,small" {
		t.Fatalf("candidates %v, want large,small", got)
	}
	nbs := m.Nearest("prime numbers below ten", 3)
	if len(nbs) != 2 || nbs[0].Index != 0 || nbs[1].Index != 1 {
		t.Fatalf("neighbours %+v, want examples 0 and 1 (2 shares no word)", nbs)
	}
	// large: both neighbours score it; small: only the first does.
	wantLarge := nbs[1].Similarity / (nbs[0].Similarity + nbs[1].Similarity)
	cases := []struct {
		name    string
		allowed []string
		want    map[string]float64
	}{
		{"both", []string{"small", "large"}, map[string]float64{"small": 1, "large": wantLarge}},
		{"one", []string{"large"}, map[string]float64{"large": wantLarge}},
		{"a name twice", []string{"large", "small", "large"}, map[string]float64{"small": 1, "large": wantLarge}},
		{"unknown names", []string{"huge", "small"}, map[string]float64{"small": 1}},
		{"none", nil, map[string]float64{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := m.Predict("prime numbers below ten", tc.allowed)
			if len(got) != len(tc.want) {
				t.Fatalf("predictions %v, want %v", got, tc.want)
			}
			for c, w := range tc.want {
				if g, ok := got[c]; !ok || !near(g, w) {
					t.Fatalf("predictions %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestKNNChooseByUtility(t *testing.T) {
	m := policies.TrainKNN([]policies.KNNExample{
		{Question: "integrate x squared", Scores: map[string]float64{"small": 0.8, "large": 1}},
		{Question: "integrate sin x", Scores: map[string]float64{"small": 0.8, "large": 1}},
	}, 5)
	small := policies.KNNCandidate{Name: "small", Cost: 0.1, Latency: 9}
	large := policies.KNNCandidate{Name: "large", Cost: 0.9, Latency: 15}
	cases := []struct {
		name  string
		cands []policies.KNNCandidate
		w     policies.UtilityWeights
		want  string
	}{
		{"accuracy only picks the stronger", []policies.KNNCandidate{small, large}, policies.UtilityWeights{}, "large"},
		// large: 1 − 0.5 = 0.5; small: 0.8 − 0.5 × 0.1/0.9 ≈ 0.744.
		{"cost weight picks the cheaper", []policies.KNNCandidate{small, large}, policies.UtilityWeights{Cost: 0.5}, "small"},
		// large: 1 − 0.5 = 0.5; small: 0.8 − 0.5 × 9/15 = 0.5; tie → cheaper.
		{"latency tie goes to the cheaper", []policies.KNNCandidate{small, large}, policies.UtilityWeights{Latency: 0.5}, "small"},
		{"allow-list without the stronger", []policies.KNNCandidate{small}, policies.UtilityWeights{}, "small"},
		// A fixed scale ten times this question's dearest: large 1 − 0.5 ×
		// 0.09 = 0.955, small 0.8 − 0.5 × 0.01 = 0.795.
		{"a cheap question under a fixed cost scale keeps the stronger", []policies.KNNCandidate{small, large}, policies.UtilityWeights{Cost: 0.5, CostScale: 9}, "large"},
		// A scale below this question's dearest: large 1 − 0.5 × 2 = 0,
		// small 0.8 − 0.5 × 0.222 ≈ 0.689.
		{"a dear question under a fixed cost scale goes cheaper", []policies.KNNCandidate{small, large}, policies.UtilityWeights{Cost: 0.5, CostScale: 0.45}, "small"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := m.Choose("integrate x cubed", tc.cands, tc.w)
			if !ok || c.Name != tc.want {
				t.Fatalf("chose %+v (ok %v), want %s", c, ok, tc.want)
			}
		})
	}
	if _, ok := m.Choose("integrate x", []policies.KNNCandidate{{Name: "other"}}, policies.UtilityWeights{}); ok {
		t.Fatal("a choice among candidates the router never saw")
	}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestKNNTrainingFormats(t *testing.T) {
	cases := []struct {
		name, text string
		want       []policies.KNNExample
	}{
		{"replay array", `[{"question":"q1","scores":{"a":1,"b":0}}]`,
			[]policies.KNNExample{{Question: "q1", Scores: map[string]float64{"a": 1, "b": 0}}}},
		{"jsonl examples", "{\"question\":\"q1\",\"scores\":{\"a\":0.5}}\n\n{\"question\":\"q2\",\"scores\":{\"b\":1}}\n",
			[]policies.KNNExample{{Question: "q1", Scores: map[string]float64{"a": 0.5}}, {Question: "q2", Scores: map[string]float64{"b": 1}}}},
		{"replay array with choices", `[{"question":"q1","choices":"['x', 'y']","scores":{"a":1}},{"question":"q2","choices":"","scores":{"a":0}}]`,
			[]policies.KNNExample{{Question: "q1\n['x', 'y']", Scores: map[string]float64{"a": 1}}, {Question: "q2", Scores: map[string]float64{"a": 0}}}},
		{"jsonl example with choices", `{"question":"q1","choices":"A) x B) y","scores":{"a":1}}`,
			[]policies.KNNExample{{Question: "q1\nA) x B) y", Scores: map[string]float64{"a": 1}}}},
		{"exported runs average per task and model",
			`{"task":"q1","policy":"fixed:small","reward":{"outcome":1}}` + "\n" +
				`{"task":"q1","policy":"fixed:small","reward":{"outcome":0}}` + "\n" +
				`{"task":"q1","policy":"fixed:large","reward":{"outcome":1}}` + "\n" +
				`{"task":"q1","policy":"orchestrator","reward":{"outcome":1}}` + "\n" +
				`{"task":"q2","policy":"fixed:small","reward":{"outcome":null}}` + "\n",
			[]policies.KNNExample{{Question: "q1", Scores: map[string]float64{"small": 0.5, "large": 1}}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := policies.LoadKNNTraining(writeFile(t, "train.jsonl", tc.text))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v", got)
			}
			for i := range got {
				if got[i].Question != tc.want[i].Question || len(got[i].Scores) != len(tc.want[i].Scores) {
					t.Fatalf("example %d: %+v, want %+v", i, got[i], tc.want[i])
				}
				for k, v := range tc.want[i].Scores {
					if !near(got[i].Scores[k], v) {
						t.Fatalf("example %d score %s: %v, want %v", i, k, got[i].Scores[k], v)
					}
				}
			}
		})
	}
}

func TestKNNTrainingErrorsSayWhere(t *testing.T) {
	p := writeFile(t, "bad.jsonl", "{\"question\":\"q\",\"scores\":{\"a\":1}}\n{not json\n")
	if _, err := policies.LoadKNNTraining(p); err == nil || !strings.Contains(err.Error(), p+":2:") {
		t.Fatalf("error %v, want %s:2", err, p)
	}
	empty := writeFile(t, "empty.jsonl", `{"task":"q","policy":"orchestrator","reward":{"outcome":1}}`)
	if _, err := policies.LoadKNNTraining(empty); err == nil || !strings.Contains(err.Error(), "no recorded outcomes") {
		t.Fatalf("error %v", err)
	}
}

func TestKNNPolicyWithoutTrainingFileIsAClearError(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "none.jsonl")
	t.Setenv(policies.KNNTrainingEnv, missing)
	_, err := policies.NewPolicy(policies.PolicyKNN, policies.Orchestrator{})
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), policies.KNNTrainingEnv) {
		t.Fatalf("error %v, want the missing path and how to set one", err)
	}
	if _, err := policies.NewPolicy("knn:"+missing, policies.Orchestrator{}); err == nil {
		t.Fatal("knn:PATH with a missing file accepted")
	}
}
