package eval

import (
	"fmt"
	"slices"
	"strings"
)

// maxListedIDs caps the row ids an incompleteness error names.
const maxListedIDs = 5

// IncompleteError refuses a replay set with rows that lack a score for some
// candidate: scoring such a row's missing model 0 would bias every policy
// that picks it.
type IncompleteError struct {
	Rows  int      // rows lacking at least one score
	Total int      // rows in train and test
	First []string // the first offending rows, "id in file (missing a, b)"
}

func (e *IncompleteError) Error() string {
	return fmt.Sprintf("%d of %d rows lack a score for some candidate, first: %s (fill them in, or pass --drop-incomplete to leave those rows out)",
		e.Rows, e.Total, strings.Join(e.First, "; "))
}

// checkComplete returns train and test when every row scores every model;
// otherwise it refuses them with an IncompleteError, or with drop removes
// the incomplete rows and counts them.
func checkComplete(models []ReplayModel, train, test []ReplayRow, drop bool) ([]ReplayRow, []ReplayRow, int, error) {
	e := &IncompleteError{Total: len(train) + len(test)}
	keep := func(rows []ReplayRow, file string) []ReplayRow {
		out := make([]ReplayRow, 0, len(rows))
		for _, r := range rows {
			missing := missingScores(models, r)
			if len(missing) == 0 {
				out = append(out, r)
				continue
			}
			e.Rows++
			if len(e.First) < maxListedIDs {
				e.First = append(e.First, fmt.Sprintf("%s in %s (missing %s)", r.ID, file, strings.Join(missing, ", ")))
			}
		}
		return out
	}
	train, test = keep(train, replayTrainScores), keep(test, replayTestScores)
	if e.Rows > 0 && !drop {
		return nil, nil, 0, e
	}
	return train, test, e.Rows, nil
}

func missingScores(models []ReplayModel, r ReplayRow) []string {
	var missing []string
	for _, m := range models {
		if _, ok := r.Scores[m.Name]; !ok {
			missing = append(missing, m.Name)
		}
	}
	return missing
}

// UnpricedError refuses a model the candidates file gives no prices when
// some row does not record its cost: that answer's cost would be unknown.
type UnpricedError struct {
	Model string
	Rows  int      // rows without the model's cost_usd
	First []string // their first ids
}

func (e *UnpricedError) Error() string {
	return fmt.Sprintf("model %q has no input_price and output_price, and %d rows do not record its cost_usd, first: %s "+
		"(give its prices, or record its cost in every row)", e.Model, e.Rows, strings.Join(e.First, ", "))
}

// checkCosts refuses an unpriced model some row records no cost of.
func checkCosts(models []ReplayModel, train, test []ReplayRow) error {
	for _, m := range models {
		if !m.Unpriced {
			continue
		}
		e := &UnpricedError{Model: m.Name}
		for _, rows := range [][]ReplayRow{train, test} {
			for _, r := range rows {
				if _, ok := r.CostUSD[m.Name]; ok {
					continue
				}
				e.Rows++
				if len(e.First) < maxListedIDs {
					e.First = append(e.First, r.ID)
				}
			}
		}
		if e.Rows > 0 {
			return e
		}
	}
	return nil
}

// checkOutcomeModels refuses a row of the file at path whose cost_usd,
// latency_s, tokens_in or tokens_out names a model no row scores: a
// misspelt name would otherwise be ignored, and the answer charged a proxy
// instead of what it recorded.
func checkOutcomeModels(path string, rows []ReplayRow, models []ReplayModel) error {
	known := make(map[string]bool, len(models))
	for _, m := range models {
		known[m.Name] = true
	}
	for _, r := range rows {
		for _, f := range []struct {
			name   string
			values map[string]float64
		}{{"cost_usd", r.CostUSD}, {"latency_s", r.LatencyS}, {"tokens_in", r.TokensIn}, {"tokens_out", r.TokensOut}} {
			var unknown []string // sorted only when there is one, off the path of a good set
			for m := range f.values {
				if !known[m] {
					unknown = append(unknown, m)
				}
			}
			if len(unknown) > 0 {
				return fmt.Errorf("%s: row %s: %s names model %q, which no row scores (a misspelt name?)", path, r.ID, f.name, slices.Min(unknown))
			}
		}
	}
	return nil
}
