package policies

import (
	"math"
	"testing"
)

func TestFitPlatt(t *testing.T) {
	grid := func(f func(z float64) float64) (zs, ys []float64) {
		for i := range 401 {
			z := -4 + float64(i)*0.02
			zs, ys = append(zs, z), append(ys, f(z))
		}
		return zs, ys
	}
	cases := []struct {
		name         string
		label        func(z float64) float64
		wantA, wantC float64
	}{
		{"overconfident logits are flattened", func(z float64) float64 { return sigmoid(0.5*z + 0.3) }, 0.5, 0.3},
		{"underconfident logits are sharpened", func(z float64) float64 { return sigmoid(2*z - 1) }, 2, -1},
		{"calibrated logits stay", sigmoid, 1, 0},
		{"reversed logits are never flipped", func(z float64) float64 { return sigmoid(-z) }, 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := fitPlatt(grid(tc.label))
			if math.Abs(p.a-tc.wantA) > 0.02 || math.Abs(p.c-tc.wantC) > 0.02 {
				t.Fatalf("fitted %+v, want a %v c %v", p, tc.wantA, tc.wantC)
			}
			prev := -1.0
			for z := -6.0; z <= 6; z += 0.5 {
				q := p.prob(z)
				if q < prev {
					t.Fatalf("not monotonic at %v: %v after %v", z, q, prev)
				}
				prev = q
			}
		})
	}
	if p := fitPlatt(nil, nil); p != (platt{a: 1}) {
		t.Fatalf("no points: %+v, want the identity", p)
	}
}
