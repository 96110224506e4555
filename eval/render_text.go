package eval

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/toolhub/toolhub/conductor"
)

// CostScale is the unit costs print in: always USD per 1,000 tasks, so
// runs compare at a glance.
func (r *Report) CostScale() (label string, factor float64) {
	return CostUnit, 1000
}

// Tools is the sorted union of tools and models any policy called.
func (r *Report) Tools() []string {
	seen := map[string]bool{}
	for _, p := range r.Policies {
		for t := range p.Calls {
			seen[t] = true
		}
	}
	return slices.Sorted(maps.Keys(seen))
}

// WriteText prints the report as terminal tables: the results, then calls
// per task per tool (the paper's tool-use table), then the sweep summary.
func (r *Report) WriteText(w io.Writer) error {
	label, factor := r.CostScale()
	split := ""
	if r.Split != "" {
		split = " (" + r.Split + " split)"
	}
	fmt.Fprintf(w, "%s eval of %s%s: %s; reward against %s (P: outcome %g, cost %g, latency %g%s)\n\n",
		r.Kind, r.Source, split, conductor.Count(r.Tasks, "task"), r.Base, r.Preference.Outcome, r.Preference.Cost,
		r.Preference.Latency, toolWeightsText(r.Preference.Tools))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "POLICY\tN\tACCURACY\tCOST (%s)\tLATENCY (s)\tREWARD\tFAILED\tFRONTIER\n", label)
	for _, p := range r.Policies {
		fmt.Fprintf(tw, "%s\t%d\t%.3f\t%.4f\t%s\t%.3f\t%d\t%s\n", p.Name, p.Tasks, p.Accuracy, p.CostUSD*factor,
			p.LatencyText(), p.Reward, p.Failed, mark(p.OnFrontier))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, FrontierLegend)
	if err := r.writeToolUse(w); err != nil {
		return err
	}
	r.writeSweep(w, label)
	for _, n := range r.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if r.Command != "" {
		fmt.Fprintf(w, "reproduce: %s\n", r.Command)
	}
	return nil
}

func mark(on bool) string {
	if on {
		return "*"
	}
	return ""
}

func (r *Report) writeToolUse(w io.Writer) error {
	tools := r.Tools()
	if len(tools) == 0 {
		return nil
	}
	fmt.Fprintf(w, "\ncalls per task\n")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "POLICY\t%s\n", strings.Join(tools, "\t"))
	for _, p := range r.Policies {
		cells := make([]string, len(tools))
		for i, t := range tools {
			cells[i] = fmt.Sprintf("%.2f", p.Calls[t])
		}
		fmt.Fprintf(tw, "%s\t%s\n", p.Name, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

func (r *Report) writeSweep(w io.Writer, label string) {
	fmt.Fprintln(w)
	for _, s := range r.Sweeps {
		writeSweepSummary(w, r, s, label)
	}
	r.writeChosen(w, label)
}

// FrontierLegend explains the frontier mark of the results table.
const FrontierLegend = "* on the Pareto frontier: no other policy (the oracle aside) is at least as accurate for less, or more accurate for as much"

// LatencyText is the policy's mean latency in seconds, or "-" when no
// answer it chose had a known one (models of unknown size, none recorded).
func (p PolicyResult) LatencyText() string {
	if !p.LatencyKnown() {
		return "-"
	}
	return fmt.Sprintf("%.2f", p.LatencyS)
}

// toolWeightsText is ", tools NAME W, ..." for P's tool weights, by name;
// "" without any.
func toolWeightsText(weights map[string]float64) string {
	var b strings.Builder
	for i, name := range slices.Sorted(maps.Keys(weights)) {
		if i == 0 {
			b.WriteString(", tools")
		} else {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s %g", name, weights[name])
	}
	return b.String()
}
