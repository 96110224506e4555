package eval

import (
	"fmt"
	"io"
)

// writeSweepSummary prints one router's sweep: against the best single
// model, its operating point, and the fixed-grid figures.
func writeSweepSummary(w io.Writer, r *Report, s *SweepSummary, label string) {
	fmt.Fprintf(w, "%s: best single model %s, accuracy %.3f at %.4f %s\n", s.Router, s.BestSingle, s.BestAcc, s.BestCost, label)
	if s.Matching != "" {
		m, _ := r.Find(s.Matching)
		fmt.Fprintf(w, "  cheapest sweep point matching it: %s, accuracy %.3f at %.4f %s (%.0f%% of its cost)\n",
			s.Matching, m.Accuracy, m.CostPer1k, label, 100*(1-s.Saving))
	} else {
		fmt.Fprintf(w, "  no sweep point reaches its accuracy\n")
	}
	fmt.Fprintf(w, "  accuracy gain at no more than its cost: %+.3f\n", s.Gain)
	if op := s.Operating; op != nil {
		reached := "reaches"
		if !op.Reached {
			reached = "does not reach"
		}
		fmt.Fprintf(w, "  operating point chosen on train out of fold: %s (there %.3f at %.0f%% of the strongest's cost, %.0f%% in 90%% of family redraws, %s the strongest's %.3f within half its cost); here %.3f at %.4f %s (%.0f%% of the best single's cost)\n",
			op.Policy, op.CVAccuracy, 100*op.CVShare, 100*op.CVShareHigh, reached, op.CVTarget, op.Accuracy, op.Cost, label, 100*ratioOr0(op.Cost, s.BestCost))
	}
	fmt.Fprintf(w, "  fixed grid: AIQ %.3f, APGR %.3f (strong %s %.3f at %.4f, weak %s %.3f at %.4f %s), CPT(50%%) %s, accuracy at half the strong's cost %.3f\n",
		s.AIQ, s.APGR, s.Strong, s.StrongAcc, s.StrongCost, s.Weak, s.WeakAcc, s.WeakCost, label, cptText(s, label), s.AccAtHalf)
}

func cptText(s *SweepSummary, label string) string {
	if s.CPT50 == nil {
		return "not reached"
	}
	return fmt.Sprintf("%.4f %s (%.0f%% of the strong model's cost)", *s.CPT50, label, 100**s.CPT50Share)
}

func ratioOr0(a, b float64) float64 {
	if b <= 0 {
		return 0
	}
	return a / b
}
