package eval

import (
	"math"
	"strconv"
)

// axis is a chart axis fitted to the data: its range is whole steps of a
// 1-2-5 tick step just covering the values, or, for log, whole decades
// (render_logaxis.go).
type axis struct {
	min, max, step float64
	log            bool
}

// maxIntervals is the most tick intervals an axis gets; it takes the
// finest 1-2-5 step that stays within it, so the axis hugs the data.
const maxIntervals = 7

// niceAxis fits an axis to values, kept inside [lo, hi].
func niceAxis(values []float64, lo, hi float64) axis {
	vMin, vMax := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		vMin, vMax = min(vMin, v), max(vMax, v)
	}
	if len(values) == 0 {
		vMin, vMax = 0, 1
	}
	if vMax-vMin <= 0 {
		pad := math.Max(math.Abs(vMax)*0.1, 1e-6)
		vMin, vMax = vMin-pad, vMax+pad
	}
	step := niceStep((vMax - vMin) / maxIntervals)
	for math.Ceil(vMax/step-1e-9)-math.Floor(vMin/step+1e-9) > maxIntervals {
		step = niceStep(step * 1.5)
	}
	a := axis{min: math.Floor(vMin/step+1e-9) * step, max: math.Ceil(vMax/step-1e-9) * step, step: step}
	a.min, a.max = math.Max(a.min, lo), math.Min(a.max, hi)
	if a.max <= a.min {
		a.max = a.min + step
	}
	return a
}

// niceStep rounds raw up to 1, 2 or 5 times a power of ten.
func niceStep(raw float64) float64 {
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5} {
		if m*p >= raw*(1-1e-9) {
			return m * p
		}
	}
	return 10 * p
}

// ticks are the multiples of the step inside the axis.
func (a axis) ticks() []float64 {
	if a.log {
		return a.logTicks()
	}
	var out []float64
	first := math.Ceil(a.min/a.step - 1e-9)
	for i := first; i*a.step <= a.max*(1+1e-9)+1e-12; i++ {
		out = append(out, i*a.step)
	}
	return out
}

// format prints a tick with as many decimals as the step needs.
func (a axis) format(v float64) string {
	if a.log {
		return logFormat(v)
	}
	decimals := max(0, int(math.Ceil(-math.Log10(a.step)-1e-9)))
	if math.Abs(v) < a.step*1e-6 {
		v = 0
	}
	return strconv.FormatFloat(v, 'f', decimals, 64)
}
