package conductor

import (
	"fmt"
	"strconv"
	"strings"
)

// doneSoFar says what the episode did, for a run that a limit ended
// without an answer (protocol §3.6 step 7: the stop is reported with the
// trace, not with a made-up answer): the calls that succeeded by alias or tool, those that
// failed or were refused, and the turns, e.g. "done so far in 2 turns: 3
// model calls (orchestrator ×2, expert-1), 1 tool call (kv__get); no
// answer yet".
func (ep *episode) doneSoFar() string {
	ep.mu.Lock()
	defer ep.mu.Unlock()
	var models, tools tally
	failed := 0
	for _, s := range ep.run.Steps {
		switch {
		case s.Kind != StepModel && s.Kind != StepTool:
		case s.Error != "":
			failed++
		case s.Kind == StepModel:
			models.add(firstNonEmpty(s.Alias, s.Endpoint))
		default:
			tools.add(s.Tool)
		}
	}
	var parts []string
	if models.total > 0 {
		parts = append(parts, models.String("model call"))
	}
	if tools.total > 0 {
		parts = append(parts, tools.String("tool call"))
	}
	if failed > 0 {
		parts = append(parts, Count(failed, "call")+" failed or refused")
	}
	if len(parts) == 0 {
		parts = append(parts, "no call completed")
	}
	return "done so far in " + Count(ep.turn, "turn") + ": " + strings.Join(parts, ", ") + "; no answer yet"
}

// tally counts names in the order they first appear.
type tally struct {
	order []string
	count map[string]int
	total int
}

func (t *tally) add(name string) {
	if t.count == nil {
		t.count = map[string]int{}
	}
	if t.count[name] == 0 {
		t.order = append(t.order, name)
	}
	t.count[name]++
	t.total++
}

// String renders "3 model calls (orchestrator ×2, expert-1)".
func (t *tally) String(noun string) string {
	names := make([]string, len(t.order))
	for i, n := range t.order {
		names[i] = n
		if c := t.count[n]; c > 1 {
			names[i] += " ×" + strconv.Itoa(c)
		}
	}
	return fmt.Sprintf("%s (%s)", Count(t.total, noun), strings.Join(names, ", "))
}

// Count is n and the noun, plural unless n is 1: "1 turn", "2 turns". The
// run's totals read this way wherever they are shown.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
