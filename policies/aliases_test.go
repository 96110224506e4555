package policies

import (
	"strings"
	"testing"
)

func TestKnownPrice(t *testing.T) {
	tests := []struct {
		id      string
		in, out float64
		ok      bool
	}{
		{"gpt-5", 1.25, 10, true},
		{"openai/gpt-5", 1.25, 10, true},
		{"GPT-5", 1.25, 10, true},
		{"gpt-5-2025-08-07", 1.25, 10, true},
		{"gpt-5-mini", 0.25, 2, true},
		{"openai/gpt-5-mini-2025-08-07", 0.25, 2, true},
		{"o3-mini", 1.1, 4.4, true},
		{"Qwen/Qwen3-32B", 0.8, 0.8, true},
		{"qwen3:32b", 0.8, 0.8, true},
		{"Qwen/Qwen3-32B-FP8", 0.8, 0.8, true},
		{"qwen3-32b-q4_K_M", 0.8, 0.8, true},
		{"Qwen/Qwen2.5-Coder-32B-Instruct", 0.8, 0.8, true},
		{"Qwen/Qwen2.5-Math-72B-Instruct", 0.9, 0.9, true},
		{"Qwen/Qwen2.5-Math-7B-Instruct", 0.2, 0.2, true},
		{"meta-llama/Llama-3.3-70B-Instruct", 0.9, 0.9, true},
		{"meta-llama/Llama-3.3-70B-Instruct-Turbo", 0.9, 0.9, true},
		{"Qwen/Qwen3-8B", 0.2, 0.2, true},
		{"nvidia/Nemotron-Orchestrator-8B", 0.2, 0.2, true},
		{"bartowski/nvidia_Orchestrator-8B-GGUF", 0.2, 0.2, true},
		{"claude-opus-4-1-20250805", 15, 75, true},
		{"claude-4.1-opus", 15, 75, true},
		{"anthropic/claude-sonnet-4", 3, 15, true},
		{"Qwen/Qwen3-235B-A22B-Instruct-2507", 0.9, 0.9, true},
		{"Qwen/Qwen3-235B-A22B-Thinking-2507-FP8", 0.9, 0.9, true},
		{"nvidia/Llama-3_3-Nemotron-Super-49B-v1", 0, 0, false}, // underscore spelling is not guessed
		{"nvidia/Llama-3.3-Nemotron-Super-49B-v1", 0.9, 0.9, true},
		{"gpt-5-nano", 0, 0, false},
		{"gpt-4o", 0, 0, false},
		{"qwen3-32b-extra", 0, 0, false},
		{"", 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			in, out, ok := KnownPrice(tt.id)
			if in != tt.in || out != tt.out || ok != tt.ok {
				t.Errorf("KnownPrice(%q) = %v, %v, %v; want %v, %v, %v", tt.id, in, out, ok, tt.in, tt.out, tt.ok)
			}
		})
	}
}

// TestKnownPricesArePerMillion guards against the reference's bug of
// dividing some input prices by 10,000,000: the cheapest list price of the
// reference is $0.2 per 1M, and that bug would push gpt-5, gpt-5-mini and
// o3-mini inputs below it.
func TestKnownPricesArePerMillion(t *testing.T) {
	for id, p := range knownPrices {
		if p.in < 0.2 || p.out < 0.2 {
			t.Errorf("%s: implausible price %v / %v per 1M", id, p.in, p.out)
		}
	}
	if in, _, _ := KnownPrice("gpt-5"); in != 1.25 {
		t.Errorf("gpt-5 input = %v, want 1.25 per 1M", in)
	}
}

func TestAliasValidation(t *testing.T) {
	ok := Alias{Name: "answer-4", Role: RoleAnswer, AnswerStyle: StyleBoxed}
	tests := []struct {
		name    string
		aliases []Alias
		want    string // part of the error, "" for none
	}{
		{"paper set", append(paperAliases(), paperExperts()...), ""},
		{"answer needs a style", []Alias{{Name: "answer-9", Role: RoleAnswer}}, `answer style ""`},
		{"unknown role", []Alias{{Name: "x-1", Role: "plan"}}, `unknown role "plan"`},
		{"quote in name", []Alias{{Name: "it's", Role: RoleSearch}}, "name must be"},
		{"pipe in name breaks the table", []Alias{{Name: "a|b", Role: RoleSearch}}, "name must be"},
		{"empty name", []Alias{{Role: RoleSearch}}, "name must be"},
		{"negative price", []Alias{{Name: "s-1", Role: RoleSearch, PriceIn: -1}}, "must not be negative"},
		{"duplicate", []Alias{ok, ok}, `"answer-4" is listed twice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateAliases(tt.aliases)
			if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
				t.Errorf("ValidateAliases = %v, want %q", err, tt.want)
			}
		})
	}
}

func TestOfferedFrom(t *testing.T) {
	offered := OfferedFrom(append(paperAliases(), paperExperts()...))
	want := map[string][]string{
		"search":            {"search-1", "search-2", "search-3"},
		"enhance_reasoning": {"reasoner-1", "reasoner-2", "reasoner-3"},
		"answer":            {"answer-1", "answer-2", "answer-3", "answer-4", "answer-math-1", "answer-math-2"},
	}
	if len(offered) != len(want) {
		t.Fatalf("offered = %v", offered)
	}
	for tool, aliases := range want {
		if !equalStrings(offered[tool], aliases) {
			t.Errorf("%s: %v, want %v", tool, offered[tool], aliases)
		}
	}
	if a, found := FindAlias(paperAliases(), "answer-4"); !found || a.AnswerStyle != StyleBoxed {
		t.Errorf("FindAlias = %+v, %v", a, found)
	}
	if _, found := FindAlias(paperAliases(), "answer-9"); found {
		t.Error("FindAlias found a missing alias")
	}
}
