package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

// A tool priced by the second (the python sandbox) shows both prices, in
// the table and in --json; one priced per call alone shows that price.
func TestToolsShowThePricePerSecond(t *testing.T) {
	for _, tc := range []struct {
		name     string
		tool     hub.Tool
		text     string
		json     string
		noSecond bool
	}{
		{"per call", hub.Tool{Name: "web_search", CostPerCall: 0.01}, "0.01", `"costPerCall":0.01`, true},
		{"per second", hub.Tool{Name: "python", CostPerSecond: 0.0000083}, "0+0.0000083/s", `"costPerSecond":0.0000083`, false},
		{"free", hub.Tool{Name: "search_documents"}, "0", `"costPerCall":0`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.tool.Stats = &hub.ToolStats{}
			if got := costText(&tc.tool); got != tc.text {
				t.Errorf("costText = %q, want %q", got, tc.text)
			}
			raw, err := json.Marshal(toolViews([]*hub.Tool{&tc.tool}))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(raw), tc.json) || tc.noSecond == strings.Contains(string(raw), "costPerSecond") {
				t.Errorf("--json view %s: want %s, costPerSecond only when set", raw, tc.json)
			}
		})
	}
}
