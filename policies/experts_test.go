package policies

import (
	"strings"
	"testing"

	"github.com/toolhub/toolhub/hub"
)

func TestExtractQuery(t *testing.T) {
	long := strings.Repeat("penetrance ", 50) // 550 characters
	tests := []struct {
		name   string
		reply  string
		want   string
		wantOK bool
	}{
		{"tagged", "<query>BRCA1 variant penetrance</query>", "BRCA1 variant penetrance", true},
		{"last tag wins", "<query>first</query> then <query>  second query </query>", "second query", true},
		{"after think", "<think>\nmaybe <query>draft</query>\n</think>\n<query>final query</query>", "final query", true},
		{"unclosed tag", "<query>unclosed query text", "unclosed query text", true},
		{"untagged whole reply", "BRCA1 variant penetrance in carriers", "BRCA1 variant penetrance in carriers", true},
		{"untagged after think", "<think>plan</think>\nsmallest prime p", "smallest prime p", true},
		{"untagged cut to 390", long, strings.TrimSpace(long[:390]), true},
		{"tagged cut to 390", "<query>" + long + "</query>", strings.TrimSpace(long[:390]), true},
		{"under 5 characters", "<query>abc</query>", "", false},
		{"blank padding does not count", "<query>  ab  </query>", "", false},
		{"exactly 5", "<query>abcde</query>", "abcde", true},
		{"empty reply", "", "", false},
		{"think only, cut", "<think>still thinking about", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ExtractQuery(tt.reply)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("ExtractQuery = %q, %v; want %q, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestExtractPython(t *testing.T) {
	tests := []struct {
		name   string
		reply  string
		want   string
		wantOK bool
	}{
		{"fenced", "```python\nprint(2**10)\n```", "\nprint(2**10)\n", true},
		{"last fence wins", "```python\nprint(1)\n```\nbetter:\n```python\nprint(2)\n```", "\nprint(2)\n", true},
		{"text around", "Here is code:\n```python\nx = 3\nprint(x)\n```\nIt prints 3.", "\nx = 3\nprint(x)\n", true},
		{"truncated fence", "```python\nprint(1)", "\nprint(1)", true},
		{"unfenced reply runs nothing", "print(2**10)", "", false},
		{"other language fence", "```bash\necho hi\n```", "", false},
		{"blank fence", "```python\n  \n```", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ExtractPython(tt.reply)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("ExtractPython = %q, %v; want %q, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestExtractBoxed(t *testing.T) {
	tests := []struct {
		name   string
		reply  string
		want   string
		wantOK bool
	}{
		{"plain", `… so \boxed{1024}.`, "1024", true},
		{"nested braces", `\boxed{\frac{1}{2}}`, `\frac{1}{2}`, true},
		{"text after the box", `\boxed{\frac{1}{2}} and {more} text}`, `\frac{1}{2}`, true},
		{"last box wins", `first \boxed{1}, final \boxed{2}`, "2", true},
		{"escaped braces", `\boxed{\{1, 2\}}`, `\{1, 2\}`, true},
		{"double backslash before brace", `\boxed{a \\}`, `a \\`, true},
		{"trimmed", `\boxed{ 42 }`, "42", true},
		{"unbalanced falls back to the last brace", `\boxed{\frac{1}{2} is it}`, `\frac{1}{2} is it`, true},
		{"cut reply with no closing brace", `\boxed{\frac{1`, "", false},
		{"no box", "The answer is 42.", "", false},
		{"empty box", `\boxed{}`, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ExtractBoxed(tt.reply)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("ExtractBoxed = %q, %v; want %q, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestExtractTagged(t *testing.T) {
	tests := []struct {
		name   string
		reply  string
		want   string
		wantOK bool
	}{
		{"tagged", "<answer>\n1024\n</answer>", "1024", true},
		{"with think", "<think>\n2^10\n</think>\n<answer>\n1024\n</answer>", "1024", true},
		{"last tag wins", "<answer>1</answer><answer>2</answer>", "2", true},
		{"unclosed", "<answer> 7", "7", true},
		{"neither tag nor box", "I think it is 1024.", "", false},
		{"empty", "<answer> </answer>", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ExtractTagged(tt.reply)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("ExtractTagged = %q, %v; want %q, %v", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestExtractAnswerByStyle(t *testing.T) {
	reply := "<answer>x</answer> \\boxed{y}"
	if got, _ := ExtractAnswer(StyleBoxed, reply); got != "y" {
		t.Errorf("boxed style read %q", got)
	}
	if got, _ := ExtractAnswer(StyleTagged, reply); got != "x" {
		t.Errorf("tagged style read %q", got)
	}
	if got, ok := ExtractAnswer(StyleTagged, `so \boxed{42}`); got != "42" || !ok {
		t.Errorf("tagged style without tags read %q, %v; want the boxed answer", got, ok)
	}
	if got, ok := ExtractAnswer(StyleBoxed, "<answer>Paris</answer>"); got != "Paris" || !ok {
		t.Errorf("boxed style without a box read %q, %v; want the tagged answer", got, ok)
	}
	if got, ok := ExtractAnswer(StyleBoxed, "no answer here"); got != "" || ok {
		t.Errorf("a reply without an answer read %q, %v", got, ok)
	}
}

func TestExpertBudgetFor(t *testing.T) {
	tests := []struct {
		name    string
		role    string
		context int
		want    ExpertBudget
	}{
		{"Qwen3-32B search", RoleSearch, 32768, ExpertBudget{DocChars: 1000, Code: 12288, Total: 24576, MaxTokens: 8192}},
		{"Coder-32B reason", RoleReason, 32768, ExpertBudget{DocChars: 1000, Code: 16384, Total: 24576, MaxTokens: 8192}},
		{"unknown window reads as 32k", RoleAnswer, 0, ExpertBudget{DocChars: 1000, Code: 12288, Total: 24576, MaxTokens: 8192}},
		{"Math 4k answer", RoleAnswer, 4096, ExpertBudget{DocChars: 1000, Code: 1536, Total: 3072, MaxTokens: 1024}},
		{"Llama 128k answer shows full documents", RoleAnswer, 131072, ExpertBudget{DocChars: 0, Code: 49152, Total: 98304, MaxTokens: 32768}},
		{"GPT-5 400k capped", RoleSearch, 400000, ExpertBudget{DocChars: 0, Code: 60000, Total: 120000, MaxTokens: 40000}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExpertBudgetFor(tt.role, tt.context); got != tt.want {
				t.Errorf("ExpertBudgetFor = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func expertFixture() ExpertInput {
	st := ResearchState{Docs: []string{"alpha " + strings.Repeat("x", 1200)}, Code: []CodeRun{{"print(2**10)", "1024\n"}}}
	return ExpertInput{Problem: "What is 2^10?", State: st, Budget: ExpertBudgetFor(RoleSearch, 32768)}
}

// expertContextText is the fixture's context for a 32k-window expert: the
// document cut to 1,000 characters without " ...", then the code.
var expertContextText = "Documents:\nDoc 1: alpha " + strings.Repeat("x", 994) +
	"\n\n```python\nprint(2**10)\n```\n\n```output\n1024\n\n```"

func TestExpertPrompts(t *testing.T) {
	in := expertFixture()
	search := SearchPrompt(in)
	wantSearch := expertContextText + "\n\nQuestion: What is 2^10?\nInstead of directly answering the question, please write a query to search for a piece of relevant and missing information. The query should be a few key words about the information to search or a short sentence. Wrap the query within <query> and </query>."
	assertSingleUser(t, "search", search, wantSearch)

	reason := ReasonPrompt(in)
	wantReason := expertContextText + "\n\nQuestion: What is 2^10?\nInstead of directly answering the question, please write additional python code that will give intermidiate results after execution. Wrap the code within ```python and ```. The code should be self-contained with all the import and initialization."
	assertSingleUser(t, "reason", reason, wantReason)

	tagged := AnswerPrompt(in, StyleTagged)
	wantTagged := expertContextText + "\n\nProblem:\nWhat is 2^10?\n\nTake a deep breath and think hard with high reasoning, wrap the thoughts within <think> and </think>, and wrap only the exact answer without any explanation within <answer> and </answer>.Output using the following format:\n<think>\n...\n</think>\n<answer>\n...\n</answer>"
	assertSingleUser(t, "tagged answer", tagged, wantTagged)

	boxed := AnswerPrompt(in, StyleBoxed)
	if len(boxed) != 2 || boxed[0].Role != RoleSystem || boxed[0].Content != `Please reason step by step, and put your final answer within \boxed{}.` {
		t.Fatalf("boxed answer system message = %+v", boxed)
	}
	assertSingleUser(t, "boxed answer", boxed[1:], expertContextText+"\n\nProblem:\nWhat is 2^10?")
}

func TestExpertPromptWithoutEvidence(t *testing.T) {
	got := SearchPrompt(ExpertInput{Problem: "Q", Budget: ExpertBudgetFor(RoleSearch, 0)})
	if !strings.HasPrefix(got[0].Content, "\n\nQuestion: Q\nInstead") {
		t.Errorf("empty context prompt = %q", got[0].Content)
	}
}

func TestExpertContextFullDocumentsAndCut(t *testing.T) {
	in := expertFixture()
	in.Budget = ExpertBudgetFor(RoleAnswer, 131072)
	if got := AnswerPrompt(in, StyleBoxed)[1].Content; !strings.Contains(got, strings.Repeat("x", 1200)+"\n\n```python") {
		t.Errorf("a long-window expert did not get the full document: %q", got[:60])
	}
	in.Budget = ExpertBudget{DocChars: 1000, Code: 100000, Total: 13 + 30} // 30 bytes after the problem
	in.Counter = scaledCounter{perByte: 1}
	got := AnswerPrompt(in, StyleBoxed)[1].Content
	// The total cut keeps the tail and, as in the reference, repairs no fence.
	want := "Documents:\n" + "10)\n```\n\n```output\n1024\n\n```" + "\n\nProblem:\nWhat is 2^10?"
	if got != want {
		t.Errorf("cut expert prompt = %q, want %q", got, want)
	}
}

func assertSingleUser(t *testing.T, name string, msgs []Message, want string) {
	t.Helper()
	if len(msgs) != 1 || msgs[0].Role != RoleUser {
		t.Fatalf("%s: messages = %+v", name, msgs)
	}
	if msgs[0].Content != want {
		t.Errorf("%s prompt =\n%q\nwant\n%q", name, msgs[0].Content, want)
	}
}

// expertSettingsCase is one model's expected ExpertSettingsFor.
type expertSettingsCase struct {
	name    string
	modelID string
	alias   Alias
	want    ExpertSettings
}

func checkExpertSettings(t *testing.T, v Variant, cases []expertSettingsCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ExpertSettingsFor(tc.modelID, tc.alias, v); got != tc.want {
				t.Errorf("ExpertSettingsFor = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestExpertSettingsFor(t *testing.T) {
	local, remote := hub.LocalityLocal, hub.LocalityRemote
	cases := []expertSettingsCase{
		{"GPT-5 row, full documents", "openai/gpt-5-2025-08-07", Alias{Role: RoleAnswer, Locality: remote},
			ExpertSettings{Budget: ExpertBudget{Code: 40000, Total: 120000, MaxTokens: 40000}, Temperature: 1, CompletionTokens: true}},
		{"GPT-5-mini takes the GPT-5 row", "gpt-5-mini", Alias{Role: RoleSearch, Locality: remote},
			ExpertSettings{Budget: ExpertBudget{Code: 40000, Total: 120000, MaxTokens: 40000}, Temperature: 1, CompletionTokens: true}},
		{"o-series as GPT-5", "o3-mini", Alias{Role: RoleReason, Locality: remote},
			ExpertSettings{Budget: ExpertBudget{Code: 40000, Total: 120000, MaxTokens: 40000}, Temperature: 1, CompletionTokens: true}},
		{"Qwen3-32B row", "Qwen/Qwen3-32B", Alias{Role: RoleSearch, Locality: local},
			ExpertSettings{Budget: ExpertBudget{DocChars: 1000, Code: 12000, Total: 24000, MaxTokens: 8000}, Temperature: 0.2}},
		{"Ollama tag of Qwen3", "qwen3:32b", Alias{Role: RoleAnswer, Locality: local},
			ExpertSettings{Budget: ExpertBudget{DocChars: 1000, Code: 12000, Total: 24000, MaxTokens: 8000}, Temperature: 0.2}},
		{"Coder-32B row", "Qwen/Qwen2.5-Coder-32B-Instruct", Alias{Role: RoleReason, Locality: local},
			ExpertSettings{Budget: ExpertBudget{DocChars: 1000, Code: 16000, Total: 24000, MaxTokens: 8000}, Temperature: 0.2}},
		{"Llama-3.3-70B row", "meta-llama/Llama-3.3-70B-Instruct", Alias{Role: RoleAnswer, Locality: remote},
			ExpertSettings{Budget: ExpertBudget{Code: 10000, Total: 80000, MaxTokens: 40000}, Temperature: 0.2, Llama: true}},
		{"Math-72B row", "Qwen/Qwen2.5-Math-72B-Instruct", Alias{Role: RoleAnswer, Locality: remote},
			ExpertSettings{Budget: ExpertBudget{DocChars: 1000, Code: 1000, Total: 2000, MaxTokens: 8000}, Temperature: 0.2}},
		{"Math-7B row", "Qwen/Qwen2.5-Math-7B-Instruct", Alias{Role: RoleAnswer, Locality: local},
			ExpertSettings{Budget: ExpertBudget{DocChars: 1000, Code: 1000, Total: 2000, MaxTokens: 2000}, Temperature: 0.2}},
		{"known model, configured window: the row's proportions, cut and cap", "Qwen/Qwen3-32B", Alias{Role: RoleAnswer, Locality: local, ContextLength: 131072},
			ExpertSettings{Budget: ExpertBudget{DocChars: 1000, Code: 48000, Total: 96000, MaxTokens: 8000}, Temperature: 0.2}},
		{"Llama-3.3-70B at its own window is its row", "meta-llama/Llama-3.3-70B-Instruct", Alias{Role: RoleAnswer, Locality: remote, ContextLength: 131072},
			ExpertSettings{Budget: ExpertBudget{Code: 10000, Total: 80000, MaxTokens: 40000}, Temperature: 0.2, Llama: true}},
		{"GPT-5 at its own window is its row", "gpt-5", Alias{Role: RoleSearch, Locality: remote, ContextLength: 400000},
			ExpertSettings{Budget: ExpertBudget{Code: 40000, Total: 120000, MaxTokens: 40000}, Temperature: 1, CompletionTokens: true}},
		{"a larger window keeps the table's largest total", "gpt-5", Alias{Role: RoleSearch, Locality: remote, ContextLength: 1000000},
			ExpertSettings{Budget: ExpertBudget{Code: 40000, Total: 120000, MaxTokens: 40000}, Temperature: 1, CompletionTokens: true}},
		{"a smaller window scales the row and leaves room to answer", "meta-llama/Llama-3.3-70B-Instruct", Alias{Role: RoleAnswer, Locality: local, ContextLength: 32768},
			ExpertSettings{Budget: ExpertBudget{Code: 2500, Total: 20000, MaxTokens: 12768}, Temperature: 0.2, Llama: true}},
		{"Math-72B at its window", "Qwen/Qwen2.5-Math-72B-Instruct", Alias{Role: RoleAnswer, Locality: local, ContextLength: 4096},
			ExpertSettings{Budget: ExpertBudget{DocChars: 1000, Code: 1000, Total: 2000, MaxTokens: 2096}, Temperature: 0.2}},
		{"unknown local model reads as 32k", "acme-7b", Alias{Role: RoleAnswer, Locality: local},
			ExpertSettings{Budget: ExpertBudgetFor(RoleAnswer, 32768), Temperature: 0.2}},
		{"unknown remote model reads as 128k: full documents", "acme-large", Alias{Role: RoleAnswer, Locality: remote},
			ExpertSettings{Budget: ExpertBudget{Code: 49152, Total: 98304, MaxTokens: 32768}, Temperature: 0.2}},
		{"unknown model with its window", "acme-large", Alias{Role: RoleReason, Locality: remote, ContextLength: 8192},
			ExpertSettings{Budget: ExpertBudgetFor(RoleReason, 8192), Temperature: 0.2}},
	}
	checkExpertSettings(t, VariantHLE, cases)
}

func TestAnswerPromptLlamaSuffix(t *testing.T) {
	in := expertFixture()
	in.Llama = true
	got := AnswerPrompt(in, StyleTagged)
	want := expertContextText + "\n\nProblem:\nWhat is 2^10?\nWrap the thinking process and explanation between <think> and </think> and wrap only the exact answer without any explanation within <answer> and </answer>."
	assertSingleUser(t, "llama answer", got, want)
}

func TestDefaultAnswerStyle(t *testing.T) {
	cases := []struct{ model, want string }{
		{"gpt-5", StyleTagged},
		{"openai/gpt-5-mini", StyleTagged},
		{"o3-mini", StyleTagged},
		{"meta-llama/Llama-3.3-70B-Instruct", StyleTagged},
		{"Qwen/Qwen3-32B", StyleBoxed},
		{"Qwen/Qwen2.5-Math-72B-Instruct", StyleBoxed},
		{"acme-7b", StyleBoxed},
		{"", StyleBoxed},
	}
	for _, tc := range cases {
		if got := DefaultAnswerStyle(tc.model); got != tc.want {
			t.Errorf("DefaultAnswerStyle(%q) = %q, want %q", tc.model, got, tc.want)
		}
	}
}
