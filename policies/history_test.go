package policies

import (
	"fmt"
	"strings"
	"testing"
)

// unitCounter counts one token per message-sized unit: every text counts
// its number of '#' characters, so each message's size is set by its
// content alone.
type unitCounter struct{}

func (unitCounter) Count(text string) int { return strings.Count(text, "#") }

func sized(role string, n int, label string) Message {
	return Message{Role: role, Content: label + strings.Repeat("#", n)}
}

func labels(msgs []Message) string {
	var out []string
	for _, m := range msgs {
		out = append(out, strings.TrimRight(m.Content, "#"))
	}
	return strings.Join(out, " ")
}

func TestCutMiddleTurns(t *testing.T) {
	assistantCall := func(label string, n int) Message {
		m := sized(RoleAssistant, n, label)
		m.ToolCalls = []ToolCall{{ID: label, Type: "function", Function: FunctionCall{Name: "f", Arguments: "{}"}}}
		return m
	}
	tests := []struct {
		name string
		msgs []Message
		max  int
		want string
	}{
		{"under the limit", []Message{sized(RoleSystem, 10, "s"), sized(RoleUser, 10, "u1")}, 20, "s u1"},
		{"drops the middle", []Message{
			sized(RoleSystem, 10, "s"), sized(RoleUser, 10, "u1"), sized(RoleAssistant, 10, "a1"),
			sized(RoleUser, 10, "u2"), sized(RoleAssistant, 10, "a2"), sized(RoleUser, 10, "u3"),
		}, 40, "s u1 a2 u3"},
		{"tail includes the message holding the boundary", []Message{
			sized(RoleSystem, 10, "s"), sized(RoleUser, 10, "u1"), sized(RoleAssistant, 10, "a1"),
			sized(RoleUser, 10, "u2"), sized(RoleAssistant, 15, "a2"), sized(RoleUser, 10, "u3"),
		}, 40, "s u1 a2 u3"},
		{"system kept even when larger than half", []Message{
			sized(RoleSystem, 30, "s"), sized(RoleUser, 10, "u1"), sized(RoleAssistant, 10, "a1"), sized(RoleUser, 10, "u2"),
		}, 40, "s a1 u2"},
		{"tail never starts on a tool result", []Message{
			sized(RoleSystem, 10, "s"), sized(RoleUser, 10, "u1"), sized(RoleUser, 10, "u2"),
			assistantCall("a1", 2), sized(RoleTool, 30, "t1"),
		}, 50, "s u1 a1 t1"},
		{"head never ends between a call and its result", []Message{
			sized(RoleSystem, 10, "s"), assistantCall("a1", 5), sized(RoleTool, 20, "t1"),
			sized(RoleUser, 30, "u1"), sized(RoleUser, 30, "u2"), sized(RoleUser, 10, "u3"),
		}, 40, "s u2 u3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CutMiddleTurns(tt.msgs, tt.max, unitCounter{})
			if labels(got) != tt.want {
				t.Errorf("kept %q, want %q", labels(got), tt.want)
			}
		})
	}
}

func TestCutMiddleTurnsDoesNotAliasInput(t *testing.T) {
	msgs := []Message{sized(RoleSystem, 10, "s"), sized(RoleUser, 30, "u1"), sized(RoleUser, 30, "u2"), sized(RoleUser, 10, "u3")}
	got := CutMiddleTurns(msgs, 40, unitCounter{})
	got[1].Content = "changed"
	if msgs[3].Content == "changed" || labels(msgs) != "s u1 u2 u3" {
		t.Error("the cut wrote into the caller's slice")
	}
}

func TestToolModeMessagesBudgetCountsSchemas(t *testing.T) {
	var history []Message
	for i := 0; i < 200; i++ {
		history = append(history, Message{Role: RoleUser, Content: fmt.Sprintf("turn %d %s", i, strings.Repeat("w", 400))})
	}
	c := EstimateCounter{}
	small := ToolModeMessages("sys", history, nil, c)
	big := ToolModeMessages("sys", history, ToolModeTools([]ToolSpec{{Name: "x", Description: strings.Repeat("d", 20000)}}, nil), c)
	if len(small) >= len(history)+1 || len(big) >= len(small) {
		t.Errorf("kept %d messages without schemas and %d with large schemas, of %d", len(small), len(big), len(history)+1)
	}
	if small[0].Role != RoleSystem || small[0].Content != "sys" || !strings.HasPrefix(small[len(small)-1].Content, "turn 199 ") {
		t.Errorf("cut lost the system message or the latest turn")
	}
	total := 0
	for _, m := range small {
		b, _ := encodeJSON(m, "")
		total += c.Count(string(b))
	}
	if total > toolModeHistoryLimit {
		t.Errorf("kept %d tokens, over %d", total, toolModeHistoryLimit)
	}
}
