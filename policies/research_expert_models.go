package policies

import (
	"strings"

	"github.com/toolhub/toolhub/hub"
)

// expertFamily is one row of the reference's expert table (protocol §3.7,
// "Expert context budgets"): how eval_hle.py cuts the context of a model
// family and how it samples from it.
type expertFamily struct {
	name        string
	window      int // the model's own context window, which the row's budgets fit
	docChars    int // characters of each document; 0 = full text
	code, total int // tokens: code results, then everything
	temperature float64
	maxTokens   int
	// completionTokens sends max_completion_tokens instead of max_tokens:
	// OpenAI's reasoning models (GPT-5, o-series) refuse max_tokens.
	completionTokens bool
}

// The reference's expert families. The doc is silent on OpenAI's o-series;
// they accept only temperature 1 and max_completion_tokens, like GPT-5,
// whose row they take.
var (
	familyGPT5  = expertFamily{name: "gpt-5", window: 400000, code: 40000, total: 120000, temperature: 1, maxTokens: 40000, completionTokens: true}
	familyQwen3 = expertFamily{name: "qwen3", window: 32768, docChars: 1000, code: 12000, total: 24000, temperature: 0.2, maxTokens: 8000}
	familyCoder = expertFamily{name: "qwen2.5-coder", window: 32768, docChars: 1000, code: 16000, total: 24000, temperature: 0.2, maxTokens: 8000}
	familyLlama = expertFamily{name: "llama-3.3", window: 131072, code: 10000, total: 80000, temperature: 0.2, maxTokens: 40000}
	familyMath  = expertFamily{name: "qwen2.5-math", window: 4096, docChars: 1000, code: 1000, total: 2000, temperature: 0.2, maxTokens: 8000}
	familyMath7 = expertFamily{name: "qwen2.5-math-7b", window: 4096, docChars: 1000, code: 1000, total: 2000, temperature: 0.2, maxTokens: 2000}
)

// familyOf finds the reference family (protocol §3.7) of a model id,
// matched as KnownPrice matches: case, provider prefix and serving suffixes
// ignored.
func familyOf(modelID string) (expertFamily, bool) {
	id := normalizeModelID(modelID)
	switch {
	case strings.HasPrefix(id, "gpt-5"), isOSeries(id):
		return familyGPT5, true
	case strings.HasPrefix(id, "qwen2.5-coder"):
		return familyCoder, true
	case strings.HasPrefix(id, "qwen2.5-math-7b"):
		return familyMath7, true
	case strings.HasPrefix(id, "qwen2.5-math"):
		return familyMath, true
	case strings.HasPrefix(id, "llama-3.3"):
		return familyLlama, true
	case strings.HasPrefix(id, "qwen3"):
		return familyQwen3, true
	}
	return expertFamily{}, false
}

// isOSeries matches OpenAI's o1, o3, o4-mini and the like.
func isOSeries(id string) bool {
	return len(id) >= 2 && id[0] == 'o' && id[1] >= '1' && id[1] <= '9'
}

// Defaults for a model the table does not know (hub rule).
const (
	// remoteDefaultContext: hosted models today have windows of 128k tokens
	// or more, so an unknown remote expert without a configured
	// contextLength is budgeted as 128k and reads documents in full, as the
	// table's remote strong experts (GPT-5, Llama-3.3-70B) do.
	remoteDefaultContext = 131072
	// defaultExpertTemperature: every expert of the table but GPT-5
	// samples at 0.2.
	defaultExpertTemperature = 0.2
)

// ExpertSettings are how one research expert is prompted and sampled.
type ExpertSettings struct {
	Budget           ExpertBudget
	Temperature      float64
	CompletionTokens bool // send Budget.MaxTokens as max_completion_tokens
	Llama            bool // tagged answers take the Llama suffix
}

// ExpertSettingsFor gives an expert's budgets and sampling (protocol §3.7):
//
//   - a model of the reference table without a configured context length
//     gets its row as is (GPT-5: full documents, 40,000 / 120,000 tokens,
//     temperature 1, up to 40,000 completion tokens; Qwen3-32B: 1,000
//     characters per document, 12,000 / 24,000, 0.2, 8,000; and so on);
//   - with a configured window, the budgets follow the window in the row's
//     own proportions of the model's window (budgetFor, hub rule) while the
//     row's document cut, temperature and completion cap stay;
//   - any other model follows its window (unknown: 32,768 when local,
//     131,072 when remote) at temperature 0.2.
//
// v is the variant whose rows are used (Variant.family): the FRAMES rows
// show every expert the documents in full.
func ExpertSettingsFor(modelID string, a Alias, v Variant) ExpertSettings {
	f, known := familyOf(modelID)
	if !known {
		window := a.ContextLength
		if window <= 0 && a.Locality == hub.LocalityRemote {
			window = remoteDefaultContext
		}
		return ExpertSettings{Budget: expertBudgetFor(a.Role, window, v), Temperature: defaultExpertTemperature}
	}
	s := ExpertSettings{Temperature: f.temperature, CompletionTokens: f.completionTokens, Llama: f == familyLlama}
	f = v.family(f)
	if a.ContextLength <= 0 {
		s.Budget = ExpertBudget{DocChars: f.docChars, Code: f.code, Total: f.total, MaxTokens: f.maxTokens}
		return s
	}
	s.Budget = f.budgetFor(a.ContextLength, v.settings().maxExpertTotal)
	return s
}

// budgetFor scales the family's row to a configured window: its code and
// total budgets in the row's own proportions of the model's window (so the
// model's own window gives the row itself), the total at most maxTotal
// tokens (the script's largest: 120,000 in HLE) with the code cut in step,
// and the row's completion cap within what the window leaves. Documents
// are cut as the row cuts them.
func (f expertFamily) budgetFor(window, maxTotal int) ExpertBudget {
	total := min(f.total*window/f.window, maxTotal)
	code := f.code * total / f.total
	return ExpertBudget{
		DocChars:  f.docChars,
		Code:      code,
		Total:     total,
		MaxTokens: max(min(f.maxTokens, window-total), 0),
	}
}

// forOpenAIReasoning adapts an expert request to OpenAI's reasoning models
// (GPT-5, o-series), which refuse max_tokens and any temperature but 1: the
// cap moves to max_completion_tokens and the temperature becomes 1, what
// the reference sends GPT-5 (protocol §3.7). Other models' requests are
// returned unchanged.
func forOpenAIReasoning(req ChatRequest) ChatRequest {
	f, ok := familyOf(req.Model)
	if !ok || !f.completionTokens {
		return req
	}
	if req.MaxTokens > 0 {
		req.MaxCompletionTokens, req.MaxTokens = req.MaxTokens, 0
	}
	req.Temperature = float64Ptr(f.temperature)
	return req
}

// DefaultAnswerStyle is how a model is asked for an answer when its config
// names no answerStyle: tagged (<answer>…</answer>, with its suffix) for the
// families the reference asks that way (GPT-5 and the o-series,
// Llama-3.3-70B), boxed for every other model.
func DefaultAnswerStyle(modelID string) string {
	if f, ok := familyOf(modelID); ok && (f == familyGPT5 || f == familyLlama) {
		return StyleTagged
	}
	return StyleBoxed
}
