package eval

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/internal/testenv"
	"github.com/toolhub/toolhub/policies"
)

// routingDir is the llmrouter-nim9 replay set beside the repository. The
// tests that need it fail when it is missing: the reference numbers are the
// point of the harness.
func routingDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(testenv.RepoRoot(t), "..", "shared", "data", "routing", "llmrouter-nim9")
	if _, err := os.Stat(filepath.Join(dir, replayTestScores)); err != nil {
		t.Fatalf("the routing replay set is missing at %s (docs/retrieval-notes.md §9 says where it comes from): %v", dir, err)
	}
	return dir
}

// TestReplayReproducesReferenceNumbers checks the reference table of
// retrieval-notes §9: mean score @ USD per 1,000 queries on the 381 clean
// test rows.
func TestEvalReplayReproducesReferenceNumbers(t *testing.T) {
	set, err := LoadReplay(routingDir(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Test) != 381 || set.Dropped != 119 || len(set.Train) != 5608 || len(set.Models) != 9 {
		t.Fatalf("test %d dropped %d train %d models %d; want 381, 119, 5608, 9", len(set.Test), set.Dropped, len(set.Train), len(set.Models))
	}
	rep, err := Replay(set, ReplayOptions{Policies: []string{SinglesName, CheapestName, OracleName, PerTaskBestName}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		policy       string
		score, per1k float64
		costDigits   float64 // rounding of the published cost
	}{
		{"fixed:llama-3.1-nemotron-51b-instruct", 0.597, 0.301, 1e-3},
		{"fixed:llama-3.1-8b-instruct", 0.546, 0.067, 1e-3},
		{"fixed:qwen2.5-7b-instruct", 0.421, 0.067, 1e-3},
		{"fixed:gemma-2-9b-it", 0.522, 0.0335, 1e-4},
		{"cheapest", 0.522, 0.0335, 1e-4},
		{"fixed:llama-3.3-nemotron-super-49b-v1", 0.536, 0.301, 1e-3},
		{"fixed:llama3-chatqa-1.5-70b", 0.282, 0.301, 1e-3},
		{"fixed:mistral-7b-instruct-v0.3", 0.335, 0.067, 1e-3},
		{"fixed:codegemma-7b", 0.206, 0.067, 1e-3},
		{"fixed:llama3-chatqa-1.5-8b", 0.165, 0.067, 1e-3},
		{"oracle", 0.750, 0.079, 1e-3},
		{"per-task-best", 0.615, 0.241, 1e-3},
	}
	for _, tc := range cases {
		t.Run(tc.policy, func(t *testing.T) {
			p, ok := rep.Find(tc.policy)
			if !ok {
				t.Fatalf("no result for %s", tc.policy)
			}
			if math.Abs(p.Accuracy-tc.score) > 0.0005 || math.Abs(p.CostUSD*1000-tc.per1k) > tc.costDigits/2 {
				t.Fatalf("%.4f @ $%.5f per 1k, want %.3f @ $%g", p.Accuracy, p.CostUSD*1000, tc.score, tc.per1k)
			}
		})
	}
}

func TestEvalReplayKNNSweepBeatsCheapestAndIsSummarised(t *testing.T) {
	set, err := LoadReplay(routingDir(t))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Replay(set, ReplayOptions{Policies: []string{SinglesName, CheapestName, KNNName}, CostWeights: []float64{0, 0.05, 1}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sweeps) != 1 {
		t.Fatalf("%d sweep summaries, want 1", len(rep.Sweeps))
	}
	s := rep.Sweeps[0]
	if s == nil || s.BestSingle != "fixed:llama-3.1-nemotron-51b-instruct" || len(s.Hull) == 0 {
		t.Fatalf("sweep summary %+v", s)
	}
	free, _ := rep.Find(KNNPolicyName(0))
	thrifty, _ := rep.Find(KNNPolicyName(1))
	cheapest, _ := rep.Find(CheapestName)
	// Raising the cost weight must not raise the cost; knn without a cost
	// weight must beat always answering with the cheapest model.
	if thrifty.CostUSD > free.CostUSD || free.Accuracy <= cheapest.Accuracy {
		t.Fatalf("knn@0 %.3f @ %.6f, knn@1 %.3f @ %.6f, cheapest %.3f", free.Accuracy, free.CostUSD, thrifty.Accuracy, thrifty.CostUSD, cheapest.Accuracy)
	}
	if free.CostWeight == nil || *free.CostWeight != 0 || free.Family != FamilyRouter {
		t.Fatalf("knn@0 result %+v", free)
	}
}

func TestEvalReplayRejectsUnknownPolicies(t *testing.T) {
	set := &ReplaySet{Dir: "d", Models: []ReplayModel{{Name: "m", PriceIn: 1, PriceOut: 1}}}
	for _, name := range []string{"fixed:nope", "smartest"} {
		if _, err := BuildReplayPolicies(set, ReplayOptions{Policies: []string{name}}); err == nil {
			t.Errorf("%q accepted", name)
		}
	}
}

// TestEvalReplayUnknownLatencyIsNeitherZeroNorFast: a model of unknown size
// whose latency no row records has no mean latency (null in JSON, not 0),
// and the reward charges its answers the slowest latency the row knows,
// here b's recorded 2 minutes: a is no faster than b.
func TestEvalReplayUnknownLatencyIsNeitherZeroNorFast(t *testing.T) {
	cands := `[{"name":"a","input_price":1,"output_price":1},{"name":"b","input_price":1,"output_price":1,"size":"70B"}]`
	rec := func(q string) ReplayRow {
		return ReplayRow{Question: q, Scores: map[string]float64{"a": 1, "b": 1}, LatencyS: map[string]float64{"b": 120}}
	}
	set, err := LoadReplay(writeReplayDir(t, []ReplayRow{rec("q1")}, []ReplayRow{rec("q2"), rec("q3")}, cands))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Replay(set, ReplayOptions{Policies: []string{"fixed:a", "fixed:b"}, Base: "fixed:b",
		Preference: policies.PreferenceVector{Latency: 1}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, policy, latency string
		reward                float64
	}{
		{"unknown latency", "fixed:a", `"latency_s":null`, 1},
		{"recorded latency", "fixed:b", `"latency_s":120,`, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, _ := rep.Find(tc.policy)
			data, err := json.Marshal(p)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(data), tc.latency) {
				t.Errorf("JSON %s lacks %s", data, tc.latency)
			}
			if math.Abs(p.Reward-tc.reward) > 1e-12 {
				t.Errorf("reward %v, want %v", p.Reward, tc.reward)
			}
		})
	}
}
