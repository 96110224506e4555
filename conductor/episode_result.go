package conductor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
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

// endByLimit closes the run with the limit's status, its reason and what
// was done (protocol §3.6 step 7: budget stops end as the turn limit does).
func (ep *episode) endByLimit() {
	ep.mu.Lock()
	stop := *ep.stop
	ep.mu.Unlock()
	ep.run.Status, ep.run.Error = stop.status, stop.reason+"; "+ep.doneSoFar()
}

// endByContext closes a run whose context ended: by the task's deadline
// (RunDeadline, saying what was done) or by the caller (cancelled). No
// answer is made up from the trace: a tool's output is untrusted text, not
// a result (protocol §3.6 step 7, §4 "Mapping to MCP").
func (ep *episode) endByContext(ctx context.Context) {
	if !errors.Is(context.Cause(ctx), errDeadline) {
		ep.run.Status = RunCancelled
		return
	}
	ep.run.Status = RunDeadline
	ep.run.Error = fmt.Sprintf("the deadline of %s passed; %s", ep.deadline, ep.doneSoFar())
}

// LimitError reports a call refused because a limit ended the episode.
type LimitError struct {
	Status RunStatus
	Reason string
}

func (e *LimitError) Error() string { return e.Reason }
