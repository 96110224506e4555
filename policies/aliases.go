package policies

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/toolhub/toolhub/hub"
)

// Alias roles: which research tool (or tool-mode expert slot) an alias serves.
const (
	RoleSearch = "search"
	RoleReason = "reason"
	RoleAnswer = "answer"
	RoleExpert = "expert"
)

// Answer styles: how an answer expert is prompted and its answer extracted.
const (
	StyleBoxed  = "boxed"  // system message asking for \boxed{}; Qwen3 and Qwen2.5-Math experts
	StyleTagged = "tagged" // <answer></answer> suffix; GPT-5 and Llama experts
)

// Research-mode tool names, as in the model's training tools.json.
const (
	ToolSearch  = "search"
	ToolReason  = "enhance_reasoning"
	ToolAnswer  = "answer"
	ToolExperts = "call_expert"
)

// Alias is one model as the orchestrator sees it: a neutral name, never the
// real model id, plus what the descriptions and budgets need.
type Alias struct {
	Name          string        // e.g. "search-1"
	Role          string        // RoleSearch, RoleReason, RoleAnswer or RoleExpert
	Capability    string        // one short comparative sentence, shown to the model
	PriceIn       float64       // USD per 1M input tokens
	PriceOut      float64       // USD per 1M output tokens
	Latency       time.Duration // measured moving average, or a static figure
	AnswerStyle   string        // StyleBoxed or StyleTagged; answer aliases only
	ContextLength int           // the endpoint's context window in tokens; 0 = unknown
	Locality      hub.Locality  // whether calling it keeps data on this machine
}

// Validate checks the fields the renderers rely on.
func (a Alias) Validate() error {
	if a.Name == "" || strings.ContainsAny(a.Name, "'\"\n|") {
		return fmt.Errorf("alias %q: name must be non-empty without quotes, '|' or newlines", a.Name)
	}
	switch a.Role {
	case RoleSearch, RoleReason, RoleExpert:
	case RoleAnswer:
		if a.AnswerStyle != StyleBoxed && a.AnswerStyle != StyleTagged {
			return fmt.Errorf("alias %q: answer style %q is neither %q nor %q", a.Name, a.AnswerStyle, StyleBoxed, StyleTagged)
		}
	default:
		return fmt.Errorf("alias %q: unknown role %q", a.Name, a.Role)
	}
	if a.PriceIn < 0 || a.PriceOut < 0 || a.Latency < 0 || a.ContextLength < 0 {
		return fmt.Errorf("alias %q: prices, latency and context length must not be negative", a.Name)
	}
	return nil
}

// ValidateAliases checks every alias and that names are unique.
func ValidateAliases(aliases []Alias) error {
	seen := make(map[string]bool, len(aliases))
	for _, a := range aliases {
		if err := a.Validate(); err != nil {
			return err
		}
		if seen[a.Name] {
			return fmt.Errorf("alias %q is listed twice", a.Name)
		}
		seen[a.Name] = true
	}
	return nil
}

// toolForRole maps an alias role to its research-mode tool.
var toolForRole = map[string]string{
	RoleSearch: ToolSearch,
	RoleReason: ToolReason,
	RoleAnswer: ToolAnswer,
}

// Offered lists, per research tool name, the aliases allowed this turn.
type Offered map[string][]string

// OfferedFrom groups aliases by the research tool they serve; expert aliases
// are not research tools and are left out.
func OfferedFrom(aliases []Alias) Offered {
	offered := Offered{}
	for _, a := range aliases {
		if tool, ok := toolForRole[a.Role]; ok {
			offered[tool] = append(offered[tool], a.Name)
		}
	}
	return offered
}

// allows reports whether alias is offered for tool.
func (o Offered) allows(tool, alias string) bool {
	return slices.Contains(o[tool], alias)
}

// aliasesWithRole keeps the aliases of one role, in order.
func aliasesWithRole(aliases []Alias, role string) []Alias {
	var out []Alias
	for _, a := range aliases {
		if a.Role == role {
			out = append(out, a)
		}
	}
	return out
}

// FindAlias returns the alias with the given name.
func FindAlias(aliases []Alias, name string) (Alias, bool) {
	for _, a := range aliases {
		if a.Name == name {
			return a, true
		}
	}
	return Alias{}, false
}

// modelPrice is a list price in USD per 1M tokens.
type modelPrice struct{ in, out float64 }

// knownPrices holds the prices of the ToolOrchestra reference code, keyed by
// normalised model id (see normalizeModelID). All are per 1M tokens: the
// reference divides some input prices by 10,000,000, a bug not copied here.
// These are fixtures for the paper's setting, not billing data.
var knownPrices = map[string]modelPrice{
	"gpt-5":                             {1.25, 10},
	"gpt-5-mini":                        {0.25, 2},
	"o3-mini":                           {1.1, 4.4},
	"qwen3-32b":                         {0.8, 0.8},
	"qwen2.5-coder-32b":                 {0.8, 0.8},
	"qwen2.5-math-72b":                  {0.9, 0.9},
	"qwen2.5-math-7b":                   {0.2, 0.2},
	"llama-3.3-70b":                     {0.9, 0.9},
	"qwen3-8b":                          {0.2, 0.2}, // the orchestrator's own tokens
	"orchestrator-8b":                   {0.2, 0.2},
	"nemotron-orchestrator-8b":          {0.2, 0.2},
	"claude-opus-4":                     {15, 75},
	"claude-opus-4-1":                   {15, 75},
	"claude-opus-4.1":                   {15, 75},
	"claude-4-opus":                     {15, 75},
	"claude-4.1-opus":                   {15, 75},
	"claude-sonnet-4":                   {3, 15},
	"claude-sonnet-4-5":                 {3, 15},
	"claude-sonnet-4.5":                 {3, 15},
	"claude-4-sonnet":                   {3, 15},
	"claude-4.1-sonnet":                 {3, 15},
	"qwen3-235b-a22b":                   {0.9, 0.9},
	"llama-3.1-nemotron-ultra-253b-v1":  {0.9, 0.9},
	"llama-3.3-nemotron-super-49b-v1":   {0.9, 0.9},
	"llama-3.3-nemotron-super-49b-v1.5": {0.9, 0.9},
}

// KnownPrice returns the reference price of a well-known model in USD per 1M
// input and output tokens. Matching ignores case, a provider prefix
// ("openai/gpt-5", "Qwen/Qwen3-32B"), an Ollama tag separator ("qwen3:32b"),
// a release date ("gpt-5-2025-08-07") and common serving suffixes
// ("-Instruct", "-Turbo", "-FP8", "-Q4_K_M", "-2507").
func KnownPrice(modelID string) (in, out float64, ok bool) {
	p, ok := knownPrices[normalizeModelID(modelID)]
	return p.in, p.out, ok
}

var (
	dateSuffix    = regexp.MustCompile(`-(\d{4}-\d{2}-\d{2}|\d{8}|\d{4})$`)
	servingSuffix = regexp.MustCompile(`-(instruct|thinking|chat|turbo|latest|tput|fp8|fp16|bf16|f16|awq|gptq|gguf|int4|int8|i?q\d\w*)$`)
)

// normalizeModelID reduces a model id to the key form of knownPrices.
func normalizeModelID(id string) string {
	s := strings.ToLower(strings.TrimSpace(id))
	if i := strings.LastIndex(s, "/"); i >= 0 {
		s = s[i+1:]
	}
	s = strings.ReplaceAll(s, ":", "-")
	for _, prefix := range []string{"meta-", "nvidia-", "nvidia_"} {
		s = strings.TrimPrefix(s, prefix)
	}
	for {
		next := servingSuffix.ReplaceAllString(dateSuffix.ReplaceAllString(s, ""), "")
		if next == s {
			return s
		}
		s = next
	}
}
