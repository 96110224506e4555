package eval

import (
	"fmt"
	"io"
)

// ChosenRule is how a replay picks one of its routers' operating points,
// on the train split only, so that a report names one setting to use.
const ChosenRule = "the router whose operating point is the most accurate out of fold on train, among those whose cost " +
	"stays within half the strongest model's in 90% of redraws of the task families (else among all); " +
	"a tie goes to the cheaper point"

// chooseRouter applies ChosenRule to the routers' sweeps; nil when none
// has an operating point.
func chooseRouter(sweeps []*SweepSummary) *SweepSummary {
	var best *SweepSummary
	for _, s := range sweeps {
		if s.Operating != nil && (best == nil || betterOperating(s.Operating, best.Operating)) {
			best = s
		}
	}
	return best
}

// betterOperating reports whether operating point a beats b under
// ChosenRule.
func betterOperating(a, b *OperatingPoint) bool {
	aIn, bIn := a.CVShareHigh <= OperatingBudget, b.CVShareHigh <= OperatingBudget
	switch {
	case aIn != bIn:
		return aIn
	case a.CVAccuracy != b.CVAccuracy:
		return a.CVAccuracy > b.CVAccuracy
	}
	return a.CVShare < b.CVShare
}

// setChosen names the chosen operating point on the report, and says how
// it was chosen, when some router has one.
func (r *Report) setChosen() {
	s := chooseRouter(r.Sweeps)
	if s == nil {
		return
	}
	r.Chosen = s.Operating.Policy
	r.Notes = append(r.Notes, "chosen: "+ChosenRule)
}

// ChosenSweep is the sweep of the router whose operating point is
// Chosen; nil when none is.
func (r *Report) ChosenSweep() *SweepSummary {
	for _, s := range r.Sweeps {
		if s.Operating != nil && r.Chosen != "" && s.Operating.Policy == r.Chosen {
			return s
		}
	}
	return nil
}

// writeChosen prints the chosen operating point and what it gives on the
// scored rows.
func (r *Report) writeChosen(w io.Writer, label string) {
	s := r.ChosenSweep()
	if s == nil {
		return
	}
	op := s.Operating
	fmt.Fprintf(w, "chosen on train out of fold, among the routers: %s (there %.3f at %.0f%% of the strongest's cost); here %.3f at %.4f %s, %.0f%% of the cost of the best single model (%.3f)\n",
		op.Policy, op.CVAccuracy, 100*op.CVShare, op.Accuracy, op.Cost, label, 100*ratioOr0(op.Cost, s.BestCost), s.BestAcc)
}
