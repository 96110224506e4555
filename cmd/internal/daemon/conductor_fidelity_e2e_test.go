package daemon_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/toolhub/toolhub/conductor"
	"github.com/toolhub/toolhub/internal/scriptedmodel"
)

// Through a real `toolhub serve` over a real index, the answer expert
// reads the passage the search found in full, as its own document (the
// harness's Doc i), not the listing of snippets a person reads.
func TestResearchAnswerReadsThePassageInFullThroughServe(t *testing.T) {
	orch := scriptedmodel.New(
		scriptedmodel.ToolCallReply("", "search", `{"model": "search-1"}`),
		scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`))
	defer orch.Close()
	expert := scriptedmodel.New(
		scriptedmodel.RawTextReply("<query>travel desk booked</query>"),
		scriptedmodel.RawTextReply(`\boxed{42 euros a day}`))
	defer expert.Close()
	e := newConductorEnvDocs(t, orch, expert, map[string]string{"policy.md": travelNote})
	c, _ := e.client(t)
	_, tr, err := call(t.Context(), t, c, "research", map[string]any{"question": "How much is the per diem?"})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Status != string(conductor.RunAnswered) || tr.Answer != "42 euros a day" {
		t.Fatalf("trace %+v", tr)
	}
	reqs := expert.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the expert got %d requests, want the query and the answer", len(reqs))
	}
	prompt := userPrompt(t, reqs[1])
	for _, want := range []string{
		"Doc 1:",
		strings.Repeat("Trains are preferred for trips under four hours; flights need a manager's approval. ", 4),
		"The per diem for business travel is 42 euros a day, paid monthly.",
	} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the answer prompt lacks %q:\n%s", want, prompt)
		}
	}
	for _, listing := range []string{"**", "[bytes", "passages for", "score "} {
		if strings.Contains(prompt, listing) {
			t.Errorf("the answer prompt carries the search listing (%q):\n%s", listing, prompt)
		}
	}
}

// A tool-mode episode whose model first calls a tool that does not exist
// gets the call answered with an error in its history (the tau² harness's
// role "tool" message) and recovers on the next turn, instead of seeing the
// same request again until the turn cap.
func TestToolModeRecoversFromAnUnknownToolThroughServe(t *testing.T) {
	orch := scriptedmodel.New(
		scriptedmodel.ToolCallReply("", "no_such_tool", `{"x": 1}`),
		scriptedmodel.RawTextReply("Recovered without that tool."))
	defer orch.Close()
	expert := scriptedmodel.New()
	defer expert.Close()
	e := newConductorEnv(t, orch, expert)
	c, _ := e.client(t)
	_, tr, err := call(t.Context(), t, c, "orchestrate", map[string]any{"task": "Use a tool that is not there."})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Status != string(conductor.RunAnswered) || tr.Totals.Turns != 2 || tr.Answer != "Recovered without that tool." {
		t.Fatalf("status %s after %d turns, answer %q; want answered in 2", tr.Status, tr.Totals.Turns, tr.Answer)
	}
	reqs := orch.Requests()
	if len(reqs) != 2 || string(reqs[0]) == string(reqs[1]) {
		t.Fatalf("%d orchestrator requests, the second the same as the first: %v", len(reqs), len(reqs) == 2)
	}
	var second struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    string `json:"content"`
			ToolCallID string `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name string `json:"name"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(reqs[1], &second); err != nil {
		t.Fatal(err)
	}
	n := len(second.Messages)
	if n < 2 {
		t.Fatalf("second request has %d messages", n)
	}
	call, answer := second.Messages[n-2], second.Messages[n-1]
	if call.Role != "assistant" || len(call.ToolCalls) != 1 || call.ToolCalls[0].Function.Name != "no_such_tool" {
		t.Fatalf("the rejected call is not in the history: %+v", call)
	}
	if answer.Role != "tool" || answer.ToolCallID != call.ToolCalls[0].ID || !strings.Contains(answer.Content, "error") {
		t.Fatalf("the rejected call is not answered with an error: %+v", answer)
	}
}

// userPrompt is the last user message of a chat request body.
func userPrompt(t *testing.T, body []byte) string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == "user" {
			return req.Messages[i].Content
		}
	}
	t.Fatal("no user message")
	return ""
}

// Through a real `toolhub serve`, the prompt cuts count tokens with the
// orchestrator server's own /tokenize (protocol §1: the reference cuts with
// the orchestrator's tokenizer), in vLLM's request shape: the question is
// counted there before the orchestrator's first request.
func TestResearchCountsTokensWithTheOrchestratorsTokenizerThroughServe(t *testing.T) {
	orch := scriptedmodel.New(scriptedmodel.ToolCallReply("", "answer", `{"model": "answer-1"}`))
	defer orch.Close()
	expert := scriptedmodel.New(scriptedmodel.RawTextReply(`\boxed{42}`))
	defer expert.Close()
	e := newConductorEnv(t, orch, expert)
	c, _ := e.client(t)
	const question = "What is six times seven?"
	if _, tr, err := call(t.Context(), t, c, "research", map[string]any{"question": question}); err != nil || tr.Answer != "42" {
		t.Fatalf("research: %v, trace %+v", err, tr)
	}
	var counted []string
	for _, body := range orch.TokenizeRequests() {
		var req struct {
			Model            string `json:"model"`
			Prompt           string `json:"prompt"`
			AddSpecialTokens *bool  `json:"add_special_tokens"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Fatalf("tokenize request %s: %v", body, err)
		}
		if req.Model == "" || req.AddSpecialTokens == nil || *req.AddSpecialTokens {
			t.Fatalf("tokenize request %s: want the model and add_special_tokens false", body)
		}
		counted = append(counted, req.Prompt)
	}
	if !slices.Contains(counted, question) {
		t.Fatalf("the orchestrator's server counted %q, not the question", counted)
	}
}
