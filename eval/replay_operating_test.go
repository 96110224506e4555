package eval

import (
	"fmt"
	"math"
	"testing"
)

// operatingSet is a pool on which the router's choice at each weight is
// known: "cheap" (a tenth of big's price) solves every trivia question and,
// on the rows the router learns from, every other math question; "big"
// solves everything there. Math therefore goes to cheap only once the cost
// weight tops about 0.55. valMath scores cheap and big on the i-th math
// question of the validation part; test rows are the given ones.
func operatingSet(valMath func(i int) (cheap, big float64), test []ReplayRow) *ReplaySet {
	set := &ReplaySet{Dir: "mem", Test: test, Models: []ReplayModel{
		{Name: "cheap", SizeB: 8, PriceIn: 0.1, PriceOut: 0.1},
		{Name: "big", SizeB: 70, PriceIn: 1, PriceOut: 1},
	}}
	held := 0
	for i := range 600 {
		q := fmt.Sprintf("which city is the capital of country %d trivia", i)
		set.Train = append(set.Train, row("", q, map[string]float64{"cheap": 1, "big": 1}))
		q = fmt.Sprintf("integrate the polynomial x^%d derivative calculus", i)
		cheap, big := float64(i%2), 1.0
		if inValidation(q) {
			cheap, big = valMath(held)
			held++
		}
		set.Train = append(set.Train, row("", q, map[string]float64{"cheap": cheap, "big": big}))
	}
	return set
}

func TestEvalOperatingPointIsChosenOnValidationRows(t *testing.T) {
	cheapFails := func(int) (float64, float64) { return 0, 1 }
	cheapSolves := func(int) (float64, float64) { return 1, 1 }
	// The two models are right on alternate validation math questions:
	// sending math to cheap ties big on average, with noise.
	noisyTie := func(i int) (float64, float64) { return float64(i % 2), float64((i + 1) % 2) }
	cases := []struct {
		name    string
		valMath func(int) (float64, float64)
		// mathOnBig: at the chosen weight, validation math still goes to
		// big (the cost shows it: cheap everywhere is a fifth of it).
		mathOnBig bool
	}{
		{"cheap failing validation math keeps math on big", cheapFails, true},
		{"cheap solving validation math sends it there too", cheapSolves, false},
		{"a tie within noise is not a match", noisyTie, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			op, err := chooseOperatingPoint(operatingSet(tc.valMath, nil), ReplayOptions{}, KNNName)
			if err != nil {
				t.Fatal(err)
			}
			if !op.Reached || (op.ValidationCost > 0.1) != tc.mathOnBig || tc.mathOnBig == (op.Weight == 1) {
				t.Fatalf("operating point %+v, want math on big: %v", op, tc.mathOnBig)
			}
		})
	}
}

func TestEvalOperatingPointReadsNoTestRow(t *testing.T) {
	cheapFails := func(int) (float64, float64) { return 0, 1 }
	var test []ReplayRow
	for i := range 50 { // test rows on which cheap would be perfect
		test = append(test, row("", fmt.Sprintf("integrate the polynomial x^%d derivative calculus", 5000+i), map[string]float64{"cheap": 1, "big": 0}))
	}
	without, err := chooseOperatingPoint(operatingSet(cheapFails, nil), ReplayOptions{}, KNNName)
	if err != nil {
		t.Fatal(err)
	}
	with, err := chooseOperatingPoint(operatingSet(cheapFails, test), ReplayOptions{}, KNNName)
	if err != nil {
		t.Fatal(err)
	}
	if *with != *without {
		t.Fatalf("test rows moved the operating point: %+v, without them %+v", with, without)
	}
}

func TestEvalPairedGain(t *testing.T) {
	mk := func(pairs ...[2]float64) *ReplaySet {
		s := &ReplaySet{}
		for i, p := range pairs {
			s.Test = append(s.Test, row("", fmt.Sprint(i), map[string]float64{"r": p[0], "s": p[1]}))
		}
		return s
	}
	cases := []struct {
		name     string
		set      *ReplaySet
		mean, se float64
	}{
		{"no rows", mk(), 0, 0},
		{"equal scores have no spread", mk([2]float64{1, 1}, [2]float64{0, 0}), 0, 0},
		{"a steady gain", mk([2]float64{1, 0}, [2]float64{1, 0}), 1, 0},
		// differences 1, −1, 1, −1: mean 0, sample sd √(4/3), se √(4/3)/2
		{"a noisy tie", mk([2]float64{1, 0}, [2]float64{0, 1}, [2]float64{1, 0}, [2]float64{0, 1}), 0, math.Sqrt(4.0/3) / 2},
		// differences 1, 0: mean 0.5, sd √0.5, se 0.5
		{"half the rows better", mk([2]float64{1, 0}, [2]float64{1, 1}), 0.5, 0.5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mean, se := pairedGain(tc.set, func(ReplayRow) string { return "r" }, "s")
			if math.Abs(mean-tc.mean) > 1e-12 || math.Abs(se-tc.se) > 1e-12 {
				t.Fatalf("gain %v ± %v, want %v ± %v", mean, se, tc.mean, tc.se)
			}
		})
	}
}
