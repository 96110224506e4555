package policies

import (
	"encoding/json"
	"testing"
	"time"
)

// The search and call_expert argument descriptions exactly as the model saw
// them (training tools.json; τ² llm_utils.py extra_tool).
const (
	trainedSearchArg = "The model used to search for missing information. Choices: ['search-1', 'search-2', 'search-3']. search-1 usually identifies the missing information and can write concise queries for effective search. search-2 can reason over the context and write queries to find the missing content for answering questions. search-3 can also write queries to find information. The table below shows the pricing and latency:\nModel | price per million input tokens | price per million output tokens | average latency\nsearch-1 | $1.25 | $10 | 22s\nsearch-2 | $0.25 | $2 | 16s\nsearch-3 | $0.8 | $0.8 | 8s"
	trainedExpertArg = "The expert. Choices: ['expert-1', 'expert-2', 'expert-3']. expert-1 exhibits strong functional calling abilities and performs excellent in most domains (math, physics, social science, etc.), but could lack domain knowledge in some cases. expert-2 presents reasonable solutions in most tasks, but could get stuck in complex reasoning and specific domain knowledge. expert-3 demonstrates moderate performance: it can parse complex prompts, performs some mathematical derivations, call functions, yet it sometimes misreads details, mixes concepts. The table below shows the pricing and latency of each model:\nModel | price per million input tokens | price per million output tokens | average latency\nexpert-1 | $1.25 | $10 | 96s\nexpert-2 | $0.25 | $2 | 27s\nexpert-3 | $0.8 | $0.8 | 11s"
)

func TestResearchToolsMatchTrainedText(t *testing.T) {
	tools := ResearchTools(paperAliases())
	if len(tools) != 3 {
		t.Fatalf("got %d tools, want 3", len(tools))
	}
	search := tools[2].Function
	if search.Name != "search" || search.Description != "Search for missing information" {
		t.Fatalf("third tool = %s %q", search.Name, search.Description)
	}
	wantParams := `{"properties":{"model":{"description":` + jsonString(t, trainedSearchArg) + `,"type":"string"}},"required":["model"],"title":"parameters","type":"object"}`
	if string(search.Parameters) != wantParams {
		t.Errorf("search parameters:\n got %s\nwant %s", search.Parameters, wantParams)
	}
}

func TestCallExpertMatchesTrainedText(t *testing.T) {
	tools := ToolModeTools(nil, paperExperts())
	if len(tools) != 1 || tools[0].Function.Name != "call_expert" {
		t.Fatalf("tools = %+v", tools)
	}
	fn := tools[0].Function
	if fn.Description != "Call the expert such that the user request can be better solved compared to existing functions" {
		t.Errorf("description = %q", fn.Description)
	}
	wantParams := `{"properties":{"expert":{"description":` + jsonString(t, trainedExpertArg) + `,"title":"Expression","type":"string"}},"required":["expert"],"title":"parameters","type":"object"}`
	if string(fn.Parameters) != wantParams {
		t.Errorf("call_expert parameters:\n got %s\nwant %s", fn.Parameters, wantParams)
	}
}

func TestResearchToolsFiltering(t *testing.T) {
	tests := []struct {
		name    string
		aliases []Alias
		want    []string
	}{
		{"all roles", paperAliases(), []string{"enhance_reasoning", "answer", "search"}},
		{"no reasoner left", onlyAliases(paperAliases(), "search-3", "answer-4"), []string{"answer", "search"}},
		{"answer only", onlyAliases(paperAliases(), "answer-2"), []string{"answer"}},
		{"experts are not research tools", paperExperts(), nil},
		{"none", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, tool := range ResearchTools(tt.aliases) {
				got = append(got, tool.Function.Name)
			}
			if !equalStrings(got, tt.want) {
				t.Errorf("tools = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDescribeWithoutCapabilities(t *testing.T) {
	got := describeAliases("The model used to answer.", tableIntro, []Alias{{Name: "answer-9", PriceIn: 0, PriceOut: 0.05, Latency: 1500 * time.Millisecond}})
	want := "The model used to answer. Choices: ['answer-9']. The table below shows the pricing and latency:\nModel | price per million input tokens | price per million output tokens | average latency\nanswer-9 | $0 | $0.05 | 2s"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

func TestFormatPrice(t *testing.T) {
	tests := []struct {
		price float64
		want  string
	}{
		{1.25, "$1.25"}, {10, "$10"}, {0.2, "$0.2"}, {0.25, "$0.25"}, {0.8, "$0.8"},
		{4.4, "$4.4"}, {75, "$75"}, {0, "$0"}, {0.005, "$0.005"}, {2.50, "$2.5"},
	}
	for _, tt := range tests {
		if got := FormatPrice(tt.price); got != tt.want {
			t.Errorf("FormatPrice(%v) = %q, want %q", tt.price, got, tt.want)
		}
	}
}

func TestFormatLatency(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{22 * time.Second, "22s"}, {1400 * time.Millisecond, "1s"}, {1600 * time.Millisecond, "2s"},
		{300 * time.Millisecond, "1s"}, {0, "0s"}, {95500 * time.Millisecond, "96s"}, {3 * time.Minute, "180s"},
	}
	for _, tt := range tests {
		if got := FormatLatency(tt.d); got != tt.want {
			t.Errorf("FormatLatency(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestPythonList(t *testing.T) {
	if got := pythonList([]string{"search-1", "it's"}); got != `['search-1', 'it\'s']` {
		t.Errorf("pythonList = %s", got)
	}
	if got := pythonList(nil); got != "[]" {
		t.Errorf("pythonList(nil) = %s", got)
	}
}

func jsonString(t *testing.T, s string) string {
	t.Helper()
	b, err := encodeJSON(s, "")
	if err != nil {
		t.Fatal(err)
	}
	var back string
	if err := json.Unmarshal(b, &back); err != nil || back != s {
		t.Fatalf("round trip of %q failed: %v", s, err)
	}
	return string(b)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
