package policies

import (
	"strings"
)

// Expert prompt texts, verbatim from the reference (eval_hle.py::call_tool).
const (
	searchInstruction = "Instead of directly answering the question, please write a query to search for a piece of relevant and missing information. The query should be a few key words about the information to search or a short sentence. Wrap the query within <query> and </query>."
	reasonInstruction = "Instead of directly answering the question, please write additional python code that will give intermidiate results after execution. Wrap the code within ```python and ```. The code should be self-contained with all the import and initialization."
	boxedSystem       = "Please reason step by step, and put your final answer within \\boxed{}."
	// llamaSuffix is the reference's tagged suffix for Llama-3.3 experts.
	llamaSuffix  = "\nWrap the thinking process and explanation between <think> and </think> and wrap only the exact answer without any explanation within <answer> and </answer>."
	taggedSuffix = "\n\nTake a deep breath and think hard with high reasoning, wrap the thoughts within <think> and </think>, and wrap only the exact answer without any explanation within <answer> and </answer>.Output using the following format:\n<think>\n...\n</think>\n<answer>\n...\n</answer>"
)

// ExpertInput is what a research expert's prompt is built from.
type ExpertInput struct {
	Problem string        // the task, without preference sentences
	State   ResearchState // the episode's evidence
	Budget  ExpertBudget  // from ExpertBudgetFor
	Counter TokenCounter  // nil: the default estimate
	Llama   bool          // a Llama-3.3 expert: tagged answers take its suffix
	Variant Variant       // the script whose texts are used ("" is hle)
}

func (in ExpertInput) context() string {
	c := in.Counter
	if c == nil {
		c = DefaultCounter()
	}
	// The reference strips the assembled context before use.
	return strings.TrimSpace(expertContext(in.Problem, in.State, in.Budget, c))
}

// SearchPrompt is the query writer's single user message:
// "{context}\n\nQuestion: {problem}\nInstead of directly answering ...",
// the instruction asking for a Wikipedia query in the FRAMES variant.
func SearchPrompt(in ExpertInput) []Message {
	instruction := in.Variant.settings().searchInstruction
	return []Message{{Role: RoleUser, Content: in.context() + "\n\nQuestion: " + in.Problem + "\n" + instruction}}
}

// ReasonPrompt is the code writer's single user message:
// "{context}\n\nQuestion: {problem}\nInstead of directly answering ...".
func ReasonPrompt(in ExpertInput) []Message {
	return []Message{{Role: RoleUser, Content: in.context() + "\n\nQuestion: " + in.Problem + "\n" + reasonInstruction}}
}

// AnswerPrompt is the answer expert's request (protocol §3.7):
// "{context}\n\nProblem:\n{problem}" ("{context}\n\n{problem}" in the
// FRAMES variant, as eval_frames.py writes it), under a system message asking for
// \boxed{} (StyleBoxed) or followed by the <answer> suffix (StyleTagged,
// also for any unknown style): the GPT-5 suffix, or the Llama one when
// in.Llama is set.
func AnswerPrompt(in ExpertInput, style string) []Message {
	user := in.context() + in.Variant.settings().answerLead + in.Problem
	if style == StyleBoxed {
		return []Message{
			{Role: RoleSystem, Content: boxedSystem},
			{Role: RoleUser, Content: user},
		}
	}
	if in.Llama {
		return []Message{{Role: RoleUser, Content: user + llamaSuffix}}
	}
	return []Message{{Role: RoleUser, Content: user + taggedSuffix}}
}

// ExtractAnswer applies the extractor of an answer style to an expert reply.
// A reply that holds no answer in its style but one in the other style
// (a model configured as tagged that boxed its answer, say) gives that one
// (hub rule: the reference would return an empty answer, which is never
// the better one).
func ExtractAnswer(style, reply string) (string, bool) {
	first, second := ExtractTagged, ExtractBoxed
	if style == StyleBoxed {
		first, second = second, first
	}
	if a, ok := first(reply); ok {
		return a, true
	}
	return second(reply)
}

// ExpertBudget bounds the context a research expert receives, in tokens.
type ExpertBudget struct {
	DocChars  int // characters of each document shown; 0 = full text
	Code      int // code results, cut first
	Total     int // documents + code, minus the problem's tokens
	MaxTokens int // completion tokens to ask for
}

// Reference points of the expert budget table (protocol §3.7).
const (
	defaultContextLength = 32768  // Qwen3-32B, the table's common local expert
	longContextFrom      = 65536  // windows from here show documents in full (GPT-5, Llama rows)
	maxExpertTotal       = 120000 // GPT-5's total, the largest in the table
	maxExpertCompletion  = 40000  // GPT-5 and Llama completion limits
	shortDocChars        = 1000
)

// ExpertBudgetFor derives an expert's budgets from its endpoint's context
// window in the proportions of the reference table (hub rule):
//   - Total is 3/4 of the window (Qwen3-32B and Coder-32B: 24,000 of 32,768),
//     at most 120,000 (GPT-5);
//   - Code is half of Total for search and answer (Qwen3-32B: 12,000 of
//     24,000) and two thirds for reason (Coder-32B: 16,000 of 24,000);
//   - documents are cut to 1,000 characters each below a 64k window and
//     shown in full above it (the GPT-5 and Llama-3.3-70B rows);
//   - MaxTokens is the rest of the window (8,000 of 32,768 for Qwen3-32B),
//     at most 40,000.
//
// contextLength 0 means unknown and is read as 32,768. These are the HLE
// variant's budgets; expertBudgetFor gives either variant's.
func ExpertBudgetFor(role string, contextLength int) ExpertBudget {
	return expertBudgetFor(role, contextLength, VariantHLE)
}

// expertBudgetFor is ExpertBudgetFor in variant v: the FRAMES variant
// shows documents in full at any window and caps the total at 160,000.
func expertBudgetFor(role string, contextLength int, v Variant) ExpertBudget {
	vs := v.settings()
	if contextLength <= 0 {
		contextLength = defaultContextLength
	}
	total := min(contextLength*3/4, vs.maxExpertTotal)
	code := total / 2
	if role == RoleReason {
		code = total * 2 / 3
	}
	docChars := 0
	if contextLength < longContextFrom && !vs.fullDocs {
		docChars = shortDocChars
	}
	return ExpertBudget{
		DocChars:  docChars,
		Code:      code,
		Total:     total,
		MaxTokens: min(contextLength-total, maxExpertCompletion),
	}
}

// expertContext assembles an expert's {context}: documents as
// "Doc {i}: {text}\n\n" (cut to DocChars), then code results cut to the code
// budget with fence repair, all cut to Total − tokens(problem), under
// "Documents:\n" when any document exists.
func expertContext(problem string, st ResearchState, b ExpertBudget, c TokenCounter) string {
	docs := docsText(st.Docs, b.DocChars, "")
	code := cutWithFenceRepair(c, codeText(st.Code), b.Code)
	ctx := keepTail(c, docs+code, b.Total-c.Count(problem))
	if docs != "" {
		ctx = "Documents:\n" + ctx
	}
	return ctx
}
