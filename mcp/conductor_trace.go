package mcp

import (
	"fmt"
	"strings"
	"time"

	"github.com/toolhub/toolhub/conductor"
)

// Trace is the structured content of an orchestrate or research result:
// the answer, how the episode ended, and every step with its accounting.
type Trace struct {
	RunID  string      `json:"run_id"`
	Status string      `json:"status" jsonschema:"enum=answered,enum=no_answer,enum=cancelled,enum=failed,enum=budget_exhausted,enum=deadline"`
	Answer string      `json:"answer"`
	Forced bool        `json:"forced,omitempty"` // the answer came from a fallback
	Error  string      `json:"error,omitempty"`
	Mode   string      `json:"mode"`
	Policy string      `json:"policy"`
	Steps  []TraceStep `json:"steps"`
	Totals TraceTotals `json:"totals"`
}

// TraceStep is one step of the trace.
type TraceStep struct {
	Index     int     `json:"index"`
	Turn      int     `json:"turn"`
	Kind      string  `json:"kind"`
	Tool      string  `json:"tool,omitempty"`
	Alias     string  `json:"alias,omitempty"`
	Model     string  `json:"model,omitempty"`
	Locality  string  `json:"locality,omitempty"`
	TokensIn  int     `json:"tokens_in,omitempty"`
	TokensOut int     `json:"tokens_out,omitempty"`
	Estimated bool    `json:"tokens_estimated,omitempty"`
	USD       float64 `json:"usd"`
	// CostUnknown: the model was the client's own (MCP sampling), whose
	// price toolhub cannot know; USD is then 0.
	CostUnknown bool    `json:"cost_unknown,omitempty"`
	Millis      float64 `json:"ms"`
	Error       string  `json:"error,omitempty"`
	// Text is an observation's note (an invalid call, a skipped action),
	// cut to maxObservationChars.
	Text string `json:"text,omitempty"`
}

// maxObservationChars caps an observation's text in a trace.
const maxObservationChars = 500

// TraceTotals sum the steps.
type TraceTotals struct {
	Turns      int     `json:"turns"`
	ModelCalls int     `json:"model_calls"`
	ToolCalls  int     `json:"tool_calls"`
	TokensIn   int     `json:"tokens_in"`
	TokensOut  int     `json:"tokens_out"`
	USD        float64 `json:"usd"`
	Millis     float64 `json:"ms"`
}

// NewTrace turns a run into its trace, every step included: an observation
// step carries its note, cut to maxObservationChars (the whole text is in
// the run log). Only an answered run has an answer.
func NewTrace(run *conductor.Run) Trace {
	t := Trace{RunID: run.ID, Status: string(run.Status), Forced: run.Forced,
		Error: run.Error, Mode: string(run.Mode), Policy: run.Policy, Steps: []TraceStep{}}
	if run.Status == conductor.RunAnswered {
		t.Answer = run.Answer
	}
	for _, s := range run.Steps {
		t.Steps = append(t.Steps, traceStep(s))
	}
	tt := run.Totals
	t.Totals = TraceTotals{Turns: tt.Turns, ModelCalls: tt.ModelCalls, ToolCalls: tt.ToolCalls,
		TokensIn: tt.TokensIn, TokensOut: tt.TokensOut, USD: tt.USD, Millis: millis(tt.Wall)}
	return t
}

func traceStep(s conductor.Step) TraceStep {
	return TraceStep{Index: s.Index, Turn: s.Turn, Kind: string(s.Kind), Tool: s.Tool, Alias: s.Alias,
		Model: s.Model, Locality: string(s.Locality), TokensIn: s.TokensIn, TokensOut: s.TokensOut,
		Estimated: s.Estimated, USD: s.USD, CostUnknown: s.CostUnknown, Millis: millis(s.Wall), Error: s.Error,
		Text: observationText(s)}
}

func observationText(s conductor.Step) string {
	if s.Kind != conductor.StepObservation {
		return ""
	}
	if r := []rune(s.Text); len(r) > maxObservationChars {
		return string(r[:maxObservationChars]) + "…"
	}
	return s.Text
}

func millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Summary is the result's text: the answer, then one line of totals. The
// text follows the status (protocol §3.6 steps 6–7, §4 "End"): an answered
// run shows its answer, or says that the answer is empty; any other run
// says "No answer" with the reason and what was done, whatever text its
// answer field holds.
func (t Trace) Summary() string {
	var b strings.Builder
	switch {
	case t.Status == string(conductor.RunAnswered) && t.Answer == "":
		b.WriteString("The answer is empty.")
	case t.Status == string(conductor.RunAnswered):
		b.WriteString(t.Answer)
	case t.Error != "":
		b.WriteString("No answer: " + t.Error)
	default:
		b.WriteString("No answer.")
	}
	fmt.Fprintf(&b, "\n\n[%s · %s · %s · %s · $%.6f · %s · run %s]",
		t.Status, conductor.Count(t.Totals.Turns, "turn"), conductor.Count(t.Totals.ModelCalls, "model call"), conductor.Count(t.Totals.ToolCalls, "tool call"),
		t.Totals.USD, formatMillis(t.Totals.Millis), t.RunID)
	return b.String()
}

// StepMessage is the progress message of the n-th reported step: what ran,
// on which model, where, how long it took and what it cost.
func StepMessage(n int, s conductor.Step) string {
	var b strings.Builder
	fmt.Fprintf(&b, "step %d (turn %d): ", n, s.Turn)
	switch s.Kind {
	case conductor.StepModel:
		fmt.Fprintf(&b, "model %s → %s", s.Alias, s.Model)
	case conductor.StepTool:
		fmt.Fprintf(&b, "tool %s", s.Tool)
	case conductor.StepAnswer:
		b.WriteString("answer")
	default:
		b.WriteString(string(s.Kind))
	}
	if s.Locality != "" {
		fmt.Fprintf(&b, " · %s", s.Locality)
	}
	if s.Kind == conductor.StepModel || s.Kind == conductor.StepTool {
		fmt.Fprintf(&b, " · %s · %s", formatMillis(millis(s.Wall)), formatUSD(s))
	}
	if s.Error != "" {
		fmt.Fprintf(&b, " · error: %s", firstLine(s.Error, 120))
	}
	return b.String()
}

// formatUSD is a step's cost, or "cost unknown" for the client's own model.
func formatUSD(s conductor.Step) string {
	if s.CostUnknown {
		return "cost unknown"
	}
	return fmt.Sprintf("$%.6f", s.USD)
}

func formatMillis(ms float64) string {
	if ms >= 1000 {
		return fmt.Sprintf("%.1f s", ms/1000)
	}
	return fmt.Sprintf("%.0f ms", ms)
}

func firstLine(s string, max int) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}
