package policies_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/toolhub/toolhub/policies"
)

// residualPool: two families; inside "math" the small model solves the
// questions that say "add" and fails those that say "integrate", which the
// family mean cannot tell apart. The large model is always right.
func residualPool(n, offset int) []policies.KNNExample {
	var out []policies.KNNExample
	for i := range n {
		j := i + offset
		out = append(out,
			policies.KNNExample{Task: "math", Question: fmt.Sprintf("please add the numbers %d and %d", j, j+1),
				Scores: map[string]float64{"small": 1, "large": 1}},
			policies.KNNExample{Task: "math", Question: fmt.Sprintf("please integrate the function x^%d over %d", j, j+2),
				Scores: map[string]float64{"small": 0, "large": 1}},
			policies.KNNExample{Task: "geo", Question: fmt.Sprintf("name the capital city of country %d", j),
				Scores: map[string]float64{"small": 1, "large": 1}})
	}
	return out
}

// logLoss is the mean log loss of r's predictions on examples.
func logLoss(r policies.Router, examples []policies.KNNExample) float64 {
	sum, n := 0.0, 0.0
	for _, ex := range examples {
		p := r.Predict(ex.Question, r.Candidates())
		for m, y := range ex.Scores {
			q := min(1-1e-6, max(1e-6, p[m]))
			sum -= y*math.Log(q) + (1-y)*math.Log(1-q)
			n++
		}
	}
	return sum / n
}

func TestTaskResidualCorrectsTheFamilyMean(t *testing.T) {
	train, held := residualPool(60, 0), residualPool(20, 1000)
	prior, ok := policies.TrainTaskPrior(train, policies.TaskPriorOptions{})
	if !ok {
		t.Fatal("no prior from a pool with two families")
	}
	cases := []struct {
		name       string
		correction policies.MFOptions
		// the held-out log loss must be below the prior's by at least
		// gain (negative: may be at most -gain above it)
		gain float64
	}{
		{"the default penalty learns the words inside a family", policies.MFOptions{}, 0.1},
		{"a light penalty learns them too", policies.MFOptions{Dim: -1, L2: 1e-4}, 0.1},
		{"a crushing penalty stays near the prior", policies.MFOptions{Dim: -1, L2: 10}, -0.05},
	}
	base := logLoss(prior, held)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, ok := policies.TrainTaskResidual(train, policies.TaskResidualOptions{Correction: tc.correction})
			if !ok {
				t.Fatal("no residual router from a pool with two families")
			}
			got := logLoss(r, held)
			if got > base-tc.gain {
				t.Fatalf("held-out log loss %.4f, prior's %.4f: want at most %.4f", got, base, base-tc.gain)
			}
		})
	}
}

func TestTaskResidualNeedsFamilies(t *testing.T) {
	pool := residualPool(40, 0)
	for i := range pool {
		pool[i].Task = ""
	}
	if _, ok := policies.TrainTaskResidual(pool, policies.TaskResidualOptions{}); ok {
		t.Fatal("a residual router from a pool without families")
	}
}

func TestTaskResidualIsDeterministic(t *testing.T) {
	pool := residualPool(40, 0)
	a, _ := policies.TrainTaskResidual(pool, policies.TaskResidualOptions{})
	b, _ := policies.TrainTaskResidual(pool, policies.TaskResidualOptions{})
	for _, q := range []string{"please add 3 and 4", "please integrate x^2", "name the capital city of peru"} {
		pa, pb := a.Predict(q, a.Candidates()), b.Predict(q, b.Candidates())
		for m := range pa {
			if pa[m] != pb[m] {
				t.Fatalf("%q: %s %v then %v", q, m, pa[m], pb[m])
			}
		}
	}
}
