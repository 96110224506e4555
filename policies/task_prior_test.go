package policies_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/toolhub/toolhub/policies"
)

// taskPool: in family "geo" the small model is right every time, in
// "proof" never; the large one is always right. The task field is left
// out when withTasks is false.
func taskPool(n int, withTasks bool) []policies.KNNExample {
	var out []policies.KNNExample
	for i := range n {
		geo := policies.KNNExample{Question: fmt.Sprintf("what is the capital city of country %d", i), Scores: map[string]float64{"small": 1, "large": 1}}
		proof := policies.KNNExample{Question: fmt.Sprintf("prove the theorem about prime gaps number %d", i), Scores: map[string]float64{"small": 0, "large": 1}}
		if withTasks {
			geo.Task, proof.Task = "geo", "proof"
		}
		out = append(out, geo, proof)
	}
	return out
}

func TestTaskPriorPredictsFamilyMeans(t *testing.T) {
	pool := taskPool(60, true)
	exact := func(smoothing float64) func(fam []float64) map[string]float64 {
		// geo's and proof's means of small, shrunk toward its overall 0.5
		geo, proof := (60+smoothing*0.5)/(60+smoothing), (0+smoothing*0.5)/(60+smoothing)
		return func(fam []float64) map[string]float64 {
			return map[string]float64{"small": fam[0]*geo + fam[1]*proof, "large": 1}
		}
	}
	cases := []struct {
		name      string
		smoothing float64
		question  string
		want      func(fam []float64) map[string]float64
		smallIn   [2]float64 // the range small's prediction falls in
	}{
		{"a geography question takes geo's means", 0, "what is the capital city of peru", exact(5), [2]float64{0.9, 1}},
		{"a proof question takes proof's means", 0, "prove the theorem about prime gaps again", exact(5), [2]float64{0, 0.1}},
		{"little smoothing keeps the raw means", 1e-9, "what is the capital city of peru", exact(1e-9), [2]float64{0.9, 1}},
		{"heavy smoothing leaves the overall mean", 1e9, "what is the capital city of peru", exact(1e9), [2]float64{0.5 - 1e-6, 0.5 + 1e-6}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, ok := policies.TrainTaskPrior(pool, policies.TaskPriorOptions{Smoothing: tc.smoothing})
			if !ok {
				t.Fatal("no task prior from a pool with two families")
			}
			if got := p.Tasks(); len(got) != 2 || got[0] != "geo" || got[1] != "proof" {
				t.Fatalf("tasks %v", got)
			}
			fam := p.Families(tc.question)
			if math.Abs(fam[0]+fam[1]-1) > 1e-12 {
				t.Fatalf("family shares %v do not sum to one", fam)
			}
			got := p.Predict(tc.question, []string{"small", "large", "absent"})
			want := tc.want(fam)
			if len(got) != 2 || math.Abs(got["small"]-want["small"]) > 1e-9 || math.Abs(got["large"]-want["large"]) > 1e-9 {
				t.Fatalf("predicted %v, want %v (families %v)", got, want, fam)
			}
			if s := got["small"]; s < tc.smallIn[0] || s > tc.smallIn[1] {
				t.Fatalf("small %.4f outside %v", s, tc.smallIn)
			}
		})
	}
}

func TestTaskPriorNeedsRecordedFamilies(t *testing.T) {
	oneFamily := taskPool(30, true)
	for i := range oneFamily {
		oneFamily[i].Task = "all"
	}
	partly := taskPool(30, true)
	partly[7].Task = ""
	cases := []struct {
		name     string
		examples []policies.KNNExample
		ok       bool
	}{
		{"two families", taskPool(30, true), true},
		{"no family recorded", taskPool(30, false), false},
		{"one example without a family", partly, false},
		{"a single family", oneFamily, false},
		{"no examples", nil, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := policies.TrainTaskPrior(tc.examples, policies.TaskPriorOptions{}); ok != tc.ok {
				t.Fatalf("ok %v, want %v", ok, tc.ok)
			}
		})
	}
}

func TestMFRouterUsesFamiliesWhenRecorded(t *testing.T) {
	cases := []struct {
		name      string
		withTasks bool
		wantPrior bool
	}{
		{"families recorded: the corrected task prior", true, true},
		{"no families: the mean of MF and knn", false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := policies.TrainMFRouter(taskPool(60, tc.withTasks), policies.DefaultMFOptions, 0)
			_, prior := r.(*policies.TaskResidual)
			_, blend := r.(*policies.Blend)
			if prior != tc.wantPrior || blend == tc.wantPrior {
				t.Fatalf("router %T", r)
			}
			p := r.Predict("prove the theorem about prime gaps again", []string{"small", "large"})
			if p["large"]-p["small"] < 0.5 {
				t.Fatalf("predictions %v do not favour large on a proof", p)
			}
		})
	}
}

func TestMFPolicyReadsFamiliesFromTheTrainingFile(t *testing.T) {
	var lines string
	for i := range 60 {
		lines += fmt.Sprintf(`{"question":"what is the capital city of country %d","task":"geo","scores":{"small":1,"large":1}}`+"\n", i)
		lines += fmt.Sprintf(`{"question":"prove the theorem about prime gaps number %d","task":"proof","scores":{"small":0,"large":1}}`+"\n", i)
	}
	r, err := policies.LoadMFRouter(writeFile(t, "train.jsonl", lines))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.(*policies.TaskResidual); !ok {
		t.Fatalf("router %T, want the corrected task prior", r)
	}
}

func TestTaskPriorBalancedDividesOutTheTrainingMix(t *testing.T) {
	// geo is three times as common as proof in training.
	var pool []policies.KNNExample
	for _, ex := range taskPool(40, true) {
		pool = append(pool, ex)
		if ex.Task == "geo" {
			for j := range 2 {
				pool = append(pool, policies.KNNExample{Question: fmt.Sprintf("%s variant %d", ex.Question, j), Task: "geo", Scores: ex.Scores})
			}
		}
	}
	plain, _ := policies.TrainTaskPrior(pool, policies.TaskPriorOptions{})
	even, _ := policies.TrainTaskPrior(pool, policies.TaskPriorOptions{Balanced: true})
	cases := []struct{ name, question string }{
		{"a geography question", "what is the capital city of chile"},
		{"a proof question", "prove the theorem about prime gaps again"},
		{"a question with words of both", "prove the capital city theorem"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, e := plain.Families(tc.question), even.Families(tc.question)
			// geo's share 3/4, proof's 1/4: dividing them out triples
			// proof's odds against geo.
			if got, want := e[1]/e[0], 3*p[1]/p[0]; math.Abs(got-want) > 1e-9*want {
				t.Fatalf("balanced odds proof:geo %.6g, want three times %.6g", got, p[1]/p[0])
			}
			if math.Abs(e[0]+e[1]-1) > 1e-12 {
				t.Fatalf("balanced shares %v do not sum to one", e)
			}
		})
	}
}
