package policies

import "strings"

// Vector is the preference vector P these preferences stand for (the
// protocol's §5, "the mapping from UI sliders to P is a toolhub choice"):
// the one place the settings the desktop's sliders and lists write become
// the weights the preference reward reads.
//
//   - The outcome weighs 1: every setting wants the task solved.
//   - Cost and latency weigh their sliders, 0 to 1.
//   - A tool ("server__tool") or model endpoint marked prefer weighs 1;
//     neutral, avoid and off weigh 0. P rewards calls to a tool and cannot
//     penalise them, so avoid is no lower than neutral; an off tool is
//     never called at all.
//   - A pattern ("server__*") names no single tool and is left out, and so
//     is privacy: the hub enforces it on every call instead of rewarding it.
func (p Preferences) Vector() PreferenceVector {
	v := PreferenceVector{Outcome: 1, Cost: clamp01(p.CostWeight), Latency: clamp01(p.LatencyWeight)}
	for _, weights := range []map[string]Weight{p.Tools, p.Models} {
		for name, w := range weights {
			if strings.HasSuffix(name, "*") {
				continue
			}
			if v.Tools == nil {
				v.Tools = map[string]float64{}
			}
			v.Tools[name] = max(v.Tools[name], preferWeight(w))
		}
	}
	return v
}

// preferWeight is a tool's or model's weight in P.
func preferWeight(w Weight) float64 {
	if w == WeightPrefer {
		return 1
	}
	return 0
}
