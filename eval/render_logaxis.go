package eval

import (
	"math"
	"strconv"
)

// logSpread is the ratio of the dearest to the cheapest positive cost from
// which the chart's cost axis is logarithmic: past it a linear axis packs
// the cheap models against its left edge (a local model at a cent per
// 1,000 tasks beside a frontier one at tens of dollars).
const logSpread = 50

// fitCostAxis is the cost axis for values: linear (niceAxis) unless the
// positive costs span logSpread or more, then logarithmic over whole
// decades (niceLogAxis).
func fitCostAxis(values []float64) axis {
	lo, hi := math.Inf(1), 0.0
	for _, v := range values {
		if v > 0 {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi > 0 && hi/lo >= logSpread {
		return niceLogAxis(lo, hi)
	}
	return niceAxis(values, 0, math.Inf(1))
}

// niceLogAxis spans the decades holding lo..hi (both positive).
func niceLogAxis(lo, hi float64) axis {
	return axis{min: math.Pow(10, math.Floor(math.Log10(lo)+1e-9)), max: math.Pow(10, math.Ceil(math.Log10(hi)-1e-9)), log: true}
}

// frac is where v sits along the axis, 0 at min and 1 at max. On a log
// axis a value at or below min (a free model, cost 0) sits at min.
func (a axis) frac(v float64) float64 {
	if !a.log {
		return (v - a.min) / (a.max - a.min)
	}
	v = max(v, a.min)
	return (math.Log10(v) - math.Log10(a.min)) / (math.Log10(a.max) - math.Log10(a.min))
}

// logTicks are 1, 2 and 5 times each power of ten inside a log axis; only
// the powers themselves when the axis spans more than three decades.
func (a axis) logTicks() []float64 {
	decades := int(math.Round(math.Log10(a.max / a.min)))
	mults := []float64{1, 2, 5}
	if decades > 3 {
		mults = []float64{1}
	}
	var out []float64
	for d := 0; d <= decades; d++ {
		p := a.min * math.Pow(10, float64(d))
		for _, m := range mults {
			if v := m * p; v <= a.max*(1+1e-9) {
				out = append(out, v)
			}
		}
	}
	return out
}

// logFormat prints a log tick with the decimals its own size needs.
func logFormat(v float64) string {
	decimals := max(0, int(math.Ceil(-math.Log10(v)-1e-9)))
	return strconv.FormatFloat(v, 'f', decimals, 64)
}
