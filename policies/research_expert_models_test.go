package policies

import "testing"

func TestForOpenAIReasoning(t *testing.T) {
	cases := []struct {
		name, model   string
		temperature   float64
		maxTokens     int
		maxCompletion int
	}{
		{"GPT-5: completion cap, temperature 1", "gpt-5", 1, 0, 8000},
		{"o-series as GPT-5", "openai/o4-mini", 1, 0, 8000},
		{"Qwen3 unchanged", "Qwen/Qwen3-32B", 0, 8000, 0},
		{"unknown model unchanged", "acme-large", 0, 8000, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := forOpenAIReasoning(ToolModeRequest(tc.model, 0, nil, nil))
			if *got.Temperature != tc.temperature || got.MaxTokens != tc.maxTokens || got.MaxCompletionTokens != tc.maxCompletion {
				t.Errorf("temperature %v max_tokens %d max_completion_tokens %d, want %v %d %d",
					*got.Temperature, got.MaxTokens, got.MaxCompletionTokens, tc.temperature, tc.maxTokens, tc.maxCompletion)
			}
		})
	}
}
