package policies_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/policies"
)

// keywordPool is a pool where "keen" solves exactly the questions holding
// the word "zebra" and "steady" half of every question (a fractional
// score), whatever its words.
func keywordPool(n int) []policies.KNNExample {
	topics := []string{"rivers", "prime numbers", "castles", "poetry", "volcanoes", "chess"}
	var out []policies.KNNExample
	for i := range n {
		q := fmt.Sprintf("tell me about %s number %d", topics[i%len(topics)], i)
		keen := 0.0
		if i%3 == 0 {
			q += " and the zebra"
			keen = 1
		}
		out = append(out, policies.KNNExample{Question: q, Scores: map[string]float64{"keen": keen, "steady": 0.5}})
	}
	return out
}

func TestMFLearnsWhichModelSolvesWhat(t *testing.T) {
	pool := keywordPool(600)
	cases := []struct {
		name string
		opts policies.MFOptions
	}{
		{"the router's settings", policies.DefaultMFOptions},
		{"a wider embedding", policies.MFOptions{Dim: 16}},
		{"no embedding", policies.MFOptions{Dim: -1}},
		{"words only, uncalibrated", policies.MFOptions{CharWeight: -1, LengthWeight: -1, NoCalibration: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := policies.TrainMF(pool, tc.opts)
			with := m.Predict("tell me about glaciers number 9001 and the zebra", []string{"keen", "steady", "unknown"})
			without := m.Predict("tell me about glaciers number 9001", []string{"keen", "steady"})
			if _, ok := with["unknown"]; ok || with["keen"] < 0.8 || without["keen"] > 0.2 {
				t.Fatalf("keen: %.3f with the word, %.3f without; want high then low (%v)", with["keen"], without["keen"], with)
			}
			for _, p := range []map[string]float64{with, without} {
				if math.Abs(p["steady"]-0.5) > 0.1 {
					t.Fatalf("steady predicted %.3f, want about 0.5", p["steady"])
				}
			}
			cands := []policies.KNNCandidate{{Name: "keen", Cost: 1}, {Name: "steady", Cost: 1}}
			if c, _ := policies.ChooseByUtility(with, cands, policies.UtilityWeights{}); c.Name != "keen" {
				t.Fatalf("with the word picked %s", c.Name)
			}
			if c, _ := policies.ChooseByUtility(without, cands, policies.UtilityWeights{}); c.Name != "steady" {
				t.Fatalf("without the word picked %s", c.Name)
			}
		})
	}
	if m := policies.TrainMF(pool, policies.MFOptions{}); m.Len() != 600 || strings.Join(m.Candidates(), ",") != "keen,steady" {
		t.Fatalf("len %d, candidates %v", m.Len(), m.Candidates())
	}
}

func TestMFIsDeterministic(t *testing.T) {
	pool := keywordPool(300)
	q := "tell me about castles number 4 and the zebra"
	cases := []struct {
		name      string
		a, b      policies.MFOptions
		wantEqual bool
	}{
		{"same seed", policies.MFOptions{Seed: 7}, policies.MFOptions{Seed: 7}, true},
		{"another seed", policies.MFOptions{Seed: 7}, policies.MFOptions{Seed: 8}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := policies.TrainMF(pool, tc.a).Predict(q, []string{"keen", "steady"})
			b := policies.TrainMF(pool, tc.b).Predict(q, []string{"keen", "steady"})
			if equal := a["keen"] == b["keen"] && a["steady"] == b["steady"]; equal != tc.wantEqual {
				t.Fatalf("%v and %v: equal %v, want %v", a, b, equal, tc.wantEqual)
			}
		})
	}
}

func TestMFIsCalibratedOnConstantRates(t *testing.T) {
	// A quarter of the examples succeed, whatever the text: the calibrated
	// prediction is near 0.25 for seen and unseen questions alike.
	var ex []policies.KNNExample
	for i := range 2000 {
		s := 0.0
		if i%4 == 0 {
			s = 1
		}
		ex = append(ex, policies.KNNExample{Question: fmt.Sprintf("same words here %d", i%3), Scores: map[string]float64{"m": s}})
	}
	m := policies.TrainMF(ex, policies.DefaultMFOptions)
	for _, q := range []string{"same words here 0", "completely new words"} {
		if p := m.Predict(q, []string{"m"})["m"]; math.Abs(p-0.25) > 0.03 {
			t.Fatalf("%q: predicted %.3f, want about 0.25", q, p)
		}
	}
}

func TestMFRouterAveragesMFAndKNN(t *testing.T) {
	pool := keywordPool(300)
	r := policies.TrainMFRouter(pool, policies.DefaultMFOptions, 0)
	mf := policies.TrainMF(pool, policies.DefaultMFOptions)
	knn := policies.TrainKNN(pool, 0)
	q := "tell me about chess number 12"
	want := (mf.Predict(q, []string{"keen"})["keen"] + knn.Predict(q, []string{"keen"})["keen"]) / 2
	if got := r.Predict(q, []string{"keen"})["keen"]; math.Abs(got-want) > 1e-12 {
		t.Fatalf("mf router %v, want %v", got, want)
	}
}
