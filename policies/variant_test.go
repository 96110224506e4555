package policies

import (
	"testing"

	"github.com/toolhub/toolhub/hub"
)

func TestParseVariant(t *testing.T) {
	tests := []struct {
		name, in string
		want     Variant
		wantErr  bool
	}{
		{name: "empty is the default", in: "", want: VariantHLE},
		{name: "hle", in: "hle", want: VariantHLE},
		{name: "frames", in: "frames", want: VariantFRAMES},
		{name: "another case is refused", in: "FRAMES", wantErr: true},
		{name: "an unknown name", in: "gaia", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseVariant(tt.in)
			if (err != nil) != tt.wantErr || got != tt.want {
				t.Errorf("ParseVariant(%q) = %q, %v; want %q, error %v", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

// TestExpertSettingsForFRAMES checks the rows of eval_frames.py: every
// expert reads documents in full, GPT-5's total is 160,000 and
// Llama-3.3-70B's code budget 40,000; the rest is the HLE row.
func TestExpertSettingsForFRAMES(t *testing.T) {
	local, remote := hub.LocalityLocal, hub.LocalityRemote
	cases := []expertSettingsCase{
		{"GPT-5 row", "gpt-5", Alias{Role: RoleAnswer, Locality: remote},
			ExpertSettings{Budget: ExpertBudget{Code: 40000, Total: 160000, MaxTokens: 40000}, Temperature: 1, CompletionTokens: true}},
		{"Qwen3-32B row, full documents", "Qwen/Qwen3-32B", Alias{Role: RoleSearch, Locality: local},
			ExpertSettings{Budget: ExpertBudget{Code: 12000, Total: 24000, MaxTokens: 8000}, Temperature: 0.2}},
		{"Coder-32B row, full documents", "Qwen/Qwen2.5-Coder-32B-Instruct", Alias{Role: RoleReason, Locality: local},
			ExpertSettings{Budget: ExpertBudget{Code: 16000, Total: 24000, MaxTokens: 8000}, Temperature: 0.2}},
		{"Llama-3.3-70B row", "meta-llama/Llama-3.3-70B-Instruct", Alias{Role: RoleAnswer, Locality: remote},
			ExpertSettings{Budget: ExpertBudget{Code: 40000, Total: 80000, MaxTokens: 40000}, Temperature: 0.2, Llama: true}},
		{"Math-7B row, full documents", "Qwen/Qwen2.5-Math-7B-Instruct", Alias{Role: RoleAnswer, Locality: local},
			ExpertSettings{Budget: ExpertBudget{Code: 1000, Total: 2000, MaxTokens: 2000}, Temperature: 0.2}},
		{"a larger window keeps FRAMES' largest total", "gpt-5", Alias{Role: RoleSearch, Locality: remote, ContextLength: 1000000},
			ExpertSettings{Budget: ExpertBudget{Code: 40000, Total: 160000, MaxTokens: 40000}, Temperature: 1, CompletionTokens: true}},
		{"unknown local model: 32k, full documents", "acme-7b", Alias{Role: RoleAnswer, Locality: local},
			ExpertSettings{Budget: ExpertBudget{Code: 12288, Total: 24576, MaxTokens: 8192}, Temperature: 0.2}},
		{"unknown model of a huge window: FRAMES' largest total", "acme-large", Alias{Role: RoleAnswer, Locality: remote, ContextLength: 1000000},
			ExpertSettings{Budget: ExpertBudget{Code: 80000, Total: 160000, MaxTokens: 40000}, Temperature: 0.2}},
	}
	checkExpertSettings(t, VariantFRAMES, cases)
}

// TestOrchestratorPolicyInAVariant: orchestrator:VARIANT follows that
// script as it is, whatever the configured variant; plain orchestrator
// keeps the configured one. A configured fallback stays with both.
func TestOrchestratorPolicyInAVariant(t *testing.T) {
	configured := PlannerOptions{Variant: VariantFRAMES, DropSearchWithDocuments: false, Fallback: PolicyRetrieveAnswer}
	tests := []struct {
		name        string
		wantVariant Variant
		wantDrop    bool
	}{
		{name: "orchestrator", wantVariant: VariantFRAMES},
		{name: "orchestrator:hle", wantVariant: VariantHLE},
		{name: "orchestrator:frames", wantVariant: VariantFRAMES, wantDrop: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, got, err := NewPlanner(configured, nil).Policy(tt.name)
			if err != nil || got != tt.name {
				t.Fatalf("policy %q: %v (named %q)", tt.name, err, got)
			}
			o, ok := p.(*Orchestrator)
			if !ok {
				t.Fatalf("policy %q is a %T", tt.name, p)
			}
			if o.Variant != tt.wantVariant || o.DropSearchWithDocuments != tt.wantDrop || o.Fallback == nil {
				t.Errorf("variant %q drop %v fallback %v; want %q, %v and the configured fallback",
					o.Variant, o.DropSearchWithDocuments, o.Fallback != nil, tt.wantVariant, tt.wantDrop)
			}
		})
	}
}
