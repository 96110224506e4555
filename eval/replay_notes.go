package eval

import (
	"fmt"
	"strings"
)

// replayNotes says what a replay's figures rest on: rows dropped, where
// costs came from, how latency was had.
func replayNotes(set *ReplaySet) []string {
	var notes []string
	if set.splitName() == SplitValidation {
		notes = append(notes, fmt.Sprintf("scored on validation: the %d%% of train rows whose question hashes below it; "+
			"the routers learn from the other train rows and the test split is not read", ValidationPercent))
	} else {
		notes = append(notes, fmt.Sprintf("%s also in train %s dropped", counted(set.Dropped, "test row"), pick(set.Dropped, "was", "were")))
	}
	if set.Incomplete > 0 {
		notes = append(notes, fmt.Sprintf("%s lacking a score for some candidate %s dropped (--drop-incomplete)",
			counted(set.Incomplete, "row"), pick(set.Incomplete, "was", "were")))
	}
	src := costSources(set.Models, set.Test)
	total := src[CostRecorded] + src[CostTokens] + src[CostProxy]
	var parts []string
	for _, k := range []string{CostRecorded, CostTokens, CostProxy} {
		if src[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, src[k]))
		}
	}
	notes = append(notes, fmt.Sprintf("answer costs of %d (row, model) pairs: %s", total, strings.Join(parts, ", ")))
	if src[CostProxy] > 0 {
		notes = append(notes, CostModelNote)
	}
	if unrecordedLatencies(set.Models, set.Test) > 0 {
		notes = append(notes, LatencyModelNote)
	} else {
		notes = append(notes, "every answer's latency is recorded in the replay set")
	}
	return append(notes, estimateNotes(set.estimateChoice())...)
}

// counted is "1 row" or "n rows".
func counted(n int, noun string) string {
	return fmt.Sprintf("%d %s", n, pick(n, noun, noun+"s"))
}

// pick is one when n is 1, else many.
func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// unrecordedLatencies counts the (row, model) pairs of rows whose latency
// is not recorded.
func unrecordedLatencies(models []ReplayModel, rows []ReplayRow) int {
	n := 0
	for _, r := range rows {
		for _, m := range models {
			if _, ok := r.LatencyS[m.Name]; !ok {
				n++
			}
		}
	}
	return n
}

// estimateNotes say how the routers estimated what train records, and
// what chose it; nothing for a set that records no outcome.
func estimateNotes(c EstimateChoice) []string {
	var notes []string
	if c.CostN > 0 {
		notes = append(notes, "routers' cost estimate before answering (as a ratio to the proxy for a model with prices): "+
			estimateNote(c.CostK, c.CostError, c.CostErrorPerModel, c.CostN))
	}
	if c.LatencyN > 0 {
		notes = append(notes, "routers' latency estimate before answering: "+
			estimateNote(c.LatencyK, c.LatencyError, c.LatencyPerModel, c.LatencyN))
	}
	return notes
}

func estimateNote(k int, err, perModel float64, n int) string {
	if k == 0 {
		return fmt.Sprintf("one figure per model from train (out of fold, mean |ln(estimate/recorded)| %.3f over %d answers; "+
			"the most similar train questions did not do %d%% better)", perModel, n, int(nearGain*100))
	}
	return fmt.Sprintf("the mean of the %d most similar train questions' records (out of fold, mean |ln(estimate/recorded)| %.3f "+
		"over %d answers, against %.3f for one figure per model)", k, err, n, perModel)
}
