package policies

import (
	"encoding/json"
	"testing"
)

func TestToolRequestNamesToolChoiceOnlyWithTools(t *testing.T) {
	tools := ToolModeTools([]ToolSpec{{Name: "lookup", Description: "finds a booking"}}, nil)
	cases := []struct {
		name  string
		req   ChatRequest
		tools bool
	}{
		{"tool mode with a tool", ToolModeRequest("m", 0, nil, tools), true},
		{"tool mode with none", ToolModeRequest("m", 0, nil, nil), false},
		{"research mode", ResearchRequest("m", 0, nil, ResearchTools(paperAliases())), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body, err := json.Marshal(tc.req)
			if err != nil {
				t.Fatal(err)
			}
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(body, &fields); err != nil {
				t.Fatal(err)
			}
			for _, key := range []string{"tools", "tool_choice", "parallel_tool_calls"} {
				if _, ok := fields[key]; ok != tc.tools {
					t.Errorf("%s present: %v, want %v (body %s)", key, ok, tc.tools, body)
				}
			}
		})
	}
}
