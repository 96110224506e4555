package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

// find_tools tells the client and the model a tool's whole price: per call,
// per second of the call's wall time (the python sandbox's billing), both,
// or free, in its text and in its structured content.
func TestFindToolsSaysThePricePerSecond(t *testing.T) {
	tests := []struct {
		name       string
		tool       hub.Tool
		text       string
		structured string
	}{
		{"free", hub.Tool{Name: "kv__get"}, "free", `"costPerCallUSD":0,`},
		{"per call", hub.Tool{Name: "web__search", CostPerCall: 0.01}, "$0.01 per call", `"costPerCallUSD":0.01,`},
		{"per second", hub.Tool{Name: "python", CostPerSecond: 0.0000083},
			"$0.0000083 per second", `"costPerSecondUSD":0.0000083`},
		{"both", hub.Tool{Name: "box__run", CostPerCall: 0.001, CostPerSecond: 0.0002},
			"$0.001 per call + $0.0002 per second", `"costPerSecondUSD":0.0002`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := tt.tool
			res := findToolsResult("run", []searchHit{{Tool: &tool, Score: 1}}, 1, ExposeSearch, nil)
			if text := resultText(res); !strings.Contains(text, "("+"server , locality unknown, latency not measured yet, "+tt.text+")") {
				t.Errorf("text = %q, want the price %q", text, tt.text)
			}
			raw, err := json.Marshal(res.StructuredContent)
			if err != nil || !strings.Contains(string(raw), tt.structured) {
				t.Errorf("structured = %s (%v), want %s", raw, err, tt.structured)
			}
			if tt.tool.CostPerSecond == 0 && strings.Contains(string(raw), "costPerSecondUSD") {
				t.Errorf("structured = %s, want no price per second for a tool without one", raw)
			}
		})
	}
}

// describe_tool gives the price per second beside the price per call.
func TestDescribeToolGivesThePricePerSecond(t *testing.T) {
	raw, err := json.Marshal(describe(&hub.Tool{Name: "python", CostPerCall: 0.001, CostPerSecond: 0.0000083}))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"costPerCallUSD":0.001`, `"costPerSecondUSD":0.0000083`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("describe_tool = %s, want %s", raw, want)
		}
	}
}
