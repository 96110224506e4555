package conductor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/toolhub/toolhub/llm"
)

// ResultText joins the text parts of an MCP tool result, capped to max
// characters (0: no cap). Non-text parts are named, not inlined.
func ResultText(raw json.RawMessage, max int) string {
	parts := ResultTexts(raw)
	text := strings.Join(parts, "\n")
	if max > 0 && len(text) > max {
		cut := max
		for cut > 0 && !isRuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "\n[truncated]"
	}
	return text
}

// ResultTexts returns each content part of an MCP tool result as text.
func ResultTexts(raw json.RawMessage) []string {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil
	}
	out := make([]string, 0, len(r.Content))
	for _, c := range r.Content {
		if c.Type == "text" {
			out = append(out, c.Text)
		} else {
			out = append(out, "["+c.Type+" content]")
		}
	}
	return out
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// limitStop is why a limit ended the episode.
type limitStop struct {
	status  RunStatus
	reason  string
	refused bool // a call was refused, so the policy's last turn is incomplete
}

// halt ends the episode with status once the current turn returns; the
// first reason stands. refused says a call was turned away.
func (ep *episode) halt(status RunStatus, reason string, refused bool) {
	ep.mu.Lock()
	defer ep.mu.Unlock()
	if ep.stop == nil {
		ep.stop = &limitStop{status: status, reason: reason}
	}
	ep.stop.refused = ep.stop.refused || refused
}

// limited reports whether a limit ended the episode.
func (ep *episode) limited() bool {
	ep.mu.Lock()
	defer ep.mu.Unlock()
	return ep.stop != nil
}

// refusedByLimit reports whether a limit turned a call away: a final
// decision made after that rests on a call that never ran.
func (ep *episode) refusedByLimit() bool {
	ep.mu.Lock()
	defer ep.mu.Unlock()
	return ep.stop != nil && ep.stop.refused
}

// endByLimit closes the run with the limit's status and the best partial
// answer.
func (ep *episode) endByLimit() {
	ep.mu.Lock()
	stop := *ep.stop
	ep.mu.Unlock()
	ep.run.Status, ep.run.Error = stop.status, stop.reason
	ep.keepPartial()
}

// endByContext closes a run whose context ended: by the task's deadline
// (RunDeadline, with the best partial answer) or by the caller (cancelled).
func (ep *episode) endByContext(ctx context.Context) {
	if !errors.Is(context.Cause(ctx), errDeadline) {
		ep.run.Status = RunCancelled
		return
	}
	ep.run.Status = RunDeadline
	ep.run.Error = fmt.Sprintf("the deadline of %s passed", ep.deadline)
	ep.keepPartial()
}

// keepPartial sets the run's answer to the last successful tool result or
// expert model reply, marked partial.
func (ep *episode) keepPartial() {
	ep.mu.Lock()
	defer ep.mu.Unlock()
	steps := ep.run.Steps
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		useful := s.Kind == StepTool || (s.Kind == StepModel && s.Endpoint != ep.orchestrator)
		if useful && s.Error == "" && strings.TrimSpace(s.Response) != "" {
			ep.run.Answer, ep.run.Partial = s.Response, true
			return
		}
	}
}

// LimitError reports a call refused because a limit ended the episode.
type LimitError struct {
	Status RunStatus
	Reason string
}

func (e *LimitError) Error() string { return e.Reason }

// DefaultExpectedOutputTokens is the completion size the budget check
// assumes for a request that sets no max_tokens.
const DefaultExpectedOutputTokens = 1024

// expectedTokens estimates a request's prompt tokens from its size and its
// completion tokens from its max_tokens, for the check before the call.
func expectedTokens(body []byte) (in, out int) {
	var r struct {
		MaxTokens           int `json:"max_tokens"`
		MaxCompletionTokens int `json:"max_completion_tokens"`
	}
	_ = json.Unmarshal(body, &r)
	out = max(r.MaxTokens, r.MaxCompletionTokens)
	if out <= 0 {
		out = DefaultExpectedOutputTokens
	}
	return (len(body) + llm.CharsPerToken - 1) / llm.CharsPerToken, out
}

// admit checks a call before it is made: refused once a limit ended the
// episode, and refused (ending the episode) when its expected cost would
// take the spend past the budget.
func (ep *episode) admit(expectedUSD float64, what string) error {
	ep.mu.Lock()
	stop, spent := ep.stop, ep.run.Totals.USD
	ep.mu.Unlock()
	if stop != nil {
		ep.halt(stop.status, stop.reason, true)
		return &LimitError{Status: stop.status, Reason: stop.reason}
	}
	if ep.budget <= 0 || spent+expectedUSD <= ep.budget {
		return nil
	}
	reason := fmt.Sprintf("budget: %s would cost about %s with %s of the %s budget spent",
		what, usd(expectedUSD), usd(spent), usd(ep.budget))
	ep.halt(RunBudgetExhausted, reason, true)
	return &LimitError{Status: RunBudgetExhausted, Reason: reason}
}

// settle ends the episode once the real spend reaches the budget.
func (ep *episode) settle() {
	ep.mu.Lock()
	spent := ep.run.Totals.USD
	ep.mu.Unlock()
	if ep.budget > 0 && spent >= ep.budget {
		ep.halt(RunBudgetExhausted, fmt.Sprintf("budget: %s of the %s budget is spent", usd(spent), usd(ep.budget)), false)
	}
}

// usd renders an amount for messages: "$0.02", rounded to 1e-8 so that
// float sums print as people write them.
func usd(v float64) string {
	return "$" + strconv.FormatFloat(math.Round(v*1e8)/1e8, 'f', -1, 64)
}
