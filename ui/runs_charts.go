package ui

import (
	"fmt"
	"sort"
)

// spendPerDay sums run costs per local calendar day, for the last days
// that had runs, oldest first.
func spendPerDay(runs []RunSummary, days int) []Bar {
	totals := map[string]float64{}
	for _, r := range runs {
		totals[r.Started.Local().Format("2006-01-02")] += r.USD
	}
	keys := make([]string, 0, len(totals))
	for k := range totals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > days {
		keys = keys[len(keys)-days:]
	}
	bars := make([]Bar, len(keys))
	for i, k := range keys {
		bars[i] = Bar{Label: k[5:], Value: totals[k], Text: usd(totals[k])}
	}
	return bars
}

// toolMix counts a run's tool and model calls by name, most used first, as
// in the ToolOrchestra paper's tool-use table.
func toolMix(steps []RunStep) []Bar {
	counts := map[string]int{}
	for _, s := range steps {
		if (s.Kind == "tool" || s.Kind == "model") && s.Name != "" {
			counts[s.Name]++
		}
	}
	bars := make([]Bar, 0, len(counts))
	for name, n := range counts {
		bars = append(bars, Bar{Label: name, Value: float64(n), Text: fmt.Sprint(n)})
	}
	sort.Slice(bars, func(i, j int) bool {
		if bars[i].Value != bars[j].Value {
			return bars[i].Value > bars[j].Value
		}
		return bars[i].Label < bars[j].Label
	})
	return bars
}
